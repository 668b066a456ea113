# ruff: noqa
import io
import logging
import unittest


class Expensive:
    calls = 0

    def __str__(self):
        Expensive.calls += 1
        return "expensive"


class LazyFormattingTest(unittest.TestCase):
    def setUp(self):
        self.stream = io.StringIO()
        self.log = logging.getLogger("lazy")
        self.log.handlers[:] = [logging.StreamHandler(self.stream)]
        self.log.setLevel(logging.INFO)
        self.log.propagate = False
        Expensive.calls = 0

    def test_lazy_args_not_formatted_when_filtered(self):
        self.log.debug("value: %s", Expensive())
        self.assertEqual(Expensive.calls, 0)
        self.log.info("value: %s", Expensive())
        self.assertEqual(Expensive.calls, 1)
        self.assertEqual(self.stream.getvalue(), "value: expensive\n")

    def test_is_enabled_for(self):
        self.assertFalse(self.log.isEnabledFor(logging.DEBUG))
        self.assertTrue(self.log.isEnabledFor(logging.WARNING))

    def test_dict_args(self):
        self.log.info("%(user)s did %(n)d things", {"user": "ann", "n": 3})
        self.assertEqual(self.stream.getvalue(), "ann did 3 things\n")


if __name__ == "__main__":
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
