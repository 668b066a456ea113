"""Background jobs in Redis, shared by every gateway replica given the same `--redis-url`.

A job runs on the worker pool of the replica that accepted it; any replica can read it.
Two keys per job, both with a TTL so that nothing outlives its use whatever happens:

- `sandbox-wasm:job:<id>`: the `Job` as JSON. Once done it expires `job_ttl_seconds` after
  finishing. While queued or running it expires `job_lease_seconds + job_ttl_seconds` after
  its replica last renewed it.
- `sandbox-wasm:lease:<id>`: present while the accepting replica is alive and still holds
  the job; the replica renews it every third of `job_lease_seconds` and deletes it when the
  job is done.

- `sandbox-wasm:cancel:<id>`: set by any replica asked to cancel a job it does not hold
  (`POST /v1/jobs/{id}/cancel`), with the unfinished job's TTL; the holding replica looks
  for the flags of the jobs it holds every `CANCEL_POLL_SECONDS` (one MGET, only while it
  holds jobs) and interrupts the job, and deletes the flag when the job is done.

A reader that finds an unfinished job without its lease reports it `done` with error
`JobLost`: the replica crashed, was killed or lost Redis for longer than the lease. Such a
job is not run again elsewhere: it may be what brought its replica down. State changes are
check-and-set transactions (WATCH/MULTI), so a late "running" can never overwrite "done".
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime

from redis.asyncio import Redis
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import RedisError, WatchError

from ..._models import ErrorInfo, ExecutionResult
from ..http.schemas import Job
from .jobs import JobStoreUnavailable

logger = logging.getLogger("sandbox_wasm.server")

#: Seconds one Redis command may take before the store counts Redis as unreachable; a
#: request never hangs on a stalled Redis longer than about twice this.
REDIS_TIMEOUT_SECONDS = 2.0
#: How often a replica holding unfinished jobs looks for requests to cancel them: the
#: latency of a cancel that arrives on another replica, on top of the interrupt's own.
CANCEL_POLL_SECONDS = 0.2
#: How long `finish` keeps trying to record a result while Redis is unreachable, at most.
FINISH_RETRY_SECONDS = 10.0

# Job ids are ours (uuid4 hex); anything else a client sends is unknown without a lookup.
_JOB_ID = re.compile(r"[0-9A-Za-z_-]{1,64}")


def _utc(timestamp: float) -> datetime:
    return datetime.fromtimestamp(timestamp, UTC)


def _ms(seconds: float) -> int:
    return max(1, round(seconds * 1000))


def _unavailable(exc: RedisError) -> JobStoreUnavailable:
    """The one place where the Redis client's errors become the store's (the client's
    message stays in the log: it can name hosts a client has no business knowing)."""
    logger.warning("Redis job store unavailable: %s", exc)
    return JobStoreUnavailable("the job store (Redis) cannot be reached")


@contextlib.contextmanager
def _unavailable_on_redis_errors() -> Iterator[None]:
    try:
        yield
    except RedisError as exc:
        raise _unavailable(exc) from exc


class RedisJobStore:
    """A `JobStore` in Redis. Memory is bounded by the keys' TTLs, not by a count: give the
    Redis a `maxmemory` with a `volatile-*` policy for a hard cap (every key here expires)."""

    def __init__(
        self, url: str, *, ttl_seconds: float, lease_seconds: float,
        namespace: str = "sandbox-wasm", clock: Callable[[], float] = time.time,
    ) -> None:
        self.ttl_seconds = ttl_seconds
        self.lease_seconds = lease_seconds
        self.namespace = namespace
        self._clock = clock
        self._redis = Redis.from_url(
            url, socket_timeout=REDIS_TIMEOUT_SECONDS,
            socket_connect_timeout=REDIS_TIMEOUT_SECONDS,
            retry=Retry(ExponentialBackoff(cap=0.25, base=0.05), 2),
        )
        # Jobs this replica accepted and has not finished: the leases it renews.
        self._held: set[str] = set()
        # Serialises lease renewal with finish/discard, so a renewal can never re-create
        # the lease of a job that has just been finished.
        self._lock = asyncio.Lock()
        self._renewer: asyncio.Task[None] | None = None
        self._cancel_watcher: asyncio.Task[None] | None = None
        self._on_cancel: Callable[[str], None] | None = None
        # Held jobs whose cancel request was passed on already (once is enough).
        self._cancelled: set[str] = set()

    def job_key(self, job_id: str) -> str:
        return f"{self.namespace}:job:{job_id}"

    def lease_key(self, job_id: str) -> str:
        return f"{self.namespace}:lease:{job_id}"

    def cancel_key(self, job_id: str) -> str:
        return f"{self.namespace}:cancel:{job_id}"

    @property
    def _unfinished_ms(self) -> int:
        return _ms(self.lease_seconds + self.ttl_seconds)

    # -- lifecycle -----------------------------------------------------------------------
    async def start(self) -> None:
        self._renewer = asyncio.create_task(self._renew_leases())
        self._cancel_watcher = asyncio.create_task(self._watch_cancel_flags())
        try:
            await self._redis.ping()
        except RedisError as exc:
            # Not fatal: synchronous executions need no Redis, and jobs answer 503 until
            # it is back.
            logger.warning("Redis job store unreachable at start-up: %s", exc)

    async def close(self) -> None:
        for task in (self._renewer, self._cancel_watcher):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        # What this replica still holds will not finish here; say so now rather than
        # letting readers wait out the lease.
        lost = ErrorInfo(
            type="JobLost", message="the gateway replica running this job shut down"
        )
        try:
            for job_id in list(self._held):
                await self._finish_once(job_id, None, lost)
        except RedisError as exc:
            # Redis is away: the leases lapse on their own and readers see the same.
            logger.warning("could not report unfinished jobs as lost: %s", exc)
        await self._redis.aclose()

    async def _renew_leases(self) -> None:
        while True:
            await asyncio.sleep(self.lease_seconds / 3)
            try:
                async with self._lock:
                    if not self._held:
                        continue
                    pipe = self._redis.pipeline(transaction=False)
                    for job_id in self._held:
                        pipe.set(self.lease_key(job_id), b"1", px=_ms(self.lease_seconds))
                        pipe.pexpire(self.job_key(job_id), self._unfinished_ms)
                    await pipe.execute()
            except RedisError as exc:
                logger.warning("could not renew job leases in Redis: %s", exc)

    async def _watch_cancel_flags(self) -> None:
        while True:
            await asyncio.sleep(CANCEL_POLL_SECONDS)
            watching = [j for j in self._held if j not in self._cancelled]
            if not watching or self._on_cancel is None:
                continue
            try:
                flags = await self._redis.mget([self.cancel_key(j) for j in watching])
            except RedisError as exc:
                logger.warning("could not look for job cancel requests in Redis: %s", exc)
                continue
            for job_id, flag in zip(watching, flags, strict=True):
                if flag is not None and job_id in self._held:
                    self._cancelled.add(job_id)
                    self._on_cancel(job_id)

    # -- JobStore --------------------------------------------------------------------------
    async def create(self, job_id: str) -> Job:
        job = Job(job_id=job_id, status="queued", created_at=_utc(self._clock()))
        with _unavailable_on_redis_errors():
            pipe = self._redis.pipeline(transaction=True)
            pipe.set(self.job_key(job_id), job.model_dump_json(), px=self._unfinished_ms)
            pipe.set(self.lease_key(job_id), b"1", px=_ms(self.lease_seconds))
            await pipe.execute()
        self._held.add(job_id)
        return job

    async def discard(self, job_id: str) -> None:
        async with self._lock:
            self._held.discard(job_id)
            self._cancelled.discard(job_id)
            with _unavailable_on_redis_errors():
                await self._redis.delete(self.job_key(job_id), self.lease_key(job_id),
                                         self.cancel_key(job_id))

    async def mark_running(self, job_id: str) -> None:
        def running(job: Job) -> Job | None:
            if job.status != "queued":
                return None
            return job.model_copy(
                update={"status": "running", "started_at": _utc(self._clock())}
            )

        with _unavailable_on_redis_errors():
            await self._replace(job_id, running, finished=False)

    async def finish(
        self, job_id: str, *, result: ExecutionResult | None = None,
        error: ErrorInfo | None = None,
    ) -> None:
        # A result is worth a short wait for Redis to come back; past that the lease lapses
        # and readers see the job as lost.
        deadline = time.monotonic() + FINISH_RETRY_SECONDS
        delay = 0.1
        while True:
            try:
                await self._finish_once(job_id, result, error)
                return
            except RedisError as exc:
                if time.monotonic() + delay > deadline:
                    self._held.discard(job_id)
                    raise _unavailable(exc) from exc
            await asyncio.sleep(delay)
            delay = min(2 * delay, 2.0)

    async def _finish_once(
        self, job_id: str, result: ExecutionResult | None, error: ErrorInfo | None
    ) -> None:
        def done(job: Job) -> Job | None:
            if job.status == "done":
                return None
            now = _utc(self._clock())
            return job.model_copy(update={
                "status": "done", "started_at": job.started_at or now,
                "finished_at": now, "result": result, "error": error,
            })

        async with self._lock:
            if not await self._replace(job_id, done, finished=True):
                await self._redis.delete(self.lease_key(job_id))
            self._held.discard(job_id)
            self._cancelled.discard(job_id)

    async def request_cancel(self, job_id: str) -> None:
        if not _JOB_ID.fullmatch(job_id):
            return
        with _unavailable_on_redis_errors():
            await self._redis.set(self.cancel_key(job_id), b"1", px=self._unfinished_ms)

    def watch_cancels(self, on_cancel: Callable[[str], None]) -> None:
        self._on_cancel = on_cancel

    async def get(self, job_id: str) -> Job | None:
        if not _JOB_ID.fullmatch(job_id):
            return None
        with _unavailable_on_redis_errors():
            pipe = self._redis.pipeline(transaction=True)
            pipe.get(self.job_key(job_id))
            pipe.exists(self.lease_key(job_id))
            raw, leased = await pipe.execute()
        if raw is None:
            return None
        job = Job.model_validate_json(raw)
        if job.status != "done" and not leased:
            return job.model_copy(update={"status": "done", "error": ErrorInfo(
                type="JobLost",
                message="the gateway replica running this job stopped before it finished",
            )})
        return job

    async def _replace(
        self, job_id: str, change: Callable[[Job], Job | None], *, finished: bool
    ) -> bool:
        """Check-and-set: `change` sees the stored job and returns its successor, or None
        to leave it; True if a successor was written. Retried if another writer got in
        between; a job that is gone (expired or discarded) stays gone."""
        key = self.job_key(job_id)
        async with self._redis.pipeline(transaction=True) as pipe:
            while True:
                try:
                    await pipe.watch(key)
                    raw = await pipe.get(key)
                    new = None if raw is None else change(Job.model_validate_json(raw))
                    if new is None:
                        return False
                    pipe.multi()  # type: ignore[no-untyped-call]  # unannotated in redis-py
                    if finished:
                        pipe.set(key, new.model_dump_json(), px=_ms(self.ttl_seconds))
                        pipe.delete(self.lease_key(job_id), self.cancel_key(job_id))
                    else:
                        pipe.set(key, new.model_dump_json(), keepttl=True)
                    await pipe.execute()
                    return True
                except WatchError:
                    continue
