# ruff: noqa
import argparse
import unittest


class Commands:
    """Each cmd_<name> method is a sub-command; its docstring is the help text."""

    def cmd_greet(self, args):
        """Say hello."""
        return f"hello {args.target}"

    def cmd_count(self, args):
        """Count to N."""
        return " ".join(str(i) for i in range(1, args.target + 1))

    def cmd_shout(self, args):
        """Upper-case the target."""
        return args.target.upper() + "!"


ARG_TYPES = {"greet": str, "count": int, "shout": str}


def build(commands):
    parser = argparse.ArgumentParser(prog="tool")
    sub = parser.add_subparsers(dest="command", required=True)
    for name in sorted(n[4:] for n in dir(commands) if n.startswith("cmd_")):
        func = getattr(commands, "cmd_" + name)
        sp = sub.add_parser(name, help=func.__doc__)
        sp.add_argument("target", type=ARG_TYPES[name])
        sp.set_defaults(handler=func)
    return parser


def run(argv):
    args = build(Commands()).parse_args(argv)
    return args.handler(args)


class CommandsTest(unittest.TestCase):
    def test_dispatch(self):
        self.assertEqual(run(["greet", "world"]), "hello world")
        self.assertEqual(run(["count", "4"]), "1 2 3 4")
        self.assertEqual(run(["shout", "hey"]), "HEY!")

    def test_help_lists_commands(self):
        text = build(Commands()).format_help()
        for name in ("greet", "count", "shout"):
            self.assertIn(name, text)


if __name__ == "__main__":
    for argv in (["count", "3"], ["greet", "sandbox"]):
        print(run(argv))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
