# ruff: noqa
import unittest


def knapsack(items, capacity):
    """0/1 knapsack: items are (name, weight, value); returns (value, chosen names)."""
    n = len(items)
    best = [[0] * (capacity + 1) for _ in range(n + 1)]
    for i, (_, w, v) in enumerate(items, 1):
        for c in range(capacity + 1):
            best[i][c] = best[i - 1][c]
            if w <= c:
                best[i][c] = max(best[i][c], best[i - 1][c - w] + v)
    chosen, c = [], capacity
    for i in range(n, 0, -1):
        if best[i][c] != best[i - 1][c]:
            chosen.append(items[i - 1][0])
            c -= items[i - 1][1]
    return best[n][capacity], sorted(chosen)


class KnapsackTest(unittest.TestCase):
    ITEMS = [("map", 9, 150), ("compass", 13, 35), ("water", 153, 200), ("sandwich", 50, 160), ("glucose", 15, 60), ("tin", 68, 45)]

    def test_best(self):
        self.assertEqual(knapsack(self.ITEMS, 200), (450, ["compass", "glucose", "map", "sandwich", "tin"]))

    def test_empty(self):
        self.assertEqual(knapsack([], 10), (0, []))


if __name__ == "__main__":
    print(knapsack(KnapsackTest.ITEMS, 100))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
