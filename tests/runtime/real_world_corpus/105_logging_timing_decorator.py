# ruff: noqa
import functools
import io
import logging
import unittest


def logged(logger):
    """Log calls, results and exceptions of the decorated function (no timings: deterministic)."""
    def decorator(func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            params = ", ".join([repr(a) for a in args] + [f"{k}={v!r}" for k, v in sorted(kwargs.items())])
            logger.debug("call %s(%s)", func.__name__, params)
            try:
                result = func(*args, **kwargs)
            except Exception as exc:
                logger.error("%s raised %s: %s", func.__name__, type(exc).__name__, exc)
                raise
            logger.debug("%s returned %r", func.__name__, result)
            return result
        return wrapper
    return decorator


stream = io.StringIO()
log = logging.getLogger("trace")
log.setLevel(logging.DEBUG)
log.propagate = False
_h = logging.StreamHandler(stream)
_h.setFormatter(logging.Formatter("%(levelname)s %(message)s"))
log.addHandler(_h)


@logged(log)
def divide(a, b, *, precision=2):
    return round(a / b, precision)


class DecoratorTest(unittest.TestCase):
    def setUp(self):
        stream.seek(0)
        stream.truncate()

    def test_success(self):
        self.assertEqual(divide(10, 3, precision=3), 3.333)
        self.assertEqual(stream.getvalue().splitlines(), ["DEBUG call divide(10, 3, precision=3)", "DEBUG divide returned 3.333"])

    def test_error(self):
        with self.assertRaises(ZeroDivisionError):
            divide(1, 0)
        self.assertIn("ERROR divide raised ZeroDivisionError: division by zero", stream.getvalue())

    def test_wraps(self):
        self.assertEqual(divide.__name__, "divide")
        self.assertTrue(hasattr(divide, "__wrapped__"))


if __name__ == "__main__":
    divide(7, 2)
    print(stream.getvalue(), end="")
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
