# ruff: noqa
import math
import statistics


def apply_all(names, values):
    """Apply functions named in a list, looked up in math or statistics.

    >>> for name, result in apply_all(["fsum", "mean", "median", "pstdev", "prod"], [2, 4, 4, 4, 5, 5, 7, 9]):
    ...     print(f"{name:>7}: {result}")
       fsum: 40.0
       mean: 5
     median: 4.5
     pstdev: 2.0
       prod: 201600
    >>> apply_all(["system"], [1])
    Traceback (most recent call last):
    ...
    NameError: no function 'system' in math or statistics
    """
    out = []
    for name in names:
        for module in (math, statistics):
            func = getattr(module, name, None)
            if callable(func):
                out.append((name, func(values)))
                break
        else:
            raise NameError(f"no function {name!r} in math or statistics")
    return out


def unary_table(names, x):
    """
    >>> unary_table(["sqrt", "log2", "floor", "factorial"], 16)
    {'sqrt': 4.0, 'log2': 4.0, 'floor': 16, 'factorial': 20922789888000}
    """
    return {n: getattr(math, n)(x) for n in names}


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
