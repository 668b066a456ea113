# ruff: noqa
import csv
import unittest
from datetime import date, timedelta


def write_readings(path, start, temps):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["day", "temp_c"])
        for i, t in enumerate(temps):
            w.writerow([(start + timedelta(days=i)).isoformat(), t])


def heatwaves(path, threshold=30, min_days=3):
    waves, run = [], []
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if float(row["temp_c"]) >= threshold:
                run.append(row["day"])
            else:
                if len(run) >= min_days:
                    waves.append((run[0], run[-1]))
                run = []
    if len(run) >= min_days:
        waves.append((run[0], run[-1]))
    return waves


class HeatwaveTest(unittest.TestCase):
    def test_detect(self):
        write_readings("july.csv", date(2024, 7, 1), [28, 31, 32, 30, 25, 33, 34, 29, 31, 31, 31, 31])
        self.assertEqual(heatwaves("july.csv"), [("2024-07-02", "2024-07-04"), ("2024-07-09", "2024-07-12")])
        self.assertEqual(heatwaves("july.csv", min_days=4), [("2024-07-09", "2024-07-12")])


if __name__ == "__main__":
    write_readings("aug.csv", date(2024, 8, 1), [35, 36, 37, 20])
    print(heatwaves("aug.csv"))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
