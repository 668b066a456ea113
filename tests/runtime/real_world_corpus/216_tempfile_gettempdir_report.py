# ruff: noqa
import os
import tempfile
import unittest


class ScratchSpace:
    """Named scratch files under one TemporaryDirectory, removed on close."""

    def __init__(self, prefix="job-"):
        self._tmp = tempfile.TemporaryDirectory(prefix=prefix)
        self.root = self._tmp.name

    def path(self, name):
        return os.path.join(self.root, name)

    def write(self, name, text):
        with open(self.path(name), "w") as f:
            f.write(text)
        return name

    def listing(self):
        return sorted(os.listdir(self.root))

    def close(self):
        self._tmp.cleanup()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class ScratchTest(unittest.TestCase):
    def test_lifecycle(self):
        with ScratchSpace() as s:
            s.write("a.txt", "A")
            s.write("b.txt", "B")
            self.assertEqual(s.listing(), ["a.txt", "b.txt"])
            self.assertTrue(s.root.startswith(tempfile.gettempdir()))
            root = s.root
        self.assertFalse(os.path.exists(root))

    def test_prefix(self):
        with ScratchSpace(prefix="export-") as s:
            self.assertTrue(os.path.basename(s.root).startswith("export-"))


if __name__ == "__main__":
    with ScratchSpace() as s:
        s.write("hello.txt", "hi")
        print(s.listing())
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
