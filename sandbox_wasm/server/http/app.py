"""The HTTP gateway: FastAPI routes around one shared, thread-safe `Sandbox`.

request -> guard (API key 401/403, rate limit 429, body cap 413) -> validation (400/413)
-> worker pool (503 when full) -> audit + sandbox run on a worker thread -> result. A job
or session belongs to the key that created it; to any other key it does not exist (404).
Sessions (`/v1/sessions`) take the same path, into a live interpreter kept in
`_sessions.SessionRegistry`. A request may name host tools (`tools`, from
`_gateway_tools.GatewayTools`): its run is offered those and no others (an unknown name is
a 400). Anything a client sends ends in a 2xx or 4xx with a
JSON error body; a 5xx means the server is overloaded, out of room for sessions or cannot
reach its shared Redis (503), or has a bug of ours (500).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import os
import secrets
import socket
import threading
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeVar

from fastapi import FastAPI, Query, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field, ValidationError
from starlette.datastructures import UploadFile
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.formparsers import MultiPartException, MultiPartParser
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..._errors import InvalidRequestError, SandboxError, SourceTooLargeError
from ..._models import (
    MIB,
    TIMEOUT_PROFILES,
    EffectiveLimits,
    ErrorInfo,
    ExecutionResult,
    Language,
    Limits,
    TimeoutProfile,
)
from ..._request import MAX_INPUT_FILES, coerce_files, coerce_source
from ..._runtimes.artifacts import python_variant
from ..._sandbox import Sandbox
from ..._session.session import OnTrap
from ..._session.snapshot import SnapshotError
from ..._tools import Tool, ToolsLike, build_tools
from ..._version import __version__
from ..bridge.tools import GatewayTools, ToolConfigError, UnknownToolError
from ..ops.auth import Authenticator, needed_scope, owner_tag
from ..ops.metrics import CONTENT_TYPE, GatewayMetrics
from ..ops.pool import PoolSaturated, WorkerPool
from ..ops.ratelimit import RateLimiter
from ..settings import GatewaySettings
from ..state.budget import ByteBudget, Reservation
from ..state.jobs import InMemoryJobStore, JobStore, JobStoreUnavailable
from ..state.sessions import (
    SessionBusy,
    SessionDirectoryUnavailable,
    SessionEntry,
    SessionNotFound,
    SessionRegistry,
    SessionsFull,
    session_policy,
)
from .schemas import (
    DEFAULT_PROFILE,
    DEMO_SCRIPT,
    EXECUTE_DESCRIPTION,
    SAFE_EXEC_DESCRIPTION,
    ErrorBody,
    ErrorDetail,
    ErrorResponse,
    HostTool,
    HostToolList,
    Job,
    JobAccepted,
    SafeExecRequest,
    SandboxToolHttpResult,
    SandboxToolRequest,
    SandboxToolResult,
    SessionCreateRequest,
    SessionExecuteRequest,
    SessionInfo,
)

if TYPE_CHECKING:
    from ..state.redis_sessions import RedisSessionDirectory

logger = logging.getLogger("sandbox_wasm.server")

T = TypeVar("T")

#: Paths that run code, and so count against the per-client rate limit.
RATE_LIMITED_PREFIXES = ("/v1/tools/", "/v1/sessions")
#: The one endpoint whose body is a snapshot, capped by `max_snapshot_bytes` instead.
RESTORE_PATH = "/v1/sessions/restore"
#: safe-exec takes its request as JSON or as a multipart form (code, language, limits and
#: tools as form fields, one part named `files` per input file, its filename the name
#: under /input).
MULTIPART = "multipart/form-data"
FORM_FIELDS = ("code", "language", "limits", "tools", "runtime")
FILE_PART = "files"
#: Seconds a client is told to wait when every worker is busy and the queue is full.
OVERLOAD_RETRY_AFTER = 1
#: Bytes a request body costs while it is handled, per byte of body: the raw bytes, the
#: parsed JSON (or form) and the decoded files (base64 shrinks them by a quarter).
BODY_MEMORY_FACTOR = 3
#: Seconds a client is told to wait when the shared job store (Redis) cannot be reached.
JOB_STORE_RETRY_AFTER = 2
#: The deadline of a request that asks for none (the library's).
DEFAULT_TIMEOUT_MS = Limits().timeout_ms
#: Response header naming the replica that holds a session (on a 421).
REPLICA_HEADER = "Sandbox-Session-Replica"



def model_response(model: BaseModel) -> Response:
    """`model` as a JSON response, serialised once by pydantic-core. Returning the model
    itself would have FastAPI dump it, validate the dump against the route's
    `response_model` again and serialise that (~0.1 ms for an execution result); the route
    keeps `response_model` for its schema."""
    return Response(model.model_dump_json(), media_type="application/json")


def takes_files(path: str) -> bool:
    """Whether the endpoint at `path` takes input files (so its body may be larger)."""
    return path.startswith("/v1/tools/") or (
        path.startswith("/v1/sessions/") and path.endswith("/execute")
    )


_STATUS_CODES = {
    404: "not_found", 405: "method_not_allowed",
    406: "not_acceptable", 413: "payload_too_large", 415: "unsupported_media_type",
}


class ApiError(Exception):
    """A refusal with its HTTP status, error code and (for metrics) rejection reason."""

    def __init__(
        self, status: int, code: str, message: str, *, field: str | None = None,
        details: Sequence[ErrorDetail] = (), headers: Mapping[str, str] | None = None,
        reason: str | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.body = ErrorResponse(error=ErrorBody(
            code=code, message=message, field=field,
            details=list(details) or [ErrorDetail(field=field, message=message)],
        ))
        self.headers = headers
        self.reason = reason

    def response(self) -> JSONResponse:
        return JSONResponse(
            self.body.model_dump(mode="json"), status_code=self.status, headers=self.headers
        )


def refusal(exc: InvalidRequestError, source_field: str) -> ApiError:
    """The one mapping of the library's request errors to HTTP: 413 for an oversized source,
    else 400, naming the field the error names (`source_field` is this endpoint's name for
    the source: `code` or `python_script`)."""
    is_source = exc.field == "source"
    where = source_field if is_source else exc.field.split(".")[0]
    if isinstance(exc, SourceTooLargeError):
        return ApiError(413, "source_too_large", str(exc), field=where, reason="source_too_large")
    message = f"{source_field}: {exc}" if is_source else str(exc)
    return ApiError(400, "invalid_request", message, field=where, reason="invalid_request")


def _field_path(loc: Sequence[object]) -> str:
    parts = [str(p) for p in loc]
    if parts and parts[0] in ("body", "query", "path", "header"):
        parts = parts[1:]
    return ".".join(parts) or "body"


def _validation_error(exc: RequestValidationError) -> ApiError:
    details: list[ErrorDetail] = []
    invalid_json = False
    for error in exc.errors():
        if error.get("type") == "json_invalid":
            invalid_json = True
            reason = (error.get("ctx") or {}).get("error", "invalid JSON")
            position = error["loc"][-1]
            details.append(ErrorDetail(
                field="body", message=f"request body is not valid JSON: {reason} at {position}"
            ))
            continue
        field = _field_path(error.get("loc", ()))
        details.append(ErrorDetail(field=field, message=f"{field}: {error.get('msg')}"))
    first = details[0] if details else ErrorDetail(field=None, message="invalid request")
    return ApiError(
        400, "invalid_json" if invalid_json else "invalid_request",
        "; ".join(d.message for d in details) or first.message,
        field=first.field, details=details, reason="invalid_request",
    )


# -- safe-exec bodies: JSON or a multipart form ---------------------------------------------
async def read_safe_exec_request(request: Request) -> SafeExecRequest:
    """The body of a safe-exec call, as JSON or as a multipart form. Refusals are those of
    a JSON body on every other endpoint (the same handlers answer them)."""
    content_type = request.headers.get("content-type", "")
    if content_type.split(";")[0].strip().lower() == MULTIPART:
        return await _form_request(request)
    return _validated(SafeExecRequest, await _json_body(request))


def _declares_json(content_type: str) -> bool:
    media = content_type.split(";")[0].strip().lower()
    return media == "application/json" or (
        media.startswith("application/") and media.endswith("+json"))


async def _json_body(request: Request) -> object:
    """The body decoded as FastAPI decodes a JSON body: no content-type means JSON; another
    content-type leaves the bytes, which validation then refuses (with a content-type
    hint from the handler)."""
    raw = await request.body()
    if not raw:
        return None
    content_type = request.headers.get("content-type")
    if content_type and not _declares_json(content_type):
        return raw
    try:
        return json.loads(raw)
    except json.JSONDecodeError as exc:
        raise RequestValidationError([{
            "type": "json_invalid", "loc": ("body", exc.pos), "msg": "JSON decode error",
            "input": {}, "ctx": {"error": exc.msg},
        }]) from None
    except (ValueError, RecursionError):  # not UTF-8, nested too deep, a number too long
        raise StarletteHTTPException(400, "There was an error parsing the body") from None


def _validated(model: type[SafeExecRequest], data: object) -> SafeExecRequest:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise RequestValidationError([
            {**error, "loc": ("body", *error["loc"])} for error in exc.errors(include_url=False)
        ]) from None


def _form_error(message: str, field: str = "body") -> ApiError:
    return ApiError(400, "invalid_request", message, field=field, reason="invalid_request")


class _Utf8MultiPartParser(MultiPartParser):
    """Starlette's multipart parser, except that a text part that is not UTF-8 is refused:
    Starlette decodes it as Latin-1 instead, which would run a program other than the one
    that was sent."""

    def on_part_end(self) -> None:
        part = self._current_part
        if part.file is None:
            try:
                bytes(part.data).decode("utf-8")
            except UnicodeDecodeError as exc:
                raise MultiPartException(
                    f"form field {part.field_name!r} is not UTF-8 (byte {exc.start}: "
                    f"{exc.reason})") from None
        super().on_part_end()


async def _form_request(request: Request) -> SafeExecRequest:
    """A multipart safe-exec request: fields code, language, runtime and limits (a JSON object),
    and a part named `files` per input file, whose filename is its name under /input. The
    body was already bounded by the guard; the parts are read from it in memory."""
    try:
        async with contextlib.aclosing(request.stream()) as stream:
            form = await _Utf8MultiPartParser(
                request.headers, stream, max_files=MAX_INPUT_FILES, max_fields=len(FORM_FIELDS),
            ).parse()
    except (StarletteHTTPException, MultiPartException) as exc:  # not a usable form
        detail = exc.detail if isinstance(exc, StarletteHTTPException) else exc.message
        raise _form_error(f"multipart body: {detail}") from None
    fields: dict[str, object] = {}
    files: dict[str, bytes] = {}
    try:
        for key, value in form.multi_items():
            if key == FILE_PART:
                if not isinstance(value, UploadFile):
                    raise _form_error("files: each part named files must be a file (with a "
                                      "filename: its name under /input)", FILE_PART)
                name = value.filename or ""
                if name in files:
                    raise _form_error(f"file {name!r} is given twice", f"files.{name}")
                files[name] = await value.read()
            elif key in FORM_FIELDS and not isinstance(value, UploadFile):
                if key in fields:
                    raise _form_error(f"{key}: given twice", key)
                fields[key] = value
            else:
                raise _form_error(
                    f"{key}: unexpected form part (expected the fields "
                    f"{', '.join(FORM_FIELDS)} and file parts named {FILE_PART})", key)
    finally:
        await form.close()
    for key, shape in (("limits", "a JSON object"), ("tools", "a JSON array of names")):
        if key in fields:
            try:
                fields[key] = json.loads(str(fields[key]))
            except (ValueError, RecursionError) as exc:
                raise _form_error(f"{key}: not {shape} ({exc})", key) from None
    return _validated(SafeExecRequest, {**fields, "files": files})


def owner_of(request: Request) -> str | None:
    """The name of the API key that made `request` (None on a gateway without keys)."""
    return getattr(request.state, "owner", None)


def unauthorized(message: str) -> ApiError:
    return ApiError(401, "unauthorized", message,
                    headers={"WWW-Authenticate": 'Bearer realm="sandbox-wasm"'},
                    reason="unauthorized")


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
        return ApiError(403, "forbidden", f"API key {key.name!r} lacks the {needed!r} scope "
                        f"this path needs", reason="forbidden")
    return key.name


class _RequestGuard:
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
                    429, "rate_limited",
                    f"over the limit of {self.limiter.per_minute} requests a minute; "
                    f"retry in {retry_after} s",
                    headers={"Retry-After": str(retry_after)},
                )
                await error.response()(scope, receive, send)
                return
        if scope["method"] not in ("POST", "PUT", "PATCH"):
            await self.app(scope, receive, send)
            return
        if scope["path"].startswith(RATE_LIMITED_PREFIXES):
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
            503, "overloaded",
            f"the request bodies this server holds at once would pass its budget of "
            f"{self.bodies.capacity // MIB} MiB (max_request_memory_mb); retry shortly",
            headers={"Retry-After": str(OVERLOAD_RETRY_AFTER)}, reason="overloaded")

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
                413, "snapshot_too_large",
                f"snapshot is over this server's limit of {limit} bytes (max_snapshot_bytes)",
                field="snapshot",
            )
        elif files:
            error = ApiError(
                413, "payload_too_large",
                f"request body is over the limit of {limit} bytes (the source, and input "
                f"files of at most {self.settings.max_input_bytes} bytes in all, base64 in "
                "JSON: max_input_bytes)",
                field="body",
            )
        else:
            error = ApiError(
                413, "payload_too_large", f"request body is over the limit of {limit} bytes",
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


def _utc(timestamp: float) -> datetime:
    return datetime.fromtimestamp(timestamp, UTC)


def store_id(owner: str | None, job_id: str) -> str:
    """The id a job has in the job store: scoped by its owner, so that a key looking up
    another key's job id finds nothing (404), on this replica or any other."""
    tag = owner_tag(owner)
    return job_id if tag is None else f"{tag}-{job_id}"


