# ruff: noqa
import io
import logging
import unittest


def setup(stream, only):
    root = logging.getLogger("svc")
    root.handlers[:] = []
    root.setLevel(logging.INFO)
    root.propagate = False
    h = logging.StreamHandler(stream)
    h.addFilter(logging.Filter(only))
    h.setFormatter(logging.Formatter("%(name)s: %(message)s"))
    root.addHandler(h)


class NameFilterTest(unittest.TestCase):
    def test_filter(self):
        s = io.StringIO()
        setup(s, "svc.db")
        logging.getLogger("svc.db").info("query")
        logging.getLogger("svc.db.pool").info("checkout")
        logging.getLogger("svc.dbx").info("not matched")
        logging.getLogger("svc.web").info("request")
        self.assertEqual(s.getvalue().splitlines(), ["svc.db: query", "svc.db.pool: checkout"])


if __name__ == "__main__":
    s = io.StringIO()
    setup(s, "svc.web")
    for name in ("svc.web", "svc.db"):
        logging.getLogger(name).info("hello from %s", name)
    print(s.getvalue(), end="")
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
