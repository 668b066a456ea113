# ruff: noqa
import logging
import os
import unittest

LOG_FILE = "app.log"


def configure(path=LOG_FILE):
    logger = logging.getLogger("inventory")
    for h in list(logger.handlers):
        h.close()
        logger.removeHandler(h)
    handler = logging.FileHandler(path, mode="w", encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(levelname)-8s %(funcName)s: %(message)s"))
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False
    return logger


def reserve(stock, item, qty, logger):
    available = stock.get(item, 0)
    if qty > available:
        logger.warning("cannot reserve %d x %s (have %d)", qty, item, available)
        return False
    stock[item] = available - qty
    logger.info("reserved %d x %s", qty, item)
    return True


class FileLoggingTest(unittest.TestCase):
    def test_writes_log(self):
        logger = configure()
        stock = {"apple": 5, "pear": 1}
        reserve(stock, "apple", 3, logger)
        reserve(stock, "pear", 2, logger)
        reserve(stock, "kiwi", 1, logger)
        for h in logger.handlers:
            h.flush()
        with open(LOG_FILE, encoding="utf-8") as f:
            lines = f.read().splitlines()
        self.assertEqual(lines[0], "INFO     reserve: reserved 3 x apple")
        self.assertEqual(lines[1], "WARNING  reserve: cannot reserve 2 x pear (have 1)")
        self.assertEqual(len(lines), 3)
        self.assertEqual(stock, {"apple": 2, "pear": 1})
        self.assertGreater(os.path.getsize(LOG_FILE), 0)


if __name__ == "__main__":
    log = configure()
    reserve({"bolt": 10}, "bolt", 4, log)
    logging.shutdown()
    with open(LOG_FILE) as f:
        print(f.read(), end="")
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
