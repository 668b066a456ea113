# ruff: noqa
import gzip
import os
import shutil
import tempfile
import unittest


def compress(src, dest=None):
    dest = dest or src + ".gz"
    # no file name and a fixed mtime in the header: same input, same bytes
    with open(src, "rb") as fin, open(dest, "wb") as raw:
        with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as fout:
            shutil.copyfileobj(fin, fout, length=1024)
    return dest


def decompress(src, dest):
    with gzip.open(src, "rb") as fin, open(dest, "wb") as fout:
        shutil.copyfileobj(fin, fout)
    return os.path.getsize(dest)


class GzipTest(unittest.TestCase):
    def test_round_trip(self):
        data = ("line of repetitive log text\n" * 500).encode()
        with tempfile.TemporaryDirectory() as d:
            src = os.path.join(d, "big.log")
            with open(src, "wb") as f:
                f.write(data)
            gz = compress(src)
            self.assertLess(os.path.getsize(gz), len(data) // 10)
            self.assertEqual(decompress(gz, os.path.join(d, "copy.log")), len(data))
            with open(os.path.join(d, "copy.log"), "rb") as f:
                self.assertEqual(f.read(), data)

    def test_deterministic_bytes(self):
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "a.txt")
            with open(p, "w") as f:
                f.write("same")
            with open(compress(p, os.path.join(d, "1.gz")), "rb") as f1, open(compress(p, os.path.join(d, "2.gz")), "rb") as f2:
                self.assertEqual(f1.read(), f2.read())


if __name__ == "__main__":
    with open("data.txt", "w") as f:
        f.write("abc" * 1000)
    gz = compress("data.txt")
    print(gz, os.path.getsize("data.txt"), decompress(gz, "data.out"))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
