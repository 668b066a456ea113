# ruff: noqa
import argparse
import unittest

CONVERSIONS = {"upper": str.upper, "lower": str.lower, "title": str.title, "reverse": lambda s: s[::-1]}


def main(argv, stdin_text=""):
    p = argparse.ArgumentParser(prog="case")
    p.add_argument("mode", choices=sorted(CONVERSIONS))
    p.add_argument("text", nargs="*")
    p.add_argument("--file")
    a = p.parse_args(argv)
    if a.file:
        with open(a.file) as f:
            source = f.read().rstrip("\n")
    else:
        source = " ".join(a.text) or stdin_text
    return CONVERSIONS[a.mode](source)


class CaseTest(unittest.TestCase):
    def test_modes(self):
        self.assertEqual(main(["upper", "hello", "world"]), "HELLO WORLD")
        self.assertEqual(main(["reverse", "abc"]), "cba")

    def test_file(self):
        with open("in.txt", "w") as f:
            f.write("the quick fox\n")
        self.assertEqual(main(["title", "--file", "in.txt"]), "The Quick Fox")

    def test_stdin_fallback(self):
        self.assertEqual(main(["lower"], stdin_text="ABC"), "abc")


if __name__ == "__main__":
    print(main(["title", "sandboxed", "python"]))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
