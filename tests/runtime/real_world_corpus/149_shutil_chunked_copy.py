# ruff: noqa
import hashlib
import os
import shutil
import unittest


def copy_verified(src, dst, chunk=8192):
    h_src, h_dst = hashlib.md5(), hashlib.md5()
    with open(src, "rb") as fin, open(dst, "wb") as fout:
        while block := fin.read(chunk):
            h_src.update(block)
            fout.write(block)
    with open(dst, "rb") as f:
        for block in iter(lambda: f.read(chunk), b""):
            h_dst.update(block)
    if h_src.digest() != h_dst.digest():
        raise IOError("checksum mismatch")
    shutil.copystat(src, dst)
    return h_src.hexdigest()


class VerifiedCopyTest(unittest.TestCase):
    def test_copy(self):
        data = bytes(range(256)) * 100
        with open("blob.bin", "wb") as f:
            f.write(data)
        digest = copy_verified("blob.bin", "blob.copy", chunk=1000)
        self.assertEqual(digest, hashlib.md5(data).hexdigest())
        self.assertEqual(os.path.getsize("blob.copy"), len(data))
        self.assertEqual(os.stat("blob.bin").st_mtime, os.stat("blob.copy").st_mtime)

    def test_empty(self):
        open("empty.bin", "wb").close()
        self.assertEqual(copy_verified("empty.bin", "empty.copy"), "d41d8cd98f00b204e9800998ecf8427e")


if __name__ == "__main__":
    with open("hello.bin", "wb") as f:
        f.write(b"hello world")
    print(copy_verified("hello.bin", "hello.copy"))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
