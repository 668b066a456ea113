# ruff: noqa
from datetime import date


def age_on(birthday, today):
    """Age in whole years on *today*.

    >>> age_on(date(1990, 6, 15), date(2024, 6, 14))
    33
    >>> age_on(date(1990, 6, 15), date(2024, 6, 15))
    34
    >>> age_on(date(2000, 2, 29), date(2023, 2, 28))
    22
    >>> age_on(date(2000, 2, 29), date(2023, 3, 1))
    23
    """
    years = today.year - birthday.year
    if (today.month, today.day) < (birthday.month, birthday.day):
        years -= 1
    return years


def next_birthday(birthday, today):
    """
    >>> next_birthday(date(1990, 6, 15), date(2024, 6, 16))
    datetime.date(2025, 6, 15)
    >>> next_birthday(date(2000, 2, 29), date(2023, 1, 1))
    datetime.date(2023, 3, 1)
    """
    for year in (today.year, today.year + 1):
        try:
            candidate = birthday.replace(year=year)
        except ValueError:
            candidate = date(year, 3, 1)
        if candidate >= today:
            return candidate


def days_until_birthday(birthday, today):
    """
    >>> days_until_birthday(date(1985, 12, 25), date(2024, 12, 1))
    24
    """
    return (next_birthday(birthday, today) - today).days


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
