# ruff: noqa
import io
import logging
import unittest


class RedactFilter(logging.Filter):
    """Mask anything that looks like a card number in log messages."""

    def filter(self, record):
        import re
        record.msg = re.sub(r"\b(\d{4})\d{8}(\d{4})\b", r"\1********\2", str(record.getMessage()))
        record.args = ()
        return True


class OnlyBelow(logging.Filter):
    def __init__(self, level):
        super().__init__()
        self.level = level

    def filter(self, record):
        return record.levelno < self.level


def build(name):
    out, err = io.StringIO(), io.StringIO()
    logger = logging.getLogger(name)
    logger.setLevel(logging.DEBUG)
    logger.propagate = False
    low = logging.StreamHandler(out)
    low.addFilter(OnlyBelow(logging.WARNING))
    high = logging.StreamHandler(err)
    high.setLevel(logging.WARNING)
    fmt = logging.Formatter("[%(levelname)s] %(message)s")
    for h in (low, high):
        h.setFormatter(fmt)
        logger.addHandler(h)
    logger.addFilter(RedactFilter())
    return logger, out, err


class FilterTest(unittest.TestCase):
    def test_split_streams(self):
        logger, out, err = build("payments.split")
        logger.info("charging card %s", "4111111111111111")
        logger.debug("amount=%d", 42)
        logger.error("declined card 5500000000000004")
        self.assertEqual(out.getvalue(), "[INFO] charging card 4111********1111\n[DEBUG] amount=42\n")
        self.assertEqual(err.getvalue(), "[ERROR] declined card 5500********0004\n")

    def test_short_numbers_untouched(self):
        logger, out, _ = build("payments.short")
        logger.info("order 12345 ok")
        self.assertEqual(out.getvalue(), "[INFO] order 12345 ok\n")


if __name__ == "__main__":
    logger, out, err = build("payments.main")
    logger.warning("retrying card 1234567812345678")
    print(err.getvalue(), end="")
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
