# ruff: noqa
import argparse
import contextlib
import io
import unittest


def parse(argv):
    p = argparse.ArgumentParser(prog="export", description="Export a report.")
    fmt = p.add_mutually_exclusive_group(required=True)
    fmt.add_argument("--csv", action="store_const", dest="fmt", const="csv")
    fmt.add_argument("--json", action="store_const", dest="fmt", const="json")
    fmt.add_argument("--format", dest="fmt", choices=["csv", "json", "xml"])
    p.add_argument("--columns", type=lambda s: [c.strip() for c in s.split(",") if c.strip()], default=[])
    p.add_argument("--limit", type=int, default=None)
    p.add_argument("--dry-run", action="store_true")
    p.add_argument("-o", "--output", default="report")
    return p.parse_args(argv)


def output_name(ns):
    return f"{ns.output}.{ns.fmt}"


class ExportArgsTest(unittest.TestCase):
    def test_flags(self):
        ns = parse(["--csv", "--columns", "a, b,,c", "--limit", "5"])
        self.assertEqual((ns.fmt, ns.columns, ns.limit, ns.dry_run), ("csv", ["a", "b", "c"], 5, False))
        self.assertEqual(output_name(ns), "report.csv")

    def test_format_choice(self):
        self.assertEqual(output_name(parse(["--format", "xml", "-o", "out/r"])), "out/r.xml")

    def test_conflict(self):
        err = io.StringIO()
        with contextlib.redirect_stderr(err), self.assertRaises(SystemExit):
            parse(["--csv", "--json"])
        self.assertIn("not allowed with argument", err.getvalue())

    def test_required_group(self):
        with contextlib.redirect_stderr(io.StringIO()), self.assertRaises(SystemExit):
            parse(["--dry-run"])

    def test_help_text(self):
        out = io.StringIO()
        with contextlib.redirect_stdout(out), self.assertRaises(SystemExit) as cm:
            parse(["--help"])
        self.assertEqual(cm.exception.code, 0)
        self.assertIn("Export a report.", out.getvalue())


if __name__ == "__main__":
    print(vars(parse(["--json", "--dry-run"])))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
