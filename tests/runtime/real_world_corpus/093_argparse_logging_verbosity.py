# ruff: noqa
import argparse
import io
import logging
import unittest


def setup(argv, stream):
    p = argparse.ArgumentParser(prog="sync")
    p.add_argument("-v", "--verbose", action="count", default=0)
    p.add_argument("-q", "--quiet", action="store_true")
    p.add_argument("source")
    args = p.parse_args(argv)
    level = logging.ERROR if args.quiet else [logging.WARNING, logging.INFO, logging.DEBUG][min(args.verbose, 2)]
    logger = logging.getLogger("sync.cli")
    logger.handlers[:] = [logging.StreamHandler(stream)]
    logger.handlers[0].setFormatter(logging.Formatter("%(levelname)s %(message)s"))
    logger.setLevel(level)
    logger.propagate = False
    return args, logger


def run(argv):
    stream = io.StringIO()
    args, log = setup(argv, stream)
    log.debug("reading %s", args.source)
    log.info("3 files to copy")
    log.warning("1 file skipped")
    log.error("done with errors")
    return stream.getvalue().splitlines()


class VerbosityTest(unittest.TestCase):
    def test_levels(self):
        self.assertEqual(len(run(["src"])), 2)
        self.assertEqual(len(run(["-v", "src"])), 3)
        self.assertEqual(len(run(["-vvv", "src"])), 4)
        self.assertEqual(run(["-q", "src"]), ["ERROR done with errors"])

    def test_level_names(self):
        self.assertEqual(run(["-vv", "data"])[0], "DEBUG reading data")


if __name__ == "__main__":
    print("\n".join(run(["-v", "photos/"])))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
