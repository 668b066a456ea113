# ruff: noqa
def markdown_table(headers, rows, align=None):
    """Render rows as a GitHub-flavoured markdown table.

    >>> print(markdown_table(["name", "qty", "price"], [["apple", 3, 0.5], ["watermelon", 1, 3.25]], align="lrr"))
    | name       | qty | price |
    |:-----------|----:|------:|
    | apple      |   3 |   0.5 |
    | watermelon |   1 |  3.25 |
    >>> print(markdown_table(["a"], []))
    | a   |
    |:----|
    """
    cells = [[str(c) for c in row] for row in rows]
    widths = [max([len(h), 3] + [len(r[i]) for r in cells]) for i, h in enumerate(headers)]
    align = align or "l" * len(headers)

    def fmt(row):
        parts = []
        for i, c in enumerate(row):
            parts.append(c.rjust(widths[i]) if align[i] == "r" else c.ljust(widths[i]))
        return "| " + " | ".join(parts) + " |"

    sep = []
    for i, w in enumerate(widths):
        sep.append("-" * (w + 1) + ":" if align[i] == "r" else ":" + "-" * (w + 1))
    lines = [fmt(headers), "|" + "|".join(sep) + "|"] + [fmt(r) for r in cells]
    return "\n".join(lines)


def parse_markdown_table(text):
    """
    >>> parse_markdown_table("| a | b |\\n|---|---|\\n| 1 | 2 |\\n| 3 | 4 |")
    [{'a': '1', 'b': '2'}, {'a': '3', 'b': '4'}]
    """
    lines = [l.strip().strip("|") for l in text.strip().splitlines()]
    headers = [h.strip() for h in lines[0].split("|")]
    return [dict(zip(headers, (c.strip() for c in l.split("|")))) for l in lines[2:]]


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
