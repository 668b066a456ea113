# ruff: noqa
import json
import sqlite3
import unittest


def store(events):
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE event (id INTEGER PRIMARY KEY, payload TEXT)")
    db.executemany("INSERT INTO event (payload) VALUES (?)", [(json.dumps(e),) for e in events])
    return db


class JsonColumnTest(unittest.TestCase):
    EVENTS = [{"type": "click", "x": 10, "user": {"id": 1}}, {"type": "view", "user": {"id": 2}}, {"type": "click", "x": 30, "user": {"id": 2}}]

    def test_python_side(self):
        db = store(self.EVENTS)
        clicks = [json.loads(p) for (p,) in db.execute("SELECT payload FROM event ORDER BY id")]
        self.assertEqual(sum(e.get("x", 0) for e in clicks if e["type"] == "click"), 40)

    def test_json1_if_available(self):
        db = store(self.EVENTS)
        try:
            rows = db.execute("SELECT json_extract(payload, '$.user.id'), COUNT(*) FROM event GROUP BY 1 ORDER BY 1").fetchall()
        except sqlite3.OperationalError:
            self.skipTest("no JSON1")
        self.assertEqual(rows, [(1, 1), (2, 2)])


if __name__ == "__main__":
    db = store(JsonColumnTest.EVENTS)
    print(db.execute("SELECT COUNT(*) FROM event").fetchone()[0], "events")
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
