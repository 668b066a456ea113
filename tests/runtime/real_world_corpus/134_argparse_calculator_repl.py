# ruff: noqa
import argparse
import shlex


def make_parser():
    p = argparse.ArgumentParser(prog="calc", exit_on_error=False, add_help=False)
    sub = p.add_subparsers(dest="op", required=True)
    for name in ("add", "mul", "max"):
        s = sub.add_parser(name, exit_on_error=False, add_help=False)
        s.add_argument("values", nargs="+", type=float)
    s = sub.add_parser("pow", exit_on_error=False, add_help=False)
    s.add_argument("base", type=float)
    s.add_argument("exp", type=int)
    return p


def evaluate(line):
    """Parse a command line string with shlex and argparse.

    >>> for line in ["add 1 2 3.5", "mul 2 3 4", "max -1 -5", "pow 2 10", "pow 2 x"]:
    ...     print(f"{line:<12} -> {evaluate(line)}")
    add 1 2 3.5  -> 6.5
    mul 2 3 4    -> 24.0
    max -1 -5    -> -1.0
    pow 2 10     -> 1024.0
    pow 2 x      -> error: argument exp: invalid int value: 'x'
    """
    try:
        ns = make_parser().parse_args(shlex.split(line))
    except argparse.ArgumentError as e:
        return f"error: {e}"
    if ns.op == "add":
        return sum(ns.values)
    if ns.op == "mul":
        r = 1.0
        for v in ns.values:
            r *= v
        return r
    if ns.op == "max":
        return max(ns.values)
    return ns.base ** ns.exp


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
