# ruff: noqa
import argparse
import unittest


def build():
    p = argparse.ArgumentParser(prog="backup", description="Back up a folder.",
                                epilog="Example: backup ~/docs --dest /mnt/usb",
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("source")
    out = p.add_argument_group("output")
    out.add_argument("--dest", default="backups", help="destination folder")
    out.add_argument("--compress", choices=["none", "zip", "gztar"], default="zip", help="archive format")
    sel = p.add_argument_group("selection")
    sel.add_argument("--include", action="append", default=[], help="glob to include")
    sel.add_argument("--exclude", action="append", default=[], help="glob to exclude")
    p.add_argument("--version", action="version", version="%(prog)s 2.1")
    return p


class HelpTest(unittest.TestCase):
    def test_help_mentions_groups_and_defaults(self):
        text = build().format_help()
        self.assertIn("output:", text)
        self.assertIn("selection:", text)
        self.assertIn("(default: backups)", text)
        self.assertIn("Example: backup", text)

    def test_parse(self):
        ns = build().parse_args(["docs", "--include", "*.md", "--include", "*.txt", "--compress", "gztar"])
        self.assertEqual((ns.source, ns.include, ns.compress, ns.dest), ("docs", ["*.md", "*.txt"], "gztar", "backups"))

    def test_version(self):
        import contextlib, io
        out = io.StringIO()
        with contextlib.redirect_stdout(out), self.assertRaises(SystemExit):
            build().parse_args(["--version"])
        self.assertEqual(out.getvalue(), "backup 2.1\n")


if __name__ == "__main__":
    print(build().format_usage(), end="")
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
