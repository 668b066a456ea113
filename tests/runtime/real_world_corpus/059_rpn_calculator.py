# ruff: noqa
import math
import unittest


class RPNError(Exception):
    pass


class RPNCalculator:
    BINARY = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b, "/": lambda a, b: a / b, "^": pow}
    UNARY = {"sqrt": math.sqrt, "neg": lambda a: -a, "abs": abs}

    def evaluate(self, expr):
        stack = []
        for token in expr.split():
            if token in self.BINARY:
                if len(stack) < 2:
                    raise RPNError(f"not enough operands for {token}")
                b, a = stack.pop(), stack.pop()
                try:
                    stack.append(self.BINARY[token](a, b))
                except ZeroDivisionError:
                    raise RPNError("division by zero") from None
            elif token in self.UNARY:
                if not stack:
                    raise RPNError(f"not enough operands for {token}")
                stack.append(self.UNARY[token](stack.pop()))
            elif token == "dup":
                stack.append(stack[-1])
            else:
                try:
                    stack.append(float(token) if "." in token else int(token))
                except ValueError:
                    raise RPNError(f"bad token {token!r}") from None
        if len(stack) != 1:
            raise RPNError(f"stack has {len(stack)} items")
        return stack[0]


class RPNTest(unittest.TestCase):
    def setUp(self):
        self.calc = RPNCalculator()

    def test_examples(self):
        cases = {"3 4 +": 7, "5 1 2 + 4 * + 3 -": 14, "2 3 ^": 8, "9 sqrt": 3.0, "3 dup *": 9, "1.5 2 *": 3.0, "4 neg abs": 4}
        for expr, expected in cases.items():
            with self.subTest(expr=expr):
                self.assertEqual(self.calc.evaluate(expr), expected)

    def test_errors(self):
        for expr, msg in [("+", "not enough"), ("1 0 /", "division"), ("1 2", "2 items"), ("1 x +", "bad token")]:
            with self.subTest(expr=expr), self.assertRaisesRegex(RPNError, msg):
                self.calc.evaluate(expr)


if __name__ == "__main__":
    for e in ["2 3 4 * +", "10 2 / 3 -", "2 0.5 ^"]:
        print(e, "=", RPNCalculator().evaluate(e))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
