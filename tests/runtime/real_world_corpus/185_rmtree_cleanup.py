# ruff: noqa
import os
import shutil
import stat
import tempfile
import unittest


def clean_build_dirs(root, names=("build", "dist", "__pycache__", ".pytest_cache")):
    removed = []
    for dirpath, dirnames, _ in os.walk(root, topdown=True):
        for d in sorted(dirnames):
            if d in names or d.endswith(".egg-info"):
                full = os.path.join(dirpath, d)
                shutil.rmtree(full, onexc=_make_writable_and_retry)
                removed.append(os.path.relpath(full, root).replace(os.sep, "/"))
        dirnames[:] = [d for d in dirnames if d not in names and not d.endswith(".egg-info")]
    return removed


def _make_writable_and_retry(func, path, exc):
    os.chmod(path, stat.S_IWRITE | stat.S_IREAD | stat.S_IEXEC)
    func(path)


class CleanTest(unittest.TestCase):
    def test_clean(self):
        with tempfile.TemporaryDirectory() as root:
            for d in ("build/lib", "dist", "pkg/__pycache__", "pkg/sub/__pycache__", "pkg.egg-info", "src/keep"):
                os.makedirs(os.path.join(root, d))
            open(os.path.join(root, "dist", "pkg.whl"), "w").close()
            self.assertEqual(clean_build_dirs(root), ["build", "dist", "pkg.egg-info", "pkg/__pycache__", "pkg/sub/__pycache__"])
            left = sorted(os.path.relpath(os.path.join(dp, d), root).replace(os.sep, "/") for dp, ds, _ in os.walk(root) for d in ds)
            self.assertEqual(left, ["pkg", "pkg/sub", "src", "src/keep"])

    def test_ignore_errors(self):
        shutil.rmtree("does-not-exist", ignore_errors=True)
        with self.assertRaises(FileNotFoundError):
            shutil.rmtree("does-not-exist")


if __name__ == "__main__":
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
