# ruff: noqa
import re
import unittest

RULES = [
    ("length", lambda p: len(p) >= 12, "at least 12 characters"),
    ("upper", lambda p: re.search(r"[A-Z]", p), "an upper-case letter"),
    ("lower", lambda p: re.search(r"[a-z]", p), "a lower-case letter"),
    ("digit", lambda p: re.search(r"\d", p), "a digit"),
    ("symbol", lambda p: re.search(r"[^\w\s]", p), "a symbol"),
    ("no_repeat", lambda p: not re.search(r"(.)\1\1", p), "no character three times in a row"),
]


def check(password):
    return [msg for _, rule, msg in RULES if not rule(password)]


class PolicyTest(unittest.TestCase):
    def test_strong(self):
        self.assertEqual(check("Correct-Horse-9"), [])

    def test_weak(self):
        self.assertEqual(check("aaa"), ["at least 12 characters", "an upper-case letter", "a digit", "a symbol",
                                        "no character three times in a row"])


if __name__ == "__main__":
    for pw in ["hunter2", "Tr0ub4dor&3x!", "P@sssword1234"]:
        print(pw, "->", check(pw) or "ok")
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
