# ruff: noqa
from pathlib import Path


def build(root, spec):
    """Create files from a {relative_path: text} mapping.

    >>> build(Path("project"), {"src/app.py": "print(1)", "src/util/__init__.py": "", "README.md": "# hi", "tests/test_app.py": "pass"})
    4
    """
    for rel, text in spec.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return len(spec)


def tree(root, prefix=""):
    """Render a directory tree, directories first, sorted by name.

    >>> print("\\n".join(tree(Path("project"))))
    ├── src
    │   ├── util
    │   │   └── __init__.py
    │   └── app.py
    ├── tests
    │   └── test_app.py
    └── README.md
    """
    entries = sorted(root.iterdir(), key=lambda p: (not p.is_dir(), p.name))
    lines = []
    for i, entry in enumerate(entries):
        last = i == len(entries) - 1
        lines.append(prefix + ("└── " if last else "├── ") + entry.name)
        if entry.is_dir():
            lines.extend(tree(entry, prefix + ("    " if last else "│   ")))
    return lines


def count_by_suffix(root):
    """
    >>> count_by_suffix(Path("project"))
    {'.md': 1, '.py': 3}
    """
    counts = {}
    for p in root.rglob("*"):
        if p.is_file():
            counts[p.suffix] = counts.get(p.suffix, 0) + 1
    return dict(sorted(counts.items()))


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
