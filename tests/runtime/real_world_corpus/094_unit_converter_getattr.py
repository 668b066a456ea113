# ruff: noqa
"""Unit conversions looked up by name.

>>> convert(100, "celsius", "fahrenheit")
212.0
>>> convert(5, "km", "miles")
3.107
>>> convert(1, "kg", "lb")
2.205
>>> convert(1, "parsec", "km")
Traceback (most recent call last):
...
KeyError: 'no conversion parsec_to_km'
>>> for src, dst in [("fahrenheit", "celsius"), ("miles", "km"), ("lb", "kg")]:
...     print(src, "->", dst, convert(10, src, dst))
fahrenheit -> celsius -12.222
miles -> km 16.093
lb -> kg 4.536
"""
import sys


class Conversions:
    @staticmethod
    def celsius_to_fahrenheit(x):
        return x * 9 / 5 + 32

    @staticmethod
    def fahrenheit_to_celsius(x):
        return (x - 32) * 5 / 9

    @staticmethod
    def km_to_miles(x):
        return x / 1.609344

    @staticmethod
    def miles_to_km(x):
        return x * 1.609344

    @staticmethod
    def kg_to_lb(x):
        return x / 0.45359237

    @staticmethod
    def lb_to_kg(x):
        return x * 0.45359237


def convert(value, src, dst):
    name = f"{src}_to_{dst}"
    func = getattr(Conversions, name, None)
    if func is None:
        raise KeyError(f"no conversion {name}")
    return round(func(value), 3)


def available():
    """
    >>> available()[:3]
    ['celsius->fahrenheit', 'fahrenheit->celsius', 'kg->lb']
    """
    return sorted(n.replace("_to_", "->") for n in vars(Conversions) if "_to_" in n)


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
