# ruff: noqa
import os
import unittest


class Settings:
    debug = False
    port = 8000
    name = "app"
    ratio = 0.5
    tags = ("a",)

    def update_from_pairs(self, pairs):
        """Apply 'key=value' strings, casting to the type of the current value."""
        applied = []
        for pair in pairs:
            key, _, raw = pair.partition("=")
            key = key.strip().lower()
            if key.startswith("_") or not hasattr(self, key) or callable(getattr(self, key)):
                raise AttributeError(f"unknown setting {key!r}")
            current = getattr(self, key)
            if isinstance(current, bool):
                value = raw.strip().lower() in ("1", "true", "yes", "on")
            elif isinstance(current, tuple):
                value = tuple(x.strip() for x in raw.split(",") if x.strip())
            else:
                value = type(current)(raw)
            setattr(self, key, value)
            applied.append(key)
        return applied

    def as_dict(self):
        return {k: getattr(self, k) for k in sorted(dir(self)) if not k.startswith("_") and not callable(getattr(self, k))}


class SettingsTest(unittest.TestCase):
    def test_cast(self):
        s = Settings()
        s.update_from_pairs(["DEBUG=yes", "port=9090", "ratio=0.25", "tags=x, y", "name=svc"])
        self.assertEqual(s.as_dict(), {"debug": True, "name": "svc", "port": 9090, "ratio": 0.25, "tags": ("x", "y")})
        self.assertEqual(Settings.port, 8000)

    def test_rejects(self):
        for bad in ("missing=1", "_secret=1", "as_dict=1"):
            with self.subTest(bad=bad), self.assertRaises(AttributeError):
                Settings().update_from_pairs([bad])

    def test_bad_value(self):
        with self.assertRaises(ValueError):
            Settings().update_from_pairs(["port=eighty"])


if __name__ == "__main__":
    s = Settings()
    s.update_from_pairs(["port=1234", "debug=on"])
    print(s.as_dict())
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
