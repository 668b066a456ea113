# ruff: noqa
import json
import unittest
from dataclasses import dataclass, asdict, is_dataclass
from datetime import date, datetime
from decimal import Decimal


class Encoder(json.JSONEncoder):
    def default(self, o):
        if isinstance(o, (date, datetime)):
            return {"__date__": o.isoformat()}
        if isinstance(o, Decimal):
            return {"__decimal__": str(o)}
        if is_dataclass(o):
            return asdict(o)
        if isinstance(o, set):
            return sorted(o)
        return super().default(o)


def decode_hook(d):
    if "__date__" in d:
        v = d["__date__"]
        return datetime.fromisoformat(v) if "T" in v else date.fromisoformat(v)
    if "__decimal__" in d:
        return Decimal(d["__decimal__"])
    return d


@dataclass
class Payment:
    amount: Decimal
    on: date


class EncoderTest(unittest.TestCase):
    def test_round_trip_file(self):
        doc = {"when": datetime(2024, 5, 6, 7, 8, 9), "price": Decimal("19.99"), "tags": {"b", "a"}, "pay": Payment(Decimal("5.00"), date(2024, 1, 2))}
        with open("doc.json", "w") as f:
            json.dump(doc, f, cls=Encoder, sort_keys=True)
        with open("doc.json") as f:
            back = json.load(f, object_hook=decode_hook)
        self.assertEqual(back["when"], doc["when"])
        self.assertEqual(back["price"], Decimal("19.99"))
        self.assertEqual(back["tags"], ["a", "b"])
        self.assertEqual(Payment(**back["pay"]), doc["pay"])

    def test_unknown_type(self):
        with self.assertRaises(TypeError):
            json.dumps(object(), cls=Encoder)


if __name__ == "__main__":
    print(json.dumps({"d": date(2024, 2, 29), "x": Decimal("1.10")}, cls=Encoder, sort_keys=True))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
