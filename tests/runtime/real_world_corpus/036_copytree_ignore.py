# ruff: noqa
import os
import shutil
import tempfile
import unittest
from pathlib import Path


def export_project(src, dest):
    """Copy a project, skipping caches, VCS folders and compiled files."""
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".git", "*.log", "node_modules")
    shutil.copytree(src, dest, ignore=ignore, dirs_exist_ok=True)
    return sorted(p.relative_to(dest).as_posix() for p in Path(dest).rglob("*") if p.is_file())


class ExportTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.src = Path(self.tmp.name, "proj")
        for rel in ["app/main.py", "app/__pycache__/main.cpython-313.pyc", "app/util.pyc", ".git/HEAD",
                    "build.log", "README", "web/node_modules/x/index.js", "web/index.html"]:
            p = self.src / rel
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(rel)

    def tearDown(self):
        self.tmp.cleanup()

    def test_export(self):
        files = export_project(self.src, os.path.join(self.tmp.name, "out"))
        self.assertEqual(files, ["README", "app/main.py", "web/index.html"])

    def test_export_twice(self):
        dest = os.path.join(self.tmp.name, "out")
        export_project(self.src, dest)
        (self.src / "NEW").write_text("new")
        self.assertIn("NEW", export_project(self.src, dest))

    def test_disk_usage_like(self):
        total = sum(p.stat().st_size for p in self.src.rglob("*") if p.is_file())
        self.assertEqual(total, sum(len(r) for r in ["app/main.py", "app/__pycache__/main.cpython-313.pyc", "app/util.pyc", ".git/HEAD", "build.log", "README", "web/node_modules/x/index.js", "web/index.html"]))


if __name__ == "__main__":
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
