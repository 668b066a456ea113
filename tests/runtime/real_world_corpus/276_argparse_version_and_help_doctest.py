# ruff: noqa
import argparse
import contextlib
import io


def cli(argv):
    """Capture what the CLI prints for --help and --version.

    >>> code, out = cli(["--version"])
    >>> code, out
    (0, 'mytool 1.4.2\\n')
    >>> code, out = cli(["--help"])
    >>> code, out.splitlines()[0]
    (0, 'usage: mytool [-h] [--version] [--dry-run] target')
    >>> cli(["x", "--dry-run"])
    (None, "Namespace(dry_run=True, target='x')")
    """
    p = argparse.ArgumentParser(prog="mytool")
    p.add_argument("--version", action="version", version="%(prog)s 1.4.2")
    p.add_argument("--dry-run", action="store_true")
    p.add_argument("target")
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            ns = p.parse_args(argv)
    except SystemExit as e:
        return e.code, out.getvalue()
    return None, repr(ns)


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
