# ruff: noqa
import unittest
from datetime import datetime, time, timedelta

OPEN, CLOSE = time(9), time(17)


def working_time(start, end):
    """Working time between two datetimes, counting only Mon-Fri 09:00-17:00."""
    total = timedelta()
    day = start.date()
    while day <= end.date():
        if day.weekday() < 5:
            s = max(start, datetime.combine(day, OPEN))
            e = min(end, datetime.combine(day, CLOSE))
            if e > s:
                total += e - s
        day += timedelta(days=1)
    return total


class WorkingTimeTest(unittest.TestCase):
    def test_same_day(self):
        self.assertEqual(working_time(datetime(2024, 5, 6, 8), datetime(2024, 5, 6, 12, 30)), timedelta(hours=3, minutes=30))

    def test_over_weekend(self):
        self.assertEqual(working_time(datetime(2024, 5, 10, 16), datetime(2024, 5, 13, 10)), timedelta(hours=2))

    def test_sla_breach(self):
        opened = datetime(2024, 5, 9, 15, 0)
        self.assertGreater(working_time(opened, datetime(2024, 5, 13, 9, 30)), timedelta(hours=8))


if __name__ == "__main__":
    print(working_time(datetime(2024, 12, 23, 10), datetime(2024, 12, 27, 12)))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
