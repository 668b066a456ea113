# ruff: noqa
def compact(n):
    """
    >>> [compact(n) for n in (999, 1_000, 1_234, 56_789, 1_250_000, 3_000_000_000, -4_500)]
    ['999', '1K', '1.2K', '56.8K', '1.2M', '3B', '-4.5K']
    """
    sign = "-" if n < 0 else ""
    n = abs(n)
    for unit, size in (("B", 10 ** 9), ("M", 10 ** 6), ("K", 10 ** 3)):
        if n >= size:
            value = f"{n / size:.1f}".rstrip("0").rstrip(".")
            return f"{sign}{value}{unit}"
    return f"{sign}{n}"


def money(amount, currency="EUR"):
    """
    >>> money(1234567.891), money(-0.5, "USD"), money(0)
    ('1,234,567.89 EUR', '-0.50 USD', '0.00 EUR')
    """
    return f"{amount:,.2f} {currency}"


def ordinal(n):
    """
    >>> [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 102, 111)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '102nd', '111th']
    """
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
