"""The MCP server over stdio, answering every line it cannot take with a JSON-RPC error.

The SDK's stdio transport hands a line that is not a JSON-RPC message to the server as an
exception, which the server drops: the client then waits forever for its answer. JSON-RPC 2.0
says what the answer is (-32700 "Parse error" for text that is not JSON, -32600 "Invalid
Request" for JSON that is not a message, with the request's id where one can be read), so
this transport gives it and reads on.
"""

from __future__ import annotations

import json
from types import TracebackType
from typing import Any

import anyio
import mcp_types as types
from mcp.server.mcpserver import MCPServer
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage
from pydantic import ValidationError


def jsonrpc_error_for(failure: Exception) -> types.JSONRPCError:
    """The JSON-RPC error response to a line the transport could not take as a message."""
    line: object = None
    code, message = types.INVALID_REQUEST, "Invalid Request"
    if isinstance(failure, ValidationError):
        errors = failure.errors(include_url=False)
        if errors and errors[0].get("type") == "json_invalid":
            line = errors[0].get("input")
            code, message = types.PARSE_ERROR, "Parse error"
        else:
            inputs = [error.get("input") for error in errors]
            line = next((value for value in inputs if isinstance(value, dict)), None)
        detail = errors[0].get("msg", "") if errors else ""
        if detail:
            message = f"{message}: {detail}"[:300]
    return types.JSONRPCError(
        jsonrpc="2.0", id=_request_id(line),
        error=types.ErrorData(code=code, message=message),
    )


def _request_id(line: object) -> int | str | None:
    """The id of a request that failed validation, when it can be read and sent back."""
    if isinstance(line, str):
        try:
            line = json.loads(line)
        except (ValueError, RecursionError):
            return None
    if not isinstance(line, dict):
        return None
    request_id = line.get("id")
    if isinstance(request_id, bool) or not isinstance(request_id, (int, str)):
        return None
    if isinstance(request_id, str):
        try:
            request_id.encode("utf-8")
        except UnicodeEncodeError:
            return None
    return request_id


class _AnsweringReadStream:
    """The transport's read stream, with lines that are not messages answered and skipped."""

    def __init__(self, inner: Any, replies: Any) -> None:
        self._inner = inner
        self._replies = replies

    @property
    def last_context(self) -> Any:
        return getattr(self._inner, "last_context", None)

    async def receive(self) -> SessionMessage:
        while True:
            item = await self._inner.receive()
            if not isinstance(item, Exception):
                return item  # type: ignore[no-any-return]
            await self._replies.send(SessionMessage(jsonrpc_error_for(item)))

    async def aclose(self) -> None:
        await self._inner.aclose()

    def __aiter__(self) -> _AnsweringReadStream:
        return self

    async def __anext__(self) -> SessionMessage:
        try:
            return await self.receive()
        except (anyio.EndOfStream, anyio.ClosedResourceError):
            raise StopAsyncIteration from None

    async def __aenter__(self) -> _AnsweringReadStream:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc_val: BaseException | None,
        exc_tb: TracebackType | None,
    ) -> None:
        await self.aclose()


async def serve_stdio(server: MCPServer) -> None:
    """Serve `server` over this process's stdin and stdout until stdin closes."""
    lowlevel = server._lowlevel_server  # the SDK's own run_stdio_async does the same
    async with stdio_server() as (read_stream, write_stream):
        await lowlevel.run(
            _AnsweringReadStream(read_stream, write_stream),
            write_stream,
            lowlevel.create_initialization_options(),
        )
