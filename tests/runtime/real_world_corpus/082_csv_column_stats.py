# ruff: noqa
import csv
import statistics


def write_measurements(path):
    """
    >>> write_measurements("measurements.csv")
    >>> print(open("measurements.csv").read(), end="")
    sensor,temp,humidity
    s1,21.5,40
    s2,22.0,
    s1,23.5,45
    s3,n/a,50
    s2,20.0,38
    """
    rows = [("s1", "21.5", "40"), ("s2", "22.0", ""), ("s1", "23.5", "45"), ("s3", "n/a", "50"), ("s2", "20.0", "38")]
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["sensor", "temp", "humidity"])
        w.writerows(rows)


def column_stats(path, column):
    """Numeric summary of a column, skipping blanks and non-numbers.

    >>> write_measurements("m.csv")
    >>> column_stats("m.csv", "temp")
    {'count': 4, 'min': 20.0, 'max': 23.5, 'mean': 21.75, 'median': 21.75, 'skipped': 1}
    >>> column_stats("m.csv", "humidity")["skipped"]
    1
    """
    values, skipped = [], 0
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            try:
                values.append(float(row[column]))
            except ValueError:
                skipped += 1
    return {"count": len(values), "min": min(values), "max": max(values),
            "mean": round(statistics.fmean(values), 3), "median": statistics.median(values), "skipped": skipped}


def group_mean(path, key, column):
    """
    >>> write_measurements("m.csv")
    >>> group_mean("m.csv", "sensor", "temp")
    {'s1': 22.5, 's2': 21.0}
    """
    groups = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            try:
                value = float(row[column])
            except ValueError:
                continue
            groups.setdefault(row[key], []).append(value)
    return {k: statistics.mean(v) for k, v in sorted(groups.items())}


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
