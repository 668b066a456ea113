# ruff: noqa
"""Business-day helpers."""
from datetime import date, timedelta

HOLIDAYS = {date(2024, 12, 25), date(2024, 12, 26), date(2025, 1, 1)}


def is_business_day(d, holidays=HOLIDAYS):
    """
    >>> is_business_day(date(2024, 12, 24))
    True
    >>> is_business_day(date(2024, 12, 25))
    False
    >>> is_business_day(date(2024, 12, 28))
    False
    """
    return d.weekday() < 5 and d not in holidays


def add_business_days(start, n, holidays=HOLIDAYS):
    """Add *n* business days to *start*.

    >>> add_business_days(date(2024, 12, 23), 3)
    datetime.date(2024, 12, 30)
    >>> add_business_days(date(2024, 12, 31), 1).isoformat()
    '2025-01-02'
    >>> add_business_days(date(2024, 3, 1), 0)
    datetime.date(2024, 3, 1)
    """
    current = start
    while n > 0:
        current += timedelta(days=1)
        if is_business_day(current, holidays):
            n -= 1
    return current


def business_days_between(a, b):
    """
    >>> business_days_between(date(2024, 12, 20), date(2025, 1, 3))
    7
    """
    count = 0
    d = a
    while d < b:
        d += timedelta(days=1)
        if is_business_day(d):
            count += 1
    return count


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
