# ruff: noqa
from datetime import date


def months_between(start, end):
    """Whole months from start to end.

    >>> months_between(date(2024, 1, 31), date(2024, 2, 29))
    0
    >>> months_between(date(2024, 1, 15), date(2024, 7, 15))
    6
    >>> months_between(date(2023, 11, 20), date(2025, 1, 19))
    13
    """
    months = (end.year - start.year) * 12 + end.month - start.month
    if end.day < start.day:
        months -= 1
    return months


def add_months(d, n):
    """
    >>> add_months(date(2024, 1, 31), 1)
    datetime.date(2024, 2, 29)
    >>> add_months(date(2024, 12, 15), 3)
    datetime.date(2025, 3, 15)
    >>> add_months(date(2024, 3, 31), -1)
    datetime.date(2024, 2, 29)
    """
    import calendar
    y, m = divmod(d.month - 1 + n, 12)
    year, month = d.year + y, m + 1
    return date(year, month, min(d.day, calendar.monthrange(year, month)[1]))


def amortization(principal, annual_rate, months, start):
    """
    >>> for row in amortization(1200, 0.12, 3, date(2024, 1, 31)):
    ...     print(row)
    ('2024-02-29', 408.03, 396.03, 803.97)
    ('2024-03-31', 408.03, 399.99, 403.98)
    ('2024-04-30', 408.03, 403.98, 0.0)
    """
    r = annual_rate / 12
    payment = round(principal * r / (1 - (1 + r) ** -months), 2)
    rows, balance = [], principal
    for i in range(1, months + 1):
        interest = round(balance * r, 2)
        capital = round(min(payment - interest, balance), 2)
        balance = round(balance - capital, 2)
        rows.append((add_months(start, i).isoformat(), payment, capital, balance))
    return rows


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
