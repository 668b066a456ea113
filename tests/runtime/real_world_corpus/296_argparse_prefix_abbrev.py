# ruff: noqa
import argparse
import contextlib
import io
import unittest


def parse(argv, allow_abbrev=True):
    p = argparse.ArgumentParser(prog="fetch", allow_abbrev=allow_abbrev)
    p.add_argument("--timeout", type=float, default=5.0)
    p.add_argument("--retries", type=int, default=0)
    p.add_argument("--retry-delay", type=float, default=1.0)
    return p.parse_args(argv)


class AbbrevTest(unittest.TestCase):
    def test_unique_prefix(self):
        self.assertEqual(parse(["--time", "2"]).timeout, 2.0)

    def test_ambiguous_prefix(self):
        err = io.StringIO()
        with contextlib.redirect_stderr(err), self.assertRaises(SystemExit):
            parse(["--retr", "3"])
        self.assertIn("ambiguous option", err.getvalue())

    def test_disabled(self):
        with contextlib.redirect_stderr(io.StringIO()), self.assertRaises(SystemExit):
            parse(["--time", "2"], allow_abbrev=False)


if __name__ == "__main__":
    print(vars(parse(["--retries", "2", "--retry-delay", "0.5"])))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
