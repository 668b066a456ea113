# ruff: noqa
import unittest
from pathlib import Path


def bulk_rename(folder, prefix, pattern="*.jpg", start=1, dry_run=False):
    folder = Path(folder)
    files = sorted(folder.glob(pattern), key=lambda p: p.name.lower())
    plan = []
    for i, path in enumerate(files, start=start):
        new = path.with_name(f"{prefix}_{i:03d}{path.suffix.lower()}")
        plan.append((path.name, new.name))
    if not dry_run:
        # two phases so that renames never collide with a not-yet-renamed file
        temps = []
        for old, _ in plan:
            tmp = folder / (old + ".renaming")
            (folder / old).rename(tmp)
            temps.append(tmp)
        for tmp, (_, new) in zip(temps, plan):
            tmp.rename(folder / new)
    return plan


class RenameTest(unittest.TestCase):
    def setUp(self):
        self.dir = Path("photos")
        self.dir.mkdir(exist_ok=True)
        for p in self.dir.iterdir():
            p.unlink()
        for name in ["IMG_9.JPG", "img_10.jpg", "beach.jpg", "notes.txt"]:
            (self.dir / name).write_text(name)

    def test_dry_run(self):
        plan = bulk_rename(self.dir, "trip", "*.[jJ][pP][gG]", dry_run=True)
        self.assertEqual(plan, [("beach.jpg", "trip_001.jpg"), ("img_10.jpg", "trip_002.jpg"), ("IMG_9.JPG", "trip_003.jpg")])
        self.assertTrue((self.dir / "beach.jpg").exists())

    def test_rename(self):
        bulk_rename(self.dir, "trip", "*.[jJ][pP][gG]")
        names = sorted(p.name for p in self.dir.iterdir())
        self.assertEqual(names, ["notes.txt", "trip_001.jpg", "trip_002.jpg", "trip_003.jpg"])
        self.assertEqual((self.dir / "trip_003.jpg").read_text(), "IMG_9.JPG")

    def test_collision_safe(self):
        bulk_rename(self.dir, "x", "*.[jJ][pP][gG]")
        bulk_rename(self.dir, "x", "*.jpg", start=2)
        self.assertEqual(sorted(p.name for p in self.dir.glob("*.jpg")), ["x_002.jpg", "x_003.jpg", "x_004.jpg"])


if __name__ == "__main__":
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
