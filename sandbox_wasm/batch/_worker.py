"""What a batch worker does with one request, on either backend: run it on a warm Sandbox
and answer with a typed reply that the driver turns back into the item's result."""

from __future__ import annotations

import base64
import contextlib
import json
from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel

from .._audit.policy import AuditPolicy
from .._errors import InvalidRequestError, SandboxError
from .._models import ErrorInfo, ExecutionResult, RuntimeInfo
from .._network.policy import NetworkPolicy
from .._sandbox import Sandbox
from ._items import BatchResult, Job, RuntimeBook, internal_error, invalid


class WorkerReply(BaseModel):
    """A worker's answer to one request: its result, or why there is none ("invalid": the
    request was refused, as `execute()` would have raised; "error": a failure of ours)."""

    kind: Literal["result", "invalid", "error"]
    result: ExecutionResult | None = None
    error: ErrorInfo | None = None


def run_request(sandbox: Sandbox, payload: Mapping[str, Any]) -> WorkerReply:
    """Run one request in a worker. Never raises: every failure is in the reply."""
    try:
        files = {name: base64.b64decode(text) for name, text in payload["files"].items()}
        result = sandbox.execute(
            payload["code"], language=payload["language"], limits=payload["limits"],
            files=files or None,
        )
    except InvalidRequestError as exc:
        return WorkerReply(kind="invalid", error=ErrorInfo(type=type(exc).__name__,
                                                           message=str(exc)))
    except Exception as exc:  # a bug or a host problem, reported on the item, never raised
        return WorkerReply(kind="error", error=ErrorInfo(type=type(exc).__name__,
                                                         message=str(exc)))
    return WorkerReply(kind="result", result=result)


def to_result(job: Job, reply: WorkerReply, runtimes: RuntimeBook) -> BatchResult:
    """The item's result from its worker's reply."""
    if reply.kind == "result" and reply.result is not None:
        return reply.result
    error = reply.error or ErrorInfo(type="InternalError", message="empty worker reply")
    if reply.kind == "invalid":
        return invalid(job.index, error.message, error.type)
    return internal_error(job, f"{error.type}: {error.message}", runtimes.get(job.language),
                          kind="InternalError")


def runtime_infos(sandbox: Sandbox) -> dict[str, RuntimeInfo]:
    """The runtime of each language this worker can run, for results the batch has to make
    up itself (a request whose worker died)."""
    infos = {"python": sandbox.runtime_info}
    # No JavaScript runtime here is fine: a JavaScript request will say so itself.
    with contextlib.suppress(SandboxError):
        infos["javascript"] = sandbox.execute("0", language="javascript").runtime
    return infos


def worker_setup(policy: AuditPolicy, runtime: str | None,
                 network: NetworkPolicy | None = None) -> str:
    """What a worker's Sandbox is made with (the batch's policy, runtime and network
    policy), as the text sent to worker processes and Ray tasks."""
    return json.dumps({"policy": policy.model_dump(mode="json"), "runtime": runtime,
                       "network": network.model_dump(mode="json") if network else None},
                      sort_keys=True)


def new_sandbox(setup: str) -> Sandbox:
    """A warm Sandbox for a worker, with the batch's policy and runtime (`worker_setup`)."""
    config = json.loads(setup)
    sandbox = Sandbox(policy=AuditPolicy.model_validate(config["policy"]),
                      runtime=config["runtime"], network=config.get("network"))
    sandbox.warm_up("python")
    return sandbox
