# ruff: noqa
import calendar
from datetime import date


def month_grid(year, month):
    """
    >>> print(month_grid(2024, 2))
       February 2024
    Mo Tu We Th Fr Sa Su
              1  2  3  4
     5  6  7  8  9 10 11
    12 13 14 15 16 17 18
    19 20 21 22 23 24 25
    26 27 28 29
    """
    return calendar.TextCalendar(calendar.MONDAY).formatmonth(year, month).rstrip("\n").replace(" \n", "\n").rstrip()


def nth_weekday(year, month, weekday, n):
    """The n-th given weekday of a month (n=-1 for the last).

    >>> nth_weekday(2024, 11, calendar.THURSDAY, 4)   # US Thanksgiving
    datetime.date(2024, 11, 28)
    >>> nth_weekday(2024, 5, calendar.MONDAY, -1)      # last Monday of May
    datetime.date(2024, 5, 27)
    """
    days = [d for d in calendar.Calendar().itermonthdates(year, month) if d.month == month and d.weekday() == weekday]
    return days[n - 1] if n > 0 else days[n]


def leap_years(start, end):
    """
    >>> leap_years(1896, 1912)
    [1896, 1904, 1908]
    >>> calendar.leapdays(2000, 2025)
    7
    """
    return [y for y in range(start, end) if calendar.isleap(y)]


def weekday_name(d):
    """
    >>> weekday_name(date(2024, 7, 4))
    'Thursday'
    """
    return calendar.day_name[d.weekday()]


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
