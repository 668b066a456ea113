"""sandbox-wasm: run untrusted, LLM-generated Python in a fresh CPython-WASI instance.

Every snippet is audited (a signal) and then run inside WebAssembly with no host files,
no network (unless the caller allows hosts: `network=`, carried out by the host), no
environment, a deadline, a fuel budget and a memory cap (the guarantee).
"""

import importlib
import typing

from ._audit.policy import BALANCED_POLICY, REPORT_ONLY_POLICY, STRICT_POLICY, AuditPolicy
from ._errors import (
    InvalidRequestError,
    RuntimeIntegrityError,
    RuntimeNotFoundError,
    SandboxClosedError,
    SandboxError,
    SessionClosedError,
    SnapshotError,
    SourceTooLargeError,
)
from ._models import (
    AuditReport,
    AuditSummary,
    EffectiveLimits,
    ErrorInfo,
    ExecutionRequest,
    ExecutionResult,
    ExpressionValue,
    Finding,
    Limits,
    Metrics,
    NetworkCall,
    OutputChunk,
    RuntimeInfo,
    SessionCall,
    Status,
    TimeoutProfile,
    ToolCall,
)
from ._sandbox import Sandbox, audit, execute
from ._tools import Tool, tool

if typing.TYPE_CHECKING:
    from ._network.policy import NetworkPolicy, NetworkRule
    from ._session.session import Session
    from ._version import __version__
    from .batch import BatchResult, InvalidRequest, execute_many

# Imported on first use (PEP 562), so that `import sandbox_wasm` and a first `execute()`
# do not pay for sessions, batches or the version (read from the installed metadata):
# a new process's start-up is part of its latency.
_LAZY = {
    "__version__": "._version",
    "Session": "._session.session",
    "NetworkPolicy": "._network.policy", "NetworkRule": "._network.policy",
    "BatchResult": ".batch", "InvalidRequest": ".batch", "execute_many": ".batch",
}


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'sandbox_wasm' has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value


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
    "ExpressionValue",
    "Finding",
    "InvalidRequest",
    "InvalidRequestError",
    "Limits",
    "Metrics",
    "NetworkCall",
    "NetworkPolicy",
    "NetworkRule",
    "OutputChunk",
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
    "Tool",
    "ToolCall",
    "__version__",
    "audit",
    "execute",
    "execute_many",
    "tool",
]
