# ruff: noqa
import glob
import os
import re
import unittest


def find_gaps(pattern):
    """Find missing frame numbers in an image sequence like frame_0001.png."""
    numbers = sorted(int(re.search(r"(\d+)\.\w+$", p).group(1)) for p in glob.glob(pattern))
    if not numbers:
        return []
    present = set(numbers)
    return [n for n in range(numbers[0], numbers[-1] + 1) if n not in present]


class GapTest(unittest.TestCase):
    def test_gaps(self):
        os.makedirs("render", exist_ok=True)
        for n in (1, 2, 3, 5, 6, 9):
            open(f"render/frame_{n:04d}.png", "w").close()
        open("render/frame_0004.jpg", "w").close()
        self.assertEqual(find_gaps("render/frame_*.png"), [4, 7, 8])
        self.assertEqual(find_gaps("render/none_*.png"), [])


if __name__ == "__main__":
    GapTest("test_gaps").test_gaps()
    print(find_gaps("render/frame_[0-9][0-9][0-9][0-9].png"))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
