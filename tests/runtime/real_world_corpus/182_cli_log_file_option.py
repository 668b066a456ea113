# ruff: noqa
import argparse
import logging
import os
import unittest


def main(argv):
    p = argparse.ArgumentParser(prog="resize-all")
    p.add_argument("images", nargs="*")
    p.add_argument("--log-file", default="resize.log")
    p.add_argument("--log-level", default="INFO", choices=["DEBUG", "INFO", "WARNING"])
    args = p.parse_args(argv)
    logger = logging.getLogger("resize-all")
    logger.handlers[:] = []
    handler = logging.FileHandler(args.log_file, mode="w")
    handler.setFormatter(logging.Formatter("%(levelname)s %(message)s"))
    logger.addHandler(handler)
    logger.setLevel(args.log_level)
    logger.propagate = False
    done = 0
    for img in args.images:
        if not img.lower().endswith((".png", ".jpg")):
            logger.warning("skip %s", img)
            continue
        logger.debug("resizing %s", img)
        done += 1
    logger.info("%d resized", done)
    handler.close()
    return done


class CliLogTest(unittest.TestCase):
    def read(self, path):
        with open(path) as f:
            return f.read().splitlines()

    def test_default_file(self):
        self.assertEqual(main(["a.png", "b.gif"]), 1)
        self.assertEqual(self.read("resize.log"), ["WARNING skip b.gif", "INFO 1 resized"])

    def test_debug_custom_file(self):
        main(["--log-file", "debug.log", "--log-level", "DEBUG", "x.JPG"])
        self.assertEqual(self.read("debug.log"), ["DEBUG resizing x.JPG", "INFO 1 resized"])
        self.assertTrue(os.path.isfile("debug.log"))


if __name__ == "__main__":
    main(["one.png", "two.txt", "three.jpg"])
    print(open("resize.log").read(), end="")
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
