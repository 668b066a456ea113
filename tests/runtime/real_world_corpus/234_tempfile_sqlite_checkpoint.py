# ruff: noqa
import os
import sqlite3
import tempfile
import unittest


class Checkpointer:
    """Save progress of a long job in SQLite so that it can resume."""

    def __init__(self, path):
        self.db = sqlite3.connect(path)
        self.db.execute("CREATE TABLE IF NOT EXISTS done (item TEXT PRIMARY KEY, result INTEGER)")

    def run(self, items, work, stop_after=None):
        done = {r[0] for r in self.db.execute("SELECT item FROM done")}
        processed = []
        for item in items:
            if item in done:
                continue
            if stop_after is not None and len(processed) == stop_after:
                break
            with self.db:
                self.db.execute("INSERT INTO done VALUES (?, ?)", (item, work(item)))
            processed.append(item)
        return processed

    def results(self):
        return dict(self.db.execute("SELECT item, result FROM done ORDER BY item"))


class ResumeTest(unittest.TestCase):
    def test_resume(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "progress.sqlite")
            items = [f"file{i}" for i in range(5)]
            first = Checkpointer(path)
            self.assertEqual(first.run(items, len, stop_after=2), ["file0", "file1"])
            first.db.close()
            second = Checkpointer(path)
            self.assertEqual(second.run(items, len), ["file2", "file3", "file4"])
            self.assertEqual(len(second.results()), 5)
            second.db.close()


if __name__ == "__main__":
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
