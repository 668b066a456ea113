"""MCP servers' tools as host tools: guest code calls them through `tools` like any other.

Each bridged server is reached with the official SDK's client, over stdio (a command line
this process starts) or streamable HTTP (a URL), and stays connected for the bridge's life
on the bridge's own event loop thread: the SDK's sessions are anyio task groups, which must
be entered, used and left on the loop that made them. A remote tool becomes a `Tool` whose
parameters come from its JSON inputSchema and whose function, run on the tools' loop like
every async tool, hands `tools/call` to the bridge's loop and waits for it there; when the
run abandons the call (its time-out, the run's deadline) the wait is cancelled, and so is
the request waiting on the bridge's loop.

Parameters, from the schema's properties in order: required ones have no default; optional
ones take the schema's default, or none (left out of the call, for the server's own default).
Once an optional property has been seen, a required one and those after it are keyword-only.
Names (tools and parameters) that are not Python identifiers are mapped: every character
other than an ASCII letter, digit or `_` becomes `_`, a name not starting with a letter gets
`mcp_` (a tool) or `arg_` (a parameter) in front, and a keyword gets `_` after it
(`shout-text` -> `shout_text`, `class` -> `class_`); the calls carry the server's names. A
tool that has no usable name after that, or whose parameters collide, is skipped and listed
in `McpBridge.skipped`.

Clashes: a tool keeps its (mapped) name unless another bridged server, or a name the caller
reserves (the gateway's own tools), has it too; then each clashing tool is named
`<server>_<tool>`, the server's name being the one given (`NAME=...`) or the name it reports.

A result is the call's structured content (unwrapped from the SDK's `{"result": ...}` when
the tool's output schema is that wrapper), else its text content joined by newlines. A
result the server flags `isError` raises `McpToolError` with its text (the guest sees
`tools.ToolError`), a lost connection `ConnectionError`.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import json
import keyword
import logging
import operator
import re
import shlex
import threading
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from ..._errors import InvalidRequestError
from ..._tools import Param, Tool, check_name
from .tools import ToolConfigError

logger = logging.getLogger("sandbox_wasm.server.mcp_bridge")

#: Makes one call: (the tool's name on the server, its arguments, whether its result comes
#: wrapped in {"result": ...}) -> the result.
RemoteCall = Callable[[str, dict[str, Any], bool], Awaitable[Any]]
#: `NAME=` in front of a command line or URL names the server.
_NAMED = re.compile(r"^([A-Za-z][A-Za-z0-9_]{0,31})=(.+)$", re.DOTALL)
_NOT_IDENTIFIER = re.compile(r"[^A-Za-z0-9_]")
#: Pages of tools/list read at most (a server whose cursor never ends cannot hang start-up).
_MAX_PAGES = 100
#: Seconds the servers' shutdown may take before their connections are cancelled.
_CLOSE_TIMEOUT = 15.0
_JSON_TYPES: dict[str, Any] = {
    "string": str, "integer": int, "number": float, "boolean": bool, "array": list,
    "object": dict, "null": None,
}


class McpToolError(Exception):
    """A bridged MCP tool answered with an error (`isError`), or its server refused the
    call."""


class BridgeError(ToolConfigError):
    """An MCP server could not be started, reached, or listed."""


@dataclass(frozen=True)
class McpServerSpec:
    """One MCP server to bridge: a command line (stdio) or a URL (streamable HTTP)."""

    target: str
    is_url: bool = False
    name: str | None = None

    @classmethod
    def command(cls, spec: str) -> McpServerSpec:
        """`[NAME=]COMMAND ARGS...`: a command line this process starts (split as a shell
        would split it, never run through one) and speaks MCP to over its stdin/stdout."""
        name, target = _named(spec)
        try:
            argv = shlex.split(target)
        except ValueError as error:
            raise ToolConfigError(f"{spec!r}: {error}") from None
        if not argv:
            raise ToolConfigError(f"{spec!r}: give a command line")
        return cls(target, False, name)

    @classmethod
    def url(cls, spec: str) -> McpServerSpec:
        """`[NAME=]URL`: an MCP server over streamable HTTP (http:// or https://)."""
        name, target = _named(spec)
        if urlsplit(target).scheme not in ("http", "https") or not urlsplit(target).netloc:
            raise ToolConfigError(f"{_redacted(target)!r}: give an http:// or "
                                  "https:// URL")
        return cls(target, True, name)

    @property
    def label(self) -> str:
        """How messages name the server (a URL without its credentials or query)."""
        shown = _redacted(self.target) if self.is_url else self.target
        return f"{self.name} ({shown[:200]})" if self.name else shown[:200]

    def client_target(self) -> Any:
        """What the SDK's `Client` connects to."""
        if self.is_url:
            return self.target
        from mcp.client.stdio import StdioServerParameters

        command, *args = shlex.split(self.target)
        # The SDK gives the server only a few safe variables of ours (PATH, HOME, ...):
        # never the gateway's own settings or keys.
        return StdioServerParameters(command=command, args=args)


def _named(spec: str) -> tuple[str | None, str]:
    match = _NAMED.match(spec.strip())
    if match:
        return match.group(1), match.group(2).strip()
    return None, spec.strip()


def _redacted(url: str) -> str:
    """`url` without what may be secret: its user and password, query and fragment."""
    parts = urlsplit(url)
    return parts._replace(netloc=parts.netloc.rpartition("@")[2], query="",
                          fragment="").geturl()


@dataclass
class BridgedServer:
    """A connected server: its name, what it reported, and the guest names of its tools."""

    spec: McpServerSpec
    name: str = ""
    reported_name: str | None = None
    tools: list[str] = field(default_factory=list)
    connected: bool = False
    client: Any = None
    listed: list[Any] = field(default_factory=list)
    _stop: asyncio.Event | None = None
    _holder: asyncio.Task[None] | None = None


class McpBridge:
    """The tools of MCP servers, as host tools over client sessions kept open until `close`.

    Example:
        with McpBridge([McpServerSpec.command("python -m catalog_server")]) as bridge:
            result = sandbox_wasm.execute("import tools\\nprint(tools.lookup('A-1'))",
                                          tools=bridge.tools.values())
    """

    def __init__(
        self, servers: Iterable[McpServerSpec], *, reserved: Iterable[str] = (),
        connect_timeout_s: float = 30.0,
    ) -> None:
        self.servers = [BridgedServer(spec) for spec in servers]
        #: Tools by their name in the guest.
        self.tools: dict[str, Tool] = {}
        #: Guest name -> (server name, the tool's name on that server).
        self.origins: dict[str, tuple[str, str]] = {}
        #: Remote tools left out, each with the reason.
        self.skipped: list[str] = []
        self._reserved = set(reserved)
        self._connect_timeout = connect_timeout_s
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None

    @property
    def started(self) -> bool:
        """Whether the servers are connected (`start` succeeded and `close` has not run)."""
        return self._loop is not None

    def __enter__(self) -> McpBridge:
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- life ----------------------------------------------------------------------------
    def start(self) -> McpBridge:
        """Connect every server and list its tools. Raises BridgeError naming the server
        that could not be started, reached or listed (the others are closed again)."""
        if self._loop is not None:
            return self
        loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=loop.run_forever, name="sandbox-wasm-mcp-bridge",
                                        daemon=True)
        self._thread.start()
        self._loop = loop
        try:
            asyncio.run_coroutine_threadsafe(self._connect_all(), loop).result()
        except BaseException:
            self.close()
            raise
        self._build_tools()
        return self

    def close(self) -> None:
        """Close every session and stop the servers this bridge started."""
        loop, self._loop = self._loop, None
        if loop is None:
            return
        try:
            asyncio.run_coroutine_threadsafe(self._disconnect_all(), loop).result(
                timeout=_CLOSE_TIMEOUT + 10)
        finally:
            loop.call_soon_threadsafe(loop.stop)
            if self._thread is not None:
                self._thread.join(timeout=10)
            if not loop.is_running():
                loop.close()

    async def _connect_all(self) -> None:
        loop = asyncio.get_running_loop()
        readies = []
        for server in self.servers:
            ready: asyncio.Future[None] = loop.create_future()
            server._stop = asyncio.Event()
            server._holder = loop.create_task(self._hold(server, ready))
            readies.append(ready)
        outcomes = await asyncio.gather(
            *(self._ready_within(server, ready) for server, ready in zip(self.servers, readies,
                                                                            strict=True)),
            return_exceptions=True)
        for outcome in outcomes:
            if isinstance(outcome, BaseException):
                raise outcome

    async def _ready_within(self, server: BridgedServer, ready: asyncio.Future[None]) -> None:
        try:
            await asyncio.wait_for(asyncio.shield(ready), self._connect_timeout)
        except TimeoutError:
            raise BridgeError(f"MCP server {server.spec.label} did not answer within "
                              f"{self._connect_timeout:g} s") from None
        except Exception as error:
            raise BridgeError(f"MCP server {server.spec.label} could not be started or "
                              f"reached: {_reason(error)}") from None

    async def _hold(self, server: BridgedServer, ready: asyncio.Future[None]) -> None:
        """Keep `server`'s session open until asked to stop (on this task: the SDK's task
        groups are left where they were entered)."""
        from mcp import Client

        assert server._stop is not None
        try:
            async with Client(server.spec.client_target()) as client:
                server.client = client
                info = client.server_info
                server.reported_name = info.name if info is not None else None
                server.listed = await _list_tools(client)
                server.connected = True
                ready.set_result(None)
                await server._stop.wait()
        except BaseException as error:
            if not ready.done():
                if isinstance(error, Exception):
                    ready.set_exception(error)
                else:  # cancelled: start-up gave up on it (and reports why)
                    ready.cancel()
            elif not server._stop.is_set():
                logger.error("MCP server %s: connection lost (%s)", server.spec.label,
                             _reason(error))
            if not isinstance(error, Exception):
                raise
        finally:
            server.connected = False
            server.client = None

    async def _disconnect_all(self) -> None:
        holders = []
        for server in self.servers:
            if server._holder is None:
                continue
            if server.connected and server._stop is not None:
                server._stop.set()  # leaves its session the SDK's way
            else:  # still in the handshake (start-up gave up on it): nothing to wait for
                server._holder.cancel()
            holders.append(server._holder)
        if not holders:
            return
        _, pending = await asyncio.wait(holders, timeout=_CLOSE_TIMEOUT)
        for task in pending:
            task.cancel()
        if pending:
            await asyncio.wait(pending, timeout=5)

    # -- tools ---------------------------------------------------------------------------
    def _build_tools(self) -> None:
        names: set[str] = set()
        for index, server in enumerate(self.servers, 1):
            name = server.spec.name or _mapped(server.reported_name or "", "mcp_") or ""
            if not name or name in names:
                name = f"server{index}"
            server.name = name
            names.add(name)
        candidates: list[tuple[BridgedServer, Any, str]] = []
        for server in self.servers:
            for remote in server.listed:
                mapped = _mapped(remote.name, "mcp_")
                if mapped is None:
                    self.skipped.append(f"{server.name}: {remote.name[:100]!r}: no usable "
                                        "Python name")
                    continue
                candidates.append((server, remote, mapped))
        counts: dict[str, int] = {}
        for _, _, mapped in candidates:
            counts[mapped] = counts.get(mapped, 0) + 1
        for server, remote, mapped in candidates:
            name = mapped
            if counts[mapped] > 1 or mapped in self._reserved:
                name = f"{server.name}_{mapped}"
            if name in self.tools or name in self._reserved or not _usable(name):
                self.skipped.append(f"{server.name}: {remote.name[:100]!r}: the name {name!r} "
                                    "is taken or unusable")
                continue
            try:
                tool = mcp_tool(remote, name, functools.partial(self._call, server))
            except ToolConfigError as error:
                self.skipped.append(f"{server.name}: {remote.name[:100]!r}: {error}")
                continue
            self.tools[name] = tool
            self.origins[name] = (server.name, remote.name)
            server.tools.append(name)
        for reason in self.skipped:
            logger.warning("MCP tool skipped: %s", reason)

    async def _call(self, server: BridgedServer, remote: str, arguments: dict[str, Any],
                    wrapped: bool) -> Any:
        """On the tools' loop: the call, made on the bridge's loop."""
        loop = self._loop
        if loop is None or loop.is_closed():
            raise ConnectionError("the MCP bridge is closed")
        future = asyncio.run_coroutine_threadsafe(
            self._remote_call(server, remote, arguments, wrapped), loop)
        return await asyncio.wrap_future(future)

    async def _remote_call(self, server: BridgedServer, remote: str,
                           arguments: dict[str, Any], wrapped: bool) -> Any:
        """On the bridge's loop: tools/call, its answer as the guest's result."""
        from mcp.shared.exceptions import MCPError
        from mcp_types import CONNECTION_CLOSED

        client = server.client
        if not server.connected or client is None:
            raise ConnectionError(f"the MCP server {server.name!r} is no longer connected")
        try:
            result = await client.call_tool(remote, arguments)
        except MCPError as error:
            if error.code == CONNECTION_CLOSED:
                raise ConnectionError(f"the MCP server {server.name!r} closed the "
                                      "connection") from None
            raise McpToolError(error.message) from None
        except (OSError, RuntimeError) as error:
            raise ConnectionError(f"the MCP server {server.name!r}: {_reason(error)}") from None
        except Exception as error:
            if type(error).__module__.startswith(("anyio", "httpx")):
                raise ConnectionError(f"the MCP server {server.name!r}: "
                                      f"{_reason(error)}") from None
            raise
        if result.is_error:
            raise McpToolError(_text(result) or f"the tool {remote!r} reported an error")
        structured = result.structured_content
        if structured is not None:
            if wrapped and isinstance(structured, dict) and set(structured) == {"result"}:
                return structured["result"]
            return structured
        return _text(result)


