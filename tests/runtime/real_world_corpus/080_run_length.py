# ruff: noqa
from itertools import groupby


def rle_encode(text):
    """
    >>> rle_encode("WWWWWWWWWWWWBWWWWWWWWWWWWBBBWWWWWWWWWWWWWWWWWWWWWWWWBWWWWWWWWWWWWWW")
    '12W1B12W3B24W1B14W'
    >>> rle_encode("")
    ''
    """
    return "".join(f"{len(list(g))}{ch}" for ch, g in groupby(text))


def rle_decode(code):
    """
    >>> rle_decode("3a2b1c")
    'aaabbc'
    >>> all(rle_decode(rle_encode(s)) == s for s in ["a", "abba", "zzzzzzzzzzzz", "xyz"])
    True
    """
    import re
    return "".join(ch * int(n) for n, ch in re.findall(r"(\d+)(\D)", code))


def compress_ratio(text):
    """
    >>> compress_ratio("aaaaaaaaaa")
    0.3
    """
    return round(len(rle_encode(text)) / len(text), 2)


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
