# ruff: noqa
from datetime import datetime

FORMATS = ["%Y-%m-%d", "%d/%m/%Y", "%b %d, %Y", "%Y-%m-%dT%H:%M:%S", "%d %B %Y %H:%M", "%Y%m%d"]


def parse_any(text):
    """Try several formats in turn.

    >>> for s in ["2024-03-09", "09/03/2024", "Mar 9, 2024", "2024-03-09T14:30:00", "9 March 2024 08:05", "20240309"]:
    ...     print(parse_any(s).isoformat())
    2024-03-09T00:00:00
    2024-03-09T00:00:00
    2024-03-09T00:00:00
    2024-03-09T14:30:00
    2024-03-09T08:05:00
    2024-03-09T00:00:00
    >>> parse_any("yesterday")
    Traceback (most recent call last):
    ...
    ValueError: unrecognised date: 'yesterday'
    """
    for fmt in FORMATS:
        try:
            return datetime.strptime(text.strip(), fmt)
        except ValueError:
            continue
    raise ValueError(f"unrecognised date: {text!r}")


def humanise(delta_seconds):
    """
    >>> [humanise(s) for s in (5, 90, 3600 * 5, 86400 * 3, 86400 * 400)]
    ['just now', '1 minute ago', '5 hours ago', '3 days ago', '1 year ago']
    """
    for unit, size in (("year", 31536000), ("day", 86400), ("hour", 3600), ("minute", 60)):
        n = int(delta_seconds // size)
        if n:
            return f"{n} {unit}{'s' if n > 1 else ''} ago"
    return "just now"


def week_label(text):
    """
    >>> week_label("2024-12-30")
    '2025-W01'
    """
    y, w, _ = parse_any(text).isocalendar()
    return f"{y}-W{w:02d}"


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
