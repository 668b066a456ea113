# ruff: noqa
import csv
import io


def detect_and_read(path):
    """Read a CSV whose delimiter is not known in advance.

    >>> with open("eu.csv", "w", newline="") as f:
    ...     _ = f.write("name;price;qty\\nbread;2,10;3\\ncheese;7,85;1\\n")
    >>> dialect, rows = detect_and_read("eu.csv")
    >>> dialect.delimiter
    ';'
    >>> rows
    [{'name': 'bread', 'price': '2,10', 'qty': '3'}, {'name': 'cheese', 'price': '7,85', 'qty': '1'}]
    """
    with open(path, newline="") as f:
        sample = f.read(2048)
        f.seek(0)
        dialect = csv.Sniffer().sniff(sample, delimiters=",;\t|")
        return dialect, list(csv.DictReader(f, dialect=dialect))


def eu_to_us(path_in, path_out):
    """Convert decimal commas and write a standard comma-separated file.

    >>> eu_to_us("eu.csv", "us.csv")
    2
    >>> print(open("us.csv").read(), end="")
    name,price,qty,total
    bread,2.10,3,6.30
    cheese,7.85,1,7.85
    """
    _, rows = detect_and_read(path_in)
    with open(path_out, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["name", "price", "qty", "total"])
        for r in rows:
            price = float(r["price"].replace(",", "."))
            w.writerow([r["name"], f"{price:.2f}", r["qty"], f"{price * int(r['qty']):.2f}"])
    return len(rows)


def has_header(text):
    """
    >>> has_header("id,name\\n1,a\\n2,b\\n")
    True
    >>> has_header("1,2\\n3,4\\n5,6\\n")
    False
    """
    return csv.Sniffer().has_header(text)


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
