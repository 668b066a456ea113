# ruff: noqa
import filecmp
import os
import shutil
import tempfile
import unittest


def sync(src, dst):
    """One-way sync: copy new/changed files, delete files missing from src."""
    actions = []
    os.makedirs(dst, exist_ok=True)
    cmp = filecmp.dircmp(src, dst)
    for name in sorted(cmp.left_only):
        s = os.path.join(src, name)
        if os.path.isdir(s):
            shutil.copytree(s, os.path.join(dst, name))
        else:
            shutil.copy2(s, dst)
        actions.append(f"add {name}")
    for name in sorted(cmp.right_only):
        d = os.path.join(dst, name)
        shutil.rmtree(d) if os.path.isdir(d) else os.remove(d)
        actions.append(f"del {name}")
    for name in sorted(cmp.common_files):
        if not filecmp.cmp(os.path.join(src, name), os.path.join(dst, name), shallow=False):
            shutil.copy2(os.path.join(src, name), dst)
            actions.append(f"upd {name}")
    for name in sorted(cmp.common_dirs):
        actions += [f"{a.split()[0]} {name}/{a.split()[1]}" for a in sync(os.path.join(src, name), os.path.join(dst, name))]
    return actions


def write(root, rel, text):
    path = os.path.join(root, *rel.split("/"))
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


class SyncTest(unittest.TestCase):
    def test_sync(self):
        with tempfile.TemporaryDirectory() as tmp:
            src, dst = os.path.join(tmp, "src"), os.path.join(tmp, "dst")
            for rel, text in {"a.txt": "A", "b.txt": "B", "sub/c.txt": "C"}.items():
                write(src, rel, text)
            self.assertEqual(sync(src, dst), ["add a.txt", "add b.txt", "add sub"])
            write(src, "a.txt", "A2")
            os.remove(os.path.join(src, "b.txt"))
            write(src, "sub/d.txt", "D")
            write(dst, "stale.log", "x")
            self.assertEqual(sync(src, dst), ["del b.txt", "del stale.log", "upd a.txt", "add sub/d.txt"])
            self.assertEqual(sync(src, dst), [])


if __name__ == "__main__":
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
