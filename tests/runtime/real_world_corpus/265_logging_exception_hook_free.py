# ruff: noqa
import io
import logging
import traceback
import unittest


def safe_call(func, logger, *args):
    try:
        return func(*args)
    except Exception as exc:
        logger.error("call failed: %s", "".join(traceback.format_exception_only(exc)).strip())
        return None


class SafeCallTest(unittest.TestCase):
    def test_logs_message_only(self):
        s = io.StringIO()
        log = logging.getLogger("safe")
        log.handlers[:] = [logging.StreamHandler(s)]
        log.propagate = False
        self.assertIsNone(safe_call(int, log, "x1"))
        self.assertEqual(safe_call(int, log, "41"), 41)
        self.assertEqual(s.getvalue(), "call failed: ValueError: invalid literal for int() with base 10: 'x1'\n")


if __name__ == "__main__":
    s = io.StringIO()
    log = logging.getLogger("safe.main")
    log.handlers[:] = [logging.StreamHandler(s)]
    log.propagate = False
    safe_call(lambda: [][1], log)
    print(s.getvalue(), end="")
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
