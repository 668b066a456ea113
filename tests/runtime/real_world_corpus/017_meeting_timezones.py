# ruff: noqa
"""Schedule a meeting across fixed-offset time zones."""
from datetime import datetime, timedelta, timezone

OFFICES = {
    "London": timezone(timedelta(hours=0), "GMT"),
    "New York": timezone(timedelta(hours=-5), "EST"),
    "Bangalore": timezone(timedelta(hours=5, minutes=30), "IST"),
    "Tokyo": timezone(timedelta(hours=9), "JST"),
}


def local_times(utc_start):
    """Local wall-clock time in every office.

    >>> for city, t in local_times(datetime(2024, 1, 15, 14, 0, tzinfo=timezone.utc)):
    ...     print(f"{city:<10} {t:%a %H:%M %Z}")
    Bangalore  Mon 19:30 IST
    London     Mon 14:00 GMT
    New York   Mon 09:00 EST
    Tokyo      Mon 23:00 JST
    """
    return [(city, utc_start.astimezone(tz)) for city, tz in sorted(OFFICES.items())]


def is_working_hours(t, start=9, end=18):
    """
    >>> is_working_hours(datetime(2024, 1, 15, 9, 0))
    True
    >>> is_working_hours(datetime(2024, 1, 13, 10, 0))
    False
    """
    return t.weekday() < 5 and start <= t.hour < end


def best_slots(day, hours=range(24)):
    """UTC hours on *day* when the most offices are at work, and how many.

    >>> best_slots(datetime(2024, 1, 15, tzinfo=timezone.utc))
    ([4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 15, 16, 17], 2)
    """
    scored = []
    for h in hours:
        t = day.replace(hour=h)
        score = sum(is_working_hours(lt) for _, lt in local_times(t))
        scored.append((h, score))
    top = max(s for _, s in scored)
    return [h for h, s in scored if s == top], top


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
