# ruff: noqa
import csv
import re
import unittest


def normalise_header(name):
    name = re.sub(r"[^0-9a-zA-Z]+", "_", name.strip()).strip("_").lower()
    return name or "column"


def clean_headers(src, dst):
    with open(src, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    seen, header = {}, []
    for h in rows[0]:
        base = normalise_header(h)
        seen[base] = seen.get(base, 0) + 1
        header.append(base if seen[base] == 1 else f"{base}_{seen[base]}")
    with open(dst, "w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows([header] + rows[1:])
    return header


class HeaderTest(unittest.TestCase):
    def test_clean(self):
        with open("raw.csv", "w", newline="", encoding="utf-8") as f:
            csv.writer(f).writerows([[" First Name ", "E-mail Address", "e-mail address", "%", "Unit Price ($)"], ["a", "b", "c", "d", "e"]])
        self.assertEqual(clean_headers("raw.csv", "clean.csv"), ["first_name", "e_mail_address", "e_mail_address_2", "column", "unit_price"])
        with open("clean.csv", newline="", encoding="utf-8") as f:
            self.assertEqual(next(csv.DictReader(f))["unit_price"], "e")


if __name__ == "__main__":
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
