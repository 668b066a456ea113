"""Batches: many requests -> results in input order, on local processes or a Ray cluster.

The data path per item is the executor's (request -> audit -> sandbox run -> result); this
module only decides where each request runs and makes sure every request comes back:
once as a result, a per-item `InvalidRequest`, or an `internal_error` result when the
worker running it died twice. Nothing is silently dropped.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import struct
import subprocess
import sys
import threading
import time
import uuid
from collections import deque
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ValidationError

from ._audit import STRICT_POLICY, AuditPolicy
from ._errors import (
    InvalidRequestError,
    RuntimeIntegrityError,
    RuntimeNotFoundError,
    SandboxError,
)
from ._executor import Sandbox, describe_validation_error
from ._models import (
    STATUS_EXIT_CODES,
    AuditSummary,
    EffectiveLimits,
    ErrorInfo,
    ExecutionRequest,
    ExecutionResult,
    Language,
    Limits,
    Metrics,
    RuntimeInfo,
)

Backend = Literal["local", "ray"]

#: Exit code of an item whose request was invalid (the CLI's usage-error code).
INVALID_REQUEST_EXIT_CODE = 2
# A worker that has not answered this long after its request's own deadline is presumed
# hung and is killed (the request is then retried once like after a crash). The margin
# covers the audit's own 10 s budget, JavaScript's syntax check and a loaded machine.
HANG_MARGIN_S = 60.0
# A new worker loads (first time on a machine: compiles) the runtime before its first item.
STARTUP_TIMEOUT_S = 300.0


class InvalidRequest(BaseModel):
    """A batch item that was not run because its request is invalid; the batch goes on.

    Stands in the output where `execute()` would have raised `InvalidRequestError`. It shares
    `status`, `exit_code` and `error` with `ExecutionResult`, so code that reads those three
    handles both."""

    index: int
    status: Literal["invalid_request"] = "invalid_request"
    exit_code: int = INVALID_REQUEST_EXIT_CODE
    error: ErrorInfo

    @property
    def ok(self) -> bool:
        """Always False: nothing ran."""
        return False


BatchResult = ExecutionResult | InvalidRequest
RequestLike = ExecutionRequest | Mapping[str, Any] | str


# -- preparing requests -------------------------------------------------------------------
@dataclass
class _Job:
    """One valid request on its way to a worker."""

    index: int
    code: str
    language: Language
    limits: dict[str, Any]
    attempts: int = 0

    def payload(self) -> dict[str, Any]:
        return {"code": self.code, "language": self.language, "limits": self.limits}


def invalid(index: int, message: str, kind: str = "InvalidRequestError") -> InvalidRequest:
    """The per-item record of a request that could not be run."""
    return InvalidRequest(index=index, error=ErrorInfo(type=kind, message=message))


def prepare(
    index: int, item: object, defaults: Mapping[str, Any]
) -> _Job | InvalidRequest:
    """Validate one request. Limit fields the request sets win over the batch's limits."""
    if isinstance(item, str):
        item = ExecutionRequest(code=item)
    if isinstance(item, Mapping):
        try:
            item = ExecutionRequest.model_validate(item)
        except ValidationError as exc:
            return invalid(index, f"invalid request: {describe_validation_error(exc)}")
    if not isinstance(item, ExecutionRequest):
        return invalid(
            index,
            f"a request must be an ExecutionRequest, a dict or a code string, "
            f"not {type(item).__name__}",
        )
    limits = {**defaults, **item.limits.model_dump(exclude_unset=True)}
    if defaults:
        try:
            Limits.model_validate(limits)
        except ValidationError as exc:
            return invalid(index, f"invalid limits: {describe_validation_error(exc)}")
    return _Job(index, item.code, item.language, limits)


