# ruff: noqa
"""Remove duplicate rows from a CSV (case-insensitive on the email column).

>>> with open("signups.csv", "w", newline="") as f:
...     w = csv.writer(f)
...     w.writerows([["name", "email"], ["Ann", "ann@x.org"], ["ANN", "Ann@X.org"], ["Bo", "bo@x.org"], ["Cy", " cy@x.org "], ["Cy2", "cy@x.org"]])
>>> dedupe("signups.csv", "clean.csv", key="email")
(5, 3)
>>> with open("clean.csv", newline="") as f:
...     print(list(csv.reader(f)))
[['name', 'email'], ['Ann', 'ann@x.org'], ['Bo', 'bo@x.org'], ['Cy', 'cy@x.org']]
"""
import csv


def dedupe(src, dst, key):
    seen = set()
    total = kept = 0
    with open(src, newline="") as fin, open(dst, "w", newline="") as fout:
        reader = csv.DictReader(fin)
        writer = csv.DictWriter(fout, fieldnames=reader.fieldnames)
        writer.writeheader()
        for row in reader:
            total += 1
            row[key] = row[key].strip().lower()
            if row[key] in seen:
                continue
            seen.add(row[key])
            writer.writerow(row)
            kept += 1
    return total, kept


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
