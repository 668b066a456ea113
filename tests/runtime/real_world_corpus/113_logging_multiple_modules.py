# ruff: noqa
import io
import logging
import unittest


def configure(stream):
    root = logging.getLogger("shop")
    root.handlers[:] = []
    root.setLevel(logging.DEBUG)
    root.propagate = False
    h = logging.StreamHandler(stream)
    h.setFormatter(logging.Formatter("%(name)-14s %(levelname)-7s %(message)s"))
    root.addHandler(h)
    logging.getLogger("shop.payments").setLevel(logging.WARNING)


def run_components():
    for name in ("shop.cart", "shop.payments", "shop.shipping"):
        log = logging.getLogger(name)
        log.debug("debug from %s", name.split(".")[1])
        log.warning("warning from %s", name.split(".")[1])


class HierarchyTest(unittest.TestCase):
    def test_child_levels(self):
        s = io.StringIO()
        configure(s)
        run_components()
        lines = s.getvalue().splitlines()
        self.assertEqual(len(lines), 5)
        self.assertNotIn("debug from payments", s.getvalue())
        self.assertEqual(lines[0].split(), ["shop.cart", "DEBUG", "debug", "from", "cart"])

    def test_effective_level(self):
        configure(io.StringIO())
        self.assertEqual(logging.getLogger("shop.cart.items").getEffectiveLevel(), logging.DEBUG)
        self.assertEqual(logging.getLogger("shop.payments.stripe").getEffectiveLevel(), logging.WARNING)


if __name__ == "__main__":
    s = io.StringIO()
    configure(s)
    run_components()
    print(s.getvalue(), end="")
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
