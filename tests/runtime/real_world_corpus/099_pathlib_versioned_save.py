# ruff: noqa
import re
import unittest
from pathlib import Path


def next_version(path):
    """report.txt -> report_v2.txt if report.txt exists, etc."""
    path = Path(path)
    if not path.exists():
        return path
    pattern = re.compile(re.escape(path.stem) + r"_v(\d+)" + re.escape(path.suffix) + "$")
    versions = [int(m.group(1)) for p in path.parent.iterdir() if (m := pattern.match(p.name))]
    return path.with_name(f"{path.stem}_v{max(versions, default=1) + 1}{path.suffix}")


def save_versioned(path, text):
    target = next_version(path)
    target.write_text(text)
    return target.name


class VersionTest(unittest.TestCase):
    def setUp(self):
        self.dir = Path("versions")
        self.dir.mkdir(exist_ok=True)
        for p in self.dir.iterdir():
            p.unlink()

    def test_sequence(self):
        names = [save_versioned(self.dir / "report.txt", f"draft {i}") for i in range(4)]
        self.assertEqual(names, ["report.txt", "report_v2.txt", "report_v3.txt", "report_v4.txt"])
        self.assertEqual((self.dir / "report_v3.txt").read_text(), "draft 2")

    def test_gap(self):
        (self.dir / "a.md").write_text("x")
        (self.dir / "a_v7.md").write_text("x")
        self.assertEqual(next_version(self.dir / "a.md").name, "a_v8.md")

    def test_other_files_ignored(self):
        (self.dir / "b.csv").write_text("x")
        (self.dir / "b_v2.txt").write_text("x")
        self.assertEqual(next_version(self.dir / "b.csv").name, "b_v2.csv")


if __name__ == "__main__":
    print([save_versioned("notes.txt", "hi") for _ in range(3)])
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
