# ruff: noqa
import unittest
from decimal import Decimal


class InsufficientFunds(Exception):
    pass


class Account:
    def __init__(self, owner, balance="0"):
        self.owner = owner
        self.balance = Decimal(balance)
        self.history = []

    def deposit(self, amount):
        amount = Decimal(amount)
        if amount <= 0:
            raise ValueError("deposit must be positive")
        self.balance += amount
        self.history.append(("deposit", amount))

    def withdraw(self, amount):
        amount = Decimal(amount)
        if amount > self.balance:
            raise InsufficientFunds(f"{self.owner}: balance {self.balance} < {amount}")
        self.balance -= amount
        self.history.append(("withdraw", amount))

    def transfer(self, other, amount):
        self.withdraw(amount)
        other.deposit(amount)

    def __repr__(self):
        return f"{self.__class__.__name__}({self.owner!r}, balance={self.balance})"


class SavingsAccount(Account):
    def add_interest(self, rate):
        interest = (self.balance * Decimal(rate)).quantize(Decimal("0.01"))
        self.deposit(interest)
        return interest


class AccountTest(unittest.TestCase):
    def test_transfer(self):
        a, b = Account("ann", "100"), Account("bob")
        a.transfer(b, "30.50")
        self.assertEqual((a.balance, b.balance), (Decimal("69.50"), Decimal("30.50")))

    def test_overdraw(self):
        a = Account("ann", "10")
        with self.assertRaisesRegex(InsufficientFunds, "balance 10 < 10.01"):
            a.withdraw("10.01")
        self.assertEqual(a.history, [])

    def test_bad_deposit(self):
        with self.assertRaises(ValueError):
            Account("x").deposit("-5")

    def test_interest_and_repr(self):
        s = SavingsAccount("cy", "1000")
        self.assertEqual(s.add_interest("0.035"), Decimal("35.00"))
        self.assertEqual(repr(s), "SavingsAccount('cy', balance=1035.00)")


if __name__ == "__main__":
    acct = SavingsAccount("demo", "250")
    acct.add_interest("0.02")
    acct.withdraw("5")
    print(acct, acct.history)
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
