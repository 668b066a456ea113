# ruff: noqa
import os
from pathlib import Path


def snapshot(folder):
    """Name -> (size, is_dir) for the direct children of *folder*.

    >>> base = Path("snap"); base.mkdir(exist_ok=True)
    >>> (base / "empty.txt").touch()
    >>> _ = (base / "data.bin").write_bytes(b"1234")
    >>> (base / "nested").mkdir(exist_ok=True)
    >>> snapshot(base)
    {'data.bin': (4, False), 'empty.txt': (0, False), 'nested': (0, True)}
    >>> (base / "empty.txt").touch(exist_ok=True)
    >>> try:
    ...     (base / "empty.txt").touch(exist_ok=False)
    ... except FileExistsError:
    ...     print("exists")
    exists
    >>> sorted(os.path.basename(p) for p in base.iterdir() if p.is_file())
    ['data.bin', 'empty.txt']
    """
    return {p.name: (0 if p.is_dir() else p.stat().st_size, p.is_dir()) for p in sorted(Path(folder).iterdir())}


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
