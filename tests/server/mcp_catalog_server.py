"""A tiny real MCP server for the bridge tests, on the official SDK (MCPServer, the SDK's
FastMCP): a product catalogue. `lookup` answers structured content, `add` a wrapped int,
`shout-text` has a name that is not a Python identifier, `fail` raises a ToolError, `wait`
sleeps, `crash` ends the process, `pid` tells which process answers. Over stdio, or over
streamable HTTP on 127.0.0.1 with `--http PORT`."""

from __future__ import annotations

import os
import sys
from typing import Any

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

CATALOG = {
    "A-1": {"sku": "A-1", "name": "anvil", "price": 12.5, "stock": 3},
    "B-2": {"sku": "B-2", "name": "bucket", "price": 4.0, "stock": 0},
    "C-3": {"sku": "C-3", "name": "chisel", "price": 7.25, "stock": 11},
}

server = MCPServer("catalog")


@server.tool()
def lookup(sku: str) -> dict[str, Any]:
    """Look up a product by its SKU: name, price and stock."""
    if sku not in CATALOG:
        raise ToolError(f"no product {sku}")
    return CATALOG[sku]


@server.tool()
def add(a: int, b: int = 1) -> int:
    """Add two integers."""
    return a + b


@server.tool(name="shout-text")
def shout(text: str, times: int = 1) -> str:
    """Upper-case `text`, repeated `times` times."""
    return " ".join([text.upper()] * times)


@server.tool()
def fail(reason: str = "broken") -> str:
    """Always fails."""
    raise ToolError(f"the catalogue is {reason}")


@server.tool()
async def wait(seconds: float) -> str:
    """Sleep, then answer."""
    await anyio.sleep(seconds)
    return "awake"


@server.tool()
def crash() -> str:
    """End the server's process at once."""
    os._exit(3)


@server.tool()
def pid() -> int:
    """The id of the process that answers."""
    return os.getpid()


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--http":
        server.run("streamable-http", host="127.0.0.1", port=int(sys.argv[2]))
    else:
        server.run("stdio")
