"""Background jobs of `POST /v1/tools/safe-exec/async`.

The gateway talks to a `JobStore` only: the in-memory store here is the default, and
`RedisJobStore` (in `_redis_jobs.py`) shares jobs between replicas without touching the
routes. The methods are async for that reason.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Protocol

from ..._models import ErrorInfo, ExecutionResult
from ..http.schemas import Job


class JobStoreUnavailable(Exception):
    """The shared job store cannot be reached; the gateway answers 503."""


class JobStore(Protocol):
    """Where background jobs live between submission and the last poll. A store that
    cannot reach its backend raises JobStoreUnavailable, never its client's errors."""

    async def start(self) -> None:
        """Called once on the gateway's start-up, in its event loop."""
        ...

    async def close(self) -> None:
        """Called once on shutdown; jobs still unfinished will not finish here."""
        ...

    async def create(self, job_id: str) -> Job:
        """Record a new job as queued."""
        ...

    async def discard(self, job_id: str) -> None:
        """Forget a job that was never started (e.g. refused by a full pool)."""
        ...

    async def mark_running(self, job_id: str) -> None:
        """A worker picked the job up; only a queued job changes."""
        ...

    async def finish(
        self, job_id: str, *, result: ExecutionResult | None = None,
        error: ErrorInfo | None = None,
    ) -> None:
        """The job is done, with its result or the reason it could not run."""
        ...

    async def get(self, job_id: str) -> Job | None:
        """The job, or None if unknown or evicted."""
        ...

    async def request_cancel(self, job_id: str) -> None:
        """Ask whichever process runs the unfinished job `job_id` to cancel it (a store
        shared between processes passes the request on; a store of one process has
        nothing to pass on: the gateway cancels its own jobs itself)."""
        ...

    def watch_cancels(self, on_cancel: Callable[[str], None]) -> None:
        """Have `on_cancel(job_id)` called, in the event loop, when another process asks to
        cancel a job this one holds (at most once per job)."""
        ...


def _utc(timestamp: float) -> datetime:
    return datetime.fromtimestamp(timestamp, UTC)


#: What a stored result costs besides its output and files (the model, its fields).
RESULT_OVERHEAD_BYTES = 4_096
#: Memory of finished jobs when no budget is given.
DEFAULT_MAX_BYTES = 256 * 1024 * 1024


def result_bytes(result: ExecutionResult | None) -> int:
    """Host memory a stored result holds: its output, its files and the rest."""
    if result is None:
        return RESULT_OVERHEAD_BYTES
    return (RESULT_OVERHEAD_BYTES + len(result.stdout) + len(result.stderr)
            + sum(len(name) + len(data) for name, data in result.files.items()))


class InMemoryJobStore:
    """A `JobStore` in this process. Unfinished jobs are bounded by the worker pool's
    admission; finished ones are kept for `ttl_seconds`, at most `max_finished` of them
    and at most `max_bytes` of results (their output files included; oldest evicted
    first), so memory stays bounded whatever clients do."""

    def __init__(
        self, *, ttl_seconds: float, max_finished: int, max_bytes: int = DEFAULT_MAX_BYTES,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.ttl_seconds = ttl_seconds
        self.max_finished = max_finished
        self.max_bytes = max_bytes
        self._clock = clock
        self._jobs: dict[str, Job] = {}
        self._finished: OrderedDict[str, float] = OrderedDict()
        self._sizes: dict[str, int] = {}
        #: Bytes held by the results of finished jobs now.
        self.bytes_held = 0

    def __len__(self) -> int:
        return len(self._jobs)

    async def start(self) -> None:
        pass

    async def close(self) -> None:
        pass

    def _evict(self) -> None:
        horizon = self._clock() - self.ttl_seconds
        while self._finished:
            job_id, finished_at = next(iter(self._finished.items()))
            if (finished_at > horizon and len(self._finished) <= self.max_finished
                    and self.bytes_held <= self.max_bytes):
                break
            del self._finished[job_id]
            self._jobs.pop(job_id, None)
            self.bytes_held -= self._sizes.pop(job_id, 0)

    async def create(self, job_id: str) -> Job:
        self._evict()
        job = Job(job_id=job_id, status="queued", created_at=_utc(self._clock()))
        self._jobs[job_id] = job
        return job

    async def discard(self, job_id: str) -> None:
        self._jobs.pop(job_id, None)

    async def mark_running(self, job_id: str) -> None:
        job = self._jobs.get(job_id)
        if job is not None and job.status == "queued":
            self._jobs[job_id] = job.model_copy(
                update={"status": "running", "started_at": _utc(self._clock())}
            )

    async def finish(
        self, job_id: str, *, result: ExecutionResult | None = None,
        error: ErrorInfo | None = None,
    ) -> None:
        job = self._jobs.get(job_id)
        if job is None:
            return
        now = self._clock()
        size = result_bytes(result)
        if result is not None and size > self.max_bytes:
            # Larger than every result may be together: keep the outcome, not the output.
            result = result.model_copy(update={"stdout": "", "stderr": "", "files": {}})
            error = ErrorInfo(type="ResultTooLarge", message=(
                f"the result ({size} bytes with its output and files) is larger than this "
                f"server keeps for async jobs ({self.max_bytes} bytes, max_job_store_mb); "
                "its output was dropped: run it synchronously to get it"))
            size = result_bytes(result)
        self._jobs[job_id] = job.model_copy(update={
            "status": "done", "started_at": job.started_at or _utc(now),
            "finished_at": _utc(now), "result": result, "error": error,
        })
        self._finished[job_id] = now
        self._sizes[job_id] = size
        self.bytes_held += size
        self._evict()

    async def get(self, job_id: str) -> Job | None:
        self._evict()
        return self._jobs.get(job_id)

    async def request_cancel(self, job_id: str) -> None:
        pass  # one process: the gateway that asks is the one that runs the job

    def watch_cancels(self, on_cancel: Callable[[str], None]) -> None:
        pass
