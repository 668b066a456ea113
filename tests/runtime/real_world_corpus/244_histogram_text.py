# ruff: noqa
from collections import Counter


def histogram(values, width=20):
    """
    >>> print(histogram(["python", "rust", "python", "go", "python", "rust"]))
    python | ############### 3
    rust   | ########## 2
    go     | ##### 1
    """
    counts = Counter(values).most_common()
    top = counts[0][1]
    label = max(len(k) for k, _ in counts)
    return "\n".join(f"{k:<{label}} | {'#' * round(v / top * 15)} {v}" for k, v in counts)


def bucketize(numbers, size):
    """
    >>> bucketize([1, 4, 7, 12, 13, 19, 25], 10)
    {'0-9': 3, '10-19': 3, '20-29': 1}
    """
    out = {}
    for n in sorted(numbers):
        lo = n // size * size
        key = f"{lo}-{lo + size - 1}"
        out[key] = out.get(key, 0) + 1
    return out


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
