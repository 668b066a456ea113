# ruff: noqa
import copy
import json
import os
import unittest

DEFAULTS = {
    "theme": "light",
    "editor": {"font_size": 12, "tab_width": 4, "plugins": ["lint"]},
    "recent": [],
}


def deep_merge(base, override):
    result = copy.deepcopy(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(result.get(key), dict):
            result[key] = deep_merge(result[key], value)
        else:
            result[key] = copy.deepcopy(value)
    return result


def load_settings(path="settings.json"):
    if not os.path.exists(path):
        return copy.deepcopy(DEFAULTS)
    with open(path, encoding="utf-8") as fh:
        user = json.load(fh)
    return deep_merge(DEFAULTS, user)


def save_settings(settings, path="settings.json"):
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(settings, fh, indent=2, sort_keys=True)
    os.replace(tmp, path)


class SettingsTest(unittest.TestCase):
    def tearDown(self):
        if os.path.exists("settings.json"):
            os.remove("settings.json")

    def test_defaults_when_missing(self):
        self.assertEqual(load_settings(), DEFAULTS)

    def test_merge_nested(self):
        merged = deep_merge(DEFAULTS, {"editor": {"font_size": 14}, "theme": "dark"})
        self.assertEqual(merged["editor"], {"font_size": 14, "tab_width": 4, "plugins": ["lint"]})
        self.assertEqual(DEFAULTS["editor"]["font_size"], 12)

    def test_round_trip(self):
        s = load_settings()
        s["recent"].append("notes.txt")
        s["editor"]["plugins"].append("git")
        save_settings(s)
        self.assertFalse(os.path.exists("settings.json.tmp"))
        self.assertEqual(load_settings(), s)
        self.assertEqual(DEFAULTS["recent"], [])


if __name__ == "__main__":
    save_settings(deep_merge(DEFAULTS, {"theme": "solarized"}))
    print(json.dumps(load_settings(), sort_keys=True))
    os.remove("settings.json")
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
