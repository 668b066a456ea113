# ruff: noqa
import argparse
import contextlib
import io
import unittest


def bounded(lo, hi):
    def check(text):
        value = int(text)
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"{value} not in [{lo}, {hi}]")
        return value
    return check


def parse(argv):
    p = argparse.ArgumentParser(prog="thumbs")
    p.add_argument("--size", type=bounded(16, 512), default=128)
    p.add_argument("--quality", type=bounded(1, 100), default=80)
    p.add_argument("--crop", nargs=4, type=int, metavar=("X", "Y", "W", "H"))
    return p.parse_args(argv)


class RangeTypeTest(unittest.TestCase):
    def test_ok(self):
        ns = parse(["--size", "64", "--crop", "0", "0", "10", "20"])
        self.assertEqual((ns.size, ns.quality, ns.crop), (64, 80, [0, 0, 10, 20]))

    def test_out_of_range(self):
        err = io.StringIO()
        with contextlib.redirect_stderr(err), self.assertRaises(SystemExit):
            parse(["--size", "1024"])
        self.assertIn("1024 not in [16, 512]", err.getvalue())

    def test_crop_needs_four(self):
        with contextlib.redirect_stderr(io.StringIO()), self.assertRaises(SystemExit):
            parse(["--crop", "1", "2"])


if __name__ == "__main__":
    print(vars(parse(["--quality", "95"])))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
