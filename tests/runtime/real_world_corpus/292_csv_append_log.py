# ruff: noqa
import csv
import os
import unittest
from datetime import datetime

FIELDS = ["timestamp", "sensor", "value"]


def append_reading(path, sensor, value, when):
    new = not os.path.exists(path)
    with open(path, "a", newline="") as f:
        w = csv.DictWriter(f, FIELDS)
        if new:
            w.writeheader()
        w.writerow({"timestamp": when.isoformat(timespec="seconds"), "sensor": sensor, "value": value})


def latest_by_sensor(path):
    latest = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if row["sensor"] not in latest or row["timestamp"] > latest[row["sensor"]][0]:
                latest[row["sensor"]] = (row["timestamp"], float(row["value"]))
    return dict(sorted(latest.items()))


class AppendTest(unittest.TestCase):
    def test_header_once(self):
        if os.path.exists("readings.csv"):
            os.remove("readings.csv")
        base = datetime(2024, 3, 1, 8, 0)
        for i, (s, v) in enumerate([("t1", 20.5), ("t2", 19.0), ("t1", 21.0)]):
            append_reading("readings.csv", s, v, base.replace(minute=i))
        with open("readings.csv") as f:
            lines = f.read().splitlines()
        self.assertEqual(lines[0], "timestamp,sensor,value")
        self.assertEqual(len(lines), 4)
        self.assertEqual(latest_by_sensor("readings.csv"), {"t1": ("2024-03-01T08:02:00", 21.0), "t2": ("2024-03-01T08:01:00", 19.0)})


if __name__ == "__main__":
    append_reading("demo.csv", "hum", 55, datetime(2024, 1, 1))
    print(open("demo.csv").read(), end="")
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
