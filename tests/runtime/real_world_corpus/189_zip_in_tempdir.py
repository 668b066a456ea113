# ruff: noqa
import io
import json
import os
import tempfile
import unittest
import zipfile


def build_bundle(files):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name, text in sorted(files.items()):
            info = zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0))
            zf.writestr(info, text)
        zf.writestr(zipfile.ZipInfo("manifest.json", date_time=(2024, 1, 1, 0, 0, 0)), json.dumps(sorted(files)))
    return buf.getvalue()


class BundleTest(unittest.TestCase):
    def test_write_and_extract(self):
        data = build_bundle({"a/x.txt": "X", "b.txt": "B"})
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "bundle.zip")
            with open(path, "wb") as f:
                f.write(data)
            with zipfile.ZipFile(path) as zf:
                self.assertEqual(zf.namelist(), ["a/x.txt", "b.txt", "manifest.json"])
                self.assertEqual(json.loads(zf.read("manifest.json")), ["a/x.txt", "b.txt"])
                zf.extractall(os.path.join(d, "out"))
            with open(os.path.join(d, "out", "a", "x.txt")) as f:
                self.assertEqual(f.read(), "X")

    def test_deterministic(self):
        self.assertEqual(build_bundle({"k": "v"}), build_bundle({"k": "v"}))


if __name__ == "__main__":
    import hashlib
    print(hashlib.sha256(build_bundle({"hello.txt": "hi"})).hexdigest()[:16])
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
