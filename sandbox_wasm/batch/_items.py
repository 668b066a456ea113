"""Batch items: a request validated into a `Job` or an `InvalidRequest`, and the results a
batch makes up itself when no worker could finish a request."""

from __future__ import annotations

import base64
import functools
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import ValidationError

from .._models import (
    INVALID_REQUEST_EXIT_CODE,
    STATUS_EXIT_CODES,
    AuditSummary,
    EffectiveLimits,
    ErrorInfo,
    ExecutionRequest,
    ExecutionResult,
    Language,
    Limits,
    Metrics,
    ResultModel,
    RuntimeInfo,
)
from .._request import describe_validation_error


class InvalidRequest(ResultModel):
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


@dataclass
class Job:
    """One valid request on its way to a worker."""

    index: int
    code: str
    language: Language
    limits: dict[str, Any]
    files: dict[str, bytes] = field(default_factory=dict)
    attempts: int = 0

    def payload(self) -> dict[str, Any]:
        """The request as a worker receives it (JSON-ready: files in base64)."""
        files = {name: base64.b64encode(data).decode("ascii") for name, data in self.files.items()}
        return {"code": self.code, "language": self.language, "limits": self.limits,
                "files": files}

    @functools.cached_property
    def timeout_s(self) -> float:
        """The request's deadline in seconds (validated once: read at every answer)."""
        return Limits.model_validate(self.limits).timeout_ms / 1000


def invalid(index: int, message: str, kind: str = "InvalidRequestError") -> InvalidRequest:
    """The per-item record of a request that could not be run."""
    return InvalidRequest(index=index, error=ErrorInfo(type=kind, message=message))


def prepare(index: int, item: object, defaults: Mapping[str, Any]) -> Job | InvalidRequest:
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
    return Job(index, item.code, item.language, limits, files=item.files)


def internal_error(
    job: Job, message: str, runtime: RuntimeInfo | None, kind: str = "WorkerCrashed"
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


class RuntimeBook:
    """Which runtime each language ran on, as reported by the workers (for the results a
    batch makes up itself)."""

    def __init__(self) -> None:
        self._infos: dict[str, RuntimeInfo] = {}

    def learn(self, infos: Mapping[str, RuntimeInfo]) -> None:
        for language, info in infos.items():
            self._infos.setdefault(language, info)

    def get(self, language: str) -> RuntimeInfo | None:
        return self._infos.get(language)
