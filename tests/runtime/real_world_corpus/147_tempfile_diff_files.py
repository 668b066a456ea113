# ruff: noqa
import difflib
import os
import tempfile
import unittest


def unified(path_a, path_b):
    with open(path_a) as a, open(path_b) as b:
        return "".join(difflib.unified_diff(a.readlines(), b.readlines(), os.path.basename(path_a), os.path.basename(path_b)))


class DiffTest(unittest.TestCase):
    def test_diff(self):
        with tempfile.TemporaryDirectory() as d:
            a, b = os.path.join(d, "old.txt"), os.path.join(d, "new.txt")
            with open(a, "w") as f:
                f.write("one\ntwo\nthree\n")
            with open(b, "w") as f:
                f.write("one\n2\nthree\nfour\n")
            self.assertEqual(unified(a, b).splitlines(), [
                "--- old.txt", "+++ new.txt", "@@ -1,3 +1,4 @@", " one", "-two", "+2", " three", "+four"])

    def test_same(self):
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
            f.write("x\n")
        try:
            self.assertEqual(unified(f.name, f.name), "")
        finally:
            os.remove(f.name)

    def test_ratio(self):
        self.assertEqual(round(difflib.SequenceMatcher(None, "kitten", "sitting").ratio(), 3), 0.615)


if __name__ == "__main__":
    with open("a.txt", "w") as f:
        f.write("apple\nbanana\n")
    with open("b.txt", "w") as f:
        f.write("apple\ncherry\n")
    print(unified("a.txt", "b.txt"), end="")
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
