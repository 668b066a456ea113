# ruff: noqa
import os
import unittest


def describe(path):
    head, tail = os.path.split(path)
    root, ext = os.path.splitext(tail)
    return {"dir": head, "base": tail, "stem": root, "ext": ext, "abs": os.path.isabs(path), "depth": len([p for p in path.split("/") if p]) - 1}


class PathInfoTest(unittest.TestCase):
    def test_describe(self):
        self.assertEqual(describe("/var/log/nginx/access.log.1"),
                         {"dir": "/var/log/nginx", "base": "access.log.1", "stem": "access.log", "ext": ".1", "abs": True, "depth": 3})
        self.assertEqual(describe("notes")["ext"], "")

    def test_exists_relative(self):
        os.makedirs(os.path.join("a", "b"), exist_ok=True)
        open(os.path.join("a", "b", "c.txt"), "w").close()
        self.assertTrue(os.path.exists("a/b/c.txt"))
        self.assertTrue(os.path.isdir("a/b"))
        self.assertFalse(os.path.isfile("a/b"))
        self.assertEqual(os.path.relpath("a/b/c.txt", "a"), os.path.join("b", "c.txt"))
        self.assertTrue(os.path.samefile("a/b/c.txt", "a/./b/c.txt"))


if __name__ == "__main__":
    print(describe("src/pkg/module.py"))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
