# ruff: noqa
import argparse
import contextlib
import io
import unittest


class KeyValueAction(argparse.Action):
    """Collect repeated --set key=value options into a dict."""

    def __call__(self, parser, namespace, values, option_string=None):
        current = dict(getattr(namespace, self.dest) or {})
        key, sep, value = values.partition("=")
        if not sep or not key:
            parser.error(f"{option_string} expects key=value, got {values!r}")
        current[key] = value
        setattr(namespace, self.dest, current)


def parse(argv):
    p = argparse.ArgumentParser(prog="deploy")
    p.add_argument("service")
    p.add_argument("--set", dest="overrides", action=KeyValueAction, metavar="KEY=VALUE", default={})
    p.add_argument("--replicas", type=int, default=1)
    p.add_argument("--env", choices=("dev", "staging", "prod"), default="dev")
    return p.parse_args(argv)


class CustomActionTest(unittest.TestCase):
    def test_overrides(self):
        ns = parse(["api", "--set", "image=v2", "--set", "debug=0", "--set", "image=v3"])
        self.assertEqual(ns.overrides, {"image": "v3", "debug": "0"})

    def test_default_not_shared(self):
        parse(["a", "--set", "x=1"])
        self.assertEqual(parse(["b"]).overrides, {})

    def test_bad_pair(self):
        err = io.StringIO()
        with contextlib.redirect_stderr(err), self.assertRaises(SystemExit):
            parse(["api", "--set", "novalue"])
        self.assertIn("--set expects key=value, got 'novalue'", err.getvalue())


if __name__ == "__main__":
    ns = parse(["web", "--env", "prod", "--replicas", "3", "--set", "tag=1.4"])
    print(ns.service, ns.env, ns.replicas, ns.overrides)
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
