# ruff: noqa
import unittest
from pathlib import Path


def du(root):
    """Like `du`: cumulative size of every directory, deepest first."""
    root = Path(root)
    sizes = {}
    for dirpath, dirnames, filenames in root.walk(top_down=False):
        total = sum((dirpath / f).stat().st_size for f in filenames)
        total += sum(sizes[dirpath / d] for d in dirnames)
        sizes[dirpath] = total
    return [(p.relative_to(root).as_posix(), s) for p, s in sorted(sizes.items(), key=lambda kv: (-len(kv[0].parts), str(kv[0])))]


class DuTest(unittest.TestCase):
    def test_du(self):
        for rel, n in {"proj/a.txt": 10, "proj/src/b.py": 20, "proj/src/lib/c.py": 30, "proj/docs/d.md": 5}.items():
            p = Path(rel)
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_bytes(b"x" * n)
        self.assertEqual(du("proj"), [("src/lib", 30), ("docs", 5), ("src", 50), (".", 65)])


if __name__ == "__main__":
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
