# ruff: noqa
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal, ROUND_HALF_UP


@dataclass
class Line:
    description: str
    quantity: int
    unit_price: Decimal

    @property
    def total(self):
        return self.quantity * self.unit_price


@dataclass
class Invoice:
    """
    >>> inv = Invoice("INV-007", date(2024, 1, 31), lines=[Line("Consulting", 3, Decimal("150.00")), Line("Travel", 1, Decimal("42.35"))])
    >>> inv.subtotal, inv.vat, inv.total
    (Decimal('492.35'), Decimal('98.47'), Decimal('590.82'))
    >>> inv.due_date
    datetime.date(2024, 3, 1)
    >>> print(inv.render())
    Invoice INV-007 (2024-01-31, due 2024-03-01)
      3 x Consulting           450.00
      1 x Travel                42.35
    Subtotal                   492.35
    VAT 20%                     98.47
    Total                      590.82
    """

    number: str
    issued: date
    terms_days: int = 30
    vat_rate: Decimal = Decimal("0.20")
    lines: list = field(default_factory=list)

    @property
    def subtotal(self):
        return sum((l.total for l in self.lines), Decimal("0"))

    @property
    def vat(self):
        return (self.subtotal * self.vat_rate).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)

    @property
    def total(self):
        return self.subtotal + self.vat

    @property
    def due_date(self):
        return self.issued + timedelta(days=self.terms_days)

    def render(self):
        out = [f"Invoice {self.number} ({self.issued}, due {self.due_date})"]
        for l in self.lines:
            out.append(f"  {l.quantity} x {l.description:<18}{l.total:>9}")
        out.append(f"{'Subtotal':<22}{self.subtotal:>11}")
        out.append(f"{'VAT ' + str(int(self.vat_rate * 100)) + '%':<22}{self.vat:>11}")
        out.append(f"{'Total':<22}{self.total:>11}")
        return "\n".join(out)


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