# -- one execution, inside a worker -----------------------------------------------------------
def _run_payload(sandbox: Sandbox, payload: Mapping[str, Any]) -> tuple[str, str, str]:
    """Run one request in a worker: ("result", result JSON, ""), ("invalid", exception
    type, message) or ("error", exception type, message) for a failure of ours."""
    try:
        result = sandbox.execute(
            payload["code"], language=payload["language"], limits=payload["limits"]
        )
    except InvalidRequestError as exc:
        return "invalid", type(exc).__name__, str(exc)
    except Exception as exc:  # a bug or a host problem, reported on the item, never raised
        return "error", type(exc).__name__, str(exc)
    return "result", result.model_dump_json(), ""


def _runtime_infos(sandbox: Sandbox) -> dict[str, str]:
    """The RuntimeInfo JSON of each language this worker can run, for results the batch
    has to make up itself (a request whose worker died)."""
    infos = {"python": sandbox.runtime_info.model_dump_json()}
    # No JavaScript runtime here is fine: a JavaScript request will say so itself.
    with contextlib.suppress(SandboxError):
        result = sandbox.execute("0", language="javascript")
        infos["javascript"] = result.runtime.model_dump_json()
    return infos


def _new_sandbox(policy_json: str) -> Sandbox:
    sandbox = Sandbox(policy=AuditPolicy.model_validate_json(policy_json))
    sandbox.warm_up("python")
    return sandbox


# -- the order-keeping, memory-bounded driver ----------------------------------------------------
class _Pool(Protocol):
    def submit(self, job: _Job) -> None: ...
    def wait(self) -> list[tuple[int, BatchResult]]: ...
    def close(self, abort: bool) -> None: ...


def _stream(
    items: Iterator[_Job | InvalidRequest], pool: _Pool, max_pending: int
) -> Iterator[BatchResult]:
    """Feed `pool` from `items` and yield results in input order. At most `max_pending`
    items are read but not yet yielded, so an input far larger than memory streams through
    (a slow item at the head holds back at most that many finished ones)."""
    done: dict[int, BatchResult] = {}
    next_index = 0
    outstanding = 0
    exhausted = False
    finished = False
    try:
        while True:
            while not exhausted and outstanding < max_pending:
                try:
                    item = next(items)
                except StopIteration:
                    exhausted = True
                    break
                outstanding += 1
                if isinstance(item, InvalidRequest):
                    done[item.index] = item
                else:
                    pool.submit(item)
            if next_index in done:
                result = done.pop(next_index)
                next_index += 1
                outstanding -= 1
                yield result
                continue
            if exhausted and outstanding == 0:
                finished = True
                return
            for index, result in pool.wait():
                done[index] = result
    finally:
        pool.close(abort=not finished)


def internal_error(
    job: _Job, message: str, runtime: RuntimeInfo | None, kind: str = "WorkerCrashed"
) -> ExecutionResult:
    """The result of a request that no worker could finish (a failure of ours)."""
    return ExecutionResult(
        execution_id=uuid.uuid4().hex,
        language=job.language,
        status="internal_error",
        exit_code=STATUS_EXIT_CODES["internal_error"],
        syntax_valid=True,
        audit=AuditSummary(safety_verdict="safe", policy="none"),
        error=ErrorInfo(type=kind, message=message),
        limits=EffectiveLimits.of(Limits.model_validate(job.limits)),
        metrics=Metrics(),
        runtime=runtime or RuntimeInfo(name="unknown", version="", sha256="", wasmtime=""),
    )


class _RuntimeBook:
    """Which runtime each language ran on, as reported by the workers."""

    def __init__(self) -> None:
        self._infos: dict[str, RuntimeInfo] = {}

    def learn(self, infos: Mapping[str, str]) -> None:
        for language, info in infos.items():
            self._infos.setdefault(language, RuntimeInfo.model_validate_json(info))

    def get(self, language: str) -> RuntimeInfo | None:
        return self._infos.get(language)


