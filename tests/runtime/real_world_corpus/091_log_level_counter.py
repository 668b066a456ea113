# ruff: noqa
"""Count log levels, then archive the log.

>>> make_log(Path("logs/app.log"))
5
>>> count_levels(Path("logs/app.log"))
{'ERROR': 2, 'INFO': 2, 'WARNING': 1}
>>> archive(Path("logs/app.log"), Path("logs/archive")).as_posix()
'logs/archive/app.log.1'
>>> sorted(p.as_posix() for p in Path("logs").rglob("*"))
['logs/archive', 'logs/archive/app.log.1']
"""
import logging
import re
import shutil
from pathlib import Path


def make_log(path):
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = ["2024-05-01 10:00:00 INFO start", "2024-05-01 10:00:01 WARNING disk 91%",
             "2024-05-01 10:00:02 ERROR db timeout", "2024-05-01 10:00:03 INFO retry", "2024-05-01 10:00:04 ERROR db timeout"]
    path.write_text("\n".join(lines) + "\n")
    return len(lines)


def count_levels(path):
    counts = {}
    for line in path.read_text().splitlines():
        m = re.match(r"\S+ \S+ (\w+) ", line)
        if m and m.group(1) in logging.getLevelNamesMapping():
            counts[m.group(1)] = counts.get(m.group(1), 0) + 1
    return dict(sorted(counts.items()))


def archive(path, dest_dir):
    dest_dir.mkdir(exist_ok=True)
    n = len(list(dest_dir.glob(path.name + ".*"))) + 1
    return Path(shutil.move(path, dest_dir / f"{path.name}.{n}"))


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
