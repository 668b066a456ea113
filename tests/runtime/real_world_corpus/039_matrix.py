# ruff: noqa
from fractions import Fraction


def matmul(a, b):
    """
    >>> matmul([[1, 2], [3, 4]], [[5, 6], [7, 8]])
    [[19, 22], [43, 50]]
    """
    return [[sum(x * y for x, y in zip(row, col)) for col in zip(*b)] for row in a]


def transpose(m):
    """
    >>> transpose([[1, 2, 3], [4, 5, 6]])
    [[1, 4], [2, 5], [3, 6]]
    """
    return [list(r) for r in zip(*m)]


def determinant(m):
    """Determinant by Gaussian elimination with exact fractions.

    >>> determinant([[2, 0, 1], [1, 3, 2], [1, 1, 2]])
    Fraction(6, 1)
    >>> determinant([[1, 2], [2, 4]])
    Fraction(0, 1)
    """
    m = [[Fraction(x) for x in row] for row in m]
    n, det = len(m), Fraction(1)
    for i in range(n):
        pivot = next((r for r in range(i, n) if m[r][i] != 0), None)
        if pivot is None:
            return Fraction(0)
        if pivot != i:
            m[i], m[pivot] = m[pivot], m[i]
            det = -det
        det *= m[i][i]
        for r in range(i + 1, n):
            factor = m[r][i] / m[i][i]
            m[r] = [a - factor * b for a, b in zip(m[r], m[i])]
    return det


def identity(n):
    """
    >>> identity(3)
    [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
    >>> matmul(identity(2), [[9, 8], [7, 6]])
    [[9, 8], [7, 6]]
    """
    return [[int(i == j) for j in range(n)] for i in range(n)]


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
