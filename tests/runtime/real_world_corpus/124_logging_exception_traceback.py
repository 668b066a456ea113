# ruff: noqa
import io
import logging
import unittest


def import_rows(rows, logger):
    ok = 0
    for i, row in enumerate(rows, 1):
        try:
            name, qty = row.split(",")
            int(qty)
            ok += 1
        except ValueError:
            logger.exception("row %d is invalid: %r", i, row)
    return ok


class ExceptionLoggingTest(unittest.TestCase):
    def test_traceback_included(self):
        stream = io.StringIO()
        logger = logging.getLogger("importer")
        logger.propagate = False
        handler = logging.StreamHandler(stream)
        handler.setFormatter(logging.Formatter("%(levelname)s:%(message)s"))
        logger.addHandler(handler)
        try:
            self.assertEqual(import_rows(["a,1", "b,x", "c", "d,4"], logger), 2)
        finally:
            logger.removeHandler(handler)
        text = stream.getvalue()
        self.assertIn("ERROR:row 2 is invalid: 'b,x'", text)
        self.assertIn("ERROR:row 3 is invalid: 'c'", text)
        self.assertEqual(text.count("Traceback (most recent call last):"), 2)
        self.assertIn("ValueError: invalid literal for int() with base 10: 'x'", text)

    def test_assert_logs(self):
        with self.assertLogs("importer", level="ERROR") as cm:
            import_rows(["bad"], logging.getLogger("importer"))
        self.assertEqual(cm.records[0].exc_info[0], ValueError)


if __name__ == "__main__":
    s = io.StringIO()
    log = logging.getLogger("importer.main")
    log.propagate = False
    h = logging.StreamHandler(s)
    h.setFormatter(logging.Formatter("%(levelname)s %(message)s"))
    log.addHandler(h)
    import_rows(["x,1", "y"], log)
    print(s.getvalue().splitlines()[0])
    print(s.getvalue().splitlines()[-1])
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
