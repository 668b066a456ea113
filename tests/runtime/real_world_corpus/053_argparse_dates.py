# ruff: noqa
import argparse
import contextlib
import io
import unittest
from datetime import date, timedelta


def iso_date(text):
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a date: {text!r}")


def parse(argv):
    p = argparse.ArgumentParser(prog="timesheet")
    p.add_argument("--start", type=iso_date, required=True)
    p.add_argument("--end", type=iso_date)
    p.add_argument("--days", type=int, default=7)
    p.add_argument("--skip-weekends", action="store_true")
    ns = p.parse_args(argv)
    if ns.end is None:
        ns.end = ns.start + timedelta(days=ns.days - 1)
    if ns.end < ns.start:
        p.error("--end is before --start")
    return ns


def days(ns):
    d, out = ns.start, []
    while d <= ns.end:
        if not (ns.skip_weekends and d.weekday() >= 5):
            out.append(d.strftime("%a %d %b"))
        d += timedelta(days=1)
    return out


class TimesheetArgs(unittest.TestCase):
    def test_default_week(self):
        self.assertEqual(len(days(parse(["--start", "2024-04-01"]))), 7)

    def test_weekdays_only(self):
        out = days(parse(["--start", "2024-04-05", "--end", "2024-04-09", "--skip-weekends"]))
        self.assertEqual(out, ["Fri 05 Apr", "Mon 08 Apr", "Tue 09 Apr"])

    def test_bad_date(self):
        err = io.StringIO()
        with contextlib.redirect_stderr(err), self.assertRaises(SystemExit):
            parse(["--start", "2024-13-01"])
        self.assertIn("not a date: '2024-13-01'", err.getvalue())

    def test_reversed(self):
        err = io.StringIO()
        with contextlib.redirect_stderr(err), self.assertRaises(SystemExit):
            parse(["--start", "2024-04-05", "--end", "2024-04-01"])
        self.assertIn("--end is before --start", err.getvalue())


if __name__ == "__main__":
    print(days(parse(["--start", "2024-02-26", "--days", "5"])))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
