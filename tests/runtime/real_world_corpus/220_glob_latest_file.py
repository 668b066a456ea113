# ruff: noqa
import glob
import os
import unittest


def latest(pattern):
    files = glob.glob(pattern)
    if not files:
        return None
    return os.path.basename(max(files, key=lambda p: (os.path.getmtime(p), p)))


class LatestTest(unittest.TestCase):
    def test_latest(self):
        os.makedirs("exports", exist_ok=True)
        for i, name in enumerate(["export_a.csv", "export_b.csv", "export_c.csv", "notes.txt"]):
            path = os.path.join("exports", name)
            open(path, "w").close()
            t = 1_700_000_000 + [30, 10, 20, 99][i]
            os.utime(path, (t, t))
        self.assertEqual(latest("exports/export_*.csv"), "export_a.csv")
        self.assertEqual(latest("exports/*"), "notes.txt")
        self.assertIsNone(latest("exports/*.xlsx"))


if __name__ == "__main__":
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
