# ruff: noqa
import csv
import io
import tempfile
import unittest


def build_export(rows, max_memory=1024):
    """Build a CSV export in a SpooledTemporaryFile (memory first, disk when large)."""
    spool = tempfile.SpooledTemporaryFile(max_size=max_memory, mode="w+", newline="")
    writer = csv.writer(spool)
    writer.writerow(["id", "value"])
    for i, value in rows:
        writer.writerow([i, value])
    spool.seek(0)
    return spool


class SpoolTest(unittest.TestCase):
    def test_small_stays_in_memory(self):
        with build_export([(1, "a"), (2, "b")]) as f:
            self.assertFalse(f._rolled)
            self.assertEqual(list(csv.reader(f)), [["id", "value"], ["1", "a"], ["2", "b"]])

    def test_large_rolls_to_disk(self):
        rows = [(i, "x" * 50) for i in range(100)]
        with build_export(rows) as f:
            self.assertTrue(f._rolled)
            data = list(csv.reader(f))
        self.assertEqual(len(data), 101)
        self.assertEqual(data[-1], ["99", "x" * 50])

    def test_temporary_file_binary(self):
        with tempfile.TemporaryFile() as f:
            f.write(b"\x00\x01\x02")
            f.seek(0)
            self.assertEqual(f.read(), b"\x00\x01\x02")


if __name__ == "__main__":
    with build_export([(1, "one"), (2, "two")]) as f:
        print(f.read().replace("\r\n", "\n"), end="")
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
