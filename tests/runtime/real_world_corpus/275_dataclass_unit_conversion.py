# ruff: noqa
from dataclasses import dataclass


@dataclass(frozen=True)
class Length:
    """
    >>> Length(1, "mi").to("km")
    Length(value=1.609344, unit='km')
    >>> Length(30, "cm") + Length(2, "in")
    Length(value=35.08, unit='cm')
    >>> sorted([Length(1, "ft"), Length(25, "cm"), Length(11, "in")])
    [Length(value=25, unit='cm'), Length(value=11, unit='in'), Length(value=1, unit='ft')]
    >>> Length(1, "m") == Length(100, "cm")
    True
    """

    value: float
    unit: str

    FACTORS = {"mm": 0.001, "cm": 0.01, "m": 1.0, "km": 1000.0, "in": 0.0254, "ft": 0.3048, "mi": 1609.344}

    @property
    def meters(self):
        return self.value * self.FACTORS[self.unit]

    def to(self, unit):
        return Length(round(self.meters / self.FACTORS[unit], 6), unit)

    def __add__(self, other):
        return Length(round(self.value + other.to(self.unit).value, 6), self.unit)

    def __eq__(self, other):
        return abs(self.meters - other.meters) < 1e-9

    def __lt__(self, other):
        return self.meters < other.meters

    __hash__ = None


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
