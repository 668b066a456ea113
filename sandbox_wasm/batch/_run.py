"""`execute_many`: many requests -> results in input order, on local processes or Ray."""

from __future__ import annotations

from collections.abc import Generator, Iterable, Iterator, Mapping
from typing import Any, Literal

from .._audit.policy import DEFAULT_POLICY, AuditPolicy, PolicyLike, resolve_policy
from .._errors import InvalidRequestError
from .._models import Limits, TimeoutProfile
from .._network.policy import NetworkLike, NetworkPolicy, resolve_network
from .._request import resolve_limits
from .._runtimes.artifacts import python_variant
from .._runtimes.system import usable_cpus
from ._items import BatchResult, InvalidRequest, Job, RequestLike, prepare
from ._local import LocalPool
from ._ray import RayPool, connect_ray, import_ray
from ._stream import Pool, stream
from ._worker import worker_setup

Backend = Literal["local", "ray"]

def default_workers() -> int:
    """The number of cores this process may use."""
    return usable_cpus()


def execute_many(
    requests: Iterable[RequestLike],
    *,
    backend: Backend = "local",
    workers: int | None = None,
    ray_address: str | None = None,
    policy: PolicyLike | None = None,
    limits: Limits | Mapping[str, Any] | None = None,
    timeout_ms: int | None = None,
    memory_mb: int | None = None,
    profile: TimeoutProfile | str | None = None,
    max_pending: int | None = None,
    runtime: str | None = None,
    network: NetworkLike | None = None,
) -> Iterator[BatchResult]:
    """Audit and run many requests in parallel; yield one result per request, in input order.

    `requests` is any iterable (it is read lazily, so a generator over a huge file streams)
    of `ExecutionRequest`, dicts of the same fields, or code strings (Python, default
    limits). A request's `files` (name -> bytes, or base64 text as in JSON) are its /input;
    its result's `files` what it wrote under /output. Each item yields an `ExecutionResult`
    or, where `execute()` would have raised `InvalidRequestError`, an `InvalidRequest` with
    `status == "invalid_request"`.

    `backend="local"` runs `workers` worker processes (default: one per core), each with its
    own warm Sandbox. `backend="ray"` runs Ray tasks (one CPU each; up to twice `workers`
    submitted at once, default: the cluster's CPUs) on the cluster this process is connected
    to, else at `ray_address`, else what `ray.init()` finds or starts locally; it needs the
    `ray` extra, and sandbox-wasm with its runtimes on every node.

    A request whose worker dies is retried once on a fresh worker; if that dies too, the
    request's result has status `internal_error`. `limits` (and `profile`, `timeout_ms`,
    `memory_mb`, which win over it, as in `execute()`) are the batch's defaults: a field a
    request sets wins. At most `max_pending` requests (default: 16 per worker,
    at least 64) are read ahead of the result being yielded.

    Raises InvalidRequestError for invalid arguments, RuntimeNotFoundError or
    RuntimeIntegrityError when workers cannot load the runtime (`runtime`: "python", the
    default, or "python-data", with numpy and pandas), and ImportError for
    `backend="ray"` without Ray. Closing the iterator early stops the workers.
    `network` (as `execute(network=...)`) is every request's network policy.
    """
    if backend not in ("local", "ray"):
        raise InvalidRequestError(f"unknown backend {backend!r} (expected 'local' or 'ray')")
    if workers is not None and (not isinstance(workers, int) or workers < 1):
        raise InvalidRequestError(f"workers must be a positive integer, not {workers!r}")
    if max_pending is not None and (not isinstance(max_pending, int) or max_pending < 1):
        raise InvalidRequestError(f"max_pending must be a positive integer, not {max_pending!r}")
    if ray_address is not None and backend != "ray":
        raise InvalidRequestError("ray_address is only used with backend='ray'")
    base = resolve_limits(limits, profile=profile, timeout_ms=timeout_ms, memory_mb=memory_mb)
    defaults = base.model_dump(exclude_unset=True)
    policy = resolve_policy(policy, DEFAULT_POLICY)
    python_variant(runtime)  # an unknown name is refused before any worker starts
    allowed = resolve_network(network)
    if backend == "ray":
        import_ray()
    items = (prepare(index, item, defaults) for index, item in enumerate(requests))
    return run_prepared(
        items, backend=backend, workers=workers, ray_address=ray_address, policy=policy,
        max_pending=max_pending, runtime=runtime, network=allowed,
    )


def run_prepared(
    items: Iterator[Job | InvalidRequest],
    *,
    backend: Backend,
    workers: int | None,
    ray_address: str | None,
    policy: AuditPolicy,
    max_pending: int | None,
    runtime: str | None = None,
    network: NetworkPolicy | None = None,
) -> Generator[BatchResult, None, None]:
    """`execute_many` on already prepared items (the CLI makes its own per-line errors)."""
    pool: Pool
    setup = worker_setup(policy, runtime, network)
    if backend == "ray":
        ray_pool = RayPool(connect_ray(ray_address), workers, setup)
        pool, count = ray_pool, ray_pool.workers
    else:
        count = workers or default_workers()
        pool = LocalPool(count, setup)
    yield from stream(items, pool, max_pending or max(64, 16 * count))
