# ruff: noqa
import csv
import unittest
from pathlib import Path


def split_by(src, column, out_dir):
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    writers, files = {}, {}
    with Path(src).open(newline="") as f:
        reader = csv.DictReader(f)
        for row in reader:
            key = row[column] or "unknown"
            if key not in writers:
                files[key] = (out_dir / f"{key}.csv").open("w", newline="")
                writers[key] = csv.DictWriter(files[key], fieldnames=reader.fieldnames)
                writers[key].writeheader()
            writers[key].writerow(row)
    for fh in files.values():
        fh.close()
    return {p.name: sum(1 for _ in p.open()) - 1 for p in sorted(out_dir.glob("*.csv"))}


class SplitTest(unittest.TestCase):
    def test_split(self):
        Path("orders.csv").write_text("id,country\n1,FR\n2,DE\n3,FR\n4,\n5,IT\n")
        self.assertEqual(split_by("orders.csv", "country", "by_country"), {"DE.csv": 1, "FR.csv": 2, "IT.csv": 1, "unknown.csv": 1})
        with open("by_country/FR.csv", newline="") as f:
            self.assertEqual([r["id"] for r in csv.DictReader(f)], ["1", "3"])


if __name__ == "__main__":
    Path("orders.csv").write_text("id,country\n1,FR\n2,DE\n3,FR\n")
    print(split_by("orders.csv", "country", "out"))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
