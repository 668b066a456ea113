"""What the routes share (`Gateway`): the sandboxes by runtime, the worker pool, the job
store, the sessions (and with Redis their directory), the tools and the metrics; and the
work they do on a request's behalf (runs, jobs, session calls), with its refusals."""

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
from concurrent.futures import Future
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Literal, TypeVar

from pydantic import BaseModel, Field

from ..._audit.policy import AuditPolicy
from ..._errors import InvalidRequestError, SandboxError, SnapshotError
from ..._models import (
    MIB,
    TIMEOUT_PROFILES,
    EffectiveLimits,
    ErrorInfo,
    ExecutionResult,
    Language,
    Limits,
    OutputChunk,
    TimeoutProfile,
)
from ..._network.policy import NetworkPolicy, resolve_network
from ..._request import coerce_files, coerce_source
from ..._runtimes.artifacts import python_variant
from ..._sandbox import Sandbox
from ..._tools import Tool
from ..bridge.tools import GatewayTools, UnknownToolError
from ..ops.auth import owner_tag
from ..ops.metrics import GatewayMetrics
from ..ops.pool import PoolSaturated, WorkerPool
from ..settings import GatewaySettings
from ..state.budget import ByteBudget, Reservation
from ..state.jobs import JobStore, JobStoreUnavailable
from ..state.sessions import (
    PolicyName,
    SessionBusy,
    SessionEntry,
    SessionNotFound,
    SessionRegistry,
    SessionsFull,
    session_policy,
)
from .schemas import Job, JobAccepted, SessionInfo

if TYPE_CHECKING:
    from ..state.redis_sessions import RedisSessionDirectory

from .errors import OVERLOAD_RETRY_AFTER, ApiError, refusal

logger = logging.getLogger("sandbox_wasm.server")


T = TypeVar("T")


#: The deadline of a request that asks for none (the library's).
DEFAULT_TIMEOUT_MS = Limits().timeout_ms


#: Response header naming the replica that holds a session (on a 421).
REPLICA_HEADER = "Sandbox-Session-Replica"

#: How long `POST /v1/jobs/{id}/cancel` waits for the job to end before answering 202 (an
#: interrupt lands in milliseconds; a job on another replica waits for that replica to
#: see the request, every CANCEL_POLL_SECONDS).
CANCEL_WAIT_SECONDS = 2.0

#: The error of a job cancelled before a worker picked it up.
CANCELLED_BEFORE_START = "Cancelled"


class LiveJob:
    """A job this process accepted and has not finished: what cancelling it needs."""

    def __init__(self) -> None:
        #: Set to interrupt the run (the library's `cancel=`), or to mark a waiting job.
        self.cancel = threading.Event()
        #: The pool's future: cancelling it takes a waiting job out of the queue.
        self.future: Future[ExecutionResult] | None = None
        #: Set once the job's end is recorded in the store.
        self.finished = asyncio.Event()

    def interrupt(self) -> None:
        self.cancel.set()
        if self.future is not None:
            self.future.cancel()  # a no-op once a worker runs it: the Event stops that


def _utc(timestamp: float) -> datetime:
    return datetime.fromtimestamp(timestamp, UTC)


def store_id(owner: str | None, job_id: str) -> str:
    """The id a job has in the job store: scoped by its owner, so that a key looking up
    another key's job id finds nothing (404), on this replica or any other."""
    tag = owner_tag(owner)
    return job_id if tag is None else f"{tag}-{job_id}"


