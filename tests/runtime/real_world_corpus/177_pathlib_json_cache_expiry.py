# ruff: noqa
import json
import unittest
from datetime import datetime, timedelta
from pathlib import Path


class JsonCache:
    def __init__(self, folder, ttl=timedelta(hours=1)):
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.ttl = ttl

    def _path(self, key):
        return self.folder / f"{key}.json"

    def set(self, key, value, now):
        self._path(key).write_text(json.dumps({"stored": now.isoformat(), "value": value}))

    def get(self, key, now):
        p = self._path(key)
        if not p.exists():
            return None
        entry = json.loads(p.read_text())
        if now - datetime.fromisoformat(entry["stored"]) > self.ttl:
            p.unlink()
            return None
        return entry["value"]

    def keys(self):
        return sorted(p.stem for p in self.folder.glob("*.json"))


class CacheTest(unittest.TestCase):
    T0 = datetime(2024, 1, 1, 12, 0)

    def test_expiry(self):
        c = JsonCache(".cache/weather")
        c.set("paris", {"temp": 7}, self.T0)
        c.set("oslo", {"temp": -4}, self.T0 + timedelta(minutes=50))
        self.assertEqual(c.get("paris", self.T0 + timedelta(minutes=59)), {"temp": 7})
        self.assertIsNone(c.get("paris", self.T0 + timedelta(minutes=61)))
        self.assertEqual(c.keys(), ["oslo"])
        self.assertIsNone(c.get("rome", self.T0))


if __name__ == "__main__":
    c = JsonCache("cache")
    c.set("k", [1, 2, 3], CacheTest.T0)
    print(c.keys(), c.get("k", CacheTest.T0), Path("cache/k.json").read_text())
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
