# ruff: noqa
import os
import shutil
import tempfile
import unittest


def install_files(manifest, prefix):
    """Install files into a prefix like `make install`: bin/, share/doc/, etc."""
    installed = []
    for src, dest_rel in manifest:
        dest = os.path.join(prefix, dest_rel)
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        shutil.copyfile(src, dest)
        if dest_rel.startswith("bin/"):
            os.chmod(dest, 0o755)
        installed.append(dest_rel)
    return sorted(installed)


def uninstall(prefix, installed):
    for rel in installed:
        os.remove(os.path.join(prefix, rel))
    for dirpath, dirnames, filenames in os.walk(prefix, topdown=False):
        if not os.listdir(dirpath) and dirpath != prefix:
            os.rmdir(dirpath)
    return os.listdir(prefix)


class InstallTest(unittest.TestCase):
    def test_cycle(self):
        with tempfile.TemporaryDirectory() as tmp:
            for name in ("tool.py", "README"):
                with open(os.path.join(tmp, name), "w") as f:
                    f.write(name)
            prefix = os.path.join(tmp, "usr")
            os.makedirs(prefix)
            manifest = [(os.path.join(tmp, "tool.py"), "bin/tool"), (os.path.join(tmp, "README"), "share/doc/tool/README")]
            installed = install_files(manifest, prefix)
            self.assertEqual(installed, ["bin/tool", "share/doc/tool/README"])
            self.assertEqual(os.stat(os.path.join(prefix, "bin", "tool")).st_mode & 0o777, 0o755)
            self.assertEqual(uninstall(prefix, installed), [])


if __name__ == "__main__":
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
