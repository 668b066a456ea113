# ruff: noqa
import argparse
import json
import unittest


def parse(argv, config_path=None):
    """Defaults < JSON config file < command line."""
    base = argparse.ArgumentParser(add_help=False)
    base.add_argument("--config")
    known, rest = base.parse_known_args(argv)
    defaults = {"host": "127.0.0.1", "port": 8000, "workers": 1, "reload": False}
    if known.config:
        with open(known.config) as f:
            defaults.update(json.load(f))
    p = argparse.ArgumentParser(parents=[base], prog="serve")
    p.set_defaults(**defaults)
    p.add_argument("--host")
    p.add_argument("--port", type=int)
    p.add_argument("--workers", type=int)
    p.add_argument("--reload", action="store_true")
    return p.parse_args(rest + (["--config", known.config] if known.config else []))


class LayeredArgsTest(unittest.TestCase):
    def setUp(self):
        with open("serve.json", "w") as f:
            json.dump({"port": 9000, "workers": 4}, f)

    def test_defaults(self):
        ns = parse([])
        self.assertEqual((ns.host, ns.port, ns.workers, ns.reload), ("127.0.0.1", 8000, 1, False))

    def test_config(self):
        ns = parse(["--config", "serve.json"])
        self.assertEqual((ns.port, ns.workers), (9000, 4))

    def test_cli_wins(self):
        ns = parse(["--config", "serve.json", "--port", "7000", "--reload"])
        self.assertEqual((ns.port, ns.workers, ns.reload), (7000, 4, True))


if __name__ == "__main__":
    LayeredArgsTest("test_config").setUp()
    ns = parse(["--config", "serve.json", "--host", "0.0.0.0"])
    print({k: v for k, v in sorted(vars(ns).items())})
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
