# ruff: noqa
import re
import unittest
from dataclasses import dataclass, field, asdict


@dataclass
class User:
    username: str
    email: str
    age: int
    roles: list = field(default_factory=lambda: ["user"])

    def __post_init__(self):
        self.username = self.username.strip().lower()
        if not re.fullmatch(r"[a-z][a-z0-9_]{2,15}", self.username):
            raise ValueError(f"invalid username: {self.username!r}")
        if not re.fullmatch(r"[^@\s]+@[^@\s]+\.[a-z]{2,}", self.email):
            raise ValueError(f"invalid email: {self.email!r}")
        if not 13 <= self.age <= 130:
            raise ValueError(f"invalid age: {self.age}")


class UserTest(unittest.TestCase):
    def test_normalises(self):
        u = User("  Alice_99 ", "alice@example.org", 30)
        self.assertEqual(asdict(u), {"username": "alice_99", "email": "alice@example.org", "age": 30, "roles": ["user"]})

    def test_invalid(self):
        bad = [("ab", "a@b.co", 20), ("9lives", "a@b.co", 20), ("valid", "nope", 20), ("valid", "a@b.co", 12)]
        for args in bad:
            with self.subTest(args=args), self.assertRaises(ValueError):
                User(*args)

    def test_default_roles_not_shared(self):
        a, b = User("aaa", "a@b.co", 20), User("bbb", "b@b.co", 20)
        a.roles.append("admin")
        self.assertEqual(b.roles, ["user"])


if __name__ == "__main__":
    for args in [("Bob", "bob@x.io", 41), ("x", "x@x.io", 20)]:
        try:
            print(User(*args))
        except ValueError as e:
            print("rejected:", e)
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