class _Gateway:
    """What the routes share: the sandbox, the pool, the job store, the sessions (and with
    Redis their directory) and the metrics."""

    def __init__(
        self, settings: GatewaySettings, sandbox: Sandbox, jobs: JobStore, tools: GatewayTools
    ) -> None:
        self.settings = settings
        self.sandbox = sandbox
        #: The sandbox of each Python runtime a request has named (the server's own first).
        self._sandboxes: dict[str, Sandbox] = {}
        if sandbox.python_variant is not None:  # an image's sandbox has no variant
            self._sandboxes[sandbox.python_variant] = sandbox
        self._sandboxes_lock = threading.Lock()
        self.jobs = jobs
        self.tools = tools
        self.pool = WorkerPool(settings.workers, settings.queue)
        self.bodies = ByteBudget(settings.max_request_memory_mb * MIB)
        self.metrics = GatewayMetrics(self.pool, bodies=self.bodies, jobs=jobs)
        self.sessions = SessionRegistry(
            settings.session_caps, sandbox, self._run_to_end,
            on_call=self.metrics.observe_session_call,
        )
        self.metrics.track_sessions(self.sessions)
        self.replica = f"{socket.gethostname()}-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self.directory: RedisSessionDirectory | None = None
        if settings.redis_url is not None:
            from ..state.redis_sessions import RedisSessionDirectory

            self.directory = RedisSessionDirectory(
                settings.redis_url, replica=self.replica,
                ttl_seconds=settings.session_idle_seconds,
            )
        key = settings.session_key
        # Without a configured key, one random key per process: its snapshots restore only
        # here, and nobody can forge one.
        self.snapshot_key = (
            key.get_secret_value().encode() if key is not None else secrets.token_bytes(32)
        )
        self._tasks: set[asyncio.Task[None]] = set()

    # -- validation before anything is queued ----------------------------------------
    def check_source(self, code: str, field: str) -> None:
        try:
            coerce_source(code, self.settings.max_source_bytes)
        except InvalidRequestError as exc:
            raise refusal(exc, field) from None

    def check_files(self, files: Mapping[str, bytes]) -> None:
        """413 for input files over the server's cap, 400 naming a file whose name cannot
        be laid out under /input."""
        cap = self.settings.max_input_bytes
        total = sum(len(data) for data in files.values())
        if total > cap:
            raise ApiError(
                413, "files_too_large",
                f"input files are {total} bytes in all, over this server's limit of {cap} "
                "bytes (max_input_bytes)",
                field="files", reason="files_too_large",
            )
        try:
            coerce_files(files, cap)
        except InvalidRequestError as exc:
            raise ApiError(400, "invalid_request", str(exc), field=exc.field,
                           reason="invalid_request") from None

    def capped_timeout(
        self, limits: dict[str, int], field: str, profile: TimeoutProfile | None = None
    ) -> dict[str, int]:
        """`limits` within the server's `max_timeout_ms`: a request asking for more is a
        400 naming `field` (refused, not clamped: a client must not believe it got a
        deadline it did not); one asking nothing gets the library's default or the cap,
        whichever is less."""
        cap = self.settings.max_timeout_ms
        asked = limits.get("timeout_ms")
        if profile is not None and asked is None and TIMEOUT_PROFILES[profile] > cap:
            raise ApiError(
                400, "invalid_request", f"timeout_profile: {profile} asks for "
                f"{TIMEOUT_PROFILES[profile]} ms, over this server's max_timeout_ms of {cap}",
                field="timeout_profile", reason="invalid_request")
        if asked is not None and asked > cap:
            raise ApiError(
                400, "invalid_request", f"{field}: {asked} ms is over this server's "
                f"max_timeout_ms of {cap}", field=field, reason="invalid_request")
        if asked is None and profile is None and cap < DEFAULT_TIMEOUT_MS:
            return {**limits, "timeout_ms": cap}
        return limits

    def select_tools(self, names: Sequence[str]) -> list[Tool]:
        """The host tools a request names (none unless it names some); 400 naming those
        this server does not offer."""
        try:
            return self.tools.select(names)
        except UnknownToolError as exc:
            raise ApiError(400, "unknown_tool", str(exc), field="tools",
                           reason="invalid_request") from None

    def overloaded(self) -> ApiError:
        return ApiError(
            503, "overloaded",
            f"all {self.pool.workers} workers are busy and the queue of "
            f"{self.pool.queue_capacity} is full; retry shortly",
            headers={"Retry-After": str(OVERLOAD_RETRY_AFTER)}, reason="overloaded",
        )

    def sandbox_for(self, runtime: str | None) -> Sandbox:
        """The sandbox of the Python runtime a request names (None: the server's), made on
        first use with the server's policy, limits and tools; 400 for an unknown name."""
        if runtime is None:
            return self.sandbox
        try:
            variant = python_variant(runtime)
        except InvalidRequestError as exc:
            raise refusal(exc, "runtime") from None
        with self._sandboxes_lock:
            box = self._sandboxes.get(variant)
            if box is None:
                box = self._sandboxes[variant] = self.sandbox.with_runtime(variant)
            return box

    # -- execution ---------------------------------------------------------------------
    def _work(
        self, code: str, language: Language, limits: dict[str, int],
        profile: TimeoutProfile | None, files: Mapping[str, bytes], tools: Sequence[Tool],
        sandbox: Sandbox,
    ) -> ExecutionResult:
        """Runs on a worker thread. `tools` replace the sandbox's own: a run gets only the
        tools its request named."""
        start = time.perf_counter()
        result = sandbox.execute(code, language=language, limits=limits, profile=profile,
                                 files=files or None, tools=tools)
        self.metrics.observe(result, time.perf_counter() - start)
        return result

    def _task(
        self, code: str, language: Language, limits: dict[str, int],
        profile: TimeoutProfile | None = None, files: Mapping[str, bytes] | None = None,
        tools: Sequence[Tool] = (), runtime: str | None = None,
    ) -> functools.partial[ExecutionResult]:
        limits = {**limits, **self.server_limits()}
        return functools.partial(self._work, code, language, limits, profile, files or {},
                                 list(tools), self.sandbox_for(runtime))

    def check_restored_limits(self, limits: Limits) -> None:
        """A restored session's limits (those of the server that took the snapshot) held to
        this server's caps, as a session opened here would be."""
        caps = {"timeout_ms": self.settings.max_timeout_ms, **self.server_limits()}
        for name, cap in caps.items():
            value = getattr(limits, name)
            if value > cap:
                raise InvalidRequestError(
                    f"the snapshot's session has {name}={value}, over this server's "
                    f"{'max_timeout_ms' if name == 'timeout_ms' else name} of {cap}",
                    field="snapshot")

    def server_limits(self) -> dict[str, int]:
        """The limits this server sets on every execution, whatever the request says."""
        return {"max_source_bytes": self.settings.max_source_bytes,
                "max_input_bytes": self.settings.max_input_bytes}

    async def execute(
        self, code: str, *, field: str, language: Language = "python",
        limits: dict[str, int] | None = None, profile: TimeoutProfile | None = None,
        files: Mapping[str, bytes] | None = None, tools: Sequence[Tool] = (),
        runtime: str | None = None,
    ) -> ExecutionResult:
        self.check_source(code, field)
        self.check_files(files or {})
        limits = self.capped_timeout(limits or {}, "limits.timeout_ms", profile)
        try:
            return await self.pool.run(
                self._task(code, language, limits or {}, profile, files, tools, runtime))
        except PoolSaturated:
            raise self.overloaded() from None
        except InvalidRequestError as exc:
            # Fields are validated before this point; these are what only the library knows
            # (e.g. a language whose runtime this build lacks).
            raise refusal(exc, field) from None
        except SandboxError as exc:
            # The runtime is missing or unusable: the server's problem, not the client's.
            logger.error("sandbox runtime unavailable: %s", exc)
            raise ApiError(500, "runtime_unavailable", str(exc)) from None

    async def submit_job(
        self, code: str, *, language: Language, limits: dict[str, int],
        files: Mapping[str, bytes] | None = None, tools: Sequence[Tool] = (),
        owner: str | None = None, body: Reservation | None = None, runtime: str | None = None,
    ) -> JobAccepted:
        """Queue a background job. `body`, the reservation of the request's body in the
        budget of bodies in flight, is kept until the job has run: its files wait with it."""
        self.check_source(code, "code")
        self.check_files(files or {})
        limits = self.capped_timeout(limits, "limits.timeout_ms")
        task = self._task(code, language, limits, files=files, tools=tools, runtime=runtime)
        public_id = uuid.uuid4().hex
        job_id = store_id(owner, public_id)
        await self.jobs.create(job_id)
        loop = asyncio.get_running_loop()

        def started() -> None:
            asyncio.run_coroutine_threadsafe(self._mark_running(job_id), loop)

        try:
            future = self.pool.submit(task, on_start=started)
        except PoolSaturated:
            await self.jobs.discard(job_id)
            raise self.overloaded() from None
        if body is not None:
            future.add_done_callback(lambda _: body.release())
            body.keep()
        completion = asyncio.create_task(self._complete(job_id, asyncio.wrap_future(future)))
        self._tasks.add(completion)
        completion.add_done_callback(self._tasks.discard)
        return JobAccepted(job_id=public_id, status="queued")

    async def job(self, job_id: str, owner: str | None) -> Job | None:
        """`owner`'s job `job_id`, or None (another key's job is as unknown as a job that
        never was)."""
        job = await self.jobs.get(store_id(owner, job_id))
        return None if job is None else job.model_copy(update={"job_id": job_id})

    async def _mark_running(self, job_id: str) -> None:
        try:
            await self.jobs.mark_running(job_id)
        except JobStoreUnavailable:
            # Readers see "queued" a little longer; the job runs all the same.
            logger.warning("could not mark job %s running", job_id)

    async def _complete(self, job_id: str, future: asyncio.Future[ExecutionResult]) -> None:
        result: ExecutionResult | None = None
        error: ErrorInfo | None = None
        try:
            result = await future
        except InvalidRequestError as exc:
            error = ErrorInfo(type="InvalidRequest", message=str(exc))
        except SandboxError as exc:
            error = ErrorInfo(type="RuntimeUnavailable", message=str(exc))
        except Exception as exc:
            logger.exception("background job %s failed", job_id)
            error = ErrorInfo(type="InternalError", message=type(exc).__name__)
        try:
            await self.jobs.finish(job_id, result=result, error=error)
        except JobStoreUnavailable:
            logger.error("the result of job %s is lost: the job store cannot be reached", job_id)

    # -- sessions ----------------------------------------------------------------------
    async def _run_to_end(self, fn: Callable[[], T]) -> T:
        """`pool.run`, except that a cancelled request still waits for work that started:
        a session is busy for exactly as long as a worker is in it."""
        future = asyncio.wrap_future(self.pool.submit(fn))
        try:
            return await asyncio.shield(future)
        except asyncio.CancelledError:
            with contextlib.suppress(BaseException):
                await future
            raise

    @contextlib.contextmanager
    def session_errors(
        self, session_id: str | None = None, source_field: str = "code"
    ) -> Iterator[None]:
        """The one mapping of session failures to HTTP (a missing session is mapped by
        `session_missing`, which may need the directory)."""
        try:
            yield
        except SessionBusy:
            raise ApiError(
                409, "session_busy",
                f"session {session_id} is running another call; calls on one session run "
                "one at a time: retry when it has finished",
                field="session_id", reason="session_busy",
            ) from None
        except SessionsFull as exc:
            raise ApiError(
                503, "sessions_full", str(exc), headers={"Retry-After": str(exc.retry_after)},
                reason="sessions_full",
            ) from None
        except PoolSaturated:
            raise self.overloaded() from None
        except SnapshotError as exc:
            raise ApiError(400, "invalid_snapshot", str(exc), field="snapshot",
                           reason="invalid_request") from None
        except InvalidRequestError as exc:
            raise refusal(exc, source_field) from None
        except SandboxError as exc:
            logger.error("sandbox runtime unavailable: %s", exc)
            raise ApiError(500, "runtime_unavailable", str(exc)) from None

    async def in_session(
        self, session_id: str, work: Callable[[], Awaitable[T]], *, owner: str | None,
        renew: bool = True, source_field: str = "code",
    ) -> T:
        """`work()` on `owner`'s session `session_id`, its failures as ApiErrors; with
        Redis and `renew`, the directory's record of the session renewed (its TTL is the
        idle TTL). Another key's session is unknown (404), as if it did not exist."""
        try:
            with self.session_errors(session_id, source_field):
                self.sessions.get(session_id, owner=owner)
                result = await work()
        except SessionNotFound:
            raise await self.session_missing(session_id, owner) from None
        if renew and self.directory is not None:
            await self.directory.claim(session_id, owner)
        return result

    async def session_missing(self, session_id: str, owner: str | None) -> ApiError:
        """404, or 421 when the shared directory says another replica holds the session."""
        holder = (await self.directory.holder(session_id, owner)
                  if self.directory else None)
        if holder is not None and holder != self.replica:
            return ApiError(
                421, "session_on_other_replica",
                f"session {session_id} lives on another gateway replica ({holder}), not on "
                f"this one ({self.replica}); a session cannot move: send its requests to "
                "the replica that opened it (route on the session id), or restore a "
                "snapshot of it here",
                field="session_id", headers={REPLICA_HEADER: holder},
            )
        return ApiError(
            404, "session_not_found",
            f"no session {session_id!r} (unknown, closed, or closed after "
            f"{self.settings.session_idle_seconds:g} s without a call)",
            field="session_id",
        )

    async def opened(self, work: Callable[[], Awaitable[SessionEntry]]) -> SessionInfo:
        with self.session_errors():
            entry = await work()
        if self.directory is not None:
            await self.directory.claim(entry.id, entry.owner)
        return self.session_info(entry)

    async def close_session(self, session_id: str, owner: str | None) -> None:
        await self.in_session(session_id,
                              lambda: self.sessions.close(session_id, owner=owner),
                              owner=owner, renew=False)
        if self.directory is not None:
            await self.directory.forget((session_id, owner))

    def session_info(self, entry: SessionEntry) -> SessionInfo:
        session = entry.session
        return SessionInfo(
            id=entry.id, limits=EffectiveLimits.of(session.limits), policy=session.policy.name,
            on_trap=session.on_trap, calls=session.calls, memory_bytes=entry.memory_bytes,
            reserved_bytes=entry.reserved_bytes, created_at=_utc(entry.created_at),
            last_used_at=_utc(entry.last_used),
            idle_seconds=round(max(0.0, time.time() - entry.last_used), 3),
            idle_timeout_seconds=self.settings.session_idle_seconds,
            expires_at=_utc(self.sessions.expires_at(entry)),
        )

    async def close(self) -> None:
        self.pool.shutdown()
        await asyncio.to_thread(self.tools.close)
        for task in list(self._tasks):
            task.cancel()
        await self.jobs.close()
        closed = self.sessions.close_all()
        if self.directory is not None:
            # Other replicas answer 404 for these from now on, not 421 to a replica gone.
            await self.directory.forget(*closed)
            await self.directory.close()


