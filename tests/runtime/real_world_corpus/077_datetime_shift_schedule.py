# ruff: noqa
import unittest
from datetime import date, datetime, time, timedelta

SHIFTS = {"morning": (time(6), time(14)), "evening": (time(14), time(22)), "night": (time(22), time(6))}


def shift_hours(name):
    start, end = SHIFTS[name]
    s = datetime.combine(date(2000, 1, 1), start)
    e = datetime.combine(date(2000, 1, 1), end)
    if e <= s:
        e += timedelta(days=1)
    return (e - s).total_seconds() / 3600


def rota(workers, start, days):
    names = list(SHIFTS)
    plan = []
    for d in range(days):
        day = start + timedelta(days=d)
        for i, worker in enumerate(workers):
            plan.append((day.isoformat(), worker, names[(i + d) % len(names)]))
    return plan


def weekly_hours(plan):
    totals = {}
    for _, worker, shift in plan:
        totals[worker] = totals.get(worker, 0) + shift_hours(shift)
    return dict(sorted(totals.items()))


class RotaTest(unittest.TestCase):
    def test_night_crosses_midnight(self):
        self.assertEqual(shift_hours("night"), 8.0)

    def test_rotation(self):
        plan = rota(["ann", "bob", "cy"], date(2024, 5, 6), 2)
        self.assertEqual(plan[:3], [("2024-05-06", "ann", "morning"), ("2024-05-06", "bob", "evening"), ("2024-05-06", "cy", "night")])
        self.assertEqual(plan[3], ("2024-05-07", "ann", "evening"))

    def test_hours(self):
        self.assertEqual(weekly_hours(rota(["ann", "bob"], date(2024, 5, 6), 5)), {"ann": 40.0, "bob": 40.0})


if __name__ == "__main__":
    for row in rota(["ann", "bob"], date(2024, 12, 30), 3):
        print(*row)
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
