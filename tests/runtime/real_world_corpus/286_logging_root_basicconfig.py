# ruff: noqa
import logging
import os
import unittest


def configure_root(path):
    logging.basicConfig(filename=path, filemode="w", level=logging.INFO,
                        format="%(name)s %(levelname)s %(message)s", force=True)


def work():
    logging.getLogger("worker.a").info("starting")
    logging.getLogger("worker.b").debug("ignored")
    logging.warning("root warning")


class BasicConfigTest(unittest.TestCase):
    def test_root_file(self):
        configure_root("root.log")
        work()
        logging.getLogger().handlers[0].flush()
        with open("root.log") as f:
            self.assertEqual(f.read().splitlines(), ["worker.a INFO starting", "root WARNING root warning"])
        for h in logging.getLogger().handlers[:]:
            h.close()
            logging.getLogger().removeHandler(h)


if __name__ == "__main__":
    configure_root("main.log")
    work()
    logging.shutdown()
    print(open("main.log").read(), end="")
    print(os.path.getsize("main.log") > 0)
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
