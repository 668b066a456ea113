"""Several gateway processes on one port: uvicorn's workers, each building the same app.

Tiny executions do not scale across threads of one process (their page faults serialise on
the process's memory map), but they do across processes. uvicorn binds the port once and
starts `processes` workers that accept on it; each imports `worker_app` and builds the
gateway from the settings the parent resolved (flags, environment, config file), handed
over as JSON in one environment variable, so that every worker runs exactly those settings.

The kernel gives each new connection to whichever process accepts it first, and a
kept-alive connection stays there; a process with every worker busy answers with
`Connection: close`, so that its clients reconnect and reach the idle ones.

What lives in a process stays there: its worker pool and queue (admission control, 503 +
Retry-After, is per process), and its sessions, which is why several processes need
`max_sessions` 0. Async jobs and the rate limit's counts are shared through Redis, which is
why they need `redis_url`.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
from typing import TYPE_CHECKING

from uvicorn.protocols.http.auto import AutoHTTPProtocol

from ..settings import GatewaySettings

if TYPE_CHECKING:
    from fastapi import FastAPI
    from starlette.types import ASGIApp, Message, Receive, Scope, Send

    from .pool import WorkerPool

#: The environment variable carrying the resolved settings to the worker processes.
WORKER_SETTINGS_ENV = "SANDBOX_WASM_WORKER_SETTINGS"
#: What uvicorn imports in each worker (called: a factory).
WORKER_APP = f"{__name__}:worker_app"
#: The HTTP protocol each worker serves connections with.
WORKER_HTTP_PROTOCOL = f"{__name__}:NoDelayHTTPProtocol"


# uvicorn binds AutoHTTPProtocol at import (httptools or h11): a variable to mypy.
class NoDelayHTTPProtocol(AutoHTTPProtocol):  # type: ignore[misc, valid-type]
    """uvicorn's HTTP protocol with TCP_NODELAY on every connection. With workers, uvicorn
    binds the port itself as a socket whose protocol number is 0, so asyncio does not set
    TCP_NODELAY on the connections accepted from it; an answer written in two parts (head,
    then body) then waits for the client's delayed ACK, some 40 ms a request."""

    def connection_made(self, transport: asyncio.Transport) -> None:
        sock = transport.get_extra_info("socket")
        if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        super().connection_made(transport)


class CloseWhenBusy:
    """ASGI middleware asking the client to reconnect (`Connection: close`) when every
    worker of this process is busy. A kept-alive connection stays with the process that
    accepted it, and a client opening its pool at once may land all of it on one process;
    a new connection goes to whichever process accepts first, and a busy one is slow to.
    So the load moves to the idle processes, and connections are kept while there is room."""

    def __init__(self, app: ASGIApp, pool: WorkerPool) -> None:
        self.app = app
        self.pool = pool

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_closing(message: Message) -> None:
            if message["type"] == "http.response.start" and self.pool.busy >= self.pool.workers:
                headers = [*message.get("headers", ()), (b"connection", b"close")]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_closing)


def multi_process_conflict(settings: GatewaySettings) -> str | None:
    """Why `settings` cannot run in several processes, or None when they can."""
    if settings.processes == 1:
        return None
    needs = []
    if settings.redis_url is None:
        needs.append("--redis-url (SANDBOX_WASM_REDIS_URL): async jobs and the rate limit's "
                     "counts would otherwise live in one process each, so a job could be "
                     "polled on a process that does not know it and a client would get "
                     f"{settings.processes} times the rate limit")
    if settings.max_sessions:
        needs.append("--max-sessions 0 (SANDBOX_WASM_MAX_SESSIONS): a session lives in the "
                     "process that opened it, and the next request may reach another one")
    if not needs:
        return None
    return f"--processes {settings.processes} needs " + "; and ".join(needs) + (
        " (or run --processes 1)")


def settings_json(settings: GatewaySettings) -> str:
    """`settings` as JSON that `GatewaySettings(**json.loads(...))` rebuilds exactly, the
    session key included (the workers sign snapshots with it)."""
    values = settings.model_dump(mode="json")
    if settings.session_key is not None:
        values["session_key"] = settings.session_key.get_secret_value()
    return json.dumps(values)


def worker_app() -> FastAPI:
    """The app of one worker process, from the settings its parent put in the
    environment. Its lifespan loads the runtime (from the compile cache the parent
    filled) and connects the bridged MCP servers."""
    from ..http.app import create_app

    text = os.environ.get(WORKER_SETTINGS_ENV)
    if text is None:
        raise RuntimeError(f"{WORKER_SETTINGS_ENV} is not set: worker_app is started by "
                           "`wasm-exec serve --processes N`")
    # Every field is given, so these win over whatever SANDBOX_WASM_* says.
    app = create_app(GatewaySettings(**json.loads(text)))
    app.add_middleware(CloseWhenBusy, pool=app.state.gateway.pool)
    return app
