# ruff: noqa
from datetime import date, timedelta
import calendar


def monthly_on_day(start, day, count):
    """Occurrences on *day* of each month, clamped to the month's last day.

    >>> [d.isoformat() for d in monthly_on_day(date(2024, 1, 1), 31, 4)]
    ['2024-01-31', '2024-02-29', '2024-03-31', '2024-04-30']
    """
    out, y, m = [], start.year, start.month
    while len(out) < count:
        last = calendar.monthrange(y, m)[1]
        d = date(y, m, min(day, last))
        if d >= start:
            out.append(d)
        y, m = (y + 1, 1) if m == 12 else (y, m + 1)
    return out


def weekly(start, weekdays, until):
    """
    >>> [d.strftime("%a %d") for d in weekly(date(2024, 7, 1), {"Mon", "Thu"}, date(2024, 7, 14))]
    ['Mon 01', 'Thu 04', 'Mon 08', 'Thu 11']
    """
    names = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    wanted = {names.index(w) for w in weekdays}
    d, out = start, []
    while d <= until:
        if d.weekday() in wanted:
            out.append(d)
        d += timedelta(days=1)
    return out


def next_occurrence(rule_dates, today):
    """
    >>> next_occurrence(monthly_on_day(date(2024, 1, 1), 15, 12), date(2024, 5, 16))
    datetime.date(2024, 6, 15)
    >>> next_occurrence([], date(2024, 1, 1)) is None
    True
    """
    return next((d for d in sorted(rule_dates) if d >= today), None)


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
