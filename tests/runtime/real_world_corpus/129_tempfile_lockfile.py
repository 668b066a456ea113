# ruff: noqa
import json
import os
import tempfile
import unittest


class LockError(RuntimeError):
    pass


class LockFile:
    """A cooperative lock using O_CREAT | O_EXCL (no threads or processes needed to test)."""

    def __init__(self, path, owner):
        self.path, self.owner, self.held = path, owner, False

    def acquire(self):
        try:
            fd = os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            with open(self.path) as f:
                raise LockError(f"locked by {json.load(f)['owner']}") from None
        with os.fdopen(fd, "w") as f:
            json.dump({"owner": self.owner}, f)
        self.held = True

    def release(self):
        if self.held:
            os.remove(self.path)
            self.held = False

    def __enter__(self):
        self.acquire()
        return self

    def __exit__(self, *exc):
        self.release()


class LockTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.dir.name, "job.lock")

    def tearDown(self):
        self.dir.cleanup()

    def test_exclusive(self):
        with LockFile(self.path, "worker-1"):
            with self.assertRaisesRegex(LockError, "locked by worker-1"):
                LockFile(self.path, "worker-2").acquire()
        self.assertFalse(os.path.exists(self.path))

    def test_release_on_error(self):
        with self.assertRaises(ZeroDivisionError):
            with LockFile(self.path, "w"):
                1 / 0
        with LockFile(self.path, "again") as lock:
            self.assertTrue(lock.held)


if __name__ == "__main__":
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