def _outcome_to_result(
    job: _Job, outcome: tuple[str, str, str], runtimes: _RuntimeBook
) -> BatchResult:
    kind, first, second = outcome
    if kind == "result":
        return ExecutionResult.model_validate_json(first)
    if kind == "invalid":
        return invalid(job.index, second, first)
    return internal_error(
        job, f"{first}: {second}", runtimes.get(job.language), kind="InternalError"
    )


# -- local backend: a pool of worker processes ---------------------------------------------------
# Workers are plain `python -c` subprocesses speaking length-prefixed JSON over stdin/stdout,
# not multiprocessing children: they never re-import the caller's __main__ (so a script
# without an `if __name__ == "__main__"` guard works), and a worker that dies is seen at
# once as end-of-file on its pipe, with exactly one request in hand.
_FRAME = struct.Struct(">I")
_WORKER_BOOT = (
    "import sys; sys.path.insert(0, {path!r}); "
    "from sandbox_wasm._batch import worker_main; worker_main()"
)
_ERRORS_BY_NAME: dict[str, type[SandboxError]] = {
    cls.__name__: cls for cls in (RuntimeNotFoundError, RuntimeIntegrityError, SandboxError)
}


def _write_frame(stream: Any, data: dict[str, Any]) -> None:
    body = json.dumps(data).encode("utf-8")
    stream.write(_FRAME.pack(len(body)) + body)
    stream.flush()


def _read_frame(stream: Any) -> dict[str, Any] | None:
    header = stream.read(_FRAME.size)
    if len(header) < _FRAME.size:
        return None
    (size,) = _FRAME.unpack(header)
    body = stream.read(size)
    if len(body) < size:
        return None
    return json.loads(body)  # type: ignore[no-any-return]


def worker_main() -> None:
    """Entry point of a local batch worker process: one warm Sandbox serving requests
    read from stdin until end-of-file."""
    import signal

    # Ctrl-C in a terminal reaches the whole process group; the parent decides what stops.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    replies = os.fdopen(os.dup(1), "wb")
    # Anything else printed to stdout (a library warning, say) must not corrupt the frames.
    os.dup2(2, 1)
    requests = sys.stdin.buffer
    hello = _read_frame(requests)
    if hello is None:
        os._exit(0)
    try:
        sandbox = _new_sandbox(hello["policy"])
        _write_frame(replies, {"ready": _runtime_infos(sandbox)})
    except Exception as exc:
        _write_frame(replies, {"fatal": [type(exc).__name__, str(exc)]})
        os._exit(1)
    while (payload := _read_frame(requests)) is not None:
        _write_frame(replies, {"outcome": _run_payload(sandbox, payload)})
    replies.flush()
    # Skip interpreter teardown: wasmtime's threads can print a Rust panic while Python
    # finalises, and the OS reclaims everything else.
    os._exit(0)


class _WorkerDied(Exception):
    pass


class _Fatal:
    """A worker could not start at all (missing runtime, say): the whole batch stops."""

    def __init__(self, error: Exception) -> None:
        self.error = error


_STOP = object()


@dataclass
class _Worker:
    """One worker process, and when its current request is presumed hung."""

    process: subprocess.Popen[bytes]
    deadline: float | None = None
    busy: bool = False
    hung: bool = False
    lock: threading.Lock = field(default_factory=threading.Lock)

    def kill(self) -> None:
        with contextlib.suppress(OSError):
            self.process.kill()


