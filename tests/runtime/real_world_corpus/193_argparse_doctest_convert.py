# ruff: noqa
import argparse
import json
import csv


def main(argv):
    """Convert between CSV and JSON files, chosen by extension.

    >>> with open("in.csv", "w", newline="") as f:
    ...     _ = f.write("k,v\\na,1\\nb,2\\n")
    >>> main(["in.csv", "out.json"])
    'in.csv -> out.json (2 records)'
    >>> json.load(open("out.json"))
    [{'k': 'a', 'v': '1'}, {'k': 'b', 'v': '2'}]
    >>> main(["out.json", "back.csv", "--delimiter", ";"])
    'out.json -> back.csv (2 records)'
    >>> print(open("back.csv").read(), end="")
    k;v
    a;1
    b;2
    """
    p = argparse.ArgumentParser(prog="convert")
    p.add_argument("src")
    p.add_argument("dst")
    p.add_argument("--delimiter", default=",")
    a = p.parse_args(argv)
    if a.src.endswith(".csv"):
        with open(a.src, newline="") as f:
            records = list(csv.DictReader(f, delimiter=a.delimiter))
    else:
        with open(a.src) as f:
            records = json.load(f)
    if a.dst.endswith(".json"):
        with open(a.dst, "w") as f:
            json.dump(records, f)
    else:
        with open(a.dst, "w", newline="") as f:
            w = csv.DictWriter(f, list(records[0]), delimiter=a.delimiter, lineterminator="\n")
            w.writeheader()
            w.writerows(records)
    return f"{a.src} -> {a.dst} ({len(records)} records)"


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
