# ruff: noqa
import csv
import glob
import os
import tempfile
import unittest


def split_csv(path, rows_per_file, out_dir):
    with open(path, newline="") as f:
        reader = csv.reader(f)
        header = next(reader)
        chunk, part, written = [], 0, []
        for row in reader:
            chunk.append(row)
            if len(chunk) == rows_per_file:
                part += 1
                written.append(_write(out_dir, part, header, chunk))
                chunk = []
        if chunk:
            written.append(_write(out_dir, part + 1, header, chunk))
    return written


def _write(out_dir, part, header, rows):
    name = os.path.join(out_dir, f"part-{part:03d}.csv")
    with open(name, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)
    return os.path.basename(name)


def join_csv(out_dir):
    rows = []
    for p in sorted(glob.glob(os.path.join(out_dir, "part-*.csv"))):
        with open(p, newline="") as f:
            rows.extend(list(csv.reader(f))[1:])
    return rows


class SplitTest(unittest.TestCase):
    def test_split_join(self):
        with tempfile.TemporaryDirectory() as d:
            src = os.path.join(d, "big.csv")
            with open(src, "w", newline="") as f:
                w = csv.writer(f)
                w.writerow(["n", "square"])
                w.writerows([i, i * i] for i in range(10))
            parts_dir = os.path.join(d, "parts")
            os.mkdir(parts_dir)
            self.assertEqual(split_csv(src, 4, parts_dir), ["part-001.csv", "part-002.csv", "part-003.csv"])
            self.assertEqual(join_csv(parts_dir), [[str(i), str(i * i)] for i in range(10)])


if __name__ == "__main__":
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
