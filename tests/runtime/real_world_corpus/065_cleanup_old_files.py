# ruff: noqa
import os
import tempfile
import unittest
from datetime import datetime, timedelta, timezone
from pathlib import Path

NOW = datetime(2024, 6, 1, 12, 0, tzinfo=timezone.utc)


def set_age(path, days):
    ts = (NOW - timedelta(days=days)).timestamp()
    os.utime(path, (ts, ts))


def old_files(folder, max_age_days, now=NOW, pattern="*"):
    cutoff = (now - timedelta(days=max_age_days)).timestamp()
    return sorted(p.name for p in Path(folder).glob(pattern) if p.is_file() and p.stat().st_mtime < cutoff)


def cleanup(folder, max_age_days, now=NOW, pattern="*"):
    removed = old_files(folder, max_age_days, now, pattern)
    for name in removed:
        (Path(folder) / name).unlink()
    return removed


class CleanupTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        ages = {"today.log": 0, "week.log": 7, "month.log": 31, "year.log": 365, "keep.cfg": 400}
        for name, age in ages.items():
            p = Path(self.tmp.name, name)
            p.write_text(name)
            set_age(p, age)

    def tearDown(self):
        self.tmp.cleanup()

    def test_list(self):
        self.assertEqual(old_files(self.tmp.name, 30, pattern="*.log"), ["month.log", "year.log"])

    def test_cleanup(self):
        self.assertEqual(cleanup(self.tmp.name, 5, pattern="*.log"), ["month.log", "week.log", "year.log"])
        self.assertEqual(sorted(os.listdir(self.tmp.name)), ["keep.cfg", "today.log"])

    def test_mtime_round_trip(self):
        p = Path(self.tmp.name, "week.log")
        age = NOW - datetime.fromtimestamp(p.stat().st_mtime, tz=timezone.utc)
        self.assertEqual(age, timedelta(days=7))


if __name__ == "__main__":
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
