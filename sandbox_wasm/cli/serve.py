"""`wasm-exec serve`: the HTTP gateway under uvicorn."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from pydantic import ValidationError

from .._sandbox import Sandbox
from ..server._settings import ENV_VARS, GatewaySettings, settings_from_env
from ._common import EXIT_OK, OneLineParser, UsageError, report_failure
from ._tool_flags import add_tool_args

# uvicorn waits this long for in-flight requests on shutdown: the longest execution
# (30 s) plus a margin, so a deploy does not cut a running request short.
GRACEFUL_SHUTDOWN_SECONDS = 35


def _parser() -> argparse.ArgumentParser:
    fields = GatewaySettings.model_fields

    def helptext(name: str) -> str:
        return f"{fields[name].description} [env {ENV_VARS[name]}]"

    parser = OneLineParser(
        prog="wasm-exec serve",
        description="Serve the sandbox over HTTP (FastAPI + uvicorn; docs at /docs).",
        epilog="Flags win over environment variables. One process: the rate limiter and "
        "sessions live in memory, and so do async jobs unless --redis-url shares them "
        "between replicas (with it, replicas also tell which one holds a session).",
    )
    parser.add_argument("--host", help=helptext("host") + " (default 127.0.0.1)")
    parser.add_argument("--port", type=int, help=helptext("port") + " (default 8000)")
    parser.add_argument("--workers", type=int, help=helptext("workers") + " (default: CPUs)")
    parser.add_argument("--queue", type=int, help=helptext("queue") + " (default 16)")
    parser.add_argument("--rate-limit", type=int, help=helptext("rate_limit") + " (default 60)")
    parser.add_argument("--max-source-bytes", type=int, help=helptext("max_source_bytes"))
    parser.add_argument("--max-input-bytes", type=int, help=helptext("max_input_bytes"))
    parser.add_argument("--job-ttl-seconds", type=float, help=helptext("job_ttl_seconds"))
    parser.add_argument("--max-jobs", type=int, help=helptext("max_jobs"))
    parser.add_argument("--redis-url", help=helptext("redis_url"))
    parser.add_argument("--job-lease-seconds", type=float, help=helptext("job_lease_seconds"))
    parser.add_argument("--max-sessions", type=int,
                        help=helptext("max_sessions") + " (default 32)")
    parser.add_argument("--session-memory-mb", type=int,
                        help=helptext("session_memory_mb") + " (default 4096)")
    parser.add_argument("--session-idle-seconds", type=float,
                        help=helptext("session_idle_seconds") + " (default 600)")
    parser.add_argument(
        "--session-key",
        help=helptext("session_key") + "; a flag shows in the process list, prefer the env",
    )
    parser.add_argument("--max-snapshot-bytes", type=int, help=helptext("max_snapshot_bytes"))
    parser.add_argument(
        "--log-level", choices=("critical", "error", "warning", "info", "debug"),
        help=f"uvicorn log level [env {ENV_VARS['log_level']}]",
    )
    add_tool_args(parser, scope="offered to the requests that name them (tools: [...]) and "
                  "listed by GET /v1/host-tools; env: a JSON array or one entry", env=ENV_VARS)
    return parser


def _settings(argv: list[str]) -> GatewaySettings:
    args = _parser().parse_args(argv)
    try:
        return settings_from_env(**vars(args))
    except ValidationError as exc:
        first = exc.errors()[0]
        name = str(first["loc"][0]) if first.get("loc") else "settings"
        raise UsageError(
            f"invalid {name} ({ENV_VARS.get(name, name)}): {first['msg']}"
        ) from None


def main(argv: Sequence[str]) -> int:
    """Entry point of `wasm-exec serve`; returns the exit status."""
    try:
        settings = _settings(list(argv))
    except UsageError as exc:
        return report_failure("wasm-exec serve", exc)

    import uvicorn

    from ..server import create_app
    from ..server._gateway_tools import ToolConfigError

    sandbox = Sandbox()
    # Fail now, with the library's message, if the runtime is missing or tampered with.
    sandbox.warm_up()
    try:
        app = create_app(settings, sandbox=sandbox)
        # Connect the bridged MCP servers now, so that one that cannot be reached is a
        # one-line error; the app's shutdown closes them (and so does leaving here).
        tools = app.state.gateway.tools
        tools.start()
    except ToolConfigError as exc:
        return report_failure("wasm-exec serve", UsageError(str(exc)))
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