def mcp_tool(remote: Any, name: str, call_remote: RemoteCall) -> Tool:
    """The host tool `name` for the MCP tool `remote` (an `mcp.types.Tool`): its parameters
    from the inputSchema, by the rules in the module's docstring, its arguments checked
    against that schema, and `call_remote(tool name, arguments, wrapped)` making the call.
    Raises ToolConfigError for a schema whose parameters cannot be Python parameters."""
    schema = remote.input_schema if isinstance(remote.input_schema, dict) else {}
    properties = schema.get("properties") or {}
    required = set(schema.get("required") or ())
    params: list[Param] = []
    parameters: list[inspect.Parameter] = []
    remote_names: dict[str, str] = {}
    keyword_only = seen_optional = False
    for prop, prop_schema in properties.items():
        pname = _mapped(str(prop), "arg_")
        if pname is None or pname in remote_names:
            raise ToolConfigError(f"its parameter {str(prop)[:100]!r} has no usable "
                                  "Python name")
        remote_names[pname] = str(prop)
        prop_schema = prop_schema if isinstance(prop_schema, dict) else {}
        is_required = prop in required
        if is_required and seen_optional:
            keyword_only = True
        seen_optional = seen_optional or not is_required
        kind = (inspect.Parameter.KEYWORD_ONLY if keyword_only
                else inspect.Parameter.POSITIONAL_OR_KEYWORD)
        default: Any = inspect.Parameter.empty
        default_json = None
        if not is_required:
            default = _UNSET
            if "default" in prop_schema:
                default = prop_schema["default"]
                default_json = _json(default)
        params.append(Param(pname, kind.name, default_json, not is_required))
        parameters.append(inspect.Parameter(pname, kind, default=default,
                                            annotation=_annotation(prop_schema)))
    signature = inspect.Signature(parameters, return_annotation=_returns(remote))
    validator = _validator(schema)
    wrapped = _is_wrapped(getattr(remote, "output_schema", None))

    async def call(*args: Any, **kwargs: Any) -> Any:
        bound = signature.bind(*args, **kwargs)
        arguments = {remote_names[key]: value for key, value in bound.arguments.items()}
        if validator is not None:
            _check(validator, arguments, name)
        return await call_remote(remote.name, arguments, wrapped)

    def validate(args: list[Any], kwargs: dict[str, Any]
                 ) -> tuple[list[Any], dict[str, Any]]:
        signature.bind(*args, **kwargs)  # TypeError: missing, unexpected or duplicate
        return args, kwargs

    call.__name__ = call.__qualname__ = name
    call.__signature__ = signature  # type: ignore[attr-defined]  # read by inspect.signature
    description = _description(remote, remote_names)
    call.__doc__ = description
    return Tool(name, call, description, tuple(params), True, validate)


