"""`wasm-exec mcp`: the MCP server over stdio (default) or streamable HTTP."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from pydantic import ValidationError

from ..server.ops.auth import KEYS_ENV_VAR, ApiKey, Authenticator, is_loopback, parse_entries
from ..server.state.sessions import SessionCaps
from ._common import (
    EXIT_OK,
    OneLineParser,
    UsageError,
    add_network_args,
    add_runtime_arg,
    network_from_args,
    report_failure,
)
from ._tool_flags import add_tool_args

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer
    from starlette.types import ASGIApp

    from ..server.bridge.tools import GatewayTools

#: Session flags and the `SessionCaps` field each sets.
_SESSION_FLAGS = {
    "max_sessions": "max_sessions", "session_memory_mb": "memory_mb",
    "session_idle_seconds": "idle_seconds",
}


def _parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="wasm-exec mcp",
        description="Serve the sandbox as an MCP server (tools execute_python_sandbox, "
        "audit_python_code, open_python_session and close_python_session).",
    )
    parser.add_argument(
        "--transport", choices=("stdio", "streamable-http"), default="stdio",
        help="stdio (default; for a client that starts this process) or streamable-http",
    )
    parser.add_argument("--host", default="127.0.0.1", help="streamable-http: interface")
    parser.add_argument("--port", type=int, default=8000, help="streamable-http: TCP port")
    parser.add_argument(
        "--workers", type=int, default=2, help="executions running at once (default 2)"
    )
    add_runtime_arg(parser)
    fields = SessionCaps.model_fields
    parser.add_argument("--max-sessions", type=int,
                        help=(fields["max_sessions"].description or "")
                        + f" (default {fields['max_sessions'].default})")
    parser.add_argument("--session-memory-mb", type=int,
                        help=(fields["memory_mb"].description or "")
                        + f" (default {fields['memory_mb'].default})")
    parser.add_argument("--session-idle-seconds", type=float,
                        help=(fields["idle_seconds"].description or "")
                        + f" (default {fields['idle_seconds'].default:g})")
    parser.add_argument(
        "--api-key-hashes", action="append", metavar="NAME:SHA256HEX[:SCOPES]",
        help="streamable-http: an API key accepted as Authorization: Bearer <key>, as its "
        "SHA-256 hash (wasm-exec serve --hash-key); keys need the run scope; repeatable "
        f"[env {KEYS_ENV_VAR}: a JSON array or a comma list]. Without keys only a loopback "
        "host is allowed",
    )
    parser.add_argument(
        "--insecure-no-auth", action="store_true",
        help="streamable-http: allow a non-loopback host without API keys",
    )
    parser.add_argument(
        "--policy", choices=("balanced", "strict", "report"), default="balanced",
        help="audit policy of every run (default balanced; report lists findings and refuses "
        "nothing)",
    )
    add_tool_args(parser, scope="every run may call them, and execute_python_sandbox's "
                  "description lists them")
    add_network_args(parser, scope="every run gets this network policy (the model cannot "
                     "change it)")
    return parser


def _api_keys(args: argparse.Namespace) -> list[ApiKey]:
    """The keys of --api-key-hashes, or else of the environment; a non-loopback HTTP host
    without keys is a usage error unless --insecure-no-auth."""
    try:
        entries = args.api_key_hashes or parse_entries(os.environ.get(KEYS_ENV_VAR, ""))
        # The environment's JSON may hold anything: only strings are entries.
        if not isinstance(entries, (list, tuple)) or not all(
                isinstance(entry, str) for entry in entries):
            raise ValueError("must be a JSON array of strings or a comma list")
        keys = [ApiKey.parse(entry) for entry in entries]
    except ValueError as exc:
        raise UsageError(f"--api-key-hashes: {exc}") from None
    if (args.transport == "streamable-http" and not keys and not args.insecure_no_auth
            and not is_loopback(args.host)):
        raise UsageError(
            f"refusing to listen on {args.host} without API keys (anyone reaching it could "
            f"run code): set --api-key-hashes ({KEYS_ENV_VAR}), or listen on 127.0.0.1, or "
            "pass --insecure-no-auth")
    return keys


def _session_caps(args: argparse.Namespace) -> SessionCaps:
    values = {field: getattr(args, flag) for flag, field in _SESSION_FLAGS.items()
              if getattr(args, flag) is not None}
    try:
        return SessionCaps(**values)
    except ValidationError as exc:
        first = exc.errors()[0]
        flag = next(f for f, field in _SESSION_FLAGS.items() if field == first["loc"][0])
        raise UsageError(f"--{flag.replace('_', '-')}: {first['msg']}") from None


def main(argv: Sequence[str]) -> int:
    """Entry point of `wasm-exec mcp`; returns the exit status."""
    try:
        args = _parser().parse_args(list(argv))
        if args.workers < 1:
            raise UsageError("--workers must be at least 1")
        if not 0 <= args.port <= 65_535:
            raise UsageError("--port must be between 0 and 65535")
        caps = _session_caps(args)
        keys = _api_keys(args)
        tools = _tools(args)
        network = network_from_args(args)
    except UsageError as exc:
        return report_failure("wasm-exec mcp", exc)

    from .._errors import SandboxError
    from .._sandbox import Sandbox
    from ..server import create_mcp_server
    from ..server.bridge.tools import ToolConfigError

    try:
        tools.start()
    except ToolConfigError as exc:
        return report_failure("wasm-exec mcp", UsageError(str(exc)))
    # The bridged servers stay connected while this server runs, and are stopped with it.
    with contextlib.closing(tools):
        # The model asks for code to run, never for hosts to reach: every run gets the
        # operator's network policy, and nothing else.
        sandbox = Sandbox(tools=tools.tools.values(), runtime=args.runtime,
                          policy=args.policy, network=network)
        try:
            sandbox.warm_up()
        except SandboxError as exc:
            # A client that started this server would only see its connection close: keep
            # serving, and every tool call reports the error (with the command that fixes
            # it) until the runtime is in place; it is loaded again on the next call.
            print(f"wasm-exec mcp: runtime error: {exc}; serving anyway: every tool call "
                  "reports it until it is fixed", file=sys.stderr)
        # Over HTTP with keys, sessions belong to the key that opened them (stdio has one
        # client: the process that started this one).
        auth = Authenticator(keys) if keys and args.transport != "stdio" else None
        server = create_mcp_server(sandbox, workers=args.workers, sessions=caps, auth=auth)
        if args.transport == "stdio":
            import anyio

            from ..server import serve_stdio

            anyio.run(serve_stdio, server)
        else:
            _serve_http(server, args.host, args.port, auth)
    return EXIT_OK


def _serve_http(server: MCPServer, host: str, port: int, auth: Authenticator | None) -> None:
    """The streamable-HTTP transport under uvicorn, behind the API keys when there are."""
    import uvicorn

    from ..server.ops.auth import BearerAuthMiddleware

    app: ASGIApp = server.streamable_http_app(host=host)
    if auth is not None:
        app = BearerAuthMiddleware(app, auth)
        print(f"wasm-exec mcp: {len(auth.keys)} API key(s); requests need Authorization: "
              "Bearer", file=sys.stderr)
    elif is_loopback(host):
        print(f"wasm-exec mcp: no API keys: listening on loopback ({host}) only, without "
              "authentication", file=sys.stderr)
    else:
        print(f"wasm-exec mcp: WARNING: no API keys (--insecure-no-auth): anyone reaching "
              f"{host} can run code", file=sys.stderr)
    uvicorn.run(app, host=host, port=port, log_level=server.settings.log_level.lower())


def _tools(args: argparse.Namespace) -> GatewayTools:
    """The host tools of --tools, --bridge and --bridge-url (the servers not yet started)."""
    from ..server.bridge.mcp import McpServerSpec
    from ..server.bridge.tools import GatewayTools, ToolConfigError

    try:
        bridges = [McpServerSpec.command(spec) for spec in args.bridge or ()]
        bridges += [McpServerSpec.url(spec) for spec in args.bridge_url or ()]
        return GatewayTools(entry_points=args.tools or (), bridges=bridges)
    except ToolConfigError as exc:
        raise UsageError(str(exc)) from None
