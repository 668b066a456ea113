# ruff: noqa
import tempfile
from collections import Counter
from pathlib import Path


def populate(root):
    for rel in ["a.py", "b.py", "docs/x.md", "docs/y.MD", "img/p.png", "img/q.png", "img/r.PNG", "LICENSE", "archive.tar.gz"]:
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(b"0" * len(rel))


def suffix_stats(root):
    """
    >>> with tempfile.TemporaryDirectory() as d:
    ...     root = Path(d)
    ...     populate(root)
    ...     for suffix, (n, size) in suffix_stats(root).items():
    ...         print(f"{suffix or '(none)':<8}{n:>3}{size:>5}")
    .gz       1   14
    .md       2   18
    .png      3   27
    .py       2    8
    (none)    1    7
    """
    counts, sizes = Counter(), Counter()
    for p in root.rglob("*"):
        if p.is_file():
            counts[p.suffix.lower()] += 1
            sizes[p.suffix.lower()] += p.stat().st_size
    return {s: (counts[s], sizes[s]) for s in sorted(counts, key=lambda s: (s == "", s))}


def parts_demo():
    """
    >>> p = Path("archive/2024/report.final.tar.gz")
    >>> p.name, p.stem, p.suffix, p.suffixes, p.parent.name
    ('report.final.tar.gz', 'report.final.tar', '.gz', ['.final', '.tar', '.gz'], '2024')
    >>> p.with_suffix(".zip").as_posix(), p.parts[:2]
    ('archive/2024/report.final.tar.zip', ('archive', '2024'))
    """


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
