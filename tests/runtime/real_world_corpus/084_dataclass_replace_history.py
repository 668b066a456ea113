# ruff: noqa
from dataclasses import dataclass, replace, field
from datetime import date


@dataclass(frozen=True)
class Subscription:
    """Immutable subscription records; every change returns a new version.

    >>> s = Subscription("acme", "basic", date(2024, 1, 1))
    >>> s2 = s.upgrade("pro", date(2024, 3, 1))
    >>> s3 = s2.cancel(date(2024, 6, 30))
    >>> [(v.plan, v.active, v.version) for v in (s, s2, s3)]
    [('basic', True, 1), ('pro', True, 2), ('pro', False, 3)]
    >>> s3.changed_on
    datetime.date(2024, 6, 30)
    >>> s.upgrade("basic", date(2024, 2, 1))
    Traceback (most recent call last):
    ...
    ValueError: already on basic
    """

    customer: str
    plan: str
    changed_on: date
    active: bool = True
    version: int = 1

    def upgrade(self, plan, on):
        if plan == self.plan:
            raise ValueError(f"already on {plan}")
        return replace(self, plan=plan, changed_on=on, version=self.version + 1)

    def cancel(self, on):
        return replace(self, active=False, changed_on=on, version=self.version + 1)


PRICES = {"basic": 10, "pro": 25}


def monthly_cost(history, year, month):
    """Price of the plan in force on the first of a month.

    >>> s = Subscription("acme", "basic", date(2024, 1, 1))
    >>> h = [s, s.upgrade("pro", date(2024, 3, 1))]
    >>> [monthly_cost(h, 2024, m) for m in (1, 2, 3, 4)]
    [10, 10, 25, 25]
    """
    first = date(year, month, 1)
    current = [v for v in history if v.changed_on <= first]
    return PRICES[current[-1].plan] if current and current[-1].active else 0


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
