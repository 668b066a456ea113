# ruff: noqa
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path


@dataclass
class Post:
    slug: str
    title: str
    published: date
    tags: list = field(default_factory=list)
    body: str = ""


def parse_post(path):
    """Parse '---' delimited front matter (key: value lines) followed by the body."""
    text = Path(path).read_text(encoding="utf-8")
    _, header, body = text.split("---\n", 2)
    meta = dict(line.split(": ", 1) for line in header.strip().splitlines())
    return Post(Path(path).stem, meta["title"], date.fromisoformat(meta["date"]),
                [t.strip() for t in meta.get("tags", "").split(",") if t.strip()], body.strip())


def build_index(folder):
    """
    >>> d = Path("content"); d.mkdir(exist_ok=True)
    >>> _ = (d / "hello.md").write_text("---\\ntitle: Hello\\ndate: 2024-01-05\\ntags: intro, misc\\n---\\nFirst post.\\n")
    >>> _ = (d / "wasm.md").write_text("---\\ntitle: Python in WASM\\ndate: 2024-03-10\\ntags: python\\n---\\nIt works.\\n")
    >>> for p in build_index(d):
    ...     print(p.published, p.slug, p.tags)
    2024-03-10 wasm ['python']
    2024-01-05 hello ['intro', 'misc']
    >>> parse_post(d / "hello.md").body
    'First post.'
    """
    return sorted((parse_post(p) for p in Path(folder).glob("*.md")), key=lambda p: p.published, reverse=True)


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
