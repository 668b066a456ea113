# ruff: noqa
import os
import tempfile
import unittest


class ReportWriter:
    """Write a report to a temp file and move it into place only when complete."""

    def __init__(self, final_path):
        self.final_path = final_path
        directory = os.path.dirname(os.path.abspath(final_path))
        self._tmp = tempfile.NamedTemporaryFile("w", dir=directory, delete=False, suffix=".part")

    def write_line(self, text):
        self._tmp.write(text + "\n")

    def commit(self):
        self._tmp.close()
        os.replace(self._tmp.name, self.final_path)

    def abort(self):
        self._tmp.close()
        os.unlink(self._tmp.name)


class ReportWriterTest(unittest.TestCase):
    def test_commit(self):
        w = ReportWriter("summary.txt")
        w.write_line("total: 3")
        self.assertFalse(os.path.exists("summary.txt"))
        w.commit()
        with open("summary.txt") as f:
            self.assertEqual(f.read(), "total: 3\n")
        self.assertEqual([n for n in os.listdir(".") if n.endswith(".part")], [])

    def test_abort(self):
        w = ReportWriter("aborted.txt")
        w.write_line("x")
        w.abort()
        self.assertFalse(os.path.exists("aborted.txt"))
        self.assertEqual([n for n in os.listdir(".") if n.endswith(".part")], [])


if __name__ == "__main__":
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
