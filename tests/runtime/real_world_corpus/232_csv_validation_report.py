# ruff: noqa
import csv
import re
import unittest

VALIDATORS = {
    "email": lambda v: re.fullmatch(r"[^@\s]+@[^@\s]+\.\w+", v),
    "age": lambda v: v.isdigit() and 0 < int(v) < 120,
    "country": lambda v: len(v) == 2 and v.isupper(),
}


def validate(path, errors_path):
    bad = 0
    with open(path, newline="") as f, open(errors_path, "w", newline="") as out:
        reader = csv.DictReader(f)
        writer = csv.writer(out)
        writer.writerow(["line", "field", "value"])
        for line, row in enumerate(reader, start=2):
            for field, ok in VALIDATORS.items():
                if not ok(row[field]):
                    writer.writerow([line, field, row[field]])
                    bad += 1
    return bad


class ValidateTest(unittest.TestCase):
    def test_report(self):
        with open("users.csv", "w", newline="") as f:
            csv.writer(f).writerows([["email", "age", "country"], ["a@b.io", "33", "FR"], ["nope", "200", "fr"], ["c@d.org", "x", "DE"]])
        self.assertEqual(validate("users.csv", "errors.csv"), 4)
        with open("errors.csv", newline="") as f:
            rows = list(csv.DictReader(f))
        self.assertEqual([(r["line"], r["field"]) for r in rows], [("3", "email"), ("3", "age"), ("3", "country"), ("4", "age")])


if __name__ == "__main__":
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
