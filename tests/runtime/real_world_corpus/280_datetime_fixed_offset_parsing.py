# ruff: noqa
from datetime import datetime, timedelta, timezone


def parse_rfc3339(text):
    """
    >>> parse_rfc3339("2024-02-29T23:30:00Z")
    datetime.datetime(2024, 2, 29, 23, 30, tzinfo=datetime.timezone.utc)
    >>> parse_rfc3339("2024-03-01T05:00:00+05:30").astimezone(timezone.utc).isoformat()
    '2024-02-29T23:30:00+00:00'
    """
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def same_instant(a, b):
    """
    >>> same_instant("2024-02-29T23:30:00Z", "2024-03-01T05:00:00+05:30")
    True
    """
    return parse_rfc3339(a) == parse_rfc3339(b)


def to_offset(text, hours):
    """
    >>> to_offset("2024-06-01T12:00:00+00:00", -7).strftime("%Y-%m-%d %H:%M %z")
    '2024-06-01 05:00 -0700'
    """
    return parse_rfc3339(text).astimezone(timezone(timedelta(hours=hours)))


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