class Gateway:
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
        #: Jobs accepted here and not finished, by their id in the store.
        self._live: dict[str, LiveJob] = {}
        jobs.watch_cancels(self._cancel_requested)

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
                "files_too_large",
                f"input files are {total} bytes in all, over this server's limit of {cap} "
                "bytes (max_input_bytes)",
                field="files",
            )
        try:
            coerce_files(files, cap)
        except InvalidRequestError as exc:
            raise ApiError("invalid_request", str(exc), field=exc.field) from None

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
                "invalid_request", f"timeout_profile: {profile} asks for "
                f"{TIMEOUT_PROFILES[profile]} ms, over this server's max_timeout_ms of {cap}",
                field="timeout_profile")
        if asked is not None and asked > cap:
            raise ApiError(
                "invalid_request", f"{field}: {asked} ms is over this server's "
                f"max_timeout_ms of {cap}", field=field)
        if asked is None and profile is None and cap < DEFAULT_TIMEOUT_MS:
            return {**limits, "timeout_ms": cap}
        return limits

    def select_tools(self, names: Sequence[str]) -> list[Tool]:
        """The host tools a request names (none unless it names some); 400 naming those
        this server does not offer."""
        try:
            return self.tools.select(names)
        except UnknownToolError as exc:
            raise ApiError("unknown_tool", str(exc), field="tools") from None

    def network_for(self, asked: NetworkPolicy | Sequence[str] | None) -> NetworkPolicy | None:
        """The network policy of a request that asks for `asked` (None: no network): within
        the server's own (`settings.network`); 400 when the server allows no network or the
        request's policy is invalid."""
        if asked is None:
            return None
        ceiling = self.settings.network
        if ceiling is None:
            raise ApiError("network_not_allowed", "this server allows no network: it was "
                           "started without a network policy (--allow-host, "
                           "--network-policy)", field="network")
        try:
            policy = resolve_network(asked)
        except InvalidRequestError as exc:
            raise refusal(exc, "network") from None
        return None if policy is None else policy.bounded_by(ceiling)

    def overloaded(self) -> ApiError:
        return ApiError(
            "overloaded",
            f"all {self.pool.workers} workers are busy and the queue of "
            f"{self.pool.queue_capacity} is full; retry shortly",
            headers={"Retry-After": str(OVERLOAD_RETRY_AFTER)},
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
        sandbox: Sandbox, policy: AuditPolicy, cancel: threading.Event | None,
        network: NetworkPolicy | None = None,
        on_output: Callable[[OutputChunk], object] | None = None,
    ) -> ExecutionResult:
        """Runs on a worker thread. `tools` replace the sandbox's own: a run gets only the
        tools its request named; `network` likewise (None: no network). Setting `cancel`
        interrupts the run; `on_output` gets the output as it is written."""
        start = time.perf_counter()
        result = sandbox.execute(code, language=language, limits=limits, profile=profile,
                                 files=files or None, tools=tools, policy=policy,
                                 cancel=cancel, network=network, on_output=on_output)
        self.metrics.observe(result, time.perf_counter() - start)
        return result

    def _task(
        self, code: str, language: Language, limits: dict[str, int],
        profile: TimeoutProfile | None = None, files: Mapping[str, bytes] | None = None,
        tools: Sequence[Tool] = (), runtime: str | None = None,
        policy: PolicyName | None = None, cancel: threading.Event | None = None,
        network: NetworkPolicy | None = None,
        on_output: Callable[[OutputChunk], object] | None = None,
    ) -> functools.partial[ExecutionResult]:
        """A request's run, ready for a worker; InvalidRequestError for a policy looser than
        the server's."""
        limits = {**limits, **self.server_limits()}
        sandbox = self.sandbox_for(runtime)
        chosen = session_policy(policy, sandbox.policy, "a request")
        return functools.partial(self._work, code, language, limits, profile, files or {},
                                 list(tools), sandbox, chosen, cancel, network, on_output)

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
        runtime: str | None = None, policy: PolicyName | None = None,
        network: NetworkPolicy | None = None,
    ) -> ExecutionResult:
        self.check_source(code, field)
        self.check_files(files or {})
        limits = self.capped_timeout(limits or {}, "limits.timeout_ms", profile)
        try:
            return await self.pool.run(self._task(code, language, limits or {}, profile, files,
                                                  tools, runtime, policy, network=network))
        except PoolSaturated:
            raise self.overloaded() from None
        except InvalidRequestError as exc:
            # Fields are validated before this point; these are what only the library knows
            # (e.g. a language whose runtime this build lacks).
            raise refusal(exc, field) from None
        except SandboxError as exc:
            # The runtime is missing or unusable: the server's problem, not the client's.
            logger.error("sandbox runtime unavailable: %s", exc)
            raise ApiError("runtime_unavailable", str(exc)) from None

    async def stream(
        self, code: str, *, field: str, language: Language = "python",
        limits: dict[str, int] | None = None, files: Mapping[str, bytes] | None = None,
        tools: Sequence[Tool] = (), runtime: str | None = None,
        policy: PolicyName | None = None, network: NetworkPolicy | None = None,
    ) -> AsyncIterator[str]:
        """Admit a run as `execute` does (its refusals are raised here, before a byte of the
        answer is sent) and return its Server-Sent Events: `stdout` / `stderr` events
        ({"text"}) as the code writes, then one `result` (the ExecutionResult) or `error`
        ({"error": {code, message}}). The client going away interrupts the run."""
        self.check_source(code, field)
        self.check_files(files or {})
        limits = self.capped_timeout(limits or {}, "limits.timeout_ms", None)
        loop = asyncio.get_running_loop()
        chunks: asyncio.Queue[OutputChunk] = asyncio.Queue()
        cancel = threading.Event()

        def on_output(chunk: OutputChunk) -> None:
            # Bounded by the output caps: only what they keep is passed on.
            loop.call_soon_threadsafe(chunks.put_nowait, chunk)

        try:
            task = self._task(code, language, limits, None, files, tools, runtime, policy,
                              cancel=cancel, network=network, on_output=on_output)
            future = asyncio.wrap_future(self.pool.submit(task))
        except PoolSaturated:
            raise self.overloaded() from None
        except InvalidRequestError as exc:
            raise refusal(exc, field) from None
        return self._events(chunks, future, cancel)

    async def _events(
        self, chunks: asyncio.Queue[OutputChunk], future: asyncio.Future[ExecutionResult],
        cancel: threading.Event,
    ) -> AsyncIterator[str]:
        try:
            while not future.done():
                getter = asyncio.ensure_future(chunks.get())
                waited: set[asyncio.Future[object]] = {getter, future}  # type: ignore[arg-type]
                await asyncio.wait(waited, return_when=asyncio.FIRST_COMPLETED)
                if getter.done():
                    chunk = getter.result()
                    yield sse_event(chunk.stream, {"text": chunk.text})
                else:
                    getter.cancel()
            # Chunks handed over before the run ended are queued ahead of its end.
            while not chunks.empty():
                chunk = chunks.get_nowait()
                yield sse_event(chunk.stream, {"text": chunk.text})
            try:
                result = future.result()
            except InvalidRequestError as exc:
                yield sse_event("error", {"error": {"code": "invalid_request",
                                                    "message": str(exc)}})
                return
            except SandboxError as exc:
                logger.error("sandbox runtime unavailable: %s", exc)
                yield sse_event("error", {"error": {"code": "runtime_unavailable",
                                                    "message": str(exc)}})
                return
            yield f"event: result\ndata: {result.model_dump_json()}\n\n"
        finally:
            if not future.done():
                cancel.set()  # the client went away: stop the run, and wait for it
                with contextlib.suppress(BaseException):
                    await asyncio.shield(future)

    async def submit_job(
        self, code: str, *, language: Language, limits: dict[str, int],
        files: Mapping[str, bytes] | None = None, tools: Sequence[Tool] = (),
        owner: str | None = None, body: Reservation | None = None, runtime: str | None = None,
        policy: PolicyName | None = None, network: NetworkPolicy | None = None,
    ) -> JobAccepted:
        """Queue a background job. `body`, the reservation of the request's body in the
        budget of bodies in flight, is kept until the job has run: its files wait with it."""
        self.check_source(code, "code")
        self.check_files(files or {})
        limits = self.capped_timeout(limits, "limits.timeout_ms")
        live = LiveJob()
        try:
            task = self._task(code, language, limits, files=files, tools=tools,
                              runtime=runtime, policy=policy, cancel=live.cancel,
                              network=network)
        except InvalidRequestError as exc:
            raise refusal(exc, "code") from None
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
        live.future = future
        self._live[job_id] = live
        completion = asyncio.create_task(
            self._complete(job_id, asyncio.wrap_future(future), live))
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

    async def _complete(
        self, job_id: str, future: asyncio.Future[ExecutionResult], live: LiveJob
    ) -> None:
        result: ExecutionResult | None = None
        error: ErrorInfo | None = None
        try:
            result = await future
        except asyncio.CancelledError:
            if not (live.cancel.is_set() and future.cancelled()):
                self._live.pop(job_id, None)
                raise  # the gateway is shutting down
            error = ErrorInfo(type=CANCELLED_BEFORE_START,
                              message="cancelled while it waited for a worker: it never ran")
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
        finally:
            self._live.pop(job_id, None)
            live.finished.set()

    def _cancel_requested(self, job_id: str) -> None:
        """Another replica was asked to cancel a job this one runs."""
        live = self._live.get(job_id)
        if live is not None:
            live.interrupt()

    async def cancel_job(self, job_id: str, owner: str | None) -> tuple[Job, bool] | None:
        """Cancel `owner`'s job `job_id`: a waiting job never runs, a running one is
        interrupted (its result's status `interrupted`). The job as it then is, and whether
        it has finished; None for an unknown job (another key's included); ApiError
        `job_finished` for one that had finished already."""
        sid = store_id(owner, job_id)
        job = await self.jobs.get(sid)
        if job is None:
            return None
        if job.status == "done":
            raise ApiError("job_finished", f"job {job_id} has already finished: its result "
                           f"stands (GET /v1/jobs/{job_id})", field="job_id")
        live = self._live.get(sid)
        if live is not None:
            live.interrupt()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(live.finished.wait(), CANCEL_WAIT_SECONDS)
        else:
            # Held by another replica (a shared store): it sees the request and interrupts.
            await self.jobs.request_cancel(sid)
            deadline = time.monotonic() + CANCEL_WAIT_SECONDS
            while time.monotonic() < deadline:
                await asyncio.sleep(0.05)
                current = await self.jobs.get(sid)
                if current is None or current.status == "done":
                    break
        final = await self.jobs.get(sid)
        if final is None:
            return None
        final = final.model_copy(update={"job_id": job_id})
        return final, final.status == "done"

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
        except SessionBusy as exc:
            raise ApiError("session_busy", f"{exc}: retry when it has finished",
                           field="session_id") from None
        except SessionsFull as exc:
            raise ApiError(
                "sessions_full", str(exc), headers={"Retry-After": str(exc.retry_after)},
            ) from None
        except PoolSaturated:
            raise self.overloaded() from None
        except SnapshotError as exc:
            raise ApiError("invalid_snapshot", str(exc), field="snapshot") from None
        except InvalidRequestError as exc:
            raise refusal(exc, source_field) from None
        except SandboxError as exc:
            logger.error("sandbox runtime unavailable: %s", exc)
            raise ApiError("runtime_unavailable", str(exc)) from None

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
        except SessionNotFound as exc:
            raise await self.session_missing(exc, owner) from None
        if renew and self.directory is not None:
            await self.directory.claim(session_id, owner)
        return result

    async def session_missing(self, missing: SessionNotFound, owner: str | None) -> ApiError:
        """404, or 421 when the shared directory says another replica holds the session."""
        session_id = missing.session_id
        holder = (await self.directory.holder(session_id, owner)
                  if self.directory else None)
        if holder is not None and holder != self.replica:
            return ApiError(
                "session_on_other_replica",
                f"session {session_id} lives on another gateway replica ({holder}), not on "
                f"this one ({self.replica}); a session cannot move: send its requests to "
                "the replica that opened it (route on the session id), or restore a "
                "snapshot of it here",
                field="session_id", headers={REPLICA_HEADER: holder},
            )
        return ApiError("session_not_found", str(missing), field="session_id")

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


def sse_event(name: str, data: object) -> str:
    """One Server-Sent Event: its name and its data as one line of JSON."""
    return f"event: {name}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"


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
