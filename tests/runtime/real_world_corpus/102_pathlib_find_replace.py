# ruff: noqa
import unittest
from pathlib import Path


def find_replace(root, old, new, pattern="*.txt", dry_run=False):
    changes = {}
    for path in sorted(Path(root).rglob(pattern)):
        text = path.read_text(encoding="utf-8")
        n = text.count(old)
        if n:
            changes[path.relative_to(root).as_posix()] = n
            if not dry_run:
                path.write_text(text.replace(old, new), encoding="utf-8")
    return changes


class FindReplaceTest(unittest.TestCase):
    def setUp(self):
        self.root = Path("docs")
        (self.root / "guide").mkdir(parents=True, exist_ok=True)
        (self.root / "a.txt").write_text("Acme Corp. Acme rocks.")
        (self.root / "guide" / "b.txt").write_text("Use Acme tools.")
        (self.root / "guide" / "c.md").write_text("Acme in markdown")
        (self.root / "d.txt").write_text("nothing here")

    def test_dry_run(self):
        self.assertEqual(find_replace(self.root, "Acme", "Initech", dry_run=True), {"a.txt": 2, "guide/b.txt": 1})
        self.assertIn("Acme", (self.root / "a.txt").read_text())

    def test_replace(self):
        find_replace(self.root, "Acme", "Initech")
        self.assertEqual((self.root / "a.txt").read_text(), "Initech Corp. Initech rocks.")
        self.assertEqual((self.root / "guide" / "c.md").read_text(), "Acme in markdown")
        self.assertEqual(find_replace(self.root, "Acme", "x"), {})


if __name__ == "__main__":
    FindReplaceTest("test_replace").setUp()
    print(find_replace("docs", "Acme", "Globex", pattern="*.*"))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
