# ruff: noqa
import string

DIGITS = string.digits + string.ascii_lowercase


def to_base(n, base):
    """
    >>> [to_base(255, b) for b in (2, 8, 16, 36)]
    ['11111111', '377', 'ff', '73']
    >>> to_base(-10, 2), to_base(0, 7)
    ('-1010', '0')
    """
    if n == 0:
        return "0"
    sign, n, out = "-" if n < 0 else "", abs(n), []
    while n:
        n, r = divmod(n, base)
        out.append(DIGITS[r])
    return sign + "".join(reversed(out))


def short_id(number):
    """Compact IDs like URL shorteners.

    >>> short_id(125), short_id(10 ** 9)
    ('3h', 'gjdgxs')
    >>> int(short_id(123456789), 36)
    123456789
    """
    return to_base(number, 36)


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
