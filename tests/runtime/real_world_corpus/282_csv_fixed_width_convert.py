# ruff: noqa
import csv
import unittest

LAYOUT = [("id", 0, 5), ("name", 5, 20), ("dept", 20, 26), ("salary", 26, 34)]


def fixed_to_csv(src, dst):
    with open(src) as fin, open(dst, "w", newline="") as fout:
        w = csv.writer(fout)
        w.writerow([name for name, _, _ in LAYOUT])
        n = 0
        for line in fin:
            if line.strip():
                w.writerow([line[a:b].strip() for _, a, b in LAYOUT])
                n += 1
    return n


class FixedWidthTest(unittest.TestCase):
    def test_convert(self):
        with open("payroll.txt", "w") as f:
            f.write("00001Ann Smith      ENG   0055000\n00002Bob O'Neil     OPS   0048250\n\n")
        self.assertEqual(fixed_to_csv("payroll.txt", "payroll.csv"), 2)
        with open("payroll.csv", newline="") as f:
            rows = list(csv.DictReader(f))
        self.assertEqual(rows[1], {"id": "00002", "name": "Bob O'Neil", "dept": "OPS", "salary": "0048250"})
        self.assertEqual(sum(int(r["salary"]) for r in rows), 103250)


if __name__ == "__main__":
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
