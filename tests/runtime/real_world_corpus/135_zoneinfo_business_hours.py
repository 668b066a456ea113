# ruff: noqa
import unittest
from datetime import datetime, time
from zoneinfo import ZoneInfo

OFFICES = {"paris": "Europe/Paris", "sydney": "Australia/Sydney", "chicago": "America/Chicago"}


def open_offices(utc_dt, start=time(9), end=time(17)):
    result = []
    for office, tz in sorted(OFFICES.items()):
        local = utc_dt.astimezone(ZoneInfo(tz))
        if local.weekday() < 5 and start <= local.time() < end:
            result.append(office)
    return result


class OfficeHoursTest(unittest.TestCase):
    def test_morning_utc(self):
        self.assertEqual(open_offices(datetime(2024, 1, 16, 9, 0, tzinfo=ZoneInfo("UTC"))), ["paris"])

    def test_afternoon_utc(self):
        self.assertEqual(open_offices(datetime(2024, 1, 16, 15, 30, tzinfo=ZoneInfo("UTC"))), ["chicago", "paris"])

    def test_sydney(self):
        self.assertEqual(open_offices(datetime(2024, 1, 16, 23, 0, tzinfo=ZoneInfo("UTC"))), ["sydney"])

    def test_offsets(self):
        dt = datetime(2024, 7, 1, 12, tzinfo=ZoneInfo("UTC"))
        offsets = {o: dt.astimezone(ZoneInfo(tz)).utcoffset().total_seconds() / 3600 for o, tz in OFFICES.items()}
        self.assertEqual(offsets, {"paris": 2.0, "sydney": 10.0, "chicago": -5.0})


if __name__ == "__main__":
    for hour in (0, 8, 14, 20):
        print(hour, open_offices(datetime(2024, 3, 5, hour, tzinfo=ZoneInfo("UTC"))))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
