# ruff: noqa
import glob
import os
import re
import tempfile
import unittest
from collections import defaultdict


def build_index(folder):
    index = defaultdict(set)
    for path in glob.glob(os.path.join(folder, "**", "*.txt"), recursive=True):
        rel = os.path.relpath(path, folder).replace(os.sep, "/")
        with open(path, encoding="utf-8") as f:
            for word in re.findall(r"\w+", f.read().lower()):
                index[word].add(rel)
    return index


def search(index, query):
    words = query.lower().split()
    if not words:
        return []
    hits = set.intersection(*(index.get(w, set()) for w in words))
    return sorted(hits)


class IndexTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        docs = {"a.txt": "The quick brown fox", "b/c.txt": "A quick test of the index", "b/d.md": "quick but ignored", "e.txt": "Brown bread"}
        for rel, text in docs.items():
            path = os.path.join(cls.tmp.name, *rel.split("/"))
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
        cls.index = build_index(cls.tmp.name)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_single(self):
        self.assertEqual(search(self.index, "quick"), ["a.txt", "b/c.txt"])

    def test_and(self):
        self.assertEqual(search(self.index, "Quick BROWN"), ["a.txt"])

    def test_missing(self):
        self.assertEqual(search(self.index, "zebra"), [])
        self.assertEqual(search(self.index, ""), [])


if __name__ == "__main__":
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
