# ruff: noqa
import types
import unittest


def make_plugin(name, source):
    """Build a module object from source text (as a plugin loader would)."""
    module = types.ModuleType(name)
    exec(compile(source, f"<plugin {name}>", "exec"), module.__dict__)
    return module


PLUGINS = {
    "shout": "PRIORITY = 2\ndef transform(text):\n    return text.upper()\n",
    "exclaim": "PRIORITY = 1\ndef transform(text):\n    return text + '!'\n",
    "broken": "PRIORITY = 3\n",
}


def load_all(sources):
    loaded = []
    for name, src in sorted(sources.items()):
        mod = make_plugin(name, src)
        if callable(getattr(mod, "transform", None)):
            loaded.append(mod)
    return sorted(loaded, key=lambda m: getattr(m, "PRIORITY", 99))


def apply(text, plugins):
    for p in plugins:
        text = p.transform(text)
    return text


class PluginTest(unittest.TestCase):
    def test_load(self):
        plugins = load_all(PLUGINS)
        self.assertEqual([p.__name__ for p in plugins], ["exclaim", "shout"])
        self.assertEqual(apply("hello", plugins), "HELLO!")


if __name__ == "__main__":
    print(apply("plugins work", load_all(PLUGINS)))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
