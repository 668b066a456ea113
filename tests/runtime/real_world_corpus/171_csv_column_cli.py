# ruff: noqa
import argparse
import csv
import sys
import unittest


def cut(argv, out=None):
    p = argparse.ArgumentParser(prog="csvcut")
    p.add_argument("file")
    p.add_argument("-c", "--columns", required=True, help="comma-separated names")
    p.add_argument("-o", "--output")
    args = p.parse_args(argv)
    cols = args.columns.split(",")
    with open(args.file, newline="") as f:
        reader = csv.DictReader(f)
        missing = [c for c in cols if c not in reader.fieldnames]
        if missing:
            return f"unknown columns: {', '.join(missing)}"
        rows = [[r[c] for c in cols] for r in reader]
    with open(args.output or "cut.csv", "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(cols)
        w.writerows(rows)
    return len(rows)


class CutTest(unittest.TestCase):
    def setUp(self):
        with open("wide.csv", "w", newline="") as f:
            csv.writer(f).writerows([["a", "b", "c"], [1, 2, 3], [4, 5, 6]])

    def test_cut(self):
        self.assertEqual(cut(["wide.csv", "-c", "c,a", "-o", "narrow.csv"]), 2)
        with open("narrow.csv", newline="") as f:
            self.assertEqual(list(csv.reader(f)), [["c", "a"], ["3", "1"], ["6", "4"]])

    def test_unknown(self):
        self.assertEqual(cut(["wide.csv", "-c", "a,z"]), "unknown columns: z")


if __name__ == "__main__":
    CutTest("test_cut").setUp()
    print(cut(["wide.csv", "--columns", "b"]))
    sys.stdout.write(open("cut.csv").read())
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
