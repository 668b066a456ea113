# ruff: noqa
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo


def arrival(depart_local, depart_tz, duration, arrive_tz):
    """Local arrival time of a flight.

    >>> a = arrival(datetime(2024, 3, 30, 22, 0), "Europe/Paris", timedelta(hours=8, minutes=30), "America/New_York")
    >>> a.strftime("%Y-%m-%d %H:%M %Z")
    '2024-03-31 01:30 EDT'
    >>> arrival(datetime(2024, 7, 1, 9, 0), "Asia/Tokyo", timedelta(hours=12), "Europe/London").strftime("%H:%M %Z")
    '13:00 BST'
    """
    start = depart_local.replace(tzinfo=ZoneInfo(depart_tz))
    # add elapsed time in UTC: wall-clock arithmetic would be wrong across a DST change
    return (start.astimezone(ZoneInfo("UTC")) + duration).astimezone(ZoneInfo(arrive_tz))


def dst_gap(day, tz):
    """Hours in a local day (23 or 25 across DST changes).

    >>> dst_gap(datetime(2024, 3, 31), "Europe/Paris"), dst_gap(datetime(2024, 10, 27), "Europe/Paris")
    (23.0, 25.0)
    >>> dst_gap(datetime(2024, 6, 1), "UTC")
    24.0
    """
    z = ZoneInfo(tz)
    start = day.replace(tzinfo=z)
    end = (day + timedelta(days=1)).replace(tzinfo=z)
    return (end.astimezone(ZoneInfo("UTC")) - start.astimezone(ZoneInfo("UTC"))).total_seconds() / 3600


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
