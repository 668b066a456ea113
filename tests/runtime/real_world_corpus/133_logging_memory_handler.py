# ruff: noqa
import logging
import logging.handlers
import unittest


class ListHandler(logging.Handler):
    def __init__(self):
        super().__init__()
        self.records = []

    def emit(self, record):
        self.records.append(self.format(record))


def build(capacity=3):
    target = ListHandler()
    target.setFormatter(logging.Formatter("%(levelname)s %(message)s"))
    buffered = logging.handlers.MemoryHandler(capacity, flushLevel=logging.ERROR, target=target)
    logger = logging.getLogger(f"buffered.{capacity}")
    logger.handlers[:] = [buffered]
    logger.setLevel(logging.DEBUG)
    logger.propagate = False
    return logger, buffered, target


class MemoryHandlerTest(unittest.TestCase):
    def test_buffer_until_error(self):
        logger, buffered, target = build(capacity=10)
        logger.info("step 1")
        logger.info("step 2")
        self.assertEqual(target.records, [])
        logger.error("boom")
        self.assertEqual(target.records, ["INFO step 1", "INFO step 2", "ERROR boom"])

    def test_capacity_flush(self):
        logger, buffered, target = build(capacity=2)
        for i in range(5):
            logger.debug("msg %d", i)
        self.assertEqual(len(target.records), 4)
        buffered.flush()
        self.assertEqual(target.records[-1], "DEBUG msg 4")


if __name__ == "__main__":
    logger, buffered, target = build(capacity=100)
    logger.warning("low disk")
    logger.critical("disk full")
    print(target.records)
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
