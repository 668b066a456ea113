"""Admission of an HTTP request before any route runs: the API key (401/403), the per-client
rate limit (429), the worker pool's room (503), the body cap (413) and the process's budget
of bodies in flight, as one ASGI middleware (`RequestGuard`)."""

from __future__ import annotations

from collections.abc import Callable

from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..._models import MIB
from ..ops.auth import Authenticator, needed_scope
from ..ops.metrics import GatewayMetrics
from ..ops.ratelimit import RateLimiter
from ..settings import GatewaySettings
from ..state.budget import ByteBudget, Reservation
from .errors import OVERLOAD_RETRY_AFTER, ApiError, unauthorized

#: Paths of the HTTP API that run code: refused with 503 before their body is read while
#: the worker pool is full.
RUN_PREFIXES = ("/v1/tools/", "/v1/sessions")
#: The MCP endpoint (its messages run code too; a full pool is a tool error there).
MCP_PREFIX = "/mcp"
#: Paths that count against the per-client rate limit.
RATE_LIMITED_PREFIXES = (*RUN_PREFIXES, MCP_PREFIX)


#: The one endpoint whose body is a snapshot, capped by `max_snapshot_bytes` instead.
RESTORE_PATH = "/v1/sessions/restore"


#: Bytes a request body costs while it is handled, per byte of body: the raw bytes, the
#: parsed JSON (or form) and the decoded files (base64 shrinks them by a quarter).
BODY_MEMORY_FACTOR = 3


def takes_files(path: str) -> bool:
    """Whether the endpoint at `path` takes input files (so its body may be larger)."""
    return path.startswith("/v1/tools/") or path == MCP_PREFIX or (
        path.startswith("/v1/sessions/") and path.endswith("/execute")
    )


def owner_of(request: Request) -> str | None:
    """The name of the API key that made `request` (None on a gateway without keys)."""
    return getattr(request.state, "owner", None)


async def authenticate(
    auth: Authenticator | None, scope: Scope, *, public_health: bool
) -> str | ApiError | None:
    """The owner (the key's name) of an HTTP request, None when it needs no key, or the
    refusal: 401 without a valid key, 403 for a key without the path's scope."""
    if auth is None:
        return None
    needed = needed_scope(scope["path"], public_health=public_health)
    if needed is None:
        return None
    header = dict(scope["headers"]).get(b"authorization")
    if header is None:
        return unauthorized("this gateway needs an API key: Authorization: Bearer <key>")
    key = auth.owner(header)
    if key is None:
        return unauthorized("the API key is malformed or unknown")
    if needed not in key.scopes:
        return ApiError("forbidden", f"API key {key.name!r} lacks the {needed!r} scope "
                        f"this path needs")
    return key.name


