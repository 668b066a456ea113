# ruff: noqa
import logging
from collections import Counter


class CountingHandler(logging.Handler):
    """Count records per level; handy in tests and health checks.

    >>> h = CountingHandler()
    >>> log = logging.getLogger("counting"); log.addHandler(h); log.setLevel(logging.DEBUG); log.propagate = False
    >>> for i in range(5):
    ...     log.info("tick %d", i)
    >>> log.warning("careful"); log.error("oops"); log.error("oops again")
    >>> h.counts
    {'ERROR': 2, 'INFO': 5, 'WARNING': 1}
    >>> h.worst
    'ERROR'
    >>> h.last_message
    'oops again'
    """

    def __init__(self):
        super().__init__()
        self._counts = Counter()
        self._worst = logging.NOTSET
        self.last_message = None

    def emit(self, record):
        self._counts[record.levelname] += 1
        self._worst = max(self._worst, record.levelno)
        self.last_message = record.getMessage()

    @property
    def counts(self):
        return dict(sorted(self._counts.items()))

    @property
    def worst(self):
        return logging.getLevelName(self._worst)


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
