# ruff: noqa
import os
import shutil
import tempfile
import unittest


def mirror_structure(src, dst):
    """Copy the directory structure only (no files), like a skeleton."""
    shutil.copytree(src, dst, ignore=lambda d, names: [n for n in names if os.path.isfile(os.path.join(d, n))])
    return sorted(os.path.relpath(os.path.join(dp, d), dst).replace(os.sep, "/")
                  for dp, ds, _ in os.walk(dst) for d in ds)


def move_contents(src, dst):
    os.makedirs(dst, exist_ok=True)
    moved = []
    for name in sorted(os.listdir(src)):
        shutil.move(os.path.join(src, name), os.path.join(dst, name))
        moved.append(name)
    os.rmdir(src)
    return moved


class MirrorTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="mirror-")
        self.src = os.path.join(self.tmp, "src")
        for d in ("a/b", "a/c", "d"):
            os.makedirs(os.path.join(self.src, d))
        for f in ("a/b/1.txt", "d/2.txt", "3.txt"):
            with open(os.path.join(self.src, *f.split("/")), "w") as fh:
                fh.write(f)

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def test_skeleton(self):
        dirs = mirror_structure(self.src, os.path.join(self.tmp, "skel"))
        self.assertEqual(dirs, ["a", "a/b", "a/c", "d"])
        files = [f for _, _, fs in os.walk(os.path.join(self.tmp, "skel")) for f in fs]
        self.assertEqual(files, [])

    def test_move_contents(self):
        dst = os.path.join(self.tmp, "moved")
        self.assertEqual(move_contents(self.src, dst), ["3.txt", "a", "d"])
        self.assertFalse(os.path.exists(self.src))
        self.assertTrue(os.path.isfile(os.path.join(dst, "a", "b", "1.txt")))


if __name__ == "__main__":
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
