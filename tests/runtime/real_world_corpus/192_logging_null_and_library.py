# ruff: noqa
import io
import logging

lib_log = logging.getLogger("mylib")
lib_log.addHandler(logging.NullHandler())


def parse_version(text):
    """A library function that logs but configures nothing.

    >>> parse_version("1.2.3")
    (1, 2, 3)
    >>> parse_version("1.x")
    (1, 0)
    """
    parts = []
    for piece in text.split("."):
        if not piece.isdigit():
            lib_log.warning("non-numeric version part %r treated as 0", piece)
            piece = "0"
        parts.append(int(piece))
    return tuple(parts)


def with_app_logging():
    """The application opts in to see the library's warnings.

    >>> print(with_app_logging(), end="")
    mylib WARNING non-numeric version part 'rc1' treated as 0
    """
    stream = io.StringIO()
    h = logging.StreamHandler(stream)
    h.setFormatter(logging.Formatter("%(name)s %(levelname)s %(message)s"))
    lib_log.addHandler(h)
    lib_log.propagate = False
    try:
        parse_version("2.rc1")
    finally:
        lib_log.removeHandler(h)
    return stream.getvalue()


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
