# ruff: noqa
import os
import shutil
import tempfile
from datetime import date
from pathlib import Path


def archive_by_month(inbox, archive):
    """Move files named like 'invoice-2024-03-15.pdf' into archive/YYYY/MM/.

    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     inbox = Path(tmp, "inbox"); inbox.mkdir()
    ...     for n in ["invoice-2024-03-15.pdf", "invoice-2024-03-02.pdf", "receipt-2023-12-31.png", "random.txt"]:
    ...         _ = (inbox / n).write_text(n)
    ...     moved = archive_by_month(inbox, Path(tmp, "archive"))
    ...     print(moved)
    ...     print(sorted(p.relative_to(tmp).as_posix() for p in Path(tmp).rglob("*.*")))
    3
    ['archive/2023/12/receipt-2023-12-31.png', 'archive/2024/03/invoice-2024-03-02.pdf', 'archive/2024/03/invoice-2024-03-15.pdf', 'inbox/random.txt']
    """
    moved = 0
    for path in sorted(Path(inbox).iterdir()):
        d = extract_date(path.name)
        if d is None:
            continue
        target = Path(archive, f"{d.year:04d}", f"{d.month:02d}")
        target.mkdir(parents=True, exist_ok=True)
        shutil.move(os.fspath(path), os.fspath(target / path.name))
        moved += 1
    return moved


def extract_date(name):
    """
    >>> extract_date("scan-2024-02-29.jpg")
    datetime.date(2024, 2, 29)
    >>> extract_date("scan-2023-02-29.jpg") is None
    True
    """
    import re
    m = re.search(r"(\d{4})-(\d{2})-(\d{2})", name)
    if not m:
        return None
    try:
        return date(*map(int, m.groups()))
    except ValueError:
        return None


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
