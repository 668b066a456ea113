# ruff: noqa
import io
import logging
import unittest


def process_orders(orders, logger):
    total = 0
    for order in orders:
        if order.get("qty", 0) <= 0:
            logger.warning("skipping order %s: bad quantity", order.get("id"))
            continue
        if "price" not in order:
            logger.error("order %s has no price", order["id"])
            continue
        total += order["qty"] * order["price"]
        logger.debug("order %s ok", order["id"])
    logger.info("processed total=%d", total)
    return total


def make_logger(name, stream, level=logging.DEBUG):
    logger = logging.getLogger(name)
    logger.handlers.clear()
    logger.setLevel(level)
    logger.propagate = False
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.Formatter("%(levelname)s:%(name)s:%(message)s"))
    logger.addHandler(handler)
    return logger


ORDERS = [
    {"id": 1, "qty": 2, "price": 10},
    {"id": 2, "qty": 0, "price": 5},
    {"id": 3, "qty": 1},
    {"id": 4, "qty": 3, "price": 7},
]


class LoggingTest(unittest.TestCase):
    def test_messages(self):
        buf = io.StringIO()
        logger = make_logger("orders.test", buf)
        self.assertEqual(process_orders(ORDERS, logger), 41)
        self.assertEqual(
            buf.getvalue().splitlines(),
            [
                "DEBUG:orders.test:order 1 ok",
                "WARNING:orders.test:skipping order 2: bad quantity",
                "ERROR:orders.test:order 3 has no price",
                "DEBUG:orders.test:order 4 ok",
                "INFO:orders.test:processed total=41",
            ],
        )

    def test_level_filter(self):
        buf = io.StringIO()
        process_orders(ORDERS, make_logger("orders.quiet", buf, logging.WARNING))
        self.assertEqual(len(buf.getvalue().splitlines()), 2)

    def test_assert_logs(self):
        logger = logging.getLogger("orders.assert")
        with self.assertLogs(logger, level="WARNING") as cm:
            process_orders(ORDERS, logger)
        self.assertEqual(len(cm.output), 2)


if __name__ == "__main__":
    out = io.StringIO()
    process_orders(ORDERS, make_logger("orders.main", out, logging.INFO))
    print(out.getvalue(), end="")
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
