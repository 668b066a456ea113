# ruff: noqa
import argparse


def safe_parse(argv):
    """Parse without exiting: errors come back as strings (exit_on_error=False).

    >>> safe_parse(["--count", "3", "--mode", "fast"])
    {'count': 3, 'mode': 'fast'}
    >>> safe_parse(["--count", "three"])
    "error: argument --count: invalid int value: 'three'"
    >>> safe_parse(["--mode", "turbo"]).split(" (choose")[0]
    "error: argument --mode: invalid choice: 'turbo'"
    """
    p = argparse.ArgumentParser(prog="job", exit_on_error=False)
    p.add_argument("--count", type=int, default=1)
    p.add_argument("--mode", choices=["slow", "fast"], default="slow")
    try:
        return vars(p.parse_args(argv))
    except argparse.ArgumentError as e:
        return f"error: {e}"


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
