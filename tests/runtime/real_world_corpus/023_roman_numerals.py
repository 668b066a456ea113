# ruff: noqa
import unittest

NUMERALS = [
    (1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
    (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"),
]


def to_roman(n):
    """
    >>> to_roman(1994)
    'MCMXCIV'
    >>> to_roman(0)
    Traceback (most recent call last):
    ...
    ValueError: out of range: 0
    """
    if not 0 < n < 4000:
        raise ValueError(f"out of range: {n}")
    out = []
    for value, sym in NUMERALS:
        count, n = divmod(n, value)
        out.append(sym * count)
    return "".join(out)


def from_roman(s):
    """
    >>> from_roman("MMXXIV")
    2024
    """
    values = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}
    total = 0
    for i, ch in enumerate(s):
        v = values[ch]
        if i + 1 < len(s) and values[s[i + 1]] > v:
            total -= v
        else:
            total += v
    if to_roman(total) != s:
        raise ValueError(f"not canonical: {s}")
    return total


class RomanTest(unittest.TestCase):
    def test_round_trip_all(self):
        for n in range(1, 4000):
            self.assertEqual(from_roman(to_roman(n)), n)

    def test_non_canonical(self):
        for bad in ("IIII", "VX", "IC"):
            with self.assertRaises(ValueError):
                from_roman(bad)

    def test_doctests(self):
        import doctest
        import sys
        failures, _ = doctest.testmod(sys.modules[__name__])
        self.assertEqual(failures, 0)


if __name__ == "__main__":
    print(", ".join(to_roman(y) for y in (1066, 1492, 1776, 2024)))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
