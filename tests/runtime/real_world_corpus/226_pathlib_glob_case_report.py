# ruff: noqa
from pathlib import Path


def inventory(root):
    """Count source files per language under *root*.

    >>> for rel in ["app/main.py", "app/views.py", "web/app.js", "web/util.ts", "web/style.css", "README.md", "scripts/run.sh"]:
    ...     p = Path("code", rel); p.parent.mkdir(parents=True, exist_ok=True); _ = p.write_text("x\\n" * len(rel))
    >>> inventory(Path("code"))
    {'JavaScript': (1, 10), 'Python': (2, 23), 'Shell': (1, 14), 'TypeScript': (1, 11)}
    """
    langs = {".py": "Python", ".js": "JavaScript", ".ts": "TypeScript", ".sh": "Shell"}
    result = {}
    for suffix, lang in langs.items():
        files = list(root.rglob(f"*{suffix}"))
        if files:
            result[lang] = (len(files), sum(len(f.read_text().splitlines()) for f in files))
    return dict(sorted(result.items()))


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
