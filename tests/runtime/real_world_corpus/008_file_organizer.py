# ruff: noqa
"""Organise files by extension into sub-folders (shutil + pathlib + glob)."""
import glob
import os
import shutil
import tempfile
import unittest
from pathlib import Path

CATEGORIES = {
    "images": {".png", ".jpg", ".gif"},
    "docs": {".txt", ".md", ".pdf"},
    "data": {".csv", ".json"},
}


def category_for(path):
    ext = Path(path).suffix.lower()
    for name, exts in CATEGORIES.items():
        if ext in exts:
            return name
    return "other"


def organise(root):
    moved = {}
    for entry in sorted(glob.glob(os.path.join(root, "*"))):
        if os.path.isdir(entry):
            continue
        cat = category_for(entry)
        dest_dir = os.path.join(root, cat)
        os.makedirs(dest_dir, exist_ok=True)
        shutil.move(entry, os.path.join(dest_dir, os.path.basename(entry)))
        moved.setdefault(cat, []).append(os.path.basename(entry))
    return moved


class OrganiseTest(unittest.TestCase):
    def test_organise(self):
        with tempfile.TemporaryDirectory() as tmp:
            for name in ["a.PNG", "b.txt", "c.csv", "d.bin", "notes.md", "e.json"]:
                Path(tmp, name).write_text(name)
            moved = organise(tmp)
            self.assertEqual(moved["images"], ["a.PNG"])
            self.assertEqual(sorted(moved["docs"]), ["b.txt", "notes.md"])
            self.assertEqual(moved["other"], ["d.bin"])
            tree = sorted(p.relative_to(tmp).as_posix() for p in Path(tmp).rglob("*") if p.is_file())
            self.assertEqual(tree, ["data/c.csv", "data/e.json", "docs/b.txt", "docs/notes.md", "images/a.PNG", "other/d.bin"])

    def test_idempotent(self):
        with tempfile.TemporaryDirectory() as tmp:
            Path(tmp, "x.txt").write_text("x")
            organise(tmp)
            self.assertEqual(organise(tmp), {})


if __name__ == "__main__":
    os.makedirs("downloads", exist_ok=True)
    for n in ["report.pdf", "photo.jpg", "table.csv"]:
        with open(os.path.join("downloads", n), "w") as f:
            f.write("data")
    print(organise("downloads"))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
