# ruff: noqa
import csv
import os


def filter_rows(src, dst, predicate):
    """Stream a CSV from src to dst keeping matching rows.

    >>> with open("all.csv", "w", newline="") as f:
    ...     w = csv.writer(f)
    ...     _ = w.writerow(["ts", "level", "msg"])
    ...     for i in range(1, 8):
    ...         _ = w.writerow([f"t{i}", "ERROR" if i % 3 == 0 else "INFO", f"message {i}"])
    >>> filter_rows("all.csv", "errors.csv", lambda r: r["level"] == "ERROR")
    (7, 2)
    >>> with open("errors.csv", newline="") as f:
    ...     print([r["ts"] for r in csv.DictReader(f)])
    ['t3', 't6']
    >>> os.path.getsize("errors.csv") < os.path.getsize("all.csv")
    True
    """
    seen = kept = 0
    with open(src, newline="") as fin, open(dst, "w", newline="") as fout:
        reader = csv.DictReader(fin)
        writer = csv.DictWriter(fout, reader.fieldnames)
        writer.writeheader()
        for row in reader:
            seen += 1
            if predicate(row):
                writer.writerow(row)
                kept += 1
    return seen, kept


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
