"""Host tools for the gateway tests, loaded as an entry point (`--tools
gateway_tools_example:TOOLS`): one sync, one async."""

from __future__ import annotations

import asyncio

RATES = {"EUR": 1.0, "USD": 1.1, "GBP": 0.85}


def quote(unit_price: float, qty: int = 1) -> dict[str, float]:
    """Price of `qty` units at `unit_price`."""
    return {"qty": qty, "total": round(unit_price * qty, 2)}


async def convert(amount: float, currency: str = "USD") -> float:
    """Convert an amount in EUR to `currency`."""
    await asyncio.sleep(0)
    if currency not in RATES:
        raise KeyError(f"no rate for {currency}")
    return round(amount * RATES[currency], 2)


TOOLS = [quote, convert]
