# ruff: noqa
"""Keep the N newest backups of a file, named by a fixed sequence number."""
import glob
import os
import shutil
import tempfile
import unittest


def make_backup(src, backup_dir, seq):
    os.makedirs(backup_dir, exist_ok=True)
    base = os.path.basename(src)
    dest = os.path.join(backup_dir, f"{base}.{seq:04d}.bak")
    shutil.copy2(src, dest)
    return dest


def rotate(backup_dir, keep):
    backups = sorted(glob.glob(os.path.join(backup_dir, "*.bak")))
    removed = []
    for old in backups[:-keep] if keep else backups:
        os.remove(old)
        removed.append(os.path.basename(old))
    return removed


class RotationTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.src = os.path.join(self.tmp, "db.sqlite")
        with open(self.src, "w") as f:
            f.write("v0")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_keep_three(self):
        bdir = os.path.join(self.tmp, "backups")
        for seq in range(1, 6):
            with open(self.src, "w") as f:
                f.write(f"v{seq}")
            make_backup(self.src, bdir, seq)
        removed = rotate(bdir, keep=3)
        self.assertEqual(removed, ["db.sqlite.0001.bak", "db.sqlite.0002.bak"])
        remaining = sorted(os.listdir(bdir))
        self.assertEqual(len(remaining), 3)
        with open(os.path.join(bdir, remaining[-1])) as f:
            self.assertEqual(f.read(), "v5")

    def test_keep_zero(self):
        bdir = os.path.join(self.tmp, "b")
        make_backup(self.src, bdir, 1)
        self.assertEqual(rotate(bdir, keep=0), ["db.sqlite.0001.bak"])
        self.assertEqual(os.listdir(bdir), [])


if __name__ == "__main__":
    with open("notes.txt", "w") as f:
        f.write("hello")
    for i in range(4):
        print(os.path.relpath(make_backup("notes.txt", "backups", i)))
    print("removed", rotate("backups", keep=2))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
