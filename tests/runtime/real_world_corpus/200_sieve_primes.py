# ruff: noqa
def sieve(limit):
    """
    >>> sieve(30)
    [2, 3, 5, 7, 11, 13, 17, 19, 23, 29]
    >>> len(sieve(10_000))
    1229
    >>> sieve(1)
    []
    """
    if limit < 2:
        return []
    is_prime = bytearray([1]) * (limit + 1)
    is_prime[0:2] = b"\x00\x00"
    for i in range(2, int(limit ** 0.5) + 1):
        if is_prime[i]:
            is_prime[i * i::i] = bytes(len(range(i * i, limit + 1, i)))
    return [i for i, p in enumerate(is_prime) if p]


def factorize(n):
    """
    >>> factorize(360)
    {2: 3, 3: 2, 5: 1}
    >>> factorize(97)
    {97: 1}
    """
    factors, d = {}, 2
    while d * d <= n:
        while n % d == 0:
            factors[d] = factors.get(d, 0) + 1
            n //= d
        d += 1
    if n > 1:
        factors[n] = factors.get(n, 0) + 1
    return factors


def goldbach(n):
    """
    >>> goldbach(100)
    (3, 97)
    """
    primes = set(sieve(n))
    return next((p, n - p) for p in sorted(primes) if n - p in primes)


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
