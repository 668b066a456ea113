# ruff: noqa
import logging
import logging.config
import unittest

CONFIG = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"short": {"format": "%(name)s | %(levelname)s | %(message)s"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": "short", "stream": "ext://sys.stdout", "level": "INFO"},
        "file": {"class": "logging.FileHandler", "formatter": "short", "filename": "debug.log", "mode": "w", "level": "DEBUG"},
    },
    "loggers": {"shop": {"handlers": ["console", "file"], "level": "DEBUG", "propagate": False}},
}


def checkout(cart):
    log = logging.getLogger("shop.checkout")
    log.debug("cart=%s", sorted(cart.items()))
    total = sum(cart.values())
    if total > 100:
        log.warning("large order: %d", total)
    log.info("total %d", total)
    return total


class DictConfigTest(unittest.TestCase):
    def test_file_gets_debug(self):
        checkout({"a": 60, "b": 50})
        for h in logging.getLogger("shop").handlers:
            h.flush()
        with open("debug.log") as f:
            lines = f.read().splitlines()
        self.assertIn("shop.checkout | DEBUG | cart=[('a', 60), ('b', 50)]", lines)
        self.assertIn("shop.checkout | WARNING | large order: 110", lines)


if __name__ == "__main__":
    logging.config.dictConfig(CONFIG)
    checkout({"pen": 3, "book": 12})
    checkout({"tv": 120})
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
