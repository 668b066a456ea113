"""Drop-in classes for the products sandbox-wasm replaces, as thin layers over `Sandbox`.

- `SafeCodeExecutor` (the DAARION "safe_code_executor"): `execute(language=, code=,
  limits=)` returning a result read as a dict (`result["status"]`, `result["stdout"]`,
  `result["result_json"]`, `result["execution_id"]`, `result["metrics"]`).
- `SecureToolRuntime`, `ASTSafetyValidator`, `SecurityValidationError` (the "Tool Sandbox"):
  validation raises before anything runs; a run returns stdout, stderr and an error status;
  the default timeout is 2.0 s.

What changes for the code that moves over: the code runs in a fresh CPython-WebAssembly
instance instead of a subprocess, so it has no host files, network or environment at all,
and a memory cap and an instruction budget besides the timeout. The audit is the strict
policy (a superset of both products' banned lists); pass `policy=` to change it.

Example:
    from sandbox_wasm.compat import SafeCodeExecutor

    result = SafeCodeExecutor().execute(language="python", code="print(1 + 1)")
    result["status"]   # "succeeded"
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from ._audit.policy import STRICT_POLICY, AuditPolicy
from ._errors import InvalidRequestError, SandboxError
from ._models import AuditReport, ExecutionResult, Finding, Language, Limits, ResultModel
from ._request import validate_limits
from ._sandbox import Sandbox

__all__ = [
    "ASTSafetyValidator",
    "SafeCodeExecutor",
    "SecureToolRuntime",
    "SecurityValidationError",
    "ToolRunResult",
]

# The safe_code_executor's HTTP limit names, as its users pass them to `execute(limits=)`.
_LIMIT_ALIASES = {"max_memory_mb": "memory_mb"}


def _limits(limits: Limits | Mapping[str, Any] | None, base: Limits) -> Limits:
    if limits is None:
        return base
    if isinstance(limits, Limits):
        return limits
    if not isinstance(limits, Mapping):
        raise InvalidRequestError("limits must be a dict or a Limits", field="limits")
    values = base.model_dump(exclude_unset=True)
    values.update({_LIMIT_ALIASES.get(key, key): value for key, value in limits.items()})
    return validate_limits(values)


class SafeCodeExecutor:
    """The safe_code_executor's interface on the WebAssembly sandbox.

    `execute()` returns an `ExecutionResult`, which reads as the dict the old executor
    returned: `status` ("succeeded", "failed", "blocked", "timeout", ...), `execution_id`,
    `stdout`, `stderr`, `result_json` (stdout parsed as JSON, or null) and `metrics`
    (`execution_time_ms`, `stdout_bytes`, ...). Limits take the old names (`timeout_ms`,
    `max_memory_mb`, `max_stdout_bytes`, `max_stderr_bytes`) and the same defaults and
    maxima (5 s / 30 s, 256 MB / 1 GB, 64 KB / 1 MB, 8 KB / 64 KB). Invalid requests (an
    unknown language, limits out of range, null bytes in the code) raise
    `InvalidRequestError`, a `ValueError`; everything the code does is in the result.
    """

    def __init__(
        self,
        *,
        limits: Limits | Mapping[str, Any] | None = None,
        policy: AuditPolicy | None = None,
        sandbox: Sandbox | None = None,
    ) -> None:
        self.limits = _limits(limits, Limits())
        self.sandbox = sandbox or Sandbox(policy=policy or STRICT_POLICY)

    def execute(
        self,
        language: Language = "python",
        code: str | bytes = "",
        limits: Limits | Mapping[str, Any] | None = None,
    ) -> ExecutionResult:
        """Audit and run `code`; the result reads as a dict (see the class docstring)."""
        return self.sandbox.execute(code, language=language, limits=_limits(limits, self.limits))

    def close(self) -> None:
        """Release the sandbox's runtimes."""
        self.sandbox.close()


