# ruff: noqa
import unittest
from datetime import date, timedelta


def week_range(year, week):
    monday = date.fromisocalendar(year, week, 1)
    return monday, monday + timedelta(days=6)


def weeks_in_year(year):
    return date(year, 12, 28).isocalendar().week


def group_by_week(days):
    out = {}
    for d in days:
        y, w, _ = d.isocalendar()
        out.setdefault(f"{y}-W{w:02d}", []).append(d.day)
    return out


class IsoWeekTest(unittest.TestCase):
    def test_range(self):
        self.assertEqual(week_range(2025, 1), (date(2024, 12, 30), date(2025, 1, 5)))

    def test_53_weeks(self):
        self.assertEqual({y: weeks_in_year(y) for y in (2020, 2021, 2026)}, {2020: 53, 2021: 52, 2026: 53})

    def test_grouping(self):
        days = [date(2024, 12, 29) + timedelta(days=i) for i in range(10)]
        self.assertEqual(group_by_week(days), {"2024-W52": [29], "2025-W01": [30, 31, 1, 2, 3, 4, 5], "2025-W02": [6, 7]})


if __name__ == "__main__":
    for w in (1, 26, 52):
        print(w, *week_range(2024, w))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
