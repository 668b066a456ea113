# ruff: noqa
import io
import logging
import unittest


def matrix(logger_level, handler_level):
    s = io.StringIO()
    log = logging.getLogger(f"matrix.{logger_level}.{handler_level}")
    log.handlers[:] = []
    h = logging.StreamHandler(s)
    h.setLevel(handler_level)
    h.setFormatter(logging.Formatter("%(levelname)s"))
    log.addHandler(h)
    log.setLevel(logger_level)
    log.propagate = False
    for lvl in (logging.DEBUG, logging.INFO, logging.WARNING, logging.ERROR):
        log.log(lvl, "x")
    return s.getvalue().split()


class MatrixTest(unittest.TestCase):
    def test_effective_is_max(self):
        self.assertEqual(matrix(logging.DEBUG, logging.WARNING), ["WARNING", "ERROR"])
        self.assertEqual(matrix(logging.ERROR, logging.DEBUG), ["ERROR"])
        self.assertEqual(matrix(logging.INFO, logging.INFO), ["INFO", "WARNING", "ERROR"])

    def test_disabled(self):
        logging.disable(logging.WARNING)
        try:
            self.assertEqual(matrix(logging.DEBUG, logging.DEBUG), ["ERROR"])
        finally:
            logging.disable(logging.NOTSET)


if __name__ == "__main__":
    for lg in ("DEBUG", "WARNING"):
        for hd in ("INFO", "ERROR"):
            print(lg, hd, matrix(lg, hd))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
