"""JSON from untrusted text (guest output, batch lines): strict, and valid Unicode."""

from __future__ import annotations

import json


def _reject_constant(name: str) -> object:
    raise ValueError(f"{name} is not JSON")


#: One decoder for every call (json.loads with an option builds a new one each time).
_STRICT_DECODER = json.JSONDecoder(parse_constant=_reject_constant)
#: What a JSON text can start with (after white space): anything else is not JSON.
JSON_STARTS = frozenset('{["-0123456789tfn')


def loads_strict_json(text: str) -> object:
    """`json.loads` of strict JSON: NaN, Infinity and -Infinity raise ValueError (and, as
    for `json.loads`, nesting too deep for the parser raises RecursionError)."""
    return _STRICT_DECODER.decode(text)


def clean_text(text: str) -> str:
    """Guest text as valid Unicode: JSON escapes can decode to lone surrogates, which no
    JSON encoder (nor UTF-8) accepts; they become U+FFFD."""
    return text.encode("utf-8", "surrogatepass").decode("utf-8", "replace") if text else text


def clean_json_value(value: object) -> object:
    """`value` (parsed from guest JSON) with every string made valid Unicode. Iterative, so
    a deeply nested value cannot exhaust the host's stack."""
    if isinstance(value, str):
        return clean_text(value)
    if not isinstance(value, (list, dict)):
        return value
    root: list[object] = [value]
    stack: list[tuple[object, object]] = [(root, 0)]
    while stack:
        container, key = stack.pop()
        # Each pair is a list with an index or a dict with one of its keys.
        item = container[key]  # type: ignore[index]
        if isinstance(item, str):
            container[key] = clean_text(item)  # type: ignore[index]
        elif isinstance(item, list):
            stack.extend((item, index) for index in range(len(item)))
        elif isinstance(item, dict):
            cleaned = {clean_text(k): v for k, v in item.items()}
            container[key] = cleaned  # type: ignore[index]
            stack.extend((cleaned, k) for k in cleaned)
    return root[0]