class Health(BaseModel):
    """Liveness and load of the gateway."""

    status: str = Field(description="ok, or degraded when the shared Redis is unreachable "
                        "(synchronous runs still work; jobs answer 503).")
    redis: Literal["ok", "unreachable"] | None = Field(
        None, description="With --redis-url: whether this replica reaches the Redis.")
    version: str
    workers: int
    busy: int
    queued: int
    queue_capacity: int
    sessions: int
    max_sessions: int
    replica: str
    pid: int = Field(description="The process that answered (one of several with "
                     "--processes).")


_ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorResponse, "description": "Invalid JSON or field (the field is named: "
          "files.<name> for an input file that is not base64 or has an unusable name)."},
    413: {"model": ErrorResponse, "description": "Source, input files (max_input_bytes) or "
          "body over the size limit."},
    429: {"model": ErrorResponse, "description": "Over the per-client rate limit (Retry-After)."},
    503: {"model": ErrorResponse, "description": "All workers busy, queue full; see Retry-After."},
}
_SESSION_ERRORS: dict[int | str, dict[str, Any]] = {
    **_ERRORS,
    404: {"model": ErrorResponse,
          "description": "No such session (unknown, closed, or closed after its idle TTL)."},
    409: {"model": ErrorResponse, "description": "Another call on the session is running."},
    421: {"model": ErrorResponse, "description": "With Redis: the session lives on another "
          "replica (named in the message and the Sandbox-Session-Replica header)."},
    503: {"model": ErrorResponse, "description": "All workers busy, or (opening) all session "
          "places or the session memory budget taken; see Retry-After."},
}
_SAFE_EXEC_BODY: dict[str, Any] = {"requestBody": {"required": True, "content": {
    "application/json": {"schema": {"$ref": "#/components/schemas/SafeExecRequest"}},
    MULTIPART: {
        "schema": {
            "type": "object", "required": ["code"],
            "properties": {
                "code": {"type": "string", "description": "The source to run."},
                "language": {"type": "string", "enum": ["python", "javascript"],
                             "default": "python"},
                "limits": {"type": "string", "description": "SafeExecLimits as a JSON object."},
                FILE_PART: {"type": "array", "items": {"type": "string", "format": "binary"},
                            "description": "One part per input file; its filename is its "
                            "name under /input."},
            },
        },
        "encoding": {"limits": {"contentType": "application/json"}},
    },
}}}
_JOB_ERRORS: dict[int | str, dict[str, Any]] = {
    **_ERRORS,
    503: {"model": ErrorResponse, "description": "All workers busy, queue full, or the shared "
          "job store unreachable; see Retry-After."},
}


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
    sandbox = sandbox or Sandbox(runtime=settings.runtime)
    offered = GatewayTools([*sandbox.tools.values(), *_built(tools)],
                           entry_points=settings.tools, bridges=settings.bridges)
    gateway = _Gateway(settings, sandbox, job_store or _job_store(settings), offered)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await asyncio.to_thread(gateway.sandbox.warm_up)
        await asyncio.to_thread(gateway.tools.start)
        await gateway.jobs.start()
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
    )
    app.state.gateway = gateway
    limiter = (RateLimiter(settings.rate_limit, redis_url=settings.redis_url)
               if settings.rate_limit else None)
    app.add_middleware(
        _RequestGuard, limiter=limiter, settings=settings, metrics=gateway.metrics,
        bodies=gateway.bodies,
        admission=lambda: gateway.overloaded() if gateway.pool.full else None,
    )

    _add_error_handlers(app, gateway)
    _add_routes(app, gateway)
    _add_session_routes(app, gateway)
    _document_400_not_422(app, settings)
    return app


