# ruff: noqa
import argparse


def build():
    p = argparse.ArgumentParser(prog="stats", description="Summarise numbers.")
    p.add_argument("numbers", nargs="*", type=float)
    p.add_argument("--op", choices=["sum", "mean", "min", "max"], action="append")
    p.add_argument("--precision", type=int, default=2)
    p.add_argument("--exclude", nargs="+", type=float, default=[])
    return p


def run(argv):
    """
    >>> run(["1", "2", "3", "4", "--op", "sum", "--op", "mean"])
    'sum=10.00 mean=2.50'
    >>> run(["5", "1.25", "--op", "min", "--precision", "3"])
    'min=1.250'
    >>> run(["1", "2", "3", "--exclude", "2", "3", "--op", "max"])
    'max=1.00'
    >>> run(["--op", "sum"])
    'no numbers'
    >>> run(["1", "--op", "median"])
    Traceback (most recent call last):
    ...
    SystemExit: 2
    """
    import contextlib, io
    with contextlib.redirect_stderr(io.StringIO()):
        args = build().parse_args(argv)
    nums = [n for n in args.numbers if n not in args.exclude]
    if not nums:
        return "no numbers"
    funcs = {"sum": sum, "mean": lambda xs: sum(xs) / len(xs), "min": min, "max": max}
    return " ".join(f"{op}={funcs[op](nums):.{args.precision}f}" for op in (args.op or ["sum"]))


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
