# ruff: noqa
import io
import logging
import os
import unittest


def setup(name, console, logfile):
    logger = logging.getLogger(name)
    logger.handlers[:] = []
    logger.setLevel(logging.DEBUG)
    logger.propagate = False
    c = logging.StreamHandler(console)
    c.setLevel(logging.INFO)
    c.setFormatter(logging.Formatter("%(message)s"))
    f = logging.FileHandler(logfile, mode="w")
    f.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s", datefmt="FIXED"))
    logger.addHandler(c)
    logger.addHandler(f)
    return logger


class BothTest(unittest.TestCase):
    def test_split(self):
        console = io.StringIO()
        log = setup("dual", console, "dual.log")
        log.debug("connecting")
        log.info("connected")
        for h in log.handlers:
            h.close()
        self.assertEqual(console.getvalue(), "connected\n")
        with open("dual.log") as fh:
            self.assertEqual(fh.read(), "FIXED DEBUG connecting\nFIXED INFO connected\n")


if __name__ == "__main__":
    console = io.StringIO()
    log = setup("main", console, os.path.join(".", "main.log"))
    log.info("starting job")
    log.debug("details only in file")
    for h in log.handlers:
        h.close()
    print(console.getvalue(), end="")
    print(open("main.log").read(), end="")
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
