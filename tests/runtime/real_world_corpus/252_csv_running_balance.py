# ruff: noqa
import csv
from decimal import Decimal


def running_balance(src, dst, opening="0.00"):
    """Add a running balance column.

    >>> with open("tx.csv", "w", newline="") as f:
    ...     _ = f.write("date,amount\\n2024-01-01,100.00\\n2024-01-02,-30.50\\n2024-01-05,12.25\\n")
    >>> running_balance("tx.csv", "tx_balance.csv", "50.00")
    Decimal('131.75')
    >>> with open("tx_balance.csv", newline="") as f:
    ...     for row in csv.reader(f):
    ...         print(",".join(row))
    date,amount,balance
    2024-01-01,100.00,150.00
    2024-01-02,-30.50,119.50
    2024-01-05,12.25,131.75
    """
    balance = Decimal(opening)
    with open(src, newline="") as fin, open(dst, "w", newline="") as fout:
        reader = csv.DictReader(fin)
        writer = csv.DictWriter(fout, reader.fieldnames + ["balance"])
        writer.writeheader()
        for row in reader:
            balance += Decimal(row["amount"])
            writer.writerow({**row, "balance": f"{balance:.2f}"})
    return balance


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