def _built(tools: ToolsLike | None) -> list[Tool]:
    try:
        return list(build_tools(tools).values())
    except InvalidRequestError as exc:
        raise ToolConfigError(str(exc)) from None


def _add_error_handlers(app: FastAPI, gateway: _Gateway) -> None:
    """Every refusal and failure as a JSON `ErrorResponse` with its status."""
    @app.exception_handler(ApiError)
    async def _api_error(request: Request, exc: ApiError) -> JSONResponse:
        if exc.reason is not None:
            gateway.metrics.reject(exc.reason)
        return exc.response()

    @app.exception_handler(JobStoreUnavailable)
    async def _store_down(request: Request, exc: JobStoreUnavailable) -> JSONResponse:
        return await _api_error(request, ApiError(
            503, "job_store_unavailable", f"{exc}; retry shortly",
            headers={"Retry-After": str(JOB_STORE_RETRY_AFTER)},
            reason="job_store_unavailable",
        ))

    @app.exception_handler(SessionDirectoryUnavailable)
    async def _directory_down(request: Request, exc: SessionDirectoryUnavailable) -> JSONResponse:
        return await _api_error(request, ApiError(
            503, "session_directory_unavailable",
            f"{exc}: whether another replica holds the session is unknown; retry shortly",
            headers={"Retry-After": str(JOB_STORE_RETRY_AFTER)},
            reason="session_directory_unavailable",
        ))

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        error = _validation_error(exc)
        content_type = request.headers.get("content-type", "")
        if error.body.error.field == "body" and "json" not in content_type:
            error = ApiError(
                400, "invalid_request",
                f"{error.body.error.message} (send JSON with content-type: application/json; "
                f"got {content_type or 'no content-type'})",
                field="body", reason="invalid_request",
            )
        return await _api_error(request, error)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        if exc.status_code == 400:
            # FastAPI's only plain 400: a body that json.loads could not even decode
            # (not UTF-8, nested too deep, a number too long).
            return await _api_error(request, ApiError(
                400, "invalid_json", f"request body is not valid JSON ({exc.detail})",
                field="body", reason="invalid_request",
            ))
        code = _STATUS_CODES.get(exc.status_code, "http_error")
        error = ApiError(exc.status_code, code, str(exc.detail), headers=exc.headers)
        return error.response()

    @app.exception_handler(Exception)
    async def _bug(request: Request, exc: Exception) -> JSONResponse:
        logger.exception("unhandled error on %s %s", request.method, request.url.path)
        return ApiError(500, "internal_error", "internal server error").response()


