# ruff: noqa
import os
import shutil
import tempfile
import unittest


def incremental_backup(src, dst):
    """Copy files that are new or newer than the backup copy (mtime-based)."""
    copied = []
    for dirpath, dirnames, files in os.walk(src):
        dirnames.sort()
        rel_dir = os.path.relpath(dirpath, src)
        for name in sorted(files):
            s = os.path.join(dirpath, name)
            d = os.path.normpath(os.path.join(dst, rel_dir, name))
            if not os.path.exists(d) or os.path.getmtime(s) > os.path.getmtime(d):
                os.makedirs(os.path.dirname(d), exist_ok=True)
                shutil.copy2(s, d)
                copied.append(os.path.relpath(d, dst).replace(os.sep, "/"))
    return copied


class IncrementalTest(unittest.TestCase):
    def test_only_changed(self):
        with tempfile.TemporaryDirectory() as tmp:
            src, dst = os.path.join(tmp, "src"), os.path.join(tmp, "dst")
            os.makedirs(os.path.join(src, "sub"))
            for rel in ("a.txt", "sub/b.txt"):
                p = os.path.join(src, rel)
                with open(p, "w") as f:
                    f.write(rel)
                os.utime(p, (1_700_000_000, 1_700_000_000))
            self.assertEqual(incremental_backup(src, dst), ["a.txt", "sub/b.txt"])
            self.assertEqual(incremental_backup(src, dst), [])
            p = os.path.join(src, "sub", "b.txt")
            with open(p, "a") as f:
                f.write("!")
            os.utime(p, (1_700_000_100, 1_700_000_100))
            self.assertEqual(incremental_backup(src, dst), ["sub/b.txt"])


if __name__ == "__main__":
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
