# ruff: noqa
import glob
import os


def discover(root="."):
    """Map test files to the module they test (tests/test_x.py -> src/x.py).

    >>> for rel in ["src/app.py", "src/db.py", "src/util/text.py", "tests/test_app.py", "tests/util/test_text.py", "tests/test_orphan.py", "tests/conftest.py"]:
    ...     os.makedirs(os.path.dirname(rel), exist_ok=True)
    ...     open(rel, "w").close()
    >>> for test, module in discover():
    ...     print(f"{test:<26} -> {module}")
    tests/test_app.py          -> src/app.py
    tests/test_orphan.py       -> None
    tests/util/test_text.py    -> src/util/text.py
    >>> untested()
    ['src/db.py']
    """
    pairs = []
    for test in sorted(glob.glob(os.path.join(root, "tests", "**", "test_*.py"), recursive=True)):
        rel = os.path.relpath(test, os.path.join(root, "tests"))
        module = os.path.join("src", os.path.dirname(rel), os.path.basename(rel)[len("test_"):])
        pairs.append((os.path.relpath(test, root).replace(os.sep, "/"),
                      module.replace(os.sep, "/") if os.path.exists(os.path.join(root, module)) else None))
    return pairs


def untested(root="."):
    covered = {m for _, m in discover(root) if m}
    return sorted(p.replace(os.sep, "/") for p in glob.glob("src/**/*.py", root_dir=root, recursive=True) if p.replace(os.sep, "/") not in covered)


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
