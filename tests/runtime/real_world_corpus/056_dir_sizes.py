# ruff: noqa
import os
import tempfile


def dir_sizes(root):
    """Total bytes per top-level directory (files at the root count as '.').

    >>> with tempfile.TemporaryDirectory() as root:
    ...     for rel, size in [("logs/a.log", 300), ("logs/old/b.log", 200), ("img/x.png", 1000), ("top.txt", 5)]:
    ...         path = os.path.join(root, *rel.split("/"))
    ...         os.makedirs(os.path.dirname(path), exist_ok=True)
    ...         with open(path, "wb") as f:
    ...             _ = f.write(b"\\0" * size)
    ...     print(dir_sizes(root))
    [('img', 1000), ('logs', 500), ('.', 5)]
    """
    totals = {}
    for dirpath, _dirs, files in os.walk(root):
        rel = os.path.relpath(dirpath, root)
        top = rel.split(os.sep)[0]
        for name in files:
            totals[top] = totals.get(top, 0) + os.path.getsize(os.path.join(dirpath, name))
    return sorted(totals.items(), key=lambda kv: (-kv[1], kv[0]))


def find_empty_dirs(root):
    """
    >>> with tempfile.TemporaryDirectory() as root:
    ...     for d in ("a/b/c", "a/d", "e"):
    ...         os.makedirs(os.path.join(root, d))
    ...     open(os.path.join(root, "a", "d", "f.txt"), "w").close()
    ...     print(find_empty_dirs(root))
    ['a/b/c', 'e']
    """
    empty = []
    for dirpath, dirs, files in os.walk(root):
        if not dirs and not files:
            empty.append(os.path.relpath(dirpath, root).replace(os.sep, "/"))
    return sorted(empty)


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
