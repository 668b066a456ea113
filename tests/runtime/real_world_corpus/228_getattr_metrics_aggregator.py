# ruff: noqa
import statistics


class Aggregations:
    @staticmethod
    def count(xs):
        return len(xs)

    @staticmethod
    def total(xs):
        return sum(xs)

    @staticmethod
    def avg(xs):
        return round(statistics.fmean(xs), 2)

    @staticmethod
    def p50(xs):
        return statistics.median(xs)

    @staticmethod
    def spread(xs):
        return max(xs) - min(xs)


def aggregate(rows, group_by, field, funcs):
    """SELECT group_by, funcs(field) ... GROUP BY group_by, with functions named by strings.

    >>> rows = [{"host": "a", "ms": 120}, {"host": "b", "ms": 80}, {"host": "a", "ms": 100}, {"host": "a", "ms": 300}]
    >>> for line in aggregate(rows, "host", "ms", ["count", "avg", "p50", "spread"]):
    ...     print(line)
    {'host': 'a', 'count': 3, 'avg': 173.33, 'p50': 120, 'spread': 200}
    {'host': 'b', 'count': 1, 'avg': 80.0, 'p50': 80, 'spread': 0}
    >>> aggregate(rows, "host", "ms", ["variance"])
    Traceback (most recent call last):
    ...
    ValueError: unknown aggregation 'variance'
    """
    groups = {}
    for r in rows:
        groups.setdefault(r[group_by], []).append(r[field])
    out = []
    for key in sorted(groups):
        line = {group_by: key}
        for name in funcs:
            fn = getattr(Aggregations, name, None)
            if fn is None:
                raise ValueError(f"unknown aggregation {name!r}")
            line[name] = fn(groups[key])
        out.append(line)
    return out


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
