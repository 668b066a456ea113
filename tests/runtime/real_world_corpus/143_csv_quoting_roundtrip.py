# ruff: noqa
import csv
import io
import unittest

TRICKY = [
    ["id", "comment", "amount"],
    ["1", 'He said "hi"', "3.50"],
    ["2", "comma, inside", "-1"],
    ["3", "multi\nline", "0"],
    ["4", "", ""],
    ["5", "  spaces  ", "1e3"],
]


class QuotingTest(unittest.TestCase):
    def round_trip(self, path, **fmt):
        with open(path, "w", newline="", encoding="utf-8") as f:
            csv.writer(f, **fmt).writerows(TRICKY)
        with open(path, newline="", encoding="utf-8") as f:
            return list(csv.reader(f, **fmt))

    def test_minimal(self):
        self.assertEqual(self.round_trip("minimal.csv"), TRICKY)

    def test_all(self):
        self.assertEqual(self.round_trip("all.csv", quoting=csv.QUOTE_ALL), TRICKY)
        with open("all.csv", encoding="utf-8") as f:
            self.assertTrue(f.readline().startswith('"id","comment"'))

    def test_tab(self):
        self.assertEqual(self.round_trip("data.tsv", delimiter="\t"), TRICKY)

    def test_nonnumeric(self):
        buf = io.StringIO()
        csv.writer(buf, quoting=csv.QUOTE_NONNUMERIC).writerow(["a", 1, 2.5, None])
        self.assertEqual(buf.getvalue(), '"a",1,2.5,""\r\n')
        self.assertEqual(next(csv.reader(io.StringIO(buf.getvalue()), quoting=csv.QUOTE_NONNUMERIC)), ["a", 1.0, 2.5, ""])


if __name__ == "__main__":
    with open("show.csv", "w", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows(TRICKY[:3])
    print(open("show.csv").read(), end="")
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
