# ruff: noqa
import io
import logging

AUDIT = 25
logging.addLevelName(AUDIT, "AUDIT")


def make(stream, level=logging.INFO):
    log = logging.getLogger("custom.levels")
    log.handlers[:] = []
    h = logging.StreamHandler(stream)
    h.setFormatter(logging.Formatter("%(levelno)s %(levelname)s %(message)s"))
    log.addHandler(h)
    log.setLevel(level)
    log.propagate = False
    return log


def demo(level):
    """
    >>> print(demo(logging.INFO), end="")
    20 INFO user logged in
    25 AUDIT user changed password
    30 WARNING password is weak
    >>> print(demo(AUDIT), end="")
    25 AUDIT user changed password
    30 WARNING password is weak
    >>> logging.getLevelName(25), logging.getLevelName("AUDIT")
    ('AUDIT', 25)
    """
    s = io.StringIO()
    log = make(s, level)
    log.info("user logged in")
    log.log(AUDIT, "user changed password")
    log.warning("password is weak")
    return s.getvalue()


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