class LocalPool:
    """Worker processes on this machine, each with its own warm Sandbox, each fed by a
    thread of ours that sends it one request at a time (so a death is pinned on exactly one
    request). Workers are started as work arrives, up to `workers`."""

    def __init__(self, workers: int, policy: AuditPolicy) -> None:
        self._max_workers = workers
        self._policy_json = policy.model_dump_json()
        self._jobs: queue.Queue[Any] = queue.Queue()
        self._results: queue.Queue[tuple[int, BatchResult] | _Fatal] = queue.Queue()
        self._runtimes = _RuntimeBook()
        self._threads: list[threading.Thread] = []
        self._workers: list[_Worker] = []
        self._lock = threading.Lock()
        self._idle = 0
        self._closing = False
        self._watchdog: threading.Thread | None = None

    # -- public to the driver --
    def submit(self, job: _Job) -> None:
        self._jobs.put(job)
        with self._lock:
            grow = (
                len(self._threads) < self._max_workers and self._jobs.qsize() > self._idle
            )
            if grow:
                self._idle += 1  # the new feeder counts as idle until it takes a job
        if grow:
            self._start_feeder()

    def wait(self) -> list[tuple[int, BatchResult]]:
        got = [self._results.get()]
        with contextlib.suppress(queue.Empty):
            while True:
                got.append(self._results.get_nowait())
        for item in got:
            if isinstance(item, _Fatal):
                raise item.error
        return got  # type: ignore[return-value]

    def close(self, abort: bool) -> None:
        self._closing = True
        if abort:
            with contextlib.suppress(queue.Empty):
                while True:
                    self._jobs.get_nowait()
            with self._lock:
                workers = list(self._workers)
            for worker in workers:
                worker.kill()
        for _ in self._threads:
            self._jobs.put(_STOP)
        for thread in self._threads:
            thread.join(timeout=10)

    def busy_worker_pids(self) -> list[int]:
        """Process ids of the workers running a request right now."""
        with self._lock:
            return [w.process.pid for w in self._workers if w.busy]

    # -- workers --
    def _start_feeder(self) -> None:
        thread = threading.Thread(target=self._feed, name="sandbox-wasm-batch", daemon=True)
        self._threads.append(thread)
        thread.start()
        if self._watchdog is None:
            self._watchdog = threading.Thread(
                target=self._watch, name="sandbox-wasm-batch-watchdog", daemon=True
            )
            self._watchdog.start()

    def _spawn(self) -> _Worker:
        package_parent = str(Path(__file__).resolve().parent.parent)
        process = subprocess.Popen(
            [sys.executable, "-c", _WORKER_BOOT.format(path=package_parent)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        )
        worker = _Worker(process, deadline=time.monotonic() + STARTUP_TIMEOUT_S)
        with self._lock:
            self._workers.append(worker)
        try:
            _write_frame(process.stdin, {"policy": self._policy_json})
            reply = _read_frame(process.stdout)
        except OSError:
            reply = None
        worker.deadline = None
        if reply is None:
            self._retire(worker)
            raise _WorkerDied(f"a worker process exited during start-up ({_exit_text(worker)})")
        if "fatal" in reply:
            self._retire(worker)
            name, message = reply["fatal"]
            raise _ERRORS_BY_NAME.get(name, SandboxError)(message)
        self._runtimes.learn(reply["ready"])
        return worker

    def _spawn_or_retry(self) -> _Worker:
        try:
            return self._spawn()
        except _WorkerDied:
            return self._spawn()

    def _retire(self, worker: _Worker) -> None:
        worker.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            worker.process.wait(timeout=10)
        for stream in (worker.process.stdin, worker.process.stdout):
            with contextlib.suppress(OSError):
                stream.close()  # type: ignore[union-attr]
        with self._lock:
            if worker in self._workers:
                self._workers.remove(worker)

    def _feed(self) -> None:
        worker: _Worker | None = None
        try:
            while True:
                job = self._jobs.get()
                with self._lock:
                    self._idle -= 1
                if job is _STOP:
                    break
                if worker is None:
                    worker = self._spawn_or_retry()
                worker, result = self._run_job(worker, job)
                self._results.put((job.index, result))
                with self._lock:
                    self._idle += 1
        except _WorkerDied as exc:
            self._results.put(_Fatal(SandboxError(f"batch workers cannot start: {exc}")))
        except Exception as exc:
            self._results.put(_Fatal(exc))
        finally:
            if worker is not None:
                with contextlib.suppress(OSError):
                    worker.process.stdin.close()  # type: ignore[union-attr]
                try:
                    worker.process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    worker.kill()
                self._retire(worker)

    def _run_job(self, worker: _Worker, job: _Job) -> tuple[_Worker | None, BatchResult]:
        """Run `job` on `worker`; after a crash, once more on a fresh worker."""
        while True:
            timeout_s = Limits.model_validate(job.limits).timeout_ms / 1000
            worker.deadline = time.monotonic() + timeout_s + HANG_MARGIN_S
            worker.busy = True
            try:
                _write_frame(worker.process.stdin, job.payload())
                reply = _read_frame(worker.process.stdout)
            except OSError:
                reply = None
            worker.busy = False
            worker.deadline = None
            if reply is not None:
                return worker, _outcome_to_result(job, tuple(reply["outcome"]), self._runtimes)
            why = (
                f"did not answer within {timeout_s + HANG_MARGIN_S:.0f} s and was stopped"
                if worker.hung else f"died ({_exit_text(worker)})"
            )
            self._retire(worker)
            if self._closing:
                return None, internal_error(job, f"the batch stopped: the worker {why}", None)
            job.attempts += 1
            if job.attempts > 1:
                message = (
                    f"the worker running this request {why}, twice (retried once on a "
                    "fresh worker)"
                )
                # The next job gets a fresh worker, started by the feeder when it needs one.
                return None, internal_error(job, message, self._runtimes.get(job.language))
            worker = self._spawn_or_retry()

    def _watch(self) -> None:
        while not self._closing:
            now = time.monotonic()
            with self._lock:
                workers = list(self._workers)
            for worker in workers:
                deadline = worker.deadline
                if deadline is not None and now > deadline:
                    worker.hung = True
                    worker.kill()
            time.sleep(0.5)


def _exit_text(worker: _Worker) -> str:
    try:
        code = worker.process.wait(timeout=5)
    except subprocess.TimeoutExpired:
        return "still running"
    if code < 0:
        return f"killed by signal {-code}"
    return f"exit status {code}"


# -- Ray backend: tasks on a cluster ----------------------------------------------------------
_RAY_SANDBOXES: dict[str, Sandbox] = {}
_ray_started_here = False


def _ray_sandbox(policy_json: str) -> Sandbox:
    # One Sandbox per worker process and policy: Ray reuses its worker processes, so after
    # its first task each worker runs with a warm engine and compiled runtime.
    sandbox = _RAY_SANDBOXES.get(policy_json)
    if sandbox is None:
        sandbox = _RAY_SANDBOXES[policy_json] = _new_sandbox(policy_json)
    return sandbox


def _ray_execute(policy_json: str, payload: dict[str, Any]) -> tuple[str, str, str]:
    return _run_payload(_ray_sandbox(policy_json), payload)


def _ray_runtime_infos(policy_json: str) -> dict[str, str]:
    return _runtime_infos(_ray_sandbox(policy_json))


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise ImportError(
            "backend='ray' needs Ray: pip install 'sandbox-wasm[ray]'", name="ray"
        ) from None
    return ray


@contextlib.contextmanager
def _fault_handlers_kept() -> Iterator[None]:
    """Put back this process's handlers of the signals wasmtime turns into traps.

    `ray.init()` installs Ray's crash reporter for SIGSEGV, SIGILL, SIGBUS and SIGFPE on top
    of whatever was there, and `ray.shutdown()` resets them to the defaults. wasmtime raises
    exactly these signals on purpose (a guest's out-of-bounds access, stack overflow or
    trap) and must see them first: otherwise an ordinary guest fault in this process would
    abort the host."""
    import ctypes
    import signal

    saved = []
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        for signum in (signal.SIGSEGV, signal.SIGILL, signal.SIGBUS, signal.SIGFPE):
            # An opaque buffer larger than any libc's struct sigaction: saved and restored
            # by the same libc, its layout never needs to be known.
            action = ctypes.create_string_buffer(1024)
            if libc.sigaction(int(signum), None, action) == 0:
                saved.append((signum, action))
    except (OSError, AttributeError):  # pragma: no cover - no POSIX sigaction here
        saved = []
    try:
        yield
    finally:
        for signum, action in saved:
            libc.sigaction(int(signum), action, None)


def connect_ray(address: str | None, **init_options: Any) -> Any:
    """The `ray` module, connected: to the cluster this process is already connected to,
    else to `address`, else to the one `ray.init()` finds or starts locally."""
    global _ray_started_here
    ray = _import_ray()
    if not ray.is_initialized():
        import logging

        init_options.setdefault("logging_level", logging.WARNING)
        with _fault_handlers_kept():
            ray.init(address=address, **init_options)
        _ray_started_here = True
    return ray


def shutdown_ray() -> None:
    """Disconnect from Ray (stopping a local cluster) if `execute_many` connected."""
    global _ray_started_here
    if _ray_started_here:
        import ray

        # ray.shutdown() resets the fault signals to their defaults, wasmtime's included.
        with _fault_handlers_kept():
            ray.shutdown()
        _ray_started_here = False


class RayPool:
    """Ray tasks, one CPU each. `workers` (default: the cluster's CPUs) is the parallelism
    asked for; twice as many tasks are kept submitted so that no CPU waits for the next task
    through a scheduling round trip (Ray still runs at most one per free CPU). A task whose
    worker process (or node) dies is retried once by Ray itself; a second death is reported
    as `internal_error`."""

    #: Tasks kept submitted per worker.
    IN_FLIGHT_PER_WORKER = 2

    def __init__(self, ray: Any, workers: int | None, policy: AuditPolicy) -> None:
        self._ray = ray
        self._execute = ray.remote(num_cpus=1, max_retries=1, retry_exceptions=False)(
            _ray_execute
        )
        policy_json = policy.model_dump_json()
        self._policy = ray.put(policy_json)
        self._runtimes = _RuntimeBook()
        # A first task checks, before the batch floods the cluster, that the workers can
        # import sandbox-wasm and load its runtime, and tells which runtime they run.
        infos = ray.remote(num_cpus=1, max_retries=1)(_ray_runtime_infos).remote(self._policy)
        try:
            self._runtimes.learn(ray.get(infos))
        except ray.exceptions.RayTaskError as exc:
            cause = getattr(exc, "cause", None)
            if isinstance(cause, SandboxError):
                raise cause from None
            raise SandboxError(f"Ray workers cannot run sandbox-wasm: {cause or exc}") from None
        self.workers = workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
        self._waiting: deque[_Job] = deque()
        self._running: dict[Any, _Job] = {}

    def submit(self, job: _Job) -> None:
        self._waiting.append(job)
        self._fill()

    def _fill(self) -> None:
        while self._waiting and len(self._running) < self.workers * self.IN_FLIGHT_PER_WORKER:
            job = self._waiting.popleft()
            self._running[self._execute.remote(self._policy, job.payload())] = job

    def wait(self) -> list[tuple[int, BatchResult]]:
        ray = self._ray
        refs = list(self._running)
        ready, rest = ray.wait(refs, num_returns=1)
        if rest:
            more, _ = ray.wait(rest, num_returns=len(rest), timeout=0)
            ready += more
        got = []
        for ref in ready:
            job = self._running.pop(ref)
            got.append((job.index, self._collect(ref, job)))
        self._fill()
        return got

    def _collect(self, ref: Any, job: _Job) -> BatchResult:
        ray = self._ray
        try:
            return _outcome_to_result(job, tuple(ray.get(ref)), self._runtimes)
        except ray.exceptions.RayTaskError as exc:
            cause = getattr(exc, "cause", None) or exc
            return internal_error(
                job, f"the Ray task failed: {type(cause).__name__}: {cause}",
                self._runtimes.get(job.language), kind="InternalError",
            )
        except ray.exceptions.RayError as exc:
            first_line = (str(exc).splitlines() or [""])[0]
            return internal_error(
                job, f"the Ray worker running this request died, twice (retried once): "
                f"{type(exc).__name__}: {first_line}", self._runtimes.get(job.language),
            )

    def close(self, abort: bool) -> None:
        if abort:
            for ref in self._running:
                with contextlib.suppress(Exception):
                    self._ray.cancel(ref, force=True)
        self._running.clear()
        self._waiting.clear()


# -- the public entry point ---------------------------------------------------------------------
def default_workers() -> int:
    """The number of cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - macOS, Windows
        return os.cpu_count() or 1


def execute_many(
    requests: Iterable[RequestLike],
    *,
    backend: Backend = "local",
    workers: int | None = None,
    ray_address: str | None = None,
    policy: AuditPolicy | None = None,
    limits: Limits | Mapping[str, Any] | None = None,
    max_pending: int | None = None,
) -> Iterator[BatchResult]:
    """Audit and run many requests in parallel; yield one result per request, in input order.

    `requests` is any iterable (it is read lazily, so a generator over a huge file streams)
    of `ExecutionRequest`, dicts of the same fields, or code strings (Python, default
    limits). Each item yields an `ExecutionResult` or, where `execute()` would have raised
    `InvalidRequestError`, an `InvalidRequest` with `status == "invalid_request"`.

    `backend="local"` runs `workers` worker processes (default: one per core), each with its
    own warm Sandbox. `backend="ray"` runs Ray tasks (one CPU each; up to twice `workers`
    submitted at once, default: the cluster's CPUs) on the cluster this process is connected
    to, else at `ray_address`, else what `ray.init()` finds or starts locally; it needs the
    `ray` extra, and sandbox-wasm with its runtimes on every node.

    A request whose worker dies is retried once on a fresh worker; if that dies too, the
    request's result has status `internal_error`. `limits` are the batch's defaults: a
    field a request sets wins. At most `max_pending` requests (default: 16 per worker,
    at least 64) are read ahead of the result being yielded.

    Raises InvalidRequestError for invalid arguments, RuntimeNotFoundError or
    RuntimeIntegrityError when workers cannot load the runtime, and ImportError for
    `backend="ray"` without Ray. Closing the iterator early stops the workers.
    """
    if backend not in ("local", "ray"):
        raise InvalidRequestError(f"unknown backend {backend!r} (expected 'local' or 'ray')")
    if workers is not None and (not isinstance(workers, int) or workers < 1):
        raise InvalidRequestError(f"workers must be a positive integer, not {workers!r}")
    if max_pending is not None and (not isinstance(max_pending, int) or max_pending < 1):
        raise InvalidRequestError(f"max_pending must be a positive integer, not {max_pending!r}")
    if ray_address is not None and backend != "ray":
        raise InvalidRequestError("ray_address is only used with backend='ray'")
    try:
        base = Limits() if limits is None else Limits.model_validate(limits)
    except ValidationError as exc:
        raise InvalidRequestError(f"invalid limits: {describe_validation_error(exc)}") from None
    defaults = base.model_dump(exclude_unset=True)
    policy = policy or STRICT_POLICY
    if backend == "ray":
        _import_ray()
    items = (prepare(index, item, defaults) for index, item in enumerate(requests))
    return run_prepared(
        items, backend=backend, workers=workers, ray_address=ray_address, policy=policy,
        max_pending=max_pending,
    )


def run_prepared(
    items: Iterator[_Job | InvalidRequest],
    *,
    backend: Backend,
    workers: int | None,
    ray_address: str | None,
    policy: AuditPolicy,
    max_pending: int | None,
) -> Iterator[BatchResult]:
    """`execute_many` on already prepared items (the CLI makes its own per-line errors)."""
    pool: _Pool
    if backend == "ray":
        ray_pool = RayPool(connect_ray(ray_address), workers, policy)
        pool, count = ray_pool, ray_pool.workers
    else:
        count = workers or default_workers()
        pool = LocalPool(count, policy)
    yield from _stream(items, pool, max_pending or max(64, 16 * count))
