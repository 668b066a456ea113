# ruff: noqa
import unittest
from datetime import date, timedelta


def end_of_month(d):
    nxt = d.replace(day=28) + timedelta(days=4)
    return nxt - timedelta(days=nxt.day)


def due_date(issued, terms):
    """Terms: 'NET30', 'EOM', 'EOM+15', 'COD'."""
    if terms == "COD":
        return issued
    if terms.startswith("NET"):
        return issued + timedelta(days=int(terms[3:]))
    if terms.startswith("EOM"):
        extra = int(terms[4:]) if "+" in terms else 0
        return end_of_month(issued) + timedelta(days=extra)
    raise ValueError(terms)


def aging_bucket(due, today):
    days = (today - due).days
    if days <= 0:
        return "current"
    for limit in (30, 60, 90):
        if days <= limit:
            return f"1-{limit}" if limit == 30 else f"{limit - 29}-{limit}"
    return "90+"


class DueTest(unittest.TestCase):
    def test_terms(self):
        issued = date(2024, 1, 20)
        self.assertEqual(due_date(issued, "NET30"), date(2024, 2, 19))
        self.assertEqual(due_date(issued, "EOM"), date(2024, 1, 31))
        self.assertEqual(due_date(date(2024, 2, 10), "EOM+15"), date(2024, 3, 15))
        self.assertEqual(due_date(issued, "COD"), issued)

    def test_end_of_month(self):
        self.assertEqual([end_of_month(date(2023, m, 5)).day for m in (1, 2, 4, 12)], [31, 28, 30, 31])

    def test_aging(self):
        today = date(2024, 6, 30)
        dues = [date(2024, 7, 1), date(2024, 6, 10), date(2024, 5, 1), date(2024, 4, 15), date(2023, 1, 1)]
        self.assertEqual([aging_bucket(d, today) for d in dues], ["current", "1-30", "31-60", "61-90", "90+"])


if __name__ == "__main__":
    for terms in ("NET15", "EOM", "EOM+10"):
        print(terms, due_date(date(2024, 12, 18), terms))
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
