# ruff: noqa
import re
from datetime import timedelta


def parse_duration(text):
    """Parse '1h30m', '2d 4h', '45s', '1w' into a timedelta.

    >>> parse_duration("1h30m")
    datetime.timedelta(seconds=5400)
    >>> parse_duration("2d 4h")
    datetime.timedelta(days=2, seconds=14400)
    >>> parse_duration("1w") == timedelta(weeks=1)
    True
    >>> parse_duration("soon")
    Traceback (most recent call last):
    ...
    ValueError: bad duration: 'soon'
    """
    units = {"w": "weeks", "d": "days", "h": "hours", "m": "minutes", "s": "seconds"}
    parts = re.findall(r"(\d+)\s*([wdhms])", text)
    if not parts or re.sub(r"[\d\swdhms]", "", text):
        raise ValueError(f"bad duration: {text!r}")
    return timedelta(**{units[u]: int(n) for n, u in parts})


def format_duration(td):
    """
    >>> format_duration(timedelta(days=1, hours=2, minutes=3, seconds=4))
    '1d 2h 3m 4s'
    >>> format_duration(timedelta(0))
    '0s'
    >>> format_duration(parse_duration("90m"))
    '1h 30m'
    """
    secs = int(td.total_seconds())
    out = []
    for label, size in (("d", 86400), ("h", 3600), ("m", 60), ("s", 1)):
        n, secs = divmod(secs, size)
        if n:
            out.append(f"{n}{label}")
    return " ".join(out) or "0s"


def total_time(entries):
    """
    >>> total_time(["1h", "45m", "30m", "2h15m"])
    '4h 30m'
    """
    return format_duration(sum((parse_duration(e) for e in entries), timedelta()))


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
