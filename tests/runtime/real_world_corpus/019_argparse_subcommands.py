# ruff: noqa
import argparse
import contextlib
import io
import unittest

NOTES = {}


def cmd_add(args):
    NOTES[args.key] = " ".join(args.text)
    return f"added {args.key}"


def cmd_list(args):
    keys = sorted(NOTES, reverse=args.reverse)
    return "\n".join(f"{k}: {NOTES[k]}" for k in keys) or "(empty)"


def cmd_remove(args):
    if args.key not in NOTES:
        return f"no such note: {args.key}"
    del NOTES[args.key]
    return f"removed {args.key}"


def make_parser():
    p = argparse.ArgumentParser(prog="notes")
    sub = p.add_subparsers(dest="command", required=True)
    a = sub.add_parser("add", help="add a note")
    a.add_argument("key")
    a.add_argument("text", nargs="+")
    a.set_defaults(func=cmd_add)
    ls = sub.add_parser("list", aliases=["ls"])
    ls.add_argument("-r", "--reverse", action="store_true")
    ls.set_defaults(func=cmd_list)
    rm = sub.add_parser("remove")
    rm.add_argument("key")
    rm.set_defaults(func=cmd_remove)
    return p


def main(argv):
    args = make_parser().parse_args(argv)
    return args.func(args)


class NotesCliTest(unittest.TestCase):
    def setUp(self):
        NOTES.clear()

    def test_flow(self):
        self.assertEqual(main(["add", "shop", "eggs", "and", "milk"]), "added shop")
        main(["add", "call", "mum"])
        self.assertEqual(main(["ls"]), "call: mum\nshop: eggs and milk")
        self.assertEqual(main(["list", "-r"]).splitlines()[0], "shop: eggs and milk")
        self.assertEqual(main(["remove", "call"]), "removed call")
        self.assertEqual(main(["remove", "call"]), "no such note: call")

    def test_empty(self):
        self.assertEqual(main(["list"]), "(empty)")

    def test_no_command(self):
        with contextlib.redirect_stderr(io.StringIO()) as err, self.assertRaises(SystemExit):
            main([])
        self.assertIn("required", err.getvalue())


if __name__ == "__main__":
    for argv in (["add", "todo", "write", "tests"], ["add", "idea", "sandbox"], ["ls"]):
        print(main(argv))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
