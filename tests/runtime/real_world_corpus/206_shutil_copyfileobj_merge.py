# ruff: noqa
import glob
import os
import shutil
import unittest


def concat(pattern, output, separator=b"\n"):
    parts = sorted(glob.glob(pattern))
    with open(output, "wb") as out:
        for i, part in enumerate(parts):
            if i:
                out.write(separator)
            with open(part, "rb") as f:
                shutil.copyfileobj(f, out)
    return [os.path.basename(p) for p in parts]


class ConcatTest(unittest.TestCase):
    def test_concat(self):
        os.makedirs("chunks", exist_ok=True)
        for i, text in enumerate(["alpha", "beta", "gamma"], 1):
            with open(f"chunks/part{i:02d}.txt", "w") as f:
                f.write(text)
        self.assertEqual(concat("chunks/part*.txt", "joined.txt"), ["part01.txt", "part02.txt", "part03.txt"])
        with open("joined.txt") as f:
            self.assertEqual(f.read(), "alpha\nbeta\ngamma")

    def test_no_parts(self):
        self.assertEqual(concat("nothing-*.txt", "empty.txt"), [])
        self.assertEqual(os.path.getsize("empty.txt"), 0)


if __name__ == "__main__":
    ConcatTest("test_concat").test_concat()
    print(open("joined.txt").read())
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
