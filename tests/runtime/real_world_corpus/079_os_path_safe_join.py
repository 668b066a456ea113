# ruff: noqa
import os
import unittest


class UnsafePath(ValueError):
    pass


def safe_join(base, *parts):
    base_abs = os.path.abspath(base)
    candidate = os.path.abspath(os.path.join(base_abs, *parts))
    if os.path.commonpath([base_abs, candidate]) != base_abs:
        raise UnsafePath(os.path.join(*parts))
    return candidate


def serve(base, url_path):
    rel = url_path.lstrip("/") or "index.html"
    path = safe_join(base, rel)
    if os.path.isdir(path):
        path = os.path.join(path, "index.html")
    if not os.path.isfile(path):
        return 404, ""
    with open(path) as f:
        return 200, f.read()


class SafeJoinTest(unittest.TestCase):
    def setUp(self):
        os.makedirs(os.path.join("www", "docs"), exist_ok=True)
        for rel, text in {"index.html": "home", "docs/index.html": "docs", "docs/a.txt": "A"}.items():
            with open(os.path.join("www", *rel.split("/")), "w") as f:
                f.write(text)

    def test_serve(self):
        self.assertEqual(serve("www", "/"), (200, "home"))
        self.assertEqual(serve("www", "/docs/"), (200, "docs"))
        self.assertEqual(serve("www", "/docs/a.txt"), (200, "A"))
        self.assertEqual(serve("www", "/nope"), (404, ""))

    def test_traversal(self):
        for bad in ("../secret", "docs/../../x", "/../../etc/passwd"):
            with self.subTest(bad=bad), self.assertRaises(UnsafePath):
                serve("www", bad)

    def test_relative_result(self):
        self.assertEqual(os.path.relpath(safe_join("www", "docs", "a.txt")), os.path.join("www", "docs", "a.txt"))


if __name__ == "__main__":
    SafeJoinTest("test_serve").setUp()
    for url in ["/", "/docs/a.txt", "/missing"]:
        print(url, serve("www", url))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
