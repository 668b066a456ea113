# ruff: noqa
import operator
import re
from dataclasses import dataclass


@dataclass
class Car:
    make: str
    model: str
    year: int
    price: int


CARS = [Car("VW", "Golf", 2019, 15000), Car("Fiat", "500", 2021, 11000), Car("VW", "Polo", 2016, 8000),
        Car("Tesla", "3", 2022, 38000), Car("Fiat", "Panda", 2018, 7000)]

OPS = {">": "gt", "<": "lt", ">=": "ge", "<=": "le", "==": "eq", "!=": "ne"}


def query(items, *conditions):
    """Filter with conditions like 'price<12000' and 'make==VW'.

    >>> [f"{c.make} {c.model}" for c in query(CARS, "price<12000")]
    ['Fiat 500', 'VW Polo', 'Fiat Panda']
    >>> [c.model for c in query(CARS, "make==VW", "year>=2017")]
    ['Golf']
    >>> query(CARS, "colour==red")
    Traceback (most recent call last):
    ...
    AttributeError: 'Car' object has no attribute 'colour'
    """
    result = list(items)
    for cond in conditions:
        field_name, op, raw = re.match(r"(\w+)\s*(>=|<=|==|!=|>|<)\s*(.+)", cond).groups()
        func = getattr(operator, OPS[op])
        result = [i for i in result if func(getattr(i, field_name), type(getattr(i, field_name))(raw))]
    return result


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
