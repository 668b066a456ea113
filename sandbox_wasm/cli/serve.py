"""`wasm-exec serve`: the HTTP gateway under uvicorn."""

from __future__ import annotations

import argparse
import os
import sys
import typing
from collections.abc import Sequence

from pydantic import ValidationError
from pydantic.fields import FieldInfo

from .._errors import SandboxError
from .._sandbox import Sandbox
from ..server.ops.auth import hash_key, is_loopback
from ..server.ops.processes import (
    WORKER_APP,
    WORKER_HTTP_PROTOCOL,
    WORKER_SETTINGS_ENV,
    multi_process_conflict,
    settings_json,
)
from ..server.settings import (
    CONFIG_ENV_VAR,
    DEFAULT_RATE_LIMIT,
    ENV_VARS,
    ConfigFileError,
    GatewaySettings,
    load_settings,
)
from ._common import (
    EXIT_OK,
    EXIT_RUNTIME,
    OneLineParser,
    UsageError,
    add_network_args,
    network_from_args,
    report_failure,
)
from ._tool_flags import TOOL_FLAGS, add_tool_args

# uvicorn waits this long for in-flight requests on shutdown: the longest execution
# (30 s) plus a margin, so a deploy does not cut a running request short.
GRACEFUL_SHUTDOWN_SECONDS = 35

#: What the help adds to a setting's description, where a flag needs a word of its own.
_NOTES = {
    "session_key": "a flag shows in the process list, prefer the env or the config file",
    "api_key_hashes": "repeatable",
}
_METAVARS = {"api_key_hashes": "NAME:SHA256HEX[:SCOPES]", "redis_url": "URL"}


def _default(name: str, info: FieldInfo) -> str:
    if name == "workers":
        return "usable CPUs / processes"
    if name == "rate_limit":
        return f"{DEFAULT_RATE_LIMIT}, off on loopback without keys"
    default = info.get_default(call_default_factory=False)
    if default in (None, ()):
        return "unset"
    if isinstance(default, bool):
        return "on" if default else "off"
    return f"{default:g}" if isinstance(default, float) else str(default)


def _add_setting(parser: argparse.ArgumentParser, name: str, info: FieldInfo) -> None:
    """One flag for setting `name`, its type, choices and help from the model's field."""
    flag = "--" + name.replace("_", "-")
    note = f"; {_NOTES[name]}" if name in _NOTES else ""
    description = (info.description or name).rstrip(".")
    text = f"{description}{note} (default {_default(name, info)}) [env {ENV_VARS[name]}]"
    kinds = [k for k in typing.get_args(info.annotation) if k is not type(None)] or [
        info.annotation]
    kind = kinds[0]
    if typing.get_origin(info.annotation) is typing.Literal:
        parser.add_argument(flag, choices=typing.get_args(info.annotation), help=text)
    elif kind is bool and info.default is True:
        parser.add_argument(flag, action=argparse.BooleanOptionalAction, default=None,
                            help=text)
    elif kind is bool:
        parser.add_argument(flag, action="store_const", const=True, help=text)
    elif typing.get_origin(info.annotation) is tuple:
        parser.add_argument(flag, dest=name, action="append", help=text,
                            metavar=_METAVARS.get(name))
    else:
        convert = kind if kind in (int, float) else str
        metavar = _METAVARS.get(name, "N" if kind in (int, float) else None)
        parser.add_argument(flag, type=convert, help=text, metavar=metavar)


def _parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="wasm-exec serve",
        description="Serve the sandbox over HTTP (FastAPI + uvicorn; docs at /docs).",
        epilog="Precedence: flags, then SANDBOX_WASM_* environment variables, then the "
        "config file, then the defaults. Without API keys the gateway listens on loopback "
        "only. One process: sessions live in memory, and so do async jobs and the rate "
        "limiter's counts unless --redis-url shares them between replicas (with it, "
        "replicas also tell which one holds a session). Several processes (--processes) "
        "need --redis-url and --max-sessions 0; admission control (503) is per process.",
    )
    parser.add_argument(
        "--config", metavar="FILE",
        help="read settings from this TOML (.toml) or JSON (.json) file: the field names "
        f"below, e.g. rate_limit = 120 [env {CONFIG_ENV_VAR}]",
    )
    parser.add_argument(
        "--hash-key", action="store_true",
        help="print the SHA-256 hash of the API key read from standard input (one line), "
        "for api_key_hashes, and exit",
    )
    for name, info in GatewaySettings.model_fields.items():
        if name not in TOOL_FLAGS and name != "network":
            _add_setting(parser, name, info)
    add_network_args(parser, scope="the most a request may ask for (network: ...) [env "
                     f"{ENV_VARS['network']}: a JSON NetworkPolicy]")
    add_tool_args(parser, scope="offered to the requests that name them (tools: [...]) and "
                  "listed by GET /v1/host-tools; env: a JSON array or one entry", env=ENV_VARS)
    return parser


