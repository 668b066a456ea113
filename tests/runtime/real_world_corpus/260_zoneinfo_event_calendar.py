# ruff: noqa
from datetime import datetime
from zoneinfo import ZoneInfo


def agenda(events, viewer_tz):
    """Show events (stored with their own zones) in the viewer's zone, sorted.

    >>> events = [("Standup", datetime(2024, 11, 4, 9, 30, tzinfo=ZoneInfo("America/Los_Angeles"))),
    ...           ("Lunch", datetime(2024, 11, 4, 12, 0, tzinfo=ZoneInfo("Europe/London"))),
    ...           ("Review", datetime(2024, 11, 5, 8, 0, tzinfo=ZoneInfo("Asia/Kolkata")))]
    >>> for line in agenda(events, "Europe/Berlin"):
    ...     print(line)
    Mon 04 Nov 13:00 CET  Lunch
    Mon 04 Nov 18:30 CET  Standup
    Tue 05 Nov 03:30 CET  Review
    """
    zone = ZoneInfo(viewer_tz)
    local = sorted((dt.astimezone(zone), name) for name, dt in events)
    return [f"{dt:%a %d %b %H:%M %Z}  {name}" for dt, name in local]


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
