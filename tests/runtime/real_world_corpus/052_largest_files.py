# ruff: noqa
from pathlib import Path


def human_size(n):
    """
    >>> [human_size(n) for n in (0, 999, 1024, 1536, 5 * 1024 ** 2, 3 * 1024 ** 3)]
    ['0 B', '999 B', '1.0 KiB', '1.5 KiB', '5.0 MiB', '3.0 GiB']
    """
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024


def largest(root, n=3, pattern="*"):
    """
    >>> root = Path("workspace")
    >>> for rel, size in {"a/big.bin": 5000, "a/small.txt": 10, "b/medium.dat": 1500, "c.txt": 2048, "b/deep/x.log": 700}.items():
    ...     p = root / rel
    ...     p.parent.mkdir(parents=True, exist_ok=True)
    ...     _ = p.write_bytes(b"x" * size)
    >>> for path, size in largest(root):
    ...     print(f"{path:<14}{human_size(size):>10}")
    a/big.bin        4.9 KiB
    c.txt            2.0 KiB
    b/medium.dat     1.5 KiB
    >>> [p for p, _ in largest(root, 10, "*.txt")]
    ['c.txt', 'a/small.txt']
    """
    files = [(p.relative_to(root).as_posix(), p.stat().st_size) for p in root.rglob(pattern) if p.is_file()]
    return sorted(files, key=lambda t: (-t[1], t[0]))[:n]


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
