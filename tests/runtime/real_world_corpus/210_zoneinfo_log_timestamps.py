# ruff: noqa
import unittest
from datetime import datetime
from zoneinfo import ZoneInfo

LINES = ["2024-10-27T00:30:00+02:00 login", "2024-10-27T02:30:00+01:00 logout", "2024-10-26T23:59:00+00:00 ping"]


def normalise(lines, tz="Europe/Amsterdam"):
    out = []
    for line in lines:
        stamp, event = line.split(" ", 1)
        dt = datetime.fromisoformat(stamp).astimezone(ZoneInfo(tz))
        out.append((dt, event))
    return [f"{dt:%Y-%m-%d %H:%M %Z} {e}" for dt, e in sorted(out)]


class NormaliseTest(unittest.TestCase):
    def test_sorted_local(self):
        self.assertEqual(normalise(LINES), ["2024-10-27 00:30 CEST login", "2024-10-27 01:59 CEST ping", "2024-10-27 02:30 CET logout"])

    def test_utc(self):
        self.assertEqual(normalise(LINES[:1], "UTC"), ["2024-10-26 22:30 UTC login"])


if __name__ == "__main__":
    print("\n".join(normalise(LINES, "America/Toronto")))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