def _add_routes(app: FastAPI, gateway: _Gateway) -> None:
    """The gateway's endpoints."""
    settings = gateway.settings

    @app.post(
        "/v1/tools/safe-exec", response_model=ExecutionResult, responses=_ERRORS,
        summary="Audit and run code; wait for the full result",
        description=SAFE_EXEC_DESCRIPTION, openapi_extra=_SAFE_EXEC_BODY,
    )
    async def safe_exec(request: Request) -> Response:
        body = await read_safe_exec_request(request)
        return model_response(await gateway.execute(
            body.code, field="code", language=body.language,
            limits=body.limits.as_limits(settings.max_source_bytes), files=body.files,
            tools=gateway.select_tools(body.tools), runtime=body.runtime,
        ))

    @app.post(
        "/v1/tools/safe-exec/async", status_code=202, response_model=JobAccepted,
        responses=_JOB_ERRORS, summary="Audit and run code in the background; poll the job",
        description=SAFE_EXEC_DESCRIPTION, openapi_extra=_SAFE_EXEC_BODY,
    )
    async def safe_exec_async(request: Request, response: Response) -> JobAccepted:
        body = await read_safe_exec_request(request)
        accepted = await gateway.submit_job(
            body.code, language=body.language,
            limits=body.limits.as_limits(settings.max_source_bytes), files=body.files,
            tools=gateway.select_tools(body.tools), owner=owner_of(request),
            body=request.scope["state"].get("body_reservation"), runtime=body.runtime,
        )
        response.headers["Location"] = f"/v1/jobs/{accepted.job_id}"
        return accepted

    @app.get(
        "/v1/jobs/{job_id}", response_model=Job,
        responses={
            404: {"model": ErrorResponse, "description": "Unknown or evicted job."},
            503: {"model": ErrorResponse,
                  "description": "The shared job store is unreachable; see Retry-After."},
        },
        summary="State and (when done) result of a background execution",
    )
    async def get_job(job_id: str, request: Request) -> Job:
        job = await gateway.job(job_id, owner_of(request))
        if job is None:
            raise ApiError(
                404, "job_not_found",
                f"no job {job_id!r} (unknown, or finished more than "
                f"{settings.job_ttl_seconds:g} s ago and evicted)",
                field="job_id",
            )
        return job

    @app.post(
        "/v1/tools/execute_python_sandbox", response_model=SandboxToolHttpResult,
        responses=_ERRORS, summary="The execute_python_sandbox tool (same schema as MCP)",
        description=EXECUTE_DESCRIPTION,
    )
    async def execute_python_sandbox(
        request: Request, body: SandboxToolRequest | None = None,
        demo: Annotated[bool, Query(
            description="Run the built-in demo script instead of python_script (which may "
            "then be omitted); the response says so."
        )] = False,
    ) -> Response:
        profile = body.timeout_profile if body is not None else DEFAULT_PROFILE
        if demo:
            script = DEMO_SCRIPT
        elif body is None:
            raise ApiError(
                400, "invalid_request", "python_script: Field required",
                field="python_script", reason="invalid_request",
            )
        else:
            script = body.python_script
        files = body.files if body is not None and not demo else {}
        if body is not None and body.session_id is not None and not demo:
            session_id = body.session_id
            gateway.check_source(script, "python_script")
            gateway.check_files(files)
            gateway.capped_timeout({}, "timeout_profile", profile)
            overrides = {"timeout_ms": TIMEOUT_PROFILES[profile]}
            owner = owner_of(request)
            result = await gateway.in_session(session_id, lambda: gateway.sessions.execute(
                session_id, script, owner=owner, overrides=overrides, files=files, tools=()),
                owner=owner, source_field="python_script")
        else:
            result = await gateway.execute(script, field="python_script", profile=profile,
                                           files=files)
        return model_response(SandboxToolHttpResult(
            **SandboxToolResult.of(result).model_dump(),
            demo=demo, demo_script=DEMO_SCRIPT if demo else None, file_contents=result.files,
        ))

    @app.get(
        "/v1/host-tools", response_model=HostToolList,
        summary="The host tools a request may offer its code (`tools`)",
    )
    async def host_tools() -> HostToolList:
        return HostToolList(tools=[HostTool(**entry) for entry in gateway.tools.listing()])

    @app.get("/healthz", response_model=Health, summary="Liveness and load")
    async def healthz() -> Health:
        pool = gateway.pool
        redis: Literal["ok", "unreachable"] | None = None
        if gateway.directory is not None:
            redis = "ok" if await gateway.directory.ping() else "unreachable"
        return Health(
            status="degraded" if redis == "unreachable" else "ok", redis=redis,
            version=__version__, workers=pool.workers, busy=pool.busy,
            queued=pool.queued, queue_capacity=pool.queue_capacity,
            sessions=gateway.sessions.live, max_sessions=settings.max_sessions,
            replica=gateway.replica, pid=os.getpid(),
        )

    @app.get(
        "/metrics", response_class=Response, summary="Prometheus metrics",
        responses={200: {"content": {CONTENT_TYPE: {}}}},
    )
    async def metrics() -> Response:
        return Response(gateway.metrics.render(), media_type=CONTENT_TYPE)


