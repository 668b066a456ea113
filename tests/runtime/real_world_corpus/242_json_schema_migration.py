# ruff: noqa
import json
import unittest


def v1_to_v2(doc):
    doc = dict(doc)
    first, _, last = doc.pop("name").partition(" ")
    doc.update(first_name=first, last_name=last, version=2)
    return doc


def v2_to_v3(doc):
    doc = dict(doc)
    doc["contacts"] = [{"type": "email", "value": doc.pop("email")}] if "email" in doc else []
    doc["version"] = 3
    return doc


MIGRATIONS = {1: v1_to_v2, 2: v2_to_v3}


def upgrade(doc, target=3):
    while doc.get("version", 1) < target:
        doc = MIGRATIONS[doc.get("version", 1)](doc)
    return doc


def upgrade_file(path):
    with open(path) as f:
        docs = json.load(f)
    upgraded = [upgrade(d) for d in docs]
    with open(path, "w") as f:
        json.dump(upgraded, f, sort_keys=True, indent=1)
    return sum(a != b for a, b in zip(docs, upgraded))


class MigrationTest(unittest.TestCase):
    def test_chain(self):
        self.assertEqual(upgrade({"name": "Ada Lovelace", "email": "ada@x.org"}),
                         {"first_name": "Ada", "last_name": "Lovelace", "contacts": [{"type": "email", "value": "ada@x.org"}], "version": 3})

    def test_file(self):
        with open("people.json", "w") as f:
            json.dump([{"name": "Alan Turing"}, {"version": 3, "first_name": "X", "last_name": "", "contacts": []}], f)
        self.assertEqual(upgrade_file("people.json"), 1)
        self.assertEqual(upgrade_file("people.json"), 0)


if __name__ == "__main__":
    print(json.dumps(upgrade({"name": "Grace Hopper"}), sort_keys=True))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
