# ruff: noqa
import os
import shutil
import tempfile
import unittest
import zipfile


def archive_folder(folder, archive_base):
    return shutil.make_archive(archive_base, "zip", root_dir=folder)


def restore(archive, dest):
    shutil.unpack_archive(archive, dest)
    found = []
    for dirpath, _, files in os.walk(dest):
        for f in files:
            found.append(os.path.relpath(os.path.join(dirpath, f), dest).replace(os.sep, "/"))
    return sorted(found)


class ArchiveTest(unittest.TestCase):
    def test_round_trip(self):
        with tempfile.TemporaryDirectory() as tmp:
            src = os.path.join(tmp, "src")
            os.makedirs(os.path.join(src, "docs", "img"))
            contents = {"readme.txt": "hello", "docs/guide.md": "# guide", "docs/img/logo.svg": "<svg/>"}
            for rel, text in contents.items():
                with open(os.path.join(src, *rel.split("/")), "w") as f:
                    f.write(text)
            archive = archive_folder(src, os.path.join(tmp, "backup"))
            self.assertEqual(os.path.basename(archive), "backup.zip")
            with zipfile.ZipFile(archive) as zf:
                names = sorted(n for n in zf.namelist() if not n.endswith("/"))
            self.assertEqual(names, sorted(contents))
            out = os.path.join(tmp, "restored")
            self.assertEqual(restore(archive, out), sorted(contents))
            with open(os.path.join(out, "docs", "guide.md")) as f:
                self.assertEqual(f.read(), "# guide")


if __name__ == "__main__":
    os.makedirs("site/css", exist_ok=True)
    with open("site/index.html", "w") as f:
        f.write("<h1>hi</h1>")
    with open("site/css/style.css", "w") as f:
        f.write("h1{}")
    path = archive_folder("site", "site_backup")
    print(os.path.basename(path), restore(path, "restored"))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
