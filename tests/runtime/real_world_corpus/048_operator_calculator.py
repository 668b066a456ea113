# ruff: noqa
import operator

ALIASES = {"+": "add", "-": "sub", "*": "mul", "/": "truediv", "//": "floordiv", "%": "mod", "**": "pow"}


def calculate(expression):
    """Evaluate 'a OP b' by looking up the operator function by name.

    >>> calculate("7 + 5")
    12
    >>> calculate("7 // 2"), calculate("7 % 2"), calculate("2 ** 10")
    (3, 1, 1024)
    >>> calculate("9 truediv 4")
    2.25
    >>> calculate("1 __import__ 2")
    Traceback (most recent call last):
    ...
    ValueError: unsupported operator '__import__'
    """
    left, op, right = expression.split()
    name = ALIASES.get(op, op)
    func = getattr(operator, name, None) if not name.startswith("_") else None
    if func is None:
        raise ValueError(f"unsupported operator {op!r}")
    return func(int(left), int(right))


def table(ops, a, b):
    """
    >>> for line in table(["add", "sub", "mul", "lt", "eq"], 6, 3):
    ...     print(line)
    add(6, 3) = 9
    sub(6, 3) = 3
    mul(6, 3) = 18
    lt(6, 3) = False
    eq(6, 3) = False
    """
    return [f"{name}({a}, {b}) = {getattr(operator, name)(a, b)}" for name in ops]


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
