"""Batches: many requests -> results in input order, on local processes or a Ray cluster.

The data path per item is the Sandbox's (request -> audit -> sandbox run -> result); this
package only decides where each request runs and makes sure every request comes back: once
as a result, a per-item `InvalidRequest`, or an `internal_error` result when the worker
running it died twice. Nothing is silently dropped.

- `_items`: a request validated into a Job or an InvalidRequest; results made up here
- `_worker`: what a worker does with one request, and its typed reply
- `_stream`: the order-keeping, memory-bounded driver
- `_local`: worker processes on this machine; `_ray`: tasks on a Ray cluster
- `_run`: `execute_many` and `run_prepared`, which pick the backend
"""

from ._items import BatchResult, InvalidRequest, Job, RequestLike, invalid, prepare
from ._local import LocalPool
from ._ray import RayPool, connect_ray, shutdown_ray
from ._run import Backend, default_workers, execute_many, run_prepared

__all__ = [
    "Backend",
    "BatchResult",
    "InvalidRequest",
    "Job",
    "LocalPool",
    "RayPool",
    "RequestLike",
    "connect_ray",
    "default_workers",
    "execute_many",
    "invalid",
    "prepare",
    "run_prepared",
    "shutdown_ray",
]
