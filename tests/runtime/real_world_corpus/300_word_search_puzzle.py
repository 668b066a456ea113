# ruff: noqa
import unittest

DIRECTIONS = [(0, 1), (1, 0), (1, 1), (-1, 1), (0, -1), (-1, 0), (-1, -1), (1, -1)]


def find_word(grid, word):
    rows, cols = len(grid), len(grid[0])
    for r in range(rows):
        for c in range(cols):
            for dr, dc in DIRECTIONS:
                rr, cc = r, c
                for ch in word:
                    if not (0 <= rr < rows and 0 <= cc < cols) or grid[rr][cc] != ch:
                        break
                    rr, cc = rr + dr, cc + dc
                else:
                    return (r, c), (dr, dc)
    return None


class WordSearchTest(unittest.TestCase):
    GRID = ["PYTHON", "XAQWER", "SQLITE", "TESTOK", "JSONLZ"]

    def test_found(self):
        self.assertEqual(find_word(self.GRID, "PYTHON"), ((0, 0), (0, 1)))
        self.assertEqual(find_word(self.GRID, "SQLITE"), ((2, 0), (0, 1)))
        self.assertEqual(find_word(self.GRID, "NOHTYP"), ((0, 5), (0, -1)))
        self.assertEqual(find_word(self.GRID, "PXST"), ((0, 0), (1, 0)))

    def test_missing(self):
        self.assertIsNone(find_word(self.GRID, "RUST"))


if __name__ == "__main__":
    for w in ("JSON", "TEST", "WASM"):
        print(w, find_word(WordSearchTest.GRID, w))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
