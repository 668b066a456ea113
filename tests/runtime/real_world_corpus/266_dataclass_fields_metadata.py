# ruff: noqa
from dataclasses import dataclass, field, fields


@dataclass
class Column:
    pass


@dataclass
class Product:
    sku: str = field(metadata={"label": "SKU", "width": 6})
    name: str = field(metadata={"label": "Product", "width": 12})
    price: float = field(default=0.0, metadata={"label": "Price", "width": 8, "fmt": ".2f"})
    internal_note: str = field(default="", repr=False, metadata={"hidden": True})


def table(rows):
    """Render a table using field metadata (labels, widths, formats).

    >>> print(table([Product("A1", "Widget", 2.5, "secret"), Product("B22", "Gizmo Deluxe", 19.99)]))
    SKU   Product        Price
    A1    Widget          2.50
    B22   Gizmo Deluxe   19.99
    """
    cols = [f for f in fields(Product) if not f.metadata.get("hidden")]
    head = "".join(f"{f.metadata['label']:<{f.metadata['width']}}" if f.type is str else f"{f.metadata['label']:>{f.metadata['width']}}" for f in cols)
    lines = [head.rstrip()]
    for r in rows:
        parts = []
        for f in cols:
            v = getattr(r, f.name)
            w = f.metadata["width"]
            parts.append(f"{v:>{w}{f.metadata['fmt']}}" if "fmt" in f.metadata else f"{v:<{w}}")
        lines.append("".join(parts).rstrip())
    return "\n".join(lines)


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
