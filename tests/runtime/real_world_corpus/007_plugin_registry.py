# ruff: noqa
"""A plugin registry that dispatches by name with getattr."""
import unittest


class TextPlugins:
    def upper(self, text):
        return text.upper()

    def reverse(self, text):
        return text[::-1]

    def title(self, text):
        return text.title()

    def count_vowels(self, text):
        return str(sum(ch in "aeiouAEIOU" for ch in text))

    def _private(self, text):
        return "hidden"


def available(obj):
    return sorted(n for n in dir(obj) if not n.startswith("_") and callable(getattr(obj, n)))


def run_pipeline(obj, names, text):
    for name in names:
        func = getattr(obj, name, None)
        if func is None or name.startswith("_"):
            raise LookupError(f"unknown plugin: {name}")
        text = func(text)
    return text


class RegistryTest(unittest.TestCase):
    def setUp(self):
        self.plugins = TextPlugins()

    def test_available(self):
        self.assertEqual(available(self.plugins), ["count_vowels", "reverse", "title", "upper"])

    def test_pipeline(self):
        self.assertEqual(run_pipeline(self.plugins, ["reverse", "title"], "hello world"), "Dlrow Olleh")

    def test_unknown(self):
        with self.assertRaises(LookupError):
            run_pipeline(self.plugins, ["nope"], "x")
        with self.assertRaises(LookupError):
            run_pipeline(self.plugins, ["_private"], "x")

    def test_each_plugin(self):
        expected = {"upper": "ABC", "reverse": "cba", "title": "Abc", "count_vowels": "1"}
        for name, result in expected.items():
            with self.subTest(name=name):
                self.assertEqual(getattr(self.plugins, name)("abc"), result)


if __name__ == "__main__":
    p = TextPlugins()
    for name in available(p):
        print(name, "->", getattr(p, name)("Sandbox"))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
