# ruff: noqa
import csv
import json
import unittest

CSV_TEXT = """id,name,email,active,score
1,Ada Lovelace,ada@example.com,true,98.5
2,Alan Turing,alan@example.com,false,91
3,Grace Hopper,grace@example.com,true,
"""


def coerce(value):
    if value == "":
        return None
    low = value.lower()
    if low in ("true", "false"):
        return low == "true"
    for cast in (int, float):
        try:
            return cast(value)
        except ValueError:
            pass
    return value


def csv_to_json(csv_path, json_path):
    with open(csv_path, newline="", encoding="utf-8") as src:
        records = [{k: coerce(v) for k, v in row.items()} for row in csv.DictReader(src)]
    with open(json_path, "w", encoding="utf-8") as dst:
        json.dump(records, dst, indent=1)
    return len(records)


def json_to_csv(json_path, csv_path):
    with open(json_path, encoding="utf-8") as src:
        records = json.load(src)
    fields = list(records[0])
    with open(csv_path, "w", newline="", encoding="utf-8") as dst:
        w = csv.DictWriter(dst, fieldnames=fields, lineterminator="\n")
        w.writeheader()
        for r in records:
            w.writerow({k: ("" if v is None else str(v).lower() if isinstance(v, bool) else v) for k, v in r.items()})
    return len(records)


class ConvertTest(unittest.TestCase):
    def setUp(self):
        with open("people.csv", "w", encoding="utf-8") as f:
            f.write(CSV_TEXT)

    def test_types(self):
        csv_to_json("people.csv", "people.json")
        with open("people.json") as f:
            data = json.load(f)
        self.assertEqual(data[0]["score"], 98.5)
        self.assertIs(data[1]["active"], False)
        self.assertEqual(data[1]["score"], 91)
        self.assertIsNone(data[2]["score"])

    def test_round_trip(self):
        csv_to_json("people.csv", "people.json")
        json_to_csv("people.json", "again.csv")
        with open("again.csv") as f:
            self.assertEqual(f.read(), CSV_TEXT)


if __name__ == "__main__":
    with open("people.csv", "w", encoding="utf-8") as f:
        f.write(CSV_TEXT)
    print(csv_to_json("people.csv", "people.json"), "records")
    print(open("people.json").read())
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