def _add_session_routes(app: FastAPI, gateway: _Gateway) -> None:
    """/v1/sessions: interpreters whose state lives across calls, addressed by their id
    (without API keys the id is the credential: whoever holds it may use the session; with
    keys, only the key that opened it may)."""
    settings = gateway.settings
    sessions = gateway.sessions
    session_path = "/v1/sessions/{session_id}"

    @app.post(
        "/v1/sessions", status_code=201, response_model=SessionInfo,
        responses=_SESSION_ERRORS, summary="Open a session (its globals persist across calls)",
    )
    async def open_session(
        request: Request, response: Response, body: SessionCreateRequest | None = None
    ) -> SessionInfo:
        body = body or SessionCreateRequest()
        try:
            policy = session_policy(body.policy, gateway.sandbox.policy)
        except InvalidRequestError as exc:
            raise refusal(exc, "code") from None
        info = await gateway.opened(lambda: sessions.open(
            limits={**gateway.capped_timeout(body.as_limits(settings.max_source_bytes),
                                             "timeout_ms"),
                    **gateway.server_limits()},
            policy=policy,
            on_trap=body.on_trap,
            owner=owner_of(request),
            sandbox=gateway.sandbox_for(body.runtime),
        ))
        response.headers["Location"] = f"/v1/sessions/{info.id}"
        return info

    @app.post(
        RESTORE_PATH, status_code=201, response_model=SessionInfo,
        responses={**_SESSION_ERRORS,
                   400: {"model": ErrorResponse, "description": "Not a snapshot this server "
                         "can restore: tampered with, unsigned, signed with another key, or "
                         "made by another runtime (the message says which)."},
                   413: {"model": ErrorResponse, "description": "Snapshot over "
                         "max_snapshot_bytes."}},
        summary="Restore a snapshot (from GET .../snapshot) into a new session",
        openapi_extra={"requestBody": {"required": True, "content": {
            "application/octet-stream": {"schema": {"type": "string", "format": "binary"}},
        }}},
    )
    async def restore_session(
        request: Request, response: Response,
        on_trap: Annotated[OnTrap, Query(description="As when opening a session.")] = "rollback",
    ) -> SessionInfo:
        data = await request.body()
        info = await gateway.opened(lambda: sessions.restore(
            data, key=gateway.snapshot_key, on_trap=on_trap, owner=owner_of(request),
            check_limits=gateway.check_restored_limits,
        ))
        response.headers["Location"] = f"/v1/sessions/{info.id}"
        return info

    @app.get(
        session_path, response_model=SessionInfo, responses=_SESSION_ERRORS,
        summary="A session's state: calls, memory, idle time, expiry",
    )
    async def get_session(session_id: str, request: Request) -> SessionInfo:
        async def look() -> SessionEntry:
            return sessions.get(session_id, owner=owner_of(request))

        return gateway.session_info(await gateway.in_session(
            session_id, look, owner=owner_of(request), renew=False))

    @app.delete(
        session_path, status_code=204, response_class=Response, responses=_SESSION_ERRORS,
        summary="Close a session and free its memory",
    )
    async def close_session(session_id: str, request: Request) -> Response:
        await gateway.close_session(session_id, owner_of(request))
        return Response(status_code=204)

    @app.post(
        session_path + "/execute", response_model=ExecutionResult, responses=_SESSION_ERRORS,
        summary="Audit and run code in a session; the result says what became of it",
    )
    async def execute_in_session(
        session_id: str, body: SessionExecuteRequest, request: Request
    ) -> Response:
        gateway.check_source(body.code, "code")
        gateway.check_files(body.files)
        overrides = body.overrides()
        if "timeout_ms" in overrides:
            gateway.capped_timeout(overrides, "timeout_ms")
        tools = gateway.select_tools(body.tools)
        owner = owner_of(request)
        return model_response(await gateway.in_session(session_id, lambda: sessions.execute(
            session_id, body.code, owner=owner, overrides=overrides, files=body.files,
            tools=tools,
        ), owner=owner))

    @app.get(
        session_path + "/snapshot", response_class=Response, responses={
            **_SESSION_ERRORS,
            200: {"content": {"application/octet-stream": {}},
                  "description": "The session's state, signed with the server's key: it "
                  "restores on a replica with the same key (SANDBOX_WASM_SESSION_KEY), or "
                  "without one only in this process."},
        },
        summary="Download a session's state as a signed snapshot",
    )
    async def snapshot_session(session_id: str, request: Request) -> Response:
        data = await gateway.in_session(
            session_id, lambda: sessions.snapshot(session_id, key=gateway.snapshot_key,
                                                  owner=owner_of(request)),
            owner=owner_of(request), renew=False,
        )
        return Response(data, media_type="application/octet-stream", headers={
            "Content-Disposition": f'attachment; filename="session-{session_id}.snapshot"',
        })


