# ruff: noqa
import json
import unittest


class Features:
    new_checkout = False
    dark_mode = True
    beta_search = False


def apply_flags(features, flags_json):
    changed = []
    for name, enabled in sorted(json.loads(flags_json).items()):
        if not hasattr(features, name):
            changed.append(f"unknown:{name}")
            continue
        if getattr(features, name) != enabled:
            setattr(features, name, bool(enabled))
            changed.append(f"{name}={'on' if enabled else 'off'}")
    return changed


def enabled(features):
    return sorted(n for n in vars(type(features)) | vars(features) if not n.startswith("_") and getattr(features, n) is True)


class FlagTest(unittest.TestCase):
    def test_apply(self):
        f = Features()
        out = apply_flags(f, '{"new_checkout": true, "dark_mode": true, "typo_flag": true, "beta_search": false}')
        self.assertEqual(out, ["new_checkout=on", "unknown:typo_flag"])
        self.assertEqual(enabled(f), ["dark_mode", "new_checkout"])
        self.assertFalse(Features.new_checkout)

    def test_disable(self):
        f = Features()
        self.assertEqual(apply_flags(f, '{"dark_mode": false}'), ["dark_mode=off"])
        self.assertEqual(enabled(f), [])


if __name__ == "__main__":
    f = Features()
    print(apply_flags(f, '{"beta_search": true}'), enabled(f))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
