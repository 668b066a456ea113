# ruff: noqa
import os.path
import posixpath


def relative_link(from_page, to_page):
    """Relative URL from one site page to another.

    >>> relative_link("blog/2024/post.html", "about.html")
    '../../about.html'
    >>> relative_link("index.html", "blog/2024/post.html")
    'blog/2024/post.html'
    >>> relative_link("blog/a.html", "blog/b.html")
    'b.html'
    """
    return posixpath.relpath(to_page, posixpath.dirname(from_page) or ".")


def split_ext_all(name):
    """
    >>> split_ext_all("photo.backup.tar.gz")
    ('photo', ['.backup', '.tar', '.gz'])
    >>> split_ext_all(".bashrc")
    ('.bashrc', [])
    """
    exts = []
    root, ext = os.path.splitext(name)
    while ext:
        exts.insert(0, ext)
        root, ext = os.path.splitext(root)
    return root, exts


def expand_template(path, **values):
    """
    >>> expand_template("~/{project}/build/{target}", project="app", target="wasm").split("/")[-3:]
    ['app', 'build', 'wasm']
    >>> os.path.isabs(os.path.join("/srv", "x")), os.path.isabs("x/y")
    (True, False)
    """
    return path.format(**values)


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
