# ruff: noqa
import glob
import os
import shutil


def flatten(root):
    """Move every file in sub-folders up to *root*, joining path parts with '_'.

    >>> for rel in ["a/b/one.txt", "a/two.txt", "c/d/e/three.txt", "top.txt"]:
    ...     os.makedirs(os.path.join("tree", os.path.dirname(rel)), exist_ok=True)
    ...     open(os.path.join("tree", rel), "w").close()
    >>> flatten("tree")
    ['a_b_one.txt', 'a_two.txt', 'c_d_e_three.txt', 'top.txt']
    >>> sorted(os.listdir("tree"))
    ['a_b_one.txt', 'a_two.txt', 'c_d_e_three.txt', 'top.txt']
    """
    for path in glob.glob(os.path.join(root, "**", "*"), recursive=True):
        if os.path.isfile(path) and os.path.dirname(path) != root:
            rel = os.path.relpath(path, root)
            shutil.move(path, os.path.join(root, rel.replace(os.sep, "_")))
    for entry in os.listdir(root):
        full = os.path.join(root, entry)
        if os.path.isdir(full):
            shutil.rmtree(full)
    return sorted(os.listdir(root))


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
