# ruff: noqa
import os
import shutil
import tarfile
import tempfile
import unittest


class TarTest(unittest.TestCase):
    def test_gztar_round_trip(self):
        with tempfile.TemporaryDirectory() as tmp:
            src = os.path.join(tmp, "project")
            os.makedirs(os.path.join(src, "lib"))
            for rel in ("setup.cfg", "lib/core.py"):
                with open(os.path.join(src, *rel.split("/")), "w") as f:
                    f.write(rel)
            archive = shutil.make_archive(os.path.join(tmp, "dist", "project-1.0"), "gztar", root_dir=tmp, base_dir="project")
            self.assertTrue(archive.endswith("project-1.0.tar.gz"))
            with tarfile.open(archive) as tf:
                names = sorted(m.name for m in tf.getmembers() if m.isfile())
            self.assertEqual(names, ["project/lib/core.py", "project/setup.cfg"])
            out = os.path.join(tmp, "unpacked")
            shutil.unpack_archive(archive, out, filter="data")
            with open(os.path.join(out, "project", "lib", "core.py")) as f:
                self.assertEqual(f.read(), "lib/core.py")

    def test_formats(self):
        names = [name for name, _ in shutil.get_archive_formats()]
        self.assertIn("zip", names)
        self.assertIn("gztar", names)


if __name__ == "__main__":
    os.makedirs("pkg", exist_ok=True)
    with open("pkg/mod.py", "w") as f:
        f.write("x = 1\n")
    path = shutil.make_archive("pkg-src", "tar", root_dir=".", base_dir="pkg")
    with tarfile.open(path) as tf:
        print(os.path.basename(path), sorted(tf.getnames()))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
