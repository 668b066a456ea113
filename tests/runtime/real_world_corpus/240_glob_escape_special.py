# ruff: noqa
import glob
import os


def find_literal(folder, name_with_specials):
    """glob.escape lets names containing [, ], * or ? be matched literally.

    >>> os.makedirs("odd", exist_ok=True)
    >>> for n in ["report[1].txt", "report1.txt", "what?.md", "star*.log"]:
    ...     open(os.path.join("odd", n), "w").close()
    >>> sorted(os.path.basename(p) for p in glob.glob("odd/report[1].txt"))
    ['report1.txt']
    >>> find_literal("odd", "report[1].txt")
    ['report[1].txt']
    >>> find_literal("odd", "what?.md"), find_literal("odd", "star*.log")
    (['what?.md'], ['star*.log'])
    """
    return [os.path.basename(p) for p in glob.glob(os.path.join(glob.escape(folder), glob.escape(name_with_specials)))]


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