async def _list_tools(client: Any) -> list[Any]:
    tools: list[Any] = []
    cursor = None
    for _ in range(_MAX_PAGES):
        page = await client.list_tools(cursor=cursor)
        tools.extend(page.tools)
        cursor = page.next_cursor
        if not cursor:
            break
    return tools


class _Unset:
    """The default of an optional parameter without one: the call leaves it out."""

    def __repr__(self) -> str:
        return "..."


_UNSET = _Unset()


def _mapped(name: str, prefix: str) -> str | None:
    """`name` as a Python identifier, by the rules in the module's docstring (None when it
    cannot be one)."""
    mapped = _NOT_IDENTIFIER.sub("_", name)
    if not mapped[:1].isascii() or not mapped[:1].isalpha():
        mapped = prefix + mapped
    if keyword.iskeyword(mapped) or keyword.issoftkeyword(mapped):
        mapped += "_"
    return mapped if _usable(mapped) else None


def _usable(name: str) -> bool:
    try:
        check_name(name, "name")
    except InvalidRequestError:
        return False
    return True


def _json(value: Any) -> str | None:
    try:
        return json.dumps(value, allow_nan=False)
    except (TypeError, ValueError):
        return None


def _annotation(schema: Mapping[str, Any]) -> Any:
    """A Python annotation for a JSON schema (shown in signatures), or none."""
    kind = schema.get("type")
    alternatives = schema.get("anyOf") or schema.get("oneOf")
    options: list[Any] = []
    if isinstance(kind, str):
        options = [_typed(kind, schema)]
    elif isinstance(kind, list):
        options = [_typed(k, schema) for k in kind if isinstance(k, str)]
    elif isinstance(alternatives, list):
        options = [_annotation(s) for s in alternatives if isinstance(s, dict)]
    options = [o for o in options if o is not inspect.Parameter.empty]
    unique = list(dict.fromkeys(type(None) if o is None else o for o in options))
    if not unique:
        return inspect.Parameter.empty
    if len(unique) == 1:
        return None if unique[0] is type(None) else unique[0]
    try:
        return functools.reduce(operator.or_, unique)
    except TypeError:
        return inspect.Parameter.empty


