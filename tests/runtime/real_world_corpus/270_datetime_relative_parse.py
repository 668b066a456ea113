# ruff: noqa
import re
import unittest
from datetime import date, timedelta

WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]


def parse_relative(text, today):
    text = text.strip().lower()
    if text == "today":
        return today
    if text == "tomorrow":
        return today + timedelta(days=1)
    if text == "yesterday":
        return today - timedelta(days=1)
    m = re.fullmatch(r"in (\d+) (day|week)s?", text)
    if m:
        n = int(m.group(1)) * (7 if m.group(2) == "week" else 1)
        return today + timedelta(days=n)
    m = re.fullmatch(r"next (\w+)", text)
    if m and m.group(1) in WEEKDAYS:
        delta = (WEEKDAYS.index(m.group(1)) - today.weekday()) % 7 or 7
        return today + timedelta(days=delta)
    raise ValueError(f"cannot parse {text!r}")


class RelativeTest(unittest.TestCase):
    TODAY = date(2024, 5, 15)  # a Wednesday

    def test_cases(self):
        cases = {"today": date(2024, 5, 15), "Tomorrow": date(2024, 5, 16), "in 3 days": date(2024, 5, 18),
                 "in 2 weeks": date(2024, 5, 29), "next friday": date(2024, 5, 17), "next wednesday": date(2024, 5, 22)}
        for text, expected in cases.items():
            with self.subTest(text=text):
                self.assertEqual(parse_relative(text, self.TODAY), expected)

    def test_bad(self):
        with self.assertRaises(ValueError):
            parse_relative("someday", self.TODAY)


if __name__ == "__main__":
    for t in ("yesterday", "next monday"):
        print(t, parse_relative(t, date(2024, 12, 31)))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
