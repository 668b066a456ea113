# ruff: noqa
import re
import unittest
from pathlib import Path


class Notes:
    def __init__(self, root="notes"):
        self.root = Path(root)
        self.root.mkdir(exist_ok=True)

    @staticmethod
    def slug(title):
        return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-") or "untitled"

    def write(self, title, body, tags=()):
        path = self.root / f"{self.slug(title)}.md"
        header = f"# {title}\n" + (f"tags: {', '.join(sorted(tags))}\n" if tags else "")
        path.write_text(header + "\n" + body + "\n", encoding="utf-8")
        return path.name

    def by_tag(self, tag):
        hits = []
        for p in sorted(self.root.glob("*.md")):
            for line in p.read_text(encoding="utf-8").splitlines():
                if line.startswith("tags:") and tag in [t.strip() for t in line[5:].split(",")]:
                    hits.append(p.stem)
        return hits

    def rename(self, old_title, new_title):
        src = self.root / f"{self.slug(old_title)}.md"
        text = src.read_text(encoding="utf-8").replace(f"# {old_title}", f"# {new_title}", 1)
        dst = src.with_name(f"{self.slug(new_title)}.md")
        dst.write_text(text, encoding="utf-8")
        src.unlink()
        return dst.name


class NotesTest(unittest.TestCase):
    def setUp(self):
        self.notes = Notes()
        for p in self.notes.root.iterdir():
            p.unlink()

    def test_slug(self):
        self.assertEqual(Notes.slug("Hello, World! 2024"), "hello-world-2024")
        self.assertEqual(Notes.slug("???"), "untitled")

    def test_tags(self):
        self.notes.write("Groceries", "eggs", tags=["home", "shopping"])
        self.notes.write("Sprint plan", "tasks", tags=["work"])
        self.notes.write("Gift ideas", "book", tags=["shopping"])
        self.assertEqual(self.notes.by_tag("shopping"), ["gift-ideas", "groceries"])

    def test_rename(self):
        self.notes.write("Old Name", "body")
        self.assertEqual(self.notes.rename("Old Name", "New Name"), "new-name.md")
        self.assertEqual([p.name for p in self.notes.root.iterdir()], ["new-name.md"])
        self.assertTrue((self.notes.root / "new-name.md").read_text().startswith("# New Name\n"))


if __name__ == "__main__":
    n = Notes()
    print(n.write("Meeting: Q3 review", "agenda", tags=["work", "q3"]))
    print((n.root / "meeting-q3-review.md").read_text(), end="")
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