class RequestGuard:
    """ASGI middleware applying authentication, the per-client rate limit (on the paths
    that run code), admission (503 while the worker pool is full), the request body cap
    (the snapshot cap for a restore) and the process's budget of bodies in flight, all
    before the body is read: a stranger, a flood, an oversized body or one more than the
    server can hold now is refused without costing memory or a worker."""

    def __init__(
        self, app: ASGIApp, *, limiter: RateLimiter | None, settings: GatewaySettings,
        metrics: GatewayMetrics, bodies: ByteBudget, admission: Callable[[], ApiError | None],
    ) -> None:
        self.app = app
        self.limiter = limiter
        self.settings = settings
        self.metrics = metrics
        self.bodies = bodies
        self.admission = admission
        keys = settings.api_keys
        self.auth = Authenticator(keys) if keys else None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        owner = await authenticate(self.auth, scope,
                                   public_health=self.settings.public_health)
        if isinstance(owner, ApiError):
            self.metrics.reject(owner.reason or "unauthorized")
            await owner.response()(scope, receive, send)
            return
        scope.setdefault("state", {})["owner"] = owner
        if self.limiter is not None and scope["path"].startswith(RATE_LIMITED_PREFIXES):
            client = scope.get("client")
            identity = (f"key:{owner}" if owner is not None
                        else f"addr:{client[0] if client else 'unknown'}")
            retry_after = await self.limiter.check(identity)
            if retry_after is not None:
                self.metrics.reject("rate_limited")
                error = ApiError(
                    "rate_limited",
                    f"over the limit of {self.limiter.per_minute} requests a minute; "
                    f"retry in {retry_after} s",
                    headers={"Retry-After": str(retry_after)},
                )
                await error.response()(scope, receive, send)
                return
        if scope["method"] not in ("POST", "PUT", "PATCH"):
            await self.app(scope, receive, send)
            return
        if scope["path"].startswith(RUN_PREFIXES):
            busy = self.admission()
            if busy is not None:
                self.metrics.reject(busy.reason or "overloaded")
                await busy.response()(scope, receive, send)
                return
        reservation = self.bodies.reserve(0)
        if reservation is None:  # a zero reservation always fits; for the type checker
            return
        try:
            body = await self._read_body(scope, receive, send, reservation)
            if body is None:
                return
            scope["state"]["body_reservation"] = reservation
            await self.app(scope, _replay(body, receive), send)
        finally:
            if not reservation.kept:
                reservation.release()

    def _no_room(self) -> ApiError:
        self.metrics.reject("overloaded")
        return ApiError(
            "overloaded",
            f"the request bodies this server holds at once would pass its budget of "
            f"{self.bodies.capacity // MIB} MiB (max_request_memory_mb); retry shortly",
            headers={"Retry-After": str(OVERLOAD_RETRY_AFTER)})

    async def _read_body(
        self, scope: Scope, receive: Receive, send: Send, reservation: Reservation
    ) -> bytes | None:
        """The whole body, or None after answering 413 or 503 (or on a client disconnect).
        Its bytes are taken from the budget of bodies in flight before they are read, at
        BODY_MEMORY_FACTOR times their size (the parsed forms of the body), all at once
        when the length is declared, chunk by chunk when it is not."""
        snapshot = scope["path"] == RESTORE_PATH
        # Only the endpoints that take files accept their larger bodies: everywhere else a
        # body is bounded by the source alone.
        files = takes_files(scope["path"])
        if snapshot:
            limit = self.settings.max_snapshot_bytes
        elif files:
            limit = self.settings.max_files_body_bytes
        else:
            limit = self.settings.max_body_bytes
        declared = dict(scope["headers"]).get(b"content-length")
        too_large = declared is not None and declared.isdigit() and int(declared) > limit
        if (not too_large and declared is not None and declared.isdigit()
                and not self.bodies.grow(reservation, BODY_MEMORY_FACTOR * int(declared))):
            await self._no_room().response()(scope, receive, send)
            return None
        chunks: list[bytes] = []
        size = 0
        while not too_large:
            message = await receive()
            if message["type"] == "http.disconnect":
                return None
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                too_large = True
                break
            if (BODY_MEMORY_FACTOR * size > reservation.size
                    and not self.bodies.grow(reservation,
                                             BODY_MEMORY_FACTOR * size - reservation.size)):
                await self._no_room().response()(scope, receive, send)
                return None
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)
        self.metrics.reject("body_too_large")
        if snapshot:
            error = ApiError(
                "snapshot_too_large",
                f"snapshot is over this server's limit of {limit} bytes (max_snapshot_bytes)",
                field="snapshot",
            )
        elif files:
            error = ApiError(
                "payload_too_large",
                f"request body is over the limit of {limit} bytes (the source, and input "
                f"files of at most {self.settings.max_input_bytes} bytes in all, base64 in "
                "JSON: max_input_bytes)",
                field="body",
            )
        else:
            error = ApiError(
                "payload_too_large", f"request body is over the limit of {limit} bytes",
                field="body",
            )
        await error.response()(scope, receive, send)
        return None


def _replay(body: bytes, receive: Receive) -> Receive:
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay
