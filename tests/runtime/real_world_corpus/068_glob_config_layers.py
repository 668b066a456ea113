# ruff: noqa
import glob
import json
import os
import unittest


def load_layers(directory):
    """Merge conf.d/*.json in lexical order (10-base.json, 20-local.json...)."""
    merged, sources = {}, []
    for path in sorted(glob.glob(os.path.join(directory, "*.json"))):
        with open(path) as f:
            merged.update(json.load(f))
        sources.append(os.path.basename(path))
    return merged, sources


class LayersTest(unittest.TestCase):
    def setUp(self):
        os.makedirs("conf.d", exist_ok=True)
        for name, data in {"10-base.json": {"debug": False, "workers": 2, "name": "svc"},
                           "20-local.json": {"debug": True},
                           "90-override.json": {"workers": 8}}.items():
            with open(os.path.join("conf.d", name), "w") as f:
                json.dump(data, f)
        with open(os.path.join("conf.d", "README.txt"), "w") as f:
            f.write("not json")

    def test_merge_order(self):
        merged, sources = load_layers("conf.d")
        self.assertEqual(merged, {"debug": True, "workers": 8, "name": "svc"})
        self.assertEqual(sources, ["10-base.json", "20-local.json", "90-override.json"])

    def test_empty_dir(self):
        os.makedirs("empty.d", exist_ok=True)
        self.assertEqual(load_layers("empty.d"), ({}, []))


if __name__ == "__main__":
    LayersTest("test_merge_order").setUp()
    merged, sources = load_layers("conf.d")
    print(json.dumps(merged, sort_keys=True), sources)
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
