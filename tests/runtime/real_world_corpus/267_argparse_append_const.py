# ruff: noqa
import argparse
import unittest


def parse(argv):
    p = argparse.ArgumentParser(prog="lint")
    p.add_argument("--strict", dest="checks", action="append_const", const="strict")
    p.add_argument("--style", dest="checks", action="append_const", const="style")
    p.add_argument("--types", dest="checks", action="append_const", const="types")
    p.add_argument("--max-line", type=int, default=88)
    p.add_argument("paths", nargs="*", default=["."])
    ns = p.parse_args(argv)
    ns.checks = sorted(set(ns.checks or ["style"]))
    return ns


class AppendConstTest(unittest.TestCase):
    def test_combo(self):
        ns = parse(["--types", "--strict", "--types", "src", "tests"])
        self.assertEqual((ns.checks, ns.paths), (["strict", "types"], ["src", "tests"]))

    def test_default(self):
        ns = parse([])
        self.assertEqual((ns.checks, ns.paths, ns.max_line), (["style"], ["."], 88))


if __name__ == "__main__":
    print(vars(parse(["--strict", "--max-line", "100", "app.py"])))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
