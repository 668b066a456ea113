# ruff: noqa
import io
import logging
import unittest


class DuplicateFilter(logging.Filter):
    """Suppress a message repeated more than `limit` times in a row."""

    def __init__(self, limit=2):
        super().__init__()
        self.limit, self.last, self.count, self.suppressed = limit, None, 0, 0

    def filter(self, record):
        msg = record.getMessage()
        if msg == self.last:
            self.count += 1
        else:
            self.last, self.count = msg, 1
        if self.count > self.limit:
            self.suppressed += 1
            return False
        return True


class DupTest(unittest.TestCase):
    def test_suppression(self):
        s = io.StringIO()
        log = logging.getLogger("dups")
        log.handlers[:] = [logging.StreamHandler(s)]
        log.propagate = False
        f = DuplicateFilter(limit=2)
        log.addFilter(f)
        for msg in ["retry"] * 5 + ["connected"] + ["retry"] * 2:
            log.warning(msg)
        self.assertEqual(s.getvalue().split(), ["retry", "retry", "connected", "retry", "retry"])
        self.assertEqual(f.suppressed, 3)


if __name__ == "__main__":
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
