# ruff: noqa
"""Pick which files a backup should include, by glob patterns.

>>> for rel in ["src/main.py", "src/util.py", "src/__pycache__/x.pyc", "data/a.csv", "data/tmp/b.tmp", "notes.md", ".env"]:
...     os.makedirs(os.path.dirname(rel) or ".", exist_ok=True)
...     open(rel, "w").close()
>>> select(["src/**/*.py", "data/**/*.csv", "*.md"], exclude=["**/__pycache__/**"])
['data/a.csv', 'notes.md', 'src/main.py', 'src/util.py']
>>> select(["**/*"], exclude=["**/*.pyc", "data/tmp/*"])
['data/a.csv', 'notes.md', 'src/main.py', 'src/util.py']
>>> select([".*"])
['.env']
"""
import fnmatch
import glob
import os


def select(patterns, exclude=()):
    chosen = set()
    for pattern in patterns:
        for path in glob.glob(pattern, recursive=True, include_hidden=pattern.startswith(".")):
            if os.path.isfile(path):
                chosen.add(path.replace(os.sep, "/"))
    return sorted(p for p in chosen if not any(fnmatch.fnmatch(p, ex) for ex in exclude))


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
