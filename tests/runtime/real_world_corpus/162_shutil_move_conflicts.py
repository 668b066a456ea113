# ruff: noqa
import os
import shutil
import unittest


def safe_move(src, dest_dir, on_conflict="rename"):
    os.makedirs(dest_dir, exist_ok=True)
    name = os.path.basename(src)
    target = os.path.join(dest_dir, name)
    if os.path.exists(target):
        if on_conflict == "skip":
            return None
        if on_conflict == "overwrite":
            os.remove(target)
        else:
            root, ext = os.path.splitext(name)
            i = 1
            while os.path.exists(target):
                target = os.path.join(dest_dir, f"{root}_{i}{ext}")
                i += 1
    return os.path.relpath(shutil.move(src, target)).replace(os.sep, "/")


class MoveTest(unittest.TestCase):
    def make(self, name, text):
        with open(name, "w") as f:
            f.write(text)
        return name

    def test_modes(self):
        shutil.rmtree("dest", ignore_errors=True)
        self.assertEqual(safe_move(self.make("r.txt", "1"), "dest"), "dest/r.txt")
        self.assertEqual(safe_move(self.make("r.txt", "2"), "dest"), "dest/r_1.txt")
        self.assertIsNone(safe_move(self.make("r.txt", "3"), "dest", "skip"))
        self.assertTrue(os.path.exists("r.txt"))
        self.assertEqual(safe_move("r.txt", "dest", "overwrite"), "dest/r.txt")
        with open("dest/r.txt") as f:
            self.assertEqual(f.read(), "3")
        self.assertEqual(sorted(os.listdir("dest")), ["r.txt", "r_1.txt"])


if __name__ == "__main__":
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
