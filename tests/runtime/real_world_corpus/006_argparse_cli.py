# ruff: noqa
import argparse
import unittest


def build_parser():
    parser = argparse.ArgumentParser(prog="resize", description="Resize images (dry run).")
    parser.add_argument("files", nargs="+", help="input files")
    parser.add_argument("-w", "--width", type=int, default=800)
    parser.add_argument("--height", type=int)
    parser.add_argument("-q", "--quality", type=int, choices=range(1, 101), default=85, metavar="Q")
    parser.add_argument("-v", "--verbose", action="count", default=0)
    parser.add_argument("--format", choices=["jpeg", "png", "webp"], default="jpeg")
    return parser


def plan(argv):
    args = build_parser().parse_args(argv)
    height = args.height if args.height is not None else args.width * 3 // 4
    return [f"{name} -> {args.width}x{height} {args.format} q={args.quality}" for name in args.files], args.verbose


class CliTest(unittest.TestCase):
    def test_defaults(self):
        lines, verbose = plan(["a.png"])
        self.assertEqual(lines, ["a.png -> 800x600 jpeg q=85"])
        self.assertEqual(verbose, 0)

    def test_options(self):
        lines, verbose = plan(["-w", "100", "--height", "50", "-vv", "--format", "png", "x", "y"])
        self.assertEqual(lines, ["x -> 100x50 png q=85", "y -> 100x50 png q=85"])
        self.assertEqual(verbose, 2)

    def test_bad_choice_exits(self):
        import contextlib
        import io
        err = io.StringIO()
        with contextlib.redirect_stderr(err), self.assertRaises(SystemExit) as cm:
            plan(["--format", "gif", "a"])
        self.assertEqual(cm.exception.code, 2)
        self.assertIn("invalid choice", err.getvalue())

    def test_missing_files(self):
        import contextlib
        import io
        with contextlib.redirect_stderr(io.StringIO()), self.assertRaises(SystemExit):
            plan([])


if __name__ == "__main__":
    for line in plan(["-w", "640", "holiday.jpg", "cat.png"])[0]:
        print(line)
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
