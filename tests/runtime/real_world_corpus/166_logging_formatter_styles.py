# ruff: noqa
import io
import logging
import unittest


def render(fmt, style, **extra):
    stream = io.StringIO()
    logger = logging.getLogger(f"styles.{style}")
    logger.handlers[:] = []
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.Formatter(fmt, style=style))
    logger.addHandler(handler)
    logger.propagate = False
    logger.warning("disk at %d%%", 93, extra=extra)
    return stream.getvalue().rstrip("\n")


class StyleTest(unittest.TestCase):
    def test_percent(self):
        self.assertEqual(render("%(levelname)s:%(name)s:%(message)s", "%"), "WARNING:styles.%:disk at 93%")

    def test_brace(self):
        self.assertEqual(render("{levelname:<8}|{message}|{host}", "{", host="db1"), "WARNING |disk at 93%|db1")

    def test_dollar(self):
        self.assertEqual(render("$levelname $message", "$"), "WARNING disk at 93%")

    def test_bad_style(self):
        with self.assertRaises(ValueError):
            logging.Formatter("x", style="?")


if __name__ == "__main__":
    print(render("[{levelname}] {message} on {host}", "{", host="web-1"))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
