# ruff: noqa
import os.path


def normalise(path):
    """
    >>> normalise("a/./b/../c//d/")
    'a/c/d'
    >>> normalise("/usr/local/../lib")
    '/usr/lib'
    """
    return os.path.normpath(path)


def change_ext(path, new_ext):
    """
    >>> change_ext("reports/2024/summary.tar.gz", ".zip")
    'reports/2024/summary.tar.zip'
    >>> change_ext("Makefile", "txt")
    'Makefile.txt'
    """
    root, _ = os.path.splitext(path)
    if not new_ext.startswith("."):
        new_ext = "." + new_ext
    return root + new_ext


def common_parent(paths):
    """
    >>> common_parent(["/srv/app/static/css/site.css", "/srv/app/static/js/app.js", "/srv/app/templates/x.html"])
    '/srv/app'
    """
    return os.path.commonpath(paths)


def split_all(path):
    """
    >>> split_all("a/b/c.txt")
    ['a', 'b', 'c.txt']
    >>> split_all("/etc/hosts")
    ['/', 'etc', 'hosts']
    """
    parts = []
    while True:
        head, tail = os.path.split(path)
        if head == path:
            parts.append(head)
            break
        if tail == path:
            parts.append(tail)
            break
        parts.append(tail)
        path = head
    return parts[::-1]


def is_inside(child, parent):
    """
    >>> is_inside("data/raw/x.csv", "data")
    True
    >>> is_inside("data/../secret", "data")
    False
    """
    child = os.path.normpath(os.path.join("/root_", child))
    parent = os.path.normpath(os.path.join("/root_", parent))
    return os.path.commonpath([child, parent]) == parent


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
