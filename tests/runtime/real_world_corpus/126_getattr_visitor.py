# ruff: noqa
import ast


class Evaluator:
    """Evaluate arithmetic ASTs by dispatching to visit_<NodeType> with getattr.

    >>> ev = Evaluator({"x": 3, "y": 4})
    >>> ev.run("x * x + y * y")
    25
    >>> ev.run("-(x - 10) // 2")
    3
    >>> ev.run("(x + 1) ** 2 % 7")
    2
    >>> ev.run("__import__('os')")
    Traceback (most recent call last):
    ...
    ValueError: unsupported syntax: Call
    >>> ev.run("z + 1")
    Traceback (most recent call last):
    ...
    NameError: z
    """

    OPS = {"Add": "__add__", "Sub": "__sub__", "Mult": "__mul__", "FloorDiv": "__floordiv__", "Mod": "__mod__", "Pow": "__pow__", "Div": "__truediv__"}

    def __init__(self, names):
        self.names = names

    def run(self, source):
        return self.visit(ast.parse(source, mode="eval").body)

    def visit(self, node):
        method = getattr(self, "visit_" + type(node).__name__, None)
        if method is None:
            raise ValueError(f"unsupported syntax: {type(node).__name__}")
        return method(node)

    def visit_Constant(self, node):
        return node.value

    def visit_Name(self, node):
        if node.id not in self.names:
            raise NameError(node.id)
        return self.names[node.id]

    def visit_BinOp(self, node):
        op = self.OPS[type(node.op).__name__]
        return getattr(self.visit(node.left), op)(self.visit(node.right))

    def visit_UnaryOp(self, node):
        value = self.visit(node.operand)
        return -value if isinstance(node.op, ast.USub) else value


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
