# ruff: noqa
class Vector:
    __slots__ = ("x", "y", "z")

    def __init__(self, x, y, z):
        self.x, self.y, self.z = x, y, z


class Person:
    def __init__(self, name, age):
        self.name = name
        self.age = age
        self._secret = "hidden"


def to_dict(obj):
    """Serialise an object's public attributes, whether it uses __dict__ or __slots__.

    >>> to_dict(Person("Ann", 31))
    {'__type__': 'Person', 'age': 31, 'name': 'Ann'}
    >>> to_dict(Vector(1, 2, 3))
    {'__type__': 'Vector', 'x': 1, 'y': 2, 'z': 3}
    """
    if hasattr(obj, "__dict__"):
        names = [n for n in vars(obj) if not n.startswith("_")]
    else:
        names = list(getattr(type(obj), "__slots__", ()))
    data = {n: getattr(obj, n) for n in sorted(names)}
    return {"__type__": obj.__class__.__name__, **data}


def from_dict(data, registry=None):
    """
    >>> v = from_dict({"__type__": "Vector", "x": 4, "y": 5, "z": 6})
    >>> (v.x, v.y, v.z)
    (4, 5, 6)
    >>> from_dict({"__type__": "os"})
    Traceback (most recent call last):
    ...
    TypeError: unknown type 'os'
    """
    registry = registry or {"Vector": Vector, "Person": Person}
    data = dict(data)
    type_name = data.pop("__type__")
    cls = registry.get(type_name)
    if cls is None:
        raise TypeError(f"unknown type {type_name!r}")
    obj = cls.__new__(cls)
    for key, value in data.items():
        setattr(obj, key, value)
    return obj


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
