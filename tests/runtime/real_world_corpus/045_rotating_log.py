# ruff: noqa
import glob
import logging
import logging.handlers
import os
import tempfile
import unittest


def make_rotating_logger(path, max_bytes=200, backups=2):
    logger = logging.getLogger(f"rotating.{os.path.basename(path)}")
    logger.setLevel(logging.INFO)
    logger.propagate = False
    handler = logging.handlers.RotatingFileHandler(path, maxBytes=max_bytes, backupCount=backups)
    handler.setFormatter(logging.Formatter("%(message)s"))
    logger.addHandler(handler)
    return logger, handler


class RotatingTest(unittest.TestCase):
    def test_rotation(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "service.log")
            logger, handler = make_rotating_logger(path)
            for i in range(40):
                logger.info("event number %03d with some padding text", i)
            handler.close()
            logger.removeHandler(handler)
            names = sorted(os.path.basename(p) for p in glob.glob(path + "*"))
            self.assertEqual(names, ["service.log", "service.log.1", "service.log.2"])
            with open(path) as f:
                last = f.read().splitlines()[-1]
            self.assertEqual(last, "event number 039 with some padding text")
            for p in glob.glob(path + "*"):
                self.assertLessEqual(os.path.getsize(p), 200)


if __name__ == "__main__":
    logger, handler = make_rotating_logger("local.log", max_bytes=100, backups=1)
    for i in range(10):
        logger.info("line %d", i)
    handler.close()
    print(sorted(glob.glob("local.log*")))
    print(open("local.log").read().split())
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
