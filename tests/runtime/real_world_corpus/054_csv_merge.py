# ruff: noqa
import csv
import unittest


def write_csv(path, header, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)


def read_keyed(path, key):
    with open(path, newline="") as f:
        return {row[key]: row for row in csv.DictReader(f)}


def merge(left_path, right_path, key, out_path, how="inner"):
    left, right = read_keyed(left_path, key), read_keyed(right_path, key)
    keys = sorted(left.keys() & right.keys()) if how == "inner" else sorted(left.keys() | right.keys())
    fields = [key] + [c for c in next(iter(left.values())) if c != key] + [c for c in next(iter(right.values())) if c != key]
    with open(out_path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, restval="")
        w.writeheader()
        for k in keys:
            row = {**left.get(k, {}), **right.get(k, {}), key: k}
            w.writerow(row)
    return len(keys)


class MergeTest(unittest.TestCase):
    def setUp(self):
        write_csv("employees.csv", ["emp_id", "name", "dept"], [["3", "Cy", "ops"], ["1", "Ann", "dev"], ["2", "Bo", "dev"]])
        write_csv("salaries.csv", ["emp_id", "salary"], [["1", "5000"], ["3", "4200"], ["4", "3900"]])

    def test_inner(self):
        self.assertEqual(merge("employees.csv", "salaries.csv", "emp_id", "merged.csv"), 2)
        with open("merged.csv", newline="") as f:
            rows = list(csv.reader(f))
        self.assertEqual(rows, [["emp_id", "name", "dept", "salary"], ["1", "Ann", "dev", "5000"], ["3", "Cy", "ops", "4200"]])

    def test_outer(self):
        self.assertEqual(merge("employees.csv", "salaries.csv", "emp_id", "outer.csv", how="outer"), 4)
        rows = read_keyed("outer.csv", "emp_id")
        self.assertEqual(rows["2"]["salary"], "")
        self.assertEqual(rows["4"]["name"], "")


if __name__ == "__main__":
    MergeTest("test_inner").setUp()
    merge("employees.csv", "salaries.csv", "emp_id", "merged.csv", how="outer")
    print(open("merged.csv").read().replace("\r\n", "\n"), end="")
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
