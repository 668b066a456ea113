"""sandbox-wasm: run untrusted, LLM-generated Python in a fresh CPython-WASI instance.

Every snippet is audited (a signal) and then run inside WebAssembly with no host files,
no network, no environment, a deadline, a fuel budget and a memory cap (the guarantee).
"""

from ._errors import (
    InvalidRequestError,
    RuntimeIntegrityError,
    RuntimeNotFoundError,
    SandboxClosedError,
    SandboxError,
    SourceTooLargeError,
)
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
    SessionCall,
    Status,
    TimeoutProfile,
    ToolCall,
)
from ._policy import BALANCED_POLICY, REPORT_ONLY_POLICY, STRICT_POLICY, AuditPolicy
from ._sandbox import Sandbox, audit, execute
from ._session import Session, SessionClosedError
from ._session_snapshot import SnapshotError
from ._version import __version__
from .batch import BatchResult, InvalidRequest, execute_many

__all__ = [
    "BALANCED_POLICY",
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
    "SandboxClosedError",
    "SandboxError",
    "Session",
    "SessionCall",
    "SessionClosedError",
    "SnapshotError",
    "SourceTooLargeError",
    "Status",
    "TimeoutProfile",
    "ToolCall",
    "__version__",
    "audit",
    "execute",
    "execute_many",
]
