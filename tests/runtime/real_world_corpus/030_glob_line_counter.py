# ruff: noqa
"""Count lines of text files in the working directory.

>>> make_files({"a.txt": "one\\ntwo\\n", "b.txt": "x\\n", "c.md": "# t\\n\\ntext\\n", "sub/d.txt": "1\\n2\\n3\\n"})
>>> count_lines("*.txt")
{'a.txt': 2, 'b.txt': 1}
>>> count_lines("**/*.txt", recursive=True)
{'a.txt': 2, 'b.txt': 1, 'sub/d.txt': 3}
>>> count_lines("*.md", skip_blank=True)
{'c.md': 2}
>>> count_lines("*.nothing")
{}
"""
import glob
import os


def make_files(spec):
    for rel, text in spec.items():
        if os.path.dirname(rel):
            os.makedirs(os.path.dirname(rel), exist_ok=True)
        with open(rel, "w") as f:
            f.write(text)


def count_lines(pattern, recursive=False, skip_blank=False):
    result = {}
    for path in sorted(glob.glob(pattern, recursive=recursive)):
        with open(path) as f:
            lines = f.read().splitlines()
        if skip_blank:
            lines = [l for l in lines if l.strip()]
        result[path.replace(os.sep, "/")] = len(lines)
    return result


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
