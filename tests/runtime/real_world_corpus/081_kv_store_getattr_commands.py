# ruff: noqa
import json
import shlex
import unittest


class KVShell:
    """A tiny key-value shell: each input line 'CMD args' runs do_cmd via getattr."""

    def __init__(self, path="kv.json"):
        self.path = path
        self.data = {}

    def execute(self, line):
        cmd, *args = shlex.split(line)
        handler = getattr(self, "do_" + cmd.lower(), None)
        if handler is None:
            return f"ERR unknown command {cmd}"
        try:
            return handler(*args)
        except TypeError:
            return f"ERR wrong number of arguments for {cmd}"

    def do_set(self, key, value):
        self.data[key] = value
        return "OK"

    def do_get(self, key):
        return self.data.get(key, "(nil)")

    def do_del(self, *keys):
        return str(sum(self.data.pop(k, None) is not None for k in keys))

    def do_keys(self):
        return " ".join(sorted(self.data))

    def do_save(self):
        with open(self.path, "w") as f:
            json.dump(self.data, f, sort_keys=True)
        return "OK"

    def do_load(self):
        with open(self.path) as f:
            self.data = json.load(f)
        return str(len(self.data))


class KVShellTest(unittest.TestCase):
    def test_session(self):
        sh = KVShell()
        script = ['SET name "Ada Lovelace"', "SET lang py", "GET name", "KEYS", "DEL lang missing", "GET lang", "SAVE",
                  "SET tmp 1", "LOAD", "KEYS", "FLY", "GET"]
        out = [sh.execute(l) for l in script]
        self.assertEqual(out, ["OK", "OK", "Ada Lovelace", "lang name", "1", "(nil)", "OK", "OK", "1", "name",
                               "ERR unknown command FLY", "ERR wrong number of arguments for GET"])


if __name__ == "__main__":
    sh = KVShell()
    for line in ["set a 1", "set b 2", "keys", "save", "del a", "load", "get a"]:
        print(f"> {line}\n{sh.execute(line)}")
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
