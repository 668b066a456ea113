# ruff: noqa
import csv
import unittest


class Semicolon(csv.excel):
    delimiter = ";"
    lineterminator = "\n"


csv.register_dialect("semicolon", Semicolon)


def export(path, rows, dialect="semicolon"):
    with open(path, "w", newline="", encoding="utf-8-sig") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]), dialect=dialect)
        w.writeheader()
        w.writerows(rows)


def import_(path, dialect="semicolon"):
    with open(path, newline="", encoding="utf-8-sig") as f:
        return list(csv.DictReader(f, dialect=dialect))


class DialectTest(unittest.TestCase):
    ROWS = [{"name": "Zoë", "city": "Zürich", "note": "a;b"}, {"name": "José", "city": "São Paulo", "note": ""}]

    def test_round_trip_unicode(self):
        export("people_eu.csv", self.ROWS)
        self.assertEqual(import_("people_eu.csv"), self.ROWS)

    def test_bom_and_quoting(self):
        export("people_eu.csv", self.ROWS)
        with open("people_eu.csv", "rb") as f:
            raw = f.read()
        self.assertTrue(raw.startswith(b"\xef\xbb\xbf"))
        self.assertIn('"a;b"'.encode(), raw)

    def test_registered(self):
        self.assertIn("semicolon", csv.list_dialects())


if __name__ == "__main__":
    export("out.csv", DialectTest.ROWS)
    print(open("out.csv", encoding="utf-8-sig").read(), end="")
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
