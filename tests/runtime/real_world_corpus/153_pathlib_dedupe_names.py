# ruff: noqa
from pathlib import Path


def unique_path(folder, name):
    """Return folder/name, or folder/name (1), (2)... if taken.

    >>> d = Path("uploads"); d.mkdir(exist_ok=True)
    >>> for _ in range(3):
    ...     p = unique_path(d, "photo.jpg"); _ = p.write_bytes(b""); print(p.name)
    photo.jpg
    photo (1).jpg
    photo (2).jpg
    >>> unique_path(d, "README").name
    'README'
    >>> sorted(p.name for p in d.iterdir())
    ['photo (1).jpg', 'photo (2).jpg', 'photo.jpg']
    """
    candidate = Path(folder) / name
    stem, suffix = candidate.stem, candidate.suffix
    n = 1
    while candidate.exists():
        candidate = candidate.with_name(f"{stem} ({n}){suffix}")
        n += 1
    return candidate


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
