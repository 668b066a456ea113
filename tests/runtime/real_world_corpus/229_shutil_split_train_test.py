# ruff: noqa
import os
import random
import shutil
import unittest


def split_dataset(src, dst, ratio=0.8, seed=7):
    files = sorted(f for f in os.listdir(src) if f.endswith(".txt"))
    rng = random.Random(seed)
    rng.shuffle(files)
    cut = int(len(files) * ratio)
    for subset, names in (("train", files[:cut]), ("test", files[cut:])):
        os.makedirs(os.path.join(dst, subset), exist_ok=True)
        for n in names:
            shutil.copy(os.path.join(src, n), os.path.join(dst, subset, n))
    return {s: sorted(os.listdir(os.path.join(dst, s))) for s in ("train", "test")}


class SplitTest(unittest.TestCase):
    def setUp(self):
        os.makedirs("data/raw", exist_ok=True)
        for i in range(10):
            with open(f"data/raw/sample_{i}.txt", "w") as f:
                f.write(str(i))

    def test_split(self):
        shutil.rmtree("data/split", ignore_errors=True)
        result = split_dataset("data/raw", "data/split")
        self.assertEqual((len(result["train"]), len(result["test"])), (8, 2))
        self.assertFalse(set(result["train"]) & set(result["test"]))
        shutil.rmtree("data/split")
        self.assertEqual(split_dataset("data/raw", "data/split"), result)


if __name__ == "__main__":
    SplitTest("test_split").setUp()
    print(split_dataset("data/raw", "out")["test"])
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
