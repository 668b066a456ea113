# ruff: noqa
import json
import os
import tempfile
import unittest


def save_temp_json(data):
    f = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False, encoding="utf-8")
    with f:
        json.dump(data, f, ensure_ascii=False)
    return f.name


class TempJsonTest(unittest.TestCase):
    def test_unicode_round_trip(self):
        data = {"city": "Kraków", "emoji": "\u2603", "nested": [1, {"a": None}]}
        path = save_temp_json(data)
        try:
            with open(path, encoding="utf-8") as f:
                self.assertEqual(json.load(f), data)
            with open(path, "rb") as f:
                self.assertIn("Kraków".encode(), f.read())
        finally:
            os.remove(path)
        self.assertFalse(os.path.exists(path))

    def test_delete_on_close(self):
        with tempfile.NamedTemporaryFile() as f:
            name = f.name
            self.assertTrue(os.path.exists(name))
        self.assertFalse(os.path.exists(name))


if __name__ == "__main__":
    p = save_temp_json({"ok": True})
    print(os.path.splitext(p)[1], open(p).read())
    os.remove(p)
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
