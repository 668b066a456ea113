"""The Ray batch backend: one task per request (one CPU each) on a cluster, each worker
process keeping a warm Sandbox per policy between tasks."""

from __future__ import annotations

import contextlib
from collections import deque
from collections.abc import Iterator
from typing import Any

from .._errors import SandboxError
from .._models import RuntimeInfo
from .._sandbox import Sandbox
from ._items import BatchResult, Job, RuntimeBook, internal_error
from ._worker import WorkerReply, new_sandbox, run_request, runtime_infos, to_result

_RAY_SANDBOXES: dict[str, Sandbox] = {}
_ray_started_here = False


def _ray_sandbox(policy_json: str) -> Sandbox:
    # One Sandbox per worker process and policy: Ray reuses its worker processes, so after
    # its first task each worker runs with a warm engine and compiled runtime.
    sandbox = _RAY_SANDBOXES.get(policy_json)
    if sandbox is None:
        sandbox = _RAY_SANDBOXES[policy_json] = new_sandbox(policy_json)
    return sandbox


def _ray_execute(policy_json: str, payload: dict[str, Any]) -> WorkerReply:
    return run_request(_ray_sandbox(policy_json), payload)


def _ray_runtime_infos(policy_json: str) -> dict[str, RuntimeInfo]:
    return runtime_infos(_ray_sandbox(policy_json))


def import_ray() -> Any:
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
    ray = import_ray()
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

    def __init__(self, ray: Any, workers: int | None, setup: str) -> None:
        self._ray = ray
        self._execute = ray.remote(num_cpus=1, max_retries=1, retry_exceptions=False)(
            _ray_execute
        )
        self._policy = ray.put(setup)  # the workers' policy and runtime (`worker_setup`)
        self._runtimes = RuntimeBook()
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
        self._waiting: deque[Job] = deque()
        self._running: dict[Any, Job] = {}

    def submit(self, job: Job) -> None:
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

    def _collect(self, ref: Any, job: Job) -> BatchResult:
        ray = self._ray
        try:
            return to_result(job, ray.get(ref), self._runtimes)
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
