# ruff: noqa
import unittest

PAIRS = {")": "(", "]": "[", "}": "{"}


def first_error(text):
    stack = []
    for i, ch in enumerate(text):
        if ch in "([{":
            stack.append((ch, i))
        elif ch in PAIRS:
            if not stack or stack[-1][0] != PAIRS[ch]:
                return i
            stack.pop()
    return stack[0][1] if stack else None


class BracketTest(unittest.TestCase):
    def test_cases(self):
        cases = {"(a[b]{c})": None, "(]": 1, "((": 0, "x)": 1, "{[()()]}": None, "": None, "([)]": 2}
        for text, expected in cases.items():
            with self.subTest(text=text):
                self.assertEqual(first_error(text), expected)


if __name__ == "__main__":
    for s in ["print(f(x[0]))", "if (a > b]:"]:
        print(repr(s), first_error(s))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
