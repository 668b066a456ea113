"""sandbox-wasm: run untrusted, LLM-generated Python in a fresh CPython-WASI instance.

Every snippet is audited (a signal) and then run inside WebAssembly with no host files,
no network, no environment, a deadline, a fuel budget and a memory cap (the guarantee).
"""

from importlib import metadata as _metadata

from ._audit import REPORT_ONLY_POLICY, STRICT_POLICY, AuditPolicy
from ._batch import BatchResult, InvalidRequest, execute_many
from ._errors import (
    InvalidRequestError,
    RuntimeIntegrityError,
    RuntimeNotFoundError,
    SandboxError,
    SourceTooLargeError,
)
from ._executor import Sandbox, audit, execute
from ._models import (
    AuditReport,
    AuditSummary,
    EffectiveLimits,
    ErrorInfo,
    ExecutionRequest,
    ExecutionResult,
    Finding,
    Limits,
    Metrics,
    RuntimeInfo,
    Status,
    TimeoutProfile,
)

try:
    __version__ = _metadata.version("sandbox-wasm")
except _metadata.PackageNotFoundError:  # pragma: no cover - running from a source tree
    __version__ = "0.0.0"

__all__ = [
    "REPORT_ONLY_POLICY",
    "STRICT_POLICY",
    "AuditPolicy",
    "AuditReport",
    "AuditSummary",
    "BatchResult",
    "EffectiveLimits",
    "ErrorInfo",
    "ExecutionRequest",
    "ExecutionResult",
    "Finding",
    "InvalidRequest",
    "InvalidRequestError",
    "Limits",
    "Metrics",
    "RuntimeInfo",
    "RuntimeIntegrityError",
    "RuntimeNotFoundError",
    "Sandbox",
    "SandboxError",
    "SourceTooLargeError",
    "Status",
    "TimeoutProfile",
    "__version__",
    "audit",
    "execute",
    "execute_many",
]
