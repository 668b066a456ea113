# ruff: noqa
import hashlib
import os
import tempfile
import unittest


def file_digest(path, chunk=4096):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(chunk), b""):
            h.update(block)
    return h.hexdigest()


def find_duplicates(root):
    by_size = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for name in sorted(filenames):
            path = os.path.join(dirpath, name)
            by_size.setdefault(os.path.getsize(path), []).append(path)
    groups = []
    for size, paths in sorted(by_size.items()):
        if len(paths) < 2:
            continue
        by_hash = {}
        for p in paths:
            by_hash.setdefault(file_digest(p), []).append(os.path.relpath(p, root))
        groups.extend(sorted(g) for g in by_hash.values() if len(g) > 1)
    return sorted(groups)


class DuplicateTest(unittest.TestCase):
    def test_groups(self):
        with tempfile.TemporaryDirectory() as root:
            files = {
                "a.txt": b"same content",
                "sub/b.txt": b"same content",
                "sub/deeper/c.txt": b"same content",
                "d.txt": b"same  length",
                "e.bin": b"\x00\x01",
                "f.bin": b"\x00\x01",
                "g.bin": b"unique",
            }
            for rel, data in files.items():
                path = os.path.join(root, *rel.split("/"))
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "wb") as f:
                    f.write(data)
            dups = find_duplicates(root)
            self.assertEqual(
                [[p.replace(os.sep, "/") for p in g] for g in dups],
                [["a.txt", "sub/b.txt", "sub/deeper/c.txt"], ["e.bin", "f.bin"]],
            )

    def test_digest_known(self):
        with tempfile.NamedTemporaryFile("wb", delete=False) as f:
            f.write(b"abc")
        try:
            self.assertTrue(file_digest(f.name).startswith("ba7816bf"))
        finally:
            os.unlink(f.name)


if __name__ == "__main__":
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
