# ruff: noqa
import argparse
import unittest


def build():
    p = argparse.ArgumentParser(prog="cloud")
    top = p.add_subparsers(dest="resource", required=True)
    vm = top.add_parser("vm")
    vm_sub = vm.add_subparsers(dest="action", required=True)
    create = vm_sub.add_parser("create")
    create.add_argument("name")
    create.add_argument("--size", default="small", choices=["small", "large"])
    vm_sub.add_parser("list").add_argument("--all", action="store_true")
    bucket = top.add_parser("bucket")
    b_sub = bucket.add_subparsers(dest="action", required=True)
    b_sub.add_parser("rm").add_argument("names", nargs="+")
    return p


def describe(argv):
    ns = build().parse_args(argv)
    extra = {k: v for k, v in sorted(vars(ns).items()) if k not in ("resource", "action")}
    return f"{ns.resource}.{ns.action} {extra}"


class NestedTest(unittest.TestCase):
    def test_paths(self):
        self.assertEqual(describe(["vm", "create", "web1", "--size", "large"]), "vm.create {'name': 'web1', 'size': 'large'}")
        self.assertEqual(describe(["vm", "list"]), "vm.list {'all': False}")
        self.assertEqual(describe(["bucket", "rm", "a", "b"]), "bucket.rm {'names': ['a', 'b']}")


if __name__ == "__main__":
    print(describe(["vm", "create", "db"]))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
