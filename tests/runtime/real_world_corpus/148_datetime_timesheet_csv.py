# ruff: noqa
import csv
import unittest
from datetime import datetime, timedelta

ENTRIES = [
    ("ann", "2024-03-04 09:00", "2024-03-04 17:30"),
    ("ann", "2024-03-05 22:00", "2024-03-06 02:15"),
    ("bob", "2024-03-04 08:45", "2024-03-04 12:00"),
    ("bob", "2024-03-04 13:00", "2024-03-04 18:10"),
]


def write_entries(path):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["who", "start", "end"])
        w.writerows(ENTRIES)


def hours_by_person(path):
    totals = {}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            start = datetime.strptime(r["start"], "%Y-%m-%d %H:%M")
            end = datetime.strptime(r["end"], "%Y-%m-%d %H:%M")
            totals[r["who"]] = totals.get(r["who"], timedelta()) + (end - start)
    return {k: round(v.total_seconds() / 3600, 2) for k, v in sorted(totals.items())}


class TimesheetTest(unittest.TestCase):
    def test_hours(self):
        write_entries("timesheet.csv")
        self.assertEqual(hours_by_person("timesheet.csv"), {"ann": 12.75, "bob": 8.42})

    def test_overnight(self):
        s = datetime(2024, 3, 5, 22)
        self.assertEqual(datetime(2024, 3, 6, 2, 15) - s, timedelta(hours=4, minutes=15))


if __name__ == "__main__":
    write_entries("timesheet.csv")
    print(hours_by_person("timesheet.csv"))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
