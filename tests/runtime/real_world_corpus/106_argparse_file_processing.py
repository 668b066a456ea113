# ruff: noqa
import argparse
import os
import unittest


def build_parser():
    p = argparse.ArgumentParser(prog="wc", description="Count lines, words and characters.")
    p.add_argument("files", nargs="+")
    p.add_argument("-l", "--lines", action="store_true")
    p.add_argument("-w", "--words", action="store_true")
    p.add_argument("-c", "--chars", action="store_true")
    return p


def wc(argv):
    args = build_parser().parse_args(argv)
    show = [k for k in ("lines", "words", "chars") if getattr(args, k)] or ["lines", "words", "chars"]
    out, totals = [], dict.fromkeys(show, 0)
    for name in args.files:
        if not os.path.exists(name):
            out.append(f"wc: {name}: No such file")
            continue
        with open(name, encoding="utf-8") as f:
            text = f.read()
        counts = {"lines": text.count("\n"), "words": len(text.split()), "chars": len(text)}
        for k in show:
            totals[k] += counts[k]
        out.append(" ".join(f"{counts[k]:>4}" for k in show) + f" {name}")
    if len(args.files) > 1:
        out.append(" ".join(f"{totals[k]:>4}" for k in show) + " total")
    return out


class WcTest(unittest.TestCase):
    def setUp(self):
        with open("one.txt", "w") as f:
            f.write("hello world\nsecond line here\n")
        with open("two.txt", "w") as f:
            f.write("x\n")

    def test_all(self):
        self.assertEqual(wc(["one.txt"]), ["   2    5   29 one.txt"])

    def test_flags_and_total(self):
        self.assertEqual(wc(["-lw", "one.txt", "two.txt"]), ["   2    5 one.txt", "   1    1 two.txt", "   3    6 total"])

    def test_missing(self):
        self.assertEqual(wc(["-c", "nope.txt"]), ["wc: nope.txt: No such file"])


if __name__ == "__main__":
    WcTest("test_all").setUp()
    print("\n".join(wc(["one.txt", "two.txt", "missing.txt"])))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
