# ruff: noqa
"""Parse a bank statement CSV and summarise spending per month.

>>> with open("statement.csv", "w", newline="") as f:
...     _ = f.write("Date,Description,Amount\\n03/01/2024,SALARY,2500.00\\n05/01/2024,GROCER,-54.20\\n"
...                 "17/01/2024,RENT,-900.00\\n02/02/2024,GROCER,-61.05\\n14/02/2024,REFUND,12.50\\n")
>>> txns = load("statement.csv")
>>> txns[0]
(datetime.date(2024, 1, 3), 'SALARY', Decimal('2500.00'))
>>> for month, (income, spent) in monthly(txns).items():
...     print(month, income, spent)
2024-01 2500.00 954.20
2024-02 12.50 61.05
"""
import csv
from datetime import datetime
from decimal import Decimal


def load(path):
    with open(path, newline="") as f:
        return [(datetime.strptime(r["Date"], "%d/%m/%Y").date(), r["Description"], Decimal(r["Amount"])) for r in csv.DictReader(f)]


def monthly(txns):
    out = {}
    for day, _, amount in txns:
        key = day.strftime("%Y-%m")
        income, spent = out.get(key, (Decimal("0.00"), Decimal("0.00")))
        out[key] = (income + amount, spent) if amount > 0 else (income, spent - amount)
    return dict(sorted(out.items()))


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
