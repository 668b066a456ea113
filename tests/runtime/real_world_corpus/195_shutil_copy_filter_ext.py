# ruff: noqa
import os
import shutil
import tempfile


def copy_only(src, dst, extensions):
    """Copy a tree keeping only files with the given extensions.

    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     for rel in ["a.py", "b.txt", "pkg/c.py", "pkg/d.pyc", "pkg/data/e.json", "docs/f.md"]:
    ...         p = os.path.join(tmp, "src", rel)
    ...         os.makedirs(os.path.dirname(p), exist_ok=True)
    ...         open(p, "w").close()
    ...     out = os.path.join(tmp, "dst")
    ...     print(copy_only(os.path.join(tmp, "src"), out, {".py", ".json"}))
    ['a.py', 'pkg/c.py', 'pkg/data/e.json']
    """
    def ignore(directory, names):
        return [n for n in names if os.path.isfile(os.path.join(directory, n)) and os.path.splitext(n)[1] not in extensions]

    shutil.copytree(src, dst, ignore=ignore)
    found = []
    for dp, dns, fns in os.walk(dst):
        found.extend(os.path.relpath(os.path.join(dp, f), dst).replace(os.sep, "/") for f in fns)
    return sorted(found)


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
