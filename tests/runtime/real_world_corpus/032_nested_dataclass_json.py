# ruff: noqa
import json
from dataclasses import asdict, dataclass, field, fields, is_dataclass
from typing import Optional


@dataclass
class Address:
    street: str
    city: str
    postcode: str = ""


@dataclass
class Customer:
    name: str
    address: Address
    vip: bool = False
    phone: Optional[str] = None
    orders: list = field(default_factory=list)


def to_json(obj):
    """
    >>> c = Customer("Ann", Address("1 High St", "Leeds", "LS1"), orders=[101, 102])
    >>> print(to_json(c))
    {"address": {"city": "Leeds", "postcode": "LS1", "street": "1 High St"}, "name": "Ann", "orders": [101, 102], "phone": null, "vip": false}
    """
    return json.dumps(asdict(obj), sort_keys=True)


def from_dict(cls, data):
    """Rebuild nested dataclasses from plain dicts, using the field types.

    >>> c = from_dict(Customer, json.loads(to_json(Customer("Bo", Address("2 Low Rd", "York")))))
    >>> c.address.city, type(c.address).__name__
    ('York', 'Address')
    >>> c == Customer("Bo", Address("2 Low Rd", "York"))
    True
    """
    kwargs = {}
    for f in fields(cls):
        if f.name not in data:
            continue
        value = data[f.name]
        if isinstance(f.type, type) and is_dataclass(f.type) and isinstance(value, dict):
            value = from_dict(f.type, value)
        kwargs[f.name] = value
    return cls(**kwargs)


def field_names(cls):
    """
    >>> field_names(Customer)
    ['name', 'address', 'vip', 'phone', 'orders']
    """
    return [f.name for f in fields(cls)]


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
