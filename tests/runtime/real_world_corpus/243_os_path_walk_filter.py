# ruff: noqa
import os
import unittest

SKIP_DIRS = {".git", "node_modules", "__pycache__", ".venv"}


def source_files(root, exts=(".py",)):
    found = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.startswith("."))
        for name in sorted(filenames):
            if name.endswith(exts):
                found.append(os.path.join(os.path.relpath(dirpath, root), name).replace(os.sep, "/").removeprefix("./"))
    return found


class WalkTest(unittest.TestCase):
    def test_skip(self):
        for rel in ["proj/a.py", "proj/.git/hook.py", "proj/pkg/b.py", "proj/pkg/__pycache__/b.py", "proj/.venv/x.py",
                    "proj/node_modules/m/y.js", "proj/pkg/c.txt", "proj/.hidden/z.py"]:
            os.makedirs(os.path.dirname(rel), exist_ok=True)
            open(rel, "w").close()
        self.assertEqual(source_files("proj"), ["a.py", "pkg/b.py"])
        self.assertEqual(source_files("proj", (".py", ".txt")), ["a.py", "pkg/b.py", "pkg/c.txt"])


if __name__ == "__main__":
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
