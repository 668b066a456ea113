# ruff: noqa
import argparse
import unittest


def parse(argv):
    p = argparse.ArgumentParser(prog="grep-lite")
    p.add_argument("pattern")
    p.add_argument("files", nargs="*")
    p.add_argument("-i", "--ignore-case", action="store_true")
    p.add_argument("-n", "--line-number", action="store_true")
    return p.parse_intermixed_args(argv)


def grep(argv):
    import re
    a = parse(argv)
    rx = re.compile(a.pattern, re.I if a.ignore_case else 0)
    out = []
    for name in a.files:
        with open(name) as f:
            for no, line in enumerate(f, 1):
                if rx.search(line):
                    out.append(f"{name}:{no}:{line.rstrip()}" if a.line_number else f"{name}:{line.rstrip()}")
    return out


class GrepTest(unittest.TestCase):
    def setUp(self):
        with open("a.txt", "w") as f:
            f.write("Error: disk\nok\nerror: net\n")
        with open("b.txt", "w") as f:
            f.write("fine\nERROR: cpu\n")

    def test_intermixed(self):
        self.assertEqual(grep(["error", "a.txt", "-i", "b.txt", "-n"]), ["a.txt:1:Error: disk", "a.txt:3:error: net", "b.txt:2:ERROR: cpu"])

    def test_case(self):
        self.assertEqual(grep(["error", "a.txt", "b.txt"]), ["a.txt:error: net"])


if __name__ == "__main__":
    GrepTest("test_case").setUp()
    print("\n".join(grep(["-n", "o", "a.txt"])))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
