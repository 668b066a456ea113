# ruff: noqa
import json
import shutil
import unittest
from pathlib import Path


class Trash:
    def __init__(self, root=".trash"):
        self.root = Path(root)
        self.root.mkdir(exist_ok=True)
        self.index_file = self.root / "index.json"
        self.index = json.loads(self.index_file.read_text()) if self.index_file.exists() else {}

    def _save(self):
        self.index_file.write_text(json.dumps(self.index, sort_keys=True))

    def delete(self, path):
        path = Path(path)
        key = f"{len(self.index) + 1:04d}-{path.name}"
        shutil.move(str(path), str(self.root / key))
        self.index[key] = path.as_posix()
        self._save()
        return key

    def restore(self, key):
        original = Path(self.index.pop(key))
        original.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(self.root / key), str(original))
        self._save()
        return original.as_posix()

    def empty(self):
        n = len(self.index)
        for key in self.index:
            target = self.root / key
            shutil.rmtree(target) if target.is_dir() else target.unlink()
        self.index = {}
        self._save()
        return n


class TrashTest(unittest.TestCase):
    def test_cycle(self):
        Path("work/sub").mkdir(parents=True, exist_ok=True)
        Path("work/a.txt").write_text("A")
        Path("work/sub/b.txt").write_text("B")
        t = Trash()
        k1, k2 = t.delete("work/a.txt"), t.delete("work/sub")
        self.assertEqual((k1, k2), ("0001-a.txt", "0002-sub"))
        self.assertFalse(Path("work/a.txt").exists())
        self.assertEqual(Trash().restore(k1), "work/a.txt")
        self.assertEqual(Path("work/a.txt").read_text(), "A")
        self.assertEqual(Trash().empty(), 1)
        self.assertEqual(sorted(p.name for p in Path(".trash").iterdir()), ["index.json"])


if __name__ == "__main__":
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
