# ruff: noqa
import logging
import os
import unittest


def setup_file_logging(path="run.log"):
    logger = logging.getLogger("batch")
    logger.handlers[:] = []
    h = logging.FileHandler(path, mode="a", encoding="utf-8", delay=True)
    h.setFormatter(logging.Formatter("%(levelname)s|%(funcName)s|%(message)s"))
    logger.addHandler(h)
    logger.setLevel(logging.INFO)
    logger.propagate = False
    return logger, h


def process(batch, logger):
    good = [x for x in batch if isinstance(x, int)]
    if len(good) != len(batch):
        logger.warning("dropped %d non-integers", len(batch) - len(good))
    logger.info("sum=%d", sum(good))
    return sum(good)


class FileLogTest(unittest.TestCase):
    def test_delay_creates_on_first_record(self):
        if os.path.exists("run.log"):
            os.remove("run.log")
        logger, h = setup_file_logging()
        self.assertFalse(os.path.exists("run.log"))
        process([1, "x", 2], logger)
        h.close()
        with open("run.log", encoding="utf-8") as f:
            lines = f.read().splitlines()
        self.assertEqual(lines[0].split("|")[0], "WARNING")
        self.assertEqual(lines[1].split("|")[2], "sum=3")


if __name__ == "__main__":
    logger, h = setup_file_logging("main.log")
    process([5, 6, None], logger)
    h.close()
    print(open("main.log").read(), end="")
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
