# ruff: noqa
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo


def daily_reminders(first_local, tz, days):
    """A reminder at the same local wall-clock time every day, as UTC instants.

    >>> for t in daily_reminders(datetime(2024, 3, 29, 9, 0), "Europe/Berlin", 4):
    ...     print(t.strftime("%m-%d %H:%M UTC"))
    03-29 08:00 UTC
    03-30 08:00 UTC
    03-31 07:00 UTC
    04-01 07:00 UTC
    """
    zone = ZoneInfo(tz)
    return [(first_local + timedelta(days=i)).replace(tzinfo=zone).astimezone(timezone.utc) for i in range(days)]


def is_ambiguous(local, tz):
    """True for wall-clock times that happen twice (DST fall back).

    >>> is_ambiguous(datetime(2024, 11, 3, 1, 30), "America/New_York")
    True
    >>> is_ambiguous(datetime(2024, 11, 3, 3, 30), "America/New_York")
    False
    """
    z = ZoneInfo(tz)
    return local.replace(tzinfo=z, fold=0).utcoffset() != local.replace(tzinfo=z, fold=1).utcoffset()


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