def _settings(args: argparse.Namespace) -> GatewaySettings:
    flags = {k: v for k, v in vars(args).items() if k not in (
        "config", "hash_key", "allow_hosts", "allow_addresses", "network_policy")}
    flags["network"] = network_from_args(args)
    try:
        settings = load_settings(flags, config_file=args.config)
    except ConfigFileError as exc:
        raise UsageError(str(exc)) from None
    except ValidationError as exc:
        first = exc.errors()[0]
        name = str(first["loc"][0]) if first.get("loc") else "settings"
        raise UsageError(
            f"invalid {name} ({ENV_VARS.get(name, name)}): {first['msg']}"
        ) from None
    if not settings.api_key_hashes and not settings.insecure_no_auth and not is_loopback(
            settings.host):
        raise UsageError(
            f"refusing to listen on {settings.host} without API keys (anyone reaching it "
            "could run code): set --api-key-hashes (SANDBOX_WASM_API_KEY_HASHES), or listen "
            "on 127.0.0.1, or pass --insecure-no-auth")
    conflict = multi_process_conflict(settings)
    if conflict is not None:
        raise UsageError(conflict)
    return settings


def _announce(settings: GatewaySettings) -> None:
    """Two lines on stderr: who may use the gateway; where its docs and /mcp are, and the
    rate limit in force."""
    keys = len(settings.api_key_hashes)
    if keys:
        print(f"wasm-exec serve: {keys} API key(s); requests need Authorization: Bearer",
              file=sys.stderr)
    elif is_loopback(settings.host):
        print(f"wasm-exec serve: no API keys: listening on loopback ({settings.host}) only, "
              "without authentication", file=sys.stderr)
    else:
        print(f"wasm-exec serve: WARNING: no API keys (--insecure-no-auth): anyone reaching "
              f"{settings.host} can run code", file=sys.stderr)
    base = f"http://{settings.host}:{settings.port}"
    mcp = f", MCP at {base}/mcp" if settings.mcp_max_clients else ""
    limit = settings.effective_rate_limit
    per_minute = f"{limit} requests a minute per client" if limit else "off"
    print(f"wasm-exec serve: docs at {base}/docs{mcp}; rate limit {per_minute}",
          file=sys.stderr)


def _check_runtimes(sandbox: Sandbox) -> bool:
    """Load the runtimes now: a missing or altered Python runtime refuses the start (one
    line naming the command that fixes it); a missing JavaScript runtime is a warning, since
    only JavaScript requests need it (they are answered with the same message)."""
    try:
        sandbox.warm_up("python")
    except SandboxError as exc:
        report_failure("wasm-exec serve", exc)
        return False
    try:
        sandbox.warm_up("javascript")
    except SandboxError as exc:
        print(f"wasm-exec serve: WARNING: JavaScript requests will fail: {exc}",
              file=sys.stderr)
    return True


def main(argv: Sequence[str]) -> int:
    """Entry point of `wasm-exec serve`; returns the exit status."""
    try:
        args = _parser().parse_args(list(argv))
        if args.hash_key:
            key = sys.stdin.readline().rstrip("\r\n")
            if not key:
                raise UsageError("--hash-key: give the key on standard input")
            print(hash_key(key))
            return EXIT_OK
        settings = _settings(args)
    except UsageError as exc:
        return report_failure("wasm-exec serve", exc)

    if settings.processes > 1:
        # Check the runtime and fill the compile cache, so that each worker loads the
        # module instead of compiling it; then let go of it: the supervisor runs nothing.
        with Sandbox(runtime=settings.runtime) as sandbox:
            if not _check_runtimes(sandbox):
                return EXIT_RUNTIME
        return _serve_processes(settings)

    import uvicorn

    from ..server import create_app
    from ..server.bridge.tools import ToolConfigError

    sandbox = Sandbox(runtime=settings.runtime, policy=settings.policy)
    if not _check_runtimes(sandbox):
        return EXIT_RUNTIME
    try:
        app = create_app(settings, sandbox=sandbox)
        # Connect the bridged MCP servers now, so that one that cannot be reached is a
        # one-line error; the app's shutdown closes them (and so does leaving here).
        tools = app.state.gateway.tools
        tools.start()
    except ToolConfigError as exc:
        return report_failure("wasm-exec serve", UsageError(str(exc)))
    _announce(settings)
    try:
        uvicorn.run(
            app,
            host=settings.host,
            port=settings.port,
            log_level=settings.log_level,
            timeout_graceful_shutdown=GRACEFUL_SHUTDOWN_SECONDS,
        )
    finally:
        tools.close()
    return EXIT_OK


def _serve_processes(settings: GatewaySettings) -> int:
    """uvicorn with `settings.processes` workers, each building the app from `settings`."""
    import uvicorn

    from ..server.bridge.tools import GatewayTools, ToolConfigError

    if settings.tools or settings.bridges:
        # Each worker connects its own bridged servers; one that cannot be reached is a
        # one-line error here rather than N workers failing to start.
        try:
            check = GatewayTools(entry_points=settings.tools, bridges=settings.bridges)
            check.start()
            check.close()
        except ToolConfigError as exc:
            return report_failure("wasm-exec serve", UsageError(str(exc)))
    _announce(settings)
    os.environ[WORKER_SETTINGS_ENV] = settings_json(settings)
    try:
        uvicorn.run(
            WORKER_APP,
            factory=True,
            workers=settings.processes,
            http=WORKER_HTTP_PROTOCOL,
            host=settings.host,
            port=settings.port,
            log_level=settings.log_level,
            timeout_graceful_shutdown=GRACEFUL_SHUTDOWN_SECONDS,
        )
    finally:
        del os.environ[WORKER_SETTINGS_ENV]
    return EXIT_OK
