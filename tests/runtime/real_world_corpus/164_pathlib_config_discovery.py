# ruff: noqa
import unittest
from pathlib import Path


def find_upwards(start, name, stop=None):
    """Look for *name* in start and its parents (like git finding .git)."""
    current = Path(start).resolve()
    stop = Path(stop).resolve() if stop else None
    while True:
        candidate = current / name
        if candidate.exists():
            return candidate
        if current == stop or current.parent == current:
            return None
        current = current.parent


class DiscoveryTest(unittest.TestCase):
    def setUp(self):
        base = Path("repo")
        (base / "src" / "pkg" / "sub").mkdir(parents=True, exist_ok=True)
        (base / "pyproject.toml").write_text("[tool]\n")
        (base / "src" / "setup.cfg").write_text("")

    def test_found(self):
        root = Path("repo").resolve()
        self.assertEqual(find_upwards("repo/src/pkg/sub", "pyproject.toml", stop="repo"), root / "pyproject.toml")
        self.assertEqual(find_upwards("repo/src/pkg", "setup.cfg", stop="repo").relative_to(root).as_posix(), "src/setup.cfg")

    def test_not_found(self):
        self.assertIsNone(find_upwards("repo/src/pkg/sub", "tox.ini", stop="repo"))


if __name__ == "__main__":
    DiscoveryTest("test_found").setUp()
    hit = find_upwards("repo/src/pkg/sub", "pyproject.toml", stop="repo")
    print(hit.relative_to(Path.cwd()).as_posix())
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
