# ruff: noqa
import json
import os
import tempfile
import unittest


def atomic_write_json(path, data):
    """Write JSON atomically: a temp file in the same directory, then rename."""
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp_path = tempfile.mkstemp(prefix=".tmp-", suffix=".json", dir=directory)
    try:
        with os.fdopen(fd, "w") as f:
            json.dump(data, f, indent=2, sort_keys=True)
            f.write("\n")
        os.replace(tmp_path, path)
    except BaseException:
        os.unlink(tmp_path)
        raise


def read_json(path, default=None):
    try:
        with open(path) as f:
            return json.load(f)
    except FileNotFoundError:
        return default


class AtomicWriteTest(unittest.TestCase):
    def test_write_and_read(self):
        with tempfile.TemporaryDirectory() as d:
            target = os.path.join(d, "conf.json")
            atomic_write_json(target, {"b": [1, 2], "a": None})
            self.assertEqual(read_json(target), {"a": None, "b": [1, 2]})
            self.assertEqual(os.listdir(d), ["conf.json"])

    def test_failure_leaves_no_temp(self):
        with tempfile.TemporaryDirectory() as d:
            target = os.path.join(d, "conf.json")
            with self.assertRaises(TypeError):
                atomic_write_json(target, {"bad": object()})
            self.assertEqual(os.listdir(d), [])

    def test_default(self):
        self.assertEqual(read_json("does-not-exist.json", {}), {})

    def test_named_temporary_file(self):
        with tempfile.NamedTemporaryFile("w+", suffix=".json") as tmp:
            json.dump({"x": 1}, tmp)
            tmp.flush()
            tmp.seek(0)
            self.assertEqual(json.load(tmp), {"x": 1})
            self.assertTrue(os.path.basename(tmp.name).endswith(".json"))


if __name__ == "__main__":
    atomic_write_json("config.json", {"retries": 3, "name": "demo"})
    print(open("config.json").read(), end="")
    print(sorted(os.listdir(".")))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