def _typed(kind: str, schema: Mapping[str, Any]) -> Any:
    if kind not in _JSON_TYPES:
        return inspect.Parameter.empty
    if kind == "array" and isinstance(schema.get("items"), dict):
        item = _annotation(schema["items"])
        if item is not inspect.Parameter.empty and item is not None:
            try:
                return list[item]  # type: ignore[valid-type]  # a type built at run time
            except TypeError:
                return list
    return _JSON_TYPES[kind]


def _is_wrapped(output_schema: Any) -> bool:
    """Whether an output schema is the SDK's wrapper of a value that is not an object."""
    return (isinstance(output_schema, dict) and output_schema.get("type") == "object"
            and set(output_schema.get("properties") or {}) == {"result"}
            and output_schema.get("required") == ["result"])


def _returns(remote: Any) -> Any:
    output = getattr(remote, "output_schema", None)
    if not isinstance(output, dict):
        return str
    if _is_wrapped(output):
        return _annotation(output["properties"]["result"])
    return _annotation(output)


def _validator(schema: dict[str, Any]) -> Any:
    """A jsonschema validator of the arguments (None for a schema it cannot use: the server
    still validates)."""
    if not schema:
        return None
    try:
        from jsonschema import SchemaError
        from jsonschema.validators import validator_for

        cls = validator_for(schema)
        cls.check_schema(schema)
        return cls(schema)
    except (ImportError, SchemaError, TypeError, ValueError):
        return None


