# ruff: noqa
def spiral(matrix):
    """
    >>> spiral([[1, 2, 3], [4, 5, 6], [7, 8, 9]])
    [1, 2, 3, 6, 9, 8, 7, 4, 5]
    >>> spiral([[1, 2, 3, 4], [5, 6, 7, 8]])
    [1, 2, 3, 4, 8, 7, 6, 5]
    >>> spiral([])
    []
    """
    out = []
    m = [list(r) for r in matrix]
    while m:
        out.extend(m.pop(0))
        m = [list(r) for r in zip(*m)][::-1]
    return out


def rotate(matrix):
    """
    >>> rotate([[1, 2], [3, 4]])
    [[3, 1], [4, 2]]
    """
    return [list(r) for r in zip(*matrix[::-1])]


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
