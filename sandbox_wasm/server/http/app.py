"""The HTTP gateway: FastAPI routes around one shared, thread-safe `Sandbox`.

request -> guard (API key 401/403, rate limit 429, body cap 413) -> validation (400/413)
-> worker pool (503 when full) -> audit + sandbox run on a worker thread -> result. A job
or session belongs to the key that created it; to any other key it does not exist (404).
Sessions (`/v1/sessions`) take the same path, into a live interpreter kept in
`state.sessions.SessionRegistry`. A request may name host tools (`tools`, from
`bridge.tools.GatewayTools`): its run is offered those and no others (an unknown name is a
400). Anything a client sends ends in a 2xx or 4xx with a JSON error body; a 5xx means the
server is overloaded, out of room for sessions or cannot reach its shared Redis (503), or
has a bug of ours (500).

This module builds the app from its parts: `admission` (the guard middleware), `bodies`
(safe-exec's JSON or multipart bodies), `gateway` (what the routes share and do), `routes`,
`errors` (refusals and their handlers), `openapi` (the document as served), `docs` (its
Swagger UI and ReDoc pages, with their assets served from the installed package) and
`mcp_endpoint` (MCP over streamable HTTP at /mcp, on the same guard, pool and sessions).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING

from fastapi import FastAPI

from ..._errors import InvalidRequestError
from ..._models import MIB
from ..._sandbox import Sandbox
from ..._tools import Tool, ToolsLike, build_tools
from ..._version import __version__
from ..bridge.tools import GatewayTools, ToolConfigError
from ..ops.ratelimit import RateLimiter
from ..settings import GatewaySettings
from ..state.jobs import InMemoryJobStore, JobStore
from .admission import RequestGuard
from .docs import add_docs_routes
from .errors import add_error_handlers
from .gateway import Gateway
from .mcp_endpoint import add_mcp_endpoint
from .openapi import document_400_not_422
from .routes import add_routes, add_session_routes

if TYPE_CHECKING:
    from mcp.server.streamable_http_manager import StreamableHTTPSessionManager


def _job_store(settings: GatewaySettings) -> JobStore:
    if settings.redis_url is None:
        return InMemoryJobStore(
            ttl_seconds=settings.job_ttl_seconds, max_finished=settings.max_jobs,
            max_bytes=settings.max_job_store_mb * MIB,
        )
    from ..state.redis_jobs import RedisJobStore

    return RedisJobStore(
        settings.redis_url, ttl_seconds=settings.job_ttl_seconds,
        lease_seconds=settings.job_lease_seconds,
    )


def create_app(
    settings: GatewaySettings | None = None, *, sandbox: Sandbox | None = None,
    job_store: JobStore | None = None, tools: ToolsLike | None = None,
) -> FastAPI:
    """The gateway as an ASGI app (run it with uvicorn). Sessions live in this process;
    async jobs, the session directory and the rate limit's counts do too, unless
    `settings.redis_url` shares them between replicas or worker processes.

    Host tools: the sandbox's own, `tools`, those of the entry points `settings.tools`
    (imported now: ToolConfigError if one does not load) and those of the MCP servers
    `settings.bridge` / `bridge_url` (connected when the app starts, closed when it stops)
    are offered to the requests that name them, and listed by GET /v1/host-tools."""
    settings = settings or GatewaySettings()
    sandbox = sandbox or Sandbox(runtime=settings.runtime, policy=settings.policy)
    offered = GatewayTools([*sandbox.tools.values(), *_built(tools)],
                           entry_points=settings.tools, bridges=settings.bridges)
    gateway = Gateway(settings, sandbox, job_store or _job_store(settings), offered)
    mcp: list[StreamableHTTPSessionManager] = []

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await asyncio.to_thread(gateway.sandbox.warm_up)
        await asyncio.to_thread(gateway.tools.start)
        await gateway.jobs.start()
        async with contextlib.AsyncExitStack() as stack:
            for manager in mcp:
                await stack.enter_async_context(manager.run())
            yield
        await gateway.close()

    app = FastAPI(
        title="sandbox-wasm gateway",
        version=__version__,
        description=(
            "Audit and run untrusted Python in a fresh CPython-WebAssembly sandbox: no host "
            "files, network or environment; a deadline, a memory cap and an instruction "
            "budget on every run. Errors are JSON: `{\"error\": {code, message, field, "
            "details}}`."
        ),
        lifespan=lifespan,
        # Served by add_docs_routes from the installed package, not from a CDN.
        docs_url=None, redoc_url=None,
    )
    app.state.gateway = gateway
    per_minute = settings.effective_rate_limit
    limiter = RateLimiter(per_minute, redis_url=settings.redis_url) if per_minute else None
    app.add_middleware(
        RequestGuard, limiter=limiter, settings=settings, metrics=gateway.metrics,
        bodies=gateway.bodies,
        admission=lambda: gateway.overloaded() if gateway.pool.full else None,
    )

    add_error_handlers(app, gateway)
    add_docs_routes(app)
    add_routes(app, gateway)
    add_session_routes(app, gateway)
    if settings.mcp_max_clients:
        mcp.append(add_mcp_endpoint(app, gateway))
    document_400_not_422(app, settings)
    return app


def _built(tools: ToolsLike | None) -> list[Tool]:
    try:
        return list(build_tools(tools).values())
    except InvalidRequestError as exc:
        raise ToolConfigError(str(exc)) from None
