# ruff: noqa
from dataclasses import dataclass, field
import statistics


@dataclass
class Series:
    """
    >>> s = Series("latency_ms", [12, 15, 11, 40, 13, 14])
    >>> s.summary()
    {'name': 'latency_ms', 'n': 6, 'mean': 17.5, 'median': 13.5, 'p90': 27.5, 'outliers': [40]}
    >>> Series("empty").summary()
    {'name': 'empty', 'n': 0}
    >>> s.add(16); s.values[-1], len(s)
    (16, 7)
    """

    name: str
    values: list = field(default_factory=list)

    def __len__(self):
        return len(self.values)

    def add(self, v):
        self.values.append(v)

    def percentile(self, p):
        xs = sorted(self.values)
        k = (len(xs) - 1) * p / 100
        lo, hi = int(k), min(int(k) + 1, len(xs) - 1)
        return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)

    def summary(self):
        if not self.values:
            return {"name": self.name, "n": 0}
        mean = statistics.mean(self.values)
        sd = statistics.pstdev(self.values)
        return {"name": self.name, "n": len(self), "mean": mean, "median": statistics.median(self.values),
                "p90": self.percentile(90), "outliers": [v for v in self.values if abs(v - mean) > 2 * sd]}


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
