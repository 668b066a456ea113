# ruff: noqa
from fractions import Fraction
import re

UNITS = {"tsp": 1, "tbsp": 3, "cup": 48}


def parse_quantity(text):
    """
    >>> parse_quantity("1 1/2"), parse_quantity("3/4"), parse_quantity("2")
    (Fraction(3, 2), Fraction(3, 4), Fraction(2, 1))
    """
    return sum((Fraction(part) for part in text.split()), Fraction(0))


def format_quantity(q):
    """
    >>> [format_quantity(Fraction(x)) for x in ("3/2", "1/3", "4", "9/4")]
    ['1 1/2', '1/3', '4', '2 1/4']
    """
    whole, rest = divmod(q.numerator, q.denominator)
    parts = ([str(whole)] if whole else []) + ([f"{rest}/{q.denominator}"] if rest else [])
    return " ".join(parts) or "0"


def scale(recipe, factor):
    """
    >>> for line in scale(["1 1/2 cup flour", "3/4 tsp salt", "2 eggs"], Fraction(2, 3)):
    ...     print(line)
    1 cup flour
    1/2 tsp salt
    1 1/3 eggs
    """
    out = []
    for line in recipe:
        m = re.match(r"([\d/ ]+?)\s+([a-z]+.*)", line)
        qty, rest = parse_quantity(m.group(1)), m.group(2)
        out.append(f"{format_quantity(qty * factor)} {rest}")
    return out


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