class SecurityValidationError(SandboxError):
    """The code was refused before running: it does not parse, or the policy blocks an
    import or a call. `findings` lists what was flagged (empty for a syntax error)."""

    def __init__(self, message: str, report: AuditReport) -> None:
        super().__init__(message)
        self.report = report
        self.findings: list[Finding] = list(report.flagged_calls)


class ASTSafetyValidator:
    """The static check of the Tool Sandbox: parses the code (with the guest's own grammar,
    inside the sandbox) and raises `SecurityValidationError` if it does not parse or if it
    imports a banned module or calls a banned function. It blocks at least the Tool
    Sandbox's banned lists (os, sys, subprocess, socket, builtins, shutil, ctypes, requests,
    urllib, pty, platform; eval, exec, open, compile, getattr, setattr, globals, locals,
    __import__, input, exit, quit): the strict policy is a superset of them."""

    def __init__(self, policy: AuditPolicy | None = None, *, sandbox: Sandbox | None = None):
        policy = policy or STRICT_POLICY
        self.policy = policy if policy.mode == "enforce" else policy.with_mode("enforce")
        self.sandbox = sandbox or Sandbox(policy=self.policy)

    def validate(self, code: str | bytes) -> AuditReport:
        """The audit report of safe code; raises SecurityValidationError otherwise."""
        report = self.sandbox.audit(code, policy=self.policy)
        if not report.syntax_valid:
            raise SecurityValidationError(
                f"invalid Python: {report.syntax_error or 'syntax error'}", report
            )
        if report.safety_verdict != "safe":
            first = report.flagged_calls[0]
            more = len(report.flagged_calls) - 1
            suffix = f" (and {more} more)" if more else ""
            raise SecurityValidationError(
                f"{first.reason} at line {first.line}{suffix}", report
            )
        return report


class ToolRunResult(ResultModel):
    """What a `SecureToolRuntime` run returns: the captured stdout and stderr and an error
    status (None when the code succeeded; otherwise "TimeoutError: ..." or the guest's
    "ExceptionType: message"). Reads as a dict too; `result` is the full ExecutionResult."""

    success: bool
    stdout: str
    stderr: str
    error: str | None
    status: Literal[
        "succeeded", "failed", "blocked", "syntax_error", "timeout", "fuel_exhausted",
        "memory_exceeded", "internal_error", "interrupted",
    ]
    result: ExecutionResult


class SecureToolRuntime:
    """The Tool Sandbox's runtime on the WebAssembly sandbox: `execute(code)` validates the
    code first (raising `SecurityValidationError` before anything runs), then runs it and
    returns a `ToolRunResult`. The default timeout is 2.0 seconds; a run that exceeds it is
    stopped and reported with `error` "TimeoutError: ...". `run` is the same method."""

    def __init__(
        self,
        timeout_seconds: float = 2.0,
        *,
        policy: AuditPolicy | None = None,
        limits: Limits | Mapping[str, Any] | None = None,
    ) -> None:
        self.timeout_seconds = timeout_seconds
        self.validator = ASTSafetyValidator(policy)
        self.sandbox = self.validator.sandbox
        self.limits = _limits(limits, Limits())

    def execute(self, code: str | bytes, timeout_seconds: float | None = None) -> ToolRunResult:
        """Validate, then run `code`; see the class docstring."""
        self.validator.validate(code)
        seconds = self.timeout_seconds if timeout_seconds is None else timeout_seconds
        limits = self.limits.model_copy(update={"timeout_ms": max(1, round(seconds * 1000))})
        result = self.sandbox.execute(code, limits=validate_limits(limits.model_dump()))
        error = None
        if result.status != "succeeded":
            info = result.error
            error = f"{info.type}: {info.message}" if info else result.status
        return ToolRunResult(
            success=result.status == "succeeded", stdout=result.stdout, stderr=result.stderr,
            error=error, status=result.status, result=result,
        )

    run = execute

    def close(self) -> None:
        """Release the sandbox's runtimes."""
        self.sandbox.close()
