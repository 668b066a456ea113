# ruff: noqa
import argparse


def make_parser():
    parser = argparse.ArgumentParser(prog="greet", add_help=False)
    parser.add_argument("name", nargs="?", default="world")
    parser.add_argument("--greeting", default="Hello")
    parser.add_argument("--shout", action="store_true")
    parser.add_argument("--times", type=int, default=1)
    return parser


def greet(argv):
    """
    >>> greet([])
    ['Hello, world!']
    >>> greet(["Ada", "--greeting", "Hi", "--times", "2"])
    ['Hi, Ada!', 'Hi, Ada!']
    >>> greet(["--shout", "bob"])
    ['HELLO, BOB!']
    >>> ns, extra = make_parser().parse_known_args(["x", "--colour", "red"])
    >>> ns.name, extra
    ('x', ['--colour', 'red'])
    """
    args = make_parser().parse_args(argv)
    msg = f"{args.greeting}, {args.name}!"
    if args.shout:
        msg = msg.upper()
    return [msg] * args.times


def usage():
    """
    >>> print(usage())
    usage: greet [--greeting GREETING] [--shout] [--times TIMES] [name]
    """
    return make_parser().format_usage().strip()


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
