"""MCP on the gateway's own port: the MCP server's tools (those of `wasm-exec mcp`) over the
streamable-HTTP transport at `/mcp`, behind the gateway's guard (API keys and their scopes,
the per-client rate limit, the body cap) and on its worker pool and session registry, so
that one bound holds runs and one holds sessions whichever protocol a client speaks, and
under its caps (max_timeout_ms, max_source_bytes, max_input_bytes), which MCP cannot go
around. A session opened over MCP belongs to the key that opened it, as one opened over HTTP
does."""

from __future__ import annotations

from typing import TYPE_CHECKING

from fastapi import FastAPI
from starlette.routing import Route

from ..ops.auth import Authenticator
from .gateway import Gateway

if TYPE_CHECKING:
    from mcp.server.streamable_http_manager import StreamableHTTPSessionManager

#: Where the gateway answers MCP.
MCP_PATH = "/mcp"
#: How long an MCP client's transport session lives without a request.
MCP_IDLE_SECONDS = 600.0


def add_mcp_endpoint(app: FastAPI, gateway: Gateway) -> StreamableHTTPSessionManager:
    """Serve MCP at MCP_PATH; the returned manager must run (`async with
    manager.run()`) while the app does."""
    from mcp.server.streamable_http_manager import StreamableHTTPASGIApp

    from ..mcp.server import HostGateway, create_mcp_server

    settings = gateway.settings
    keys = settings.api_keys
    server = create_mcp_server(
        gateway.sandbox, auth=Authenticator(keys) if keys else None,
        gateway=HostGateway(
            runner=gateway.pool.run, registry=gateway.sessions,
            run_limits=gateway.server_limits(), max_timeout_ms=settings.max_timeout_ms,
            sandbox_for=gateway.sandbox_for, observe=gateway.metrics.observe,
        ),
    )
    # Builds the transport's session manager (the app it returns is not used: its route
    # is added here, behind the gateway's middleware). On a loopback host the SDK turns on
    # its DNS-rebinding protection (Host and Origin must be loopback).
    # With several gateway processes on one port, a client's next connection may reach
    # another process, which would not know its transport session: each request then
    # stands alone (stateless), at the cost of what needs one (a cancel sent as a separate
    # request finds nothing to cancel there).
    server.streamable_http_app(
        host=settings.host, max_sessions=settings.mcp_max_clients,
        stateless_http=settings.processes > 1,
        session_idle_timeout=MCP_IDLE_SECONDS,
        max_request_body_size=settings.max_files_body_bytes,
    )
    manager = server.session_manager
    app.router.routes.append(Route(MCP_PATH, endpoint=StreamableHTTPASGIApp(manager)))
    return manager
