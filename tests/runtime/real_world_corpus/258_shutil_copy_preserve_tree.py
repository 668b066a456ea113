# ruff: noqa
import os
import shutil


def collect(pattern_files, dest):
    """Copy selected files keeping their relative directories.

    >>> for rel in ["src/a/one.py", "src/b/two.py", "src/b/three.txt"]:
    ...     os.makedirs(os.path.dirname(rel), exist_ok=True)
    ...     with open(rel, "w") as f:
    ...         _ = f.write(rel)
    >>> collect(["src/a/one.py", "src/b/two.py"], "bundle")
    ['bundle/src/a/one.py', 'bundle/src/b/two.py']
    >>> open("bundle/src/b/two.py").read()
    'src/b/two.py'
    """
    out = []
    for rel in pattern_files:
        target = os.path.join(dest, rel)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        out.append(shutil.copy2(rel, target).replace(os.sep, "/"))
    return out


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