_AUTH_RESPONSES: dict[str, dict[str, Any]] = {
    "401": {"description": "No API key, or a malformed or unknown one (WWW-Authenticate: "
            "Bearer).", "content": {"application/json": {"schema": {
                "$ref": "#/components/schemas/ErrorResponse"}}}},
    "403": {"description": "The API key lacks the scope this path needs.",
            "content": {"application/json": {"schema": {
                "$ref": "#/components/schemas/ErrorResponse"}}}},
}


def _document_auth(schema: dict[str, Any], settings: GatewaySettings) -> None:
    """With API keys: the bearer scheme, and on each operation that needs a key its
    security requirement and its 401/403 answers."""
    schema["components"]["securitySchemes"] = {"apiKey": {
        "type": "http", "scheme": "bearer",
        "description": "An API key whose SHA-256 hash is in the server's api_key_hashes.",
    }}
    for path, operations in schema.get("paths", {}).items():
        if needed_scope(path, public_health=settings.public_health) is None:
            continue
        for operation in operations.values():
            operation["security"] = [{"apiKey": []}]
            operation.setdefault("responses", {}).update(_AUTH_RESPONSES)


def _document_400_not_422(app: FastAPI, settings: GatewaySettings) -> None:
    """FastAPI documents validation errors as 422 with its own body; this gateway answers
    400 with an ErrorResponse, so the OpenAPI document says that instead. It also adds the
    schema of the safe-exec body, which FastAPI does not see."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = FastAPI.openapi(app)
            for path in schema.get("paths", {}).values():
                for operation in path.values():
                    operation.get("responses", {}).pop("422", None)
            components = schema.setdefault("components", {}).setdefault("schemas", {})
            for name in ("HTTPValidationError", "ValidationError"):
                components.pop(name, None)
            # safe-exec reads its body itself (JSON or a form): its JSON schema is ours to add.
            request = SafeExecRequest.model_json_schema(ref_template="#/components/schemas/{model}")
            components.update(request.pop("$defs", {}))
            components["SafeExecRequest"] = request
            if settings.api_key_hashes:
                _document_auth(schema, settings)
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]  # FastAPI's documented override
