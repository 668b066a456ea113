"""Code mode: a model-style script calls host tools as functions, loops over their results
and prints JSON. The tools are plain Python functions on the host (a product lookup and a
price calculator); inside the sandbox they are `tools.lookup_product` and
`tools.quote_price`, with the same signatures and docstrings, and nothing else of the host.

    .venv/bin/python examples/code_mode.py
"""

from __future__ import annotations

import json

import sandbox_wasm as sw

CATALOGUE = {
    "A-100": {"name": "widget", "unit_price": 2.50, "stock": 120},
    "B-200": {"name": "gadget", "unit_price": 10.00, "stock": 4},
    "C-300": {"name": "gizmo", "unit_price": 4.25, "stock": 0},
}


def lookup_product(sku: str) -> dict[str, object]:
    """The catalogue entry of a SKU: name, unit_price, stock. KeyError if unknown."""
    if sku not in CATALOGUE:
        raise KeyError(f"unknown SKU {sku}")
    return {"sku": sku, **CATALOGUE[sku]}


def quote_price(unit_price: float, quantity: int, *, discount_percent: float = 0.0) -> float:
    """Price of `quantity` units at `unit_price`, less a percentage discount."""
    if quantity <= 0:
        raise ValueError("quantity must be positive")
    return round(unit_price * quantity * (1 - discount_percent / 100), 2)


# What a model would write: one script instead of one tool call per turn.
MODEL_SCRIPT = """
import json
from tools import lookup_product, quote_price

order = {"A-100": 40, "B-200": 10, "C-300": 5, "Z-999": 1}
lines, problems = [], []
for sku, wanted in order.items():
    try:
        product = lookup_product(sku)
    except KeyError as exc:
        problems.append(exc.args[0])
        continue
    quantity = min(wanted, product["stock"])
    if quantity == 0:
        problems.append(f"{sku} out of stock")
        continue
    discount = 10 if quantity >= 20 else 0
    lines.append({"sku": sku, "quantity": quantity,
                  "total": quote_price(product["unit_price"], quantity,
                                       discount_percent=discount)})
print(json.dumps({"lines": lines, "total": round(sum(l["total"] for l in lines), 2),
                  "problems": problems}))
"""


def main() -> int:
    result = sw.execute(MODEL_SCRIPT, tools=[lookup_product, quote_price])
    if not result.ok:
        print(f"{result.status}: {result.error}")
        return 1
    print(json.dumps(result.result_json, indent=2))
    calls = ", ".join(f"{c.name} {'ok' if c.ok else c.error}" for c in result.tool_calls)
    print(f"{len(result.tool_calls)} tool calls: {calls}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