def _check(validator: Any, arguments: dict[str, Any], name: str) -> None:
    from jsonschema.exceptions import best_match

    error = best_match(validator.iter_errors(arguments))
    if error is not None:
        where = ".".join(str(part) for part in error.absolute_path) or "arguments"
        raise ValueError(f"{name}(): {where}: {error.message[:500]}")


def _description(remote: Any, remote_names: Mapping[str, str]) -> str:
    """The MCP tool's description, then its parameters' descriptions (and names on the
    server where they were mapped)."""
    text = (remote.description or "").strip()
    properties = (remote.input_schema or {}).get("properties") or {}
    lines = []
    for pname, prop in remote_names.items():
        found = properties.get(prop)
        schema = found if isinstance(found, dict) else {}
        about = str(schema.get("description") or "").strip()
        renamed = f" (`{prop}` on the server)" if prop != pname else ""
        if about or renamed:
            lines.append(f"    {pname}{renamed}: {about}".rstrip(": ").rstrip())
    if lines:
        text = (text + "\n\n" if text else "") + "Args:\n" + "\n".join(lines)
    return text


def _text(result: Any) -> str:
    return "\n".join(part.text for part in result.content
                     if getattr(part, "type", None) == "text")


def _reason(error: BaseException) -> str:
    """A one-line reason, from the first leaf of an exception group."""
    while isinstance(error, BaseExceptionGroup) and error.exceptions:
        error = error.exceptions[0]
    text = str(error).strip().splitlines()[0] if str(error).strip() else ""
    return f"{type(error).__name__}: {text}"[:300] if text else type(error).__name__

