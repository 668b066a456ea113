# ruff: noqa
import unittest
from pathlib import Path


def copy_tree(src, dst):
    """Copy with pathlib only (no shutil): read_bytes/write_bytes per file."""
    src, dst = Path(src), Path(dst)
    count = 0
    for path in sorted(src.rglob("*")):
        target = dst / path.relative_to(src)
        if path.is_dir():
            target.mkdir(parents=True, exist_ok=True)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(path.read_bytes())
            count += 1
    return count


class CopyTreeTest(unittest.TestCase):
    def test_copy(self):
        for rel, data in {"site/index.html": b"<html>", "site/img/logo.png": b"\x89PNG", "site/empty/": None}.items():
            p = Path(rel)
            if data is None:
                p.mkdir(parents=True, exist_ok=True)
            else:
                p.parent.mkdir(parents=True, exist_ok=True)
                p.write_bytes(data)
        self.assertEqual(copy_tree("site", "site_copy"), 2)
        self.assertTrue(Path("site_copy/empty").is_dir())
        self.assertEqual(Path("site_copy/img/logo.png").read_bytes(), b"\x89PNG")


if __name__ == "__main__":
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
