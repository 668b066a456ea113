"""The executor: request -> audit -> sandbox run -> result."""

from __future__ import annotations

import asyncio
import functools
import hashlib
import json
import threading
import time
import uuid
from collections import OrderedDict
from importlib import resources
from pathlib import Path

from pydantic import BaseModel, ValidationError

from . import _javascript as javascript
from ._audit import STRICT_POLICY, AuditPolicy, build_report, policy_tables
from ._errors import InvalidRequestError, SandboxError, SourceTooLargeError
from ._guest_boot import MAX_ERROR_MESSAGE_CHARS, MAX_ERROR_TYPE_CHARS
from ._models import (
    MIB,
    STATUS_EXIT_CODES,
    AuditReport,
    AuditSummary,
    EffectiveLimits,
    ErrorInfo,
    ExecutionResult,
    Language,
    Limits,
    Metrics,
    RuntimeInfo,
    Status,
    TimeoutProfile,
)
from ._runtime import (
    RuntimeFile,
    engine_host,
    javascript_runtime_file,
    python_runtime_file,
    runtime_dir,
    wasmtime_version,
)
from ._wasm import GuestOutcome, GuestProgram

BOOT_SOURCE = resources.files(__package__).joinpath("_guest_boot.py").read_text("utf-8")
# A plain runtime starts the interpreter and runs the bootstrap on every execution; a
# snapshot was started (with the same bootstrap) at build time and only needs stdin.
PLAIN_ARGV = ["python", "-I", "-S", "-u", "-c", BOOT_SOURCE]
SNAPSHOT_ARGV = ["python"]

# The audit parses hostile source; it gets its own fixed budget (deadline and fuel, within
# the same instance as the run) so that a parser-stressing input is cut off like any other
# guest, and the caller's limits apply to the caller's code only. Its memory cap is always
# the request's: no phase of a request may use more memory than the request allows.
AUDIT_TIMEOUT_MS = 10_000


def audit_budget(memory_mb: int) -> Limits:
    """The audit's fixed deadline and fuel, under the request's memory cap."""
    return Limits(timeout_ms=AUDIT_TIMEOUT_MS, memory_mb=memory_mb, max_stdout_bytes=MIB)


AUDIT_CACHE_SIZE = 512


class _HostFailure(Exception):
    """A failure of ours (not the guest's) while running a guest."""


def _now_ms(start: float) -> float:
    return round((time.perf_counter() - start) * 1000, 3)


def coerce_source(code: str | bytes, max_bytes: int) -> str:
    """Validate source text: UTF-8, no null bytes, within the size limit."""
    if isinstance(code, (bytes, bytearray, memoryview)):
        raw = bytes(code)
        if len(raw) > max_bytes:
            raise SourceTooLargeError(
                f"source is {len(raw)} bytes, over the limit of {max_bytes} bytes"
            )
        try:
            code = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InvalidRequestError(
                f"source is not valid UTF-8 (byte {exc.start}: {exc.reason})"
            ) from None
    if not isinstance(code, str):
        raise InvalidRequestError(f"source must be str or bytes, not {type(code).__name__}")
    try:
        size = len(code.encode("utf-8"))
    except UnicodeEncodeError:
        raise InvalidRequestError("source is not valid UTF-8 text (lone surrogate)") from None
    if size > max_bytes:
        raise SourceTooLargeError(f"source is {size} bytes, over the limit of {max_bytes} bytes")
    if "\x00" in code:
        raise InvalidRequestError("source contains a null byte")
    return code


def resolve_limits(
    limits: Limits | dict[str, object] | None = None,
    *,
    profile: TimeoutProfile | str | None = None,
    timeout_ms: int | None = None,
    memory_mb: int | None = None,
) -> Limits:
    """Merge a profile, a Limits object/dict and keyword overrides (keywords win)."""
    try:
        values: dict[str, object] = {}
        if profile is not None:
            if profile not in ("fast_1s", "standard_5s", "extended_30s"):
                raise InvalidRequestError(
                    f"unknown timeout profile {profile!r} "
                    "(expected fast_1s, standard_5s or extended_30s)"
                )
            values.update(Limits.from_profile(profile).model_dump(exclude_unset=True))  # type: ignore[arg-type]
        if isinstance(limits, Limits):
            values.update(limits.model_dump(exclude_unset=True))
        elif isinstance(limits, dict):
            values.update(limits)
        elif limits is not None:
            raise InvalidRequestError("limits must be a Limits object or a dict")
        if timeout_ms is not None:
            values["timeout_ms"] = timeout_ms
        if memory_mb is not None:
            values["memory_mb"] = memory_mb
        return Limits.model_validate(values)
    except ValidationError as exc:
        raise InvalidRequestError("invalid limits: " + describe_validation_error(exc)) from None


def describe_validation_error(exc: ValidationError) -> str:
    """A one-line account of what pydantic rejected, field by field."""
    parts = []
    for error in exc.errors():
        where = ".".join(str(p) for p in error.get("loc", ())) or "request"
        parts.append(f"{where}: {error.get('msg', 'invalid')}")
    return "; ".join(parts)


class Sandbox:
    """Runs audited code in fresh WebAssembly instances. Thread-safe and reusable: the
    Engine and compiled runtime are shared, every execution gets a new Store.

    `python_runtime` picks the Python runtime variant: "snapshot", "bigstack", "plain" or
    "auto" (default, also settable with $SANDBOX_WASM_PYTHON_RUNTIME)."""

    def __init__(
        self,
        *,
        policy: AuditPolicy | None = None,
        limits: Limits | None = None,
        runtime_directory: Path | str | None = None,
        python_runtime: str | None = None,
    ) -> None:
        self.policy = policy or STRICT_POLICY
        self.limits = limits or Limits()
        self._runtime_directory = Path(runtime_directory) if runtime_directory else None
        self._python_variant = python_runtime
        self._programs: dict[str, GuestProgram] = {}
        self._program_lock = threading.Lock()
        self._audit_cache: OrderedDict[str, dict[str, object]] = OrderedDict()
        self._audit_lock = threading.Lock()

    # -- runtime -----------------------------------------------------------------
    def _program(self, language: Language) -> GuestProgram:
        program = self._programs.get(language)
        if program is None:
            with self._program_lock:
                program = self._programs.get(language)
                if program is None:
                    directory = self._runtime_directory or runtime_dir()
                    runtime = (
                        javascript_runtime_file(directory)
                        if language == "javascript"
                        else python_runtime_file(directory, self._python_variant)
                    )
                    program = GuestProgram(engine_host(), runtime)
                    self._programs[language] = program
        return program

    def _python(self) -> GuestProgram:
        return self._program("python")

    def warm_up(self, *languages: Language) -> None:
        """Load (and if needed compile) runtimes now instead of on the first call."""
        for language in languages or ("python",):
            self._program(language)

    @property
    def runtime_info(self) -> RuntimeInfo:
        """Which runtime this sandbox runs (loads it if needed)."""
        return _runtime_info(self._python().runtime)

    # -- audit -------------------------------------------------------------------
    def audit(self, code: str | bytes, *, policy: AuditPolicy | None = None) -> AuditReport:
        """Parse `code` with the guest's 3.12 grammar and apply the policy. Runs nothing
        of `code`; raises InvalidRequestError for unusable input."""
        source = coerce_source(code, self.limits.max_source_bytes)
        return self._public_audit(source, policy or self.policy)

    def _audit(self, source: str, policy: AuditPolicy) -> AuditReport:
        return build_report(policy, self._guest_facts(source))

    def _public_audit(self, source: str, policy: AuditPolicy) -> AuditReport:
        try:
            return self._audit(source, policy)
        except _HostFailure as failure:
            raise SandboxError(f"the audit could not run: {failure}") from None

    def _guest_facts(self, source: str) -> dict[str, object]:
        key = hashlib.sha256(source.encode("utf-8")).hexdigest()
        with self._audit_lock:
            cached = self._audit_cache.get(key)
            if cached is not None:
                self._audit_cache.move_to_end(key)
                return cached
        answer, cacheable = self._run_audit_guest(source)
        if not cacheable:
            return answer
        with self._audit_lock:
            self._audit_cache[key] = answer
            while len(self._audit_cache) > AUDIT_CACHE_SIZE:
                self._audit_cache.popitem(last=False)
        return answer

    def _run_audit_guest(self, source: str) -> tuple[dict[str, object], bool]:
        """The guest's facts about `source`, and whether the answer may be cached."""
        budget = audit_budget(self.limits.memory_mb)
        outcome = self._run(b"audit\n" + source.encode("utf-8"), budget, preamble=True)
        if outcome.host_error is not None:
            raise _HostFailure(outcome.host_error)
        answer = _parse_preamble(outcome)
        if answer is not None:
            return answer, "audit_error" not in answer
        # The parser trapped (C stack) or ran out of time: the source is not something the
        # interpreter could compile either.
        return {"syntax_error": {"message": "source too complex to parse", "line": 0,
                                 "col": 0}}, False

    # -- execution ---------------------------------------------------------------
    def _run(
        self,
        payload: bytes,
        limits: Limits,
        *,
        language: Language = "python",
        argv: list[str] | None = None,
        preamble: bool = False,
        audit_budget: Limits | None = None,
    ) -> GuestOutcome:
        program = self._program(language)
        if argv is None:
            argv = SNAPSHOT_ARGV if program.runtime.kind == "snapshot" else PLAIN_ARGV
        return program.run(
            payload,
            argv=argv,
            timeout_ms=limits.timeout_ms,
            memory_bytes=limits.memory_mb * MIB,
            fuel=limits.effective_fuel,
            stdout_cap=limits.max_stdout_bytes,
            stderr_cap=limits.max_stderr_bytes,
            preamble=preamble,
            audit_timeout_ms=audit_budget.timeout_ms if audit_budget else None,
            audit_fuel=audit_budget.effective_fuel if audit_budget else None,
        )

    def execute(
        self,
        code: str | bytes,
        *,
        language: Language = "python",
        timeout_ms: int | None = None,
        memory_mb: int | None = None,
        limits: Limits | dict[str, object] | None = None,
        profile: TimeoutProfile | str | None = None,
        policy: AuditPolicy | None = None,
    ) -> ExecutionResult:
        """Audit `code`, run it in a fresh instance if allowed, and return the result.

        Raises InvalidRequestError (or SourceTooLargeError) for invalid input and
        RuntimeNotFoundError / RuntimeIntegrityError when the runtime is unusable; anything
        the guest does is reported in the result instead.
        """
        if language not in ("python", "javascript"):
            raise InvalidRequestError(
                f"unsupported language {language!r} (expected 'python' or 'javascript')"
            )
        effective = resolve_limits(
            limits if limits is not None else self.limits,
            profile=profile, timeout_ms=timeout_ms, memory_mb=memory_mb,
        )
        source = coerce_source(code, effective.max_source_bytes)
        policy = policy or self.policy
        program = self._program(language)
        result = _ResultBuilder(language, effective, program.runtime)
        if language == "javascript":
            return self._execute_javascript(source, effective, result)

        # One fresh instance audits and then runs: the guest parses the source, writes its
        # findings as a preamble before any user code runs, and runs the code only if the
        # policy (judged by the same function as here) allows it.
        payload = b"exec\n" + _policy_header(policy) + b"\n" + source.encode("utf-8")
        outcome = self._run(
            payload, effective, preamble=True, audit_budget=audit_budget(effective.memory_mb)
        )
        return self._finish_python(result, outcome, policy)

    def _finish_python(
        self, result: _ResultBuilder, outcome: GuestOutcome, policy: AuditPolicy
    ) -> ExecutionResult:
        answer = _parse_preamble(outcome)
        if answer is None:
            return _without_audit_answer(result, outcome)
        if answer.get("audit_error") == "memory":
            result.take_metrics(outcome)
            limit = result.limits.memory_mb
            error = ErrorInfo(
                type="MemoryLimitExceeded",
                message=f"auditing this source needs more than the {limit} MiB memory cap",
            )
            return result.finish("memory_exceeded", error=error)
        if outcome.preamble_ms is not None:
            # The user's deadline starts at the audit's answer: report the two apart.
            result.metrics.audit_time_ms = round(outcome.preamble_ms, 3)
            outcome.elapsed_ms = max(0.0, outcome.elapsed_ms - outcome.preamble_ms)
        report = build_report(policy, answer)
        result.audit = AuditSummary(
            safety_verdict=report.safety_verdict,
            flagged_calls=report.flagged_calls,
            policy=report.policy,
        )
        result.syntax_valid = report.syntax_valid
        if not report.syntax_valid:
            error = ErrorInfo(type="SyntaxError", message=report.syntax_error or "invalid syntax")
            return result.finish("syntax_error", error=error)
        ran = answer.get("ran") is True
        if ran == (report.safety_verdict == "blocked"):
            # Host and guest disagree about the same facts: trust neither; show nothing.
            error = ErrorInfo(type="InternalError", message="audit decision mismatch")
            return result.finish("internal_error", error=error)
        if not ran:
            first = report.flagged_calls[0]
            more = len(report.flagged_calls) - 1
            message = f"blocked by policy '{policy.name}': {first.reason} (line {first.line})"
            if more:
                message += f" and {more} more finding{'s' if more > 1 else ''}"
            error = ErrorInfo(type="SecurityViolation", message=message)
            return result.finish("blocked", error=error)
        return result.from_outcome(outcome)

    def _execute_javascript(
        self, source: str, limits: Limits, result: _ResultBuilder
    ) -> ExecutionResult:
        result.audit = AuditSummary(safety_verdict="safe", policy="none")
        check_start = time.perf_counter()
        check = self._run(
            source.encode("utf-8"), audit_budget(limits.memory_mb), language="javascript",
            argv=javascript.CHECK_ARGV,
        )
        result.metrics.audit_time_ms = _now_ms(check_start)
        if check.host_error is not None:
            return result.finish(
                "internal_error", error=ErrorInfo(type="InternalError", message=check.host_error)
            )
        try:
            syntax_error = javascript.syntax_error_from_check(check.stdout)
        except ValueError:
            # No answer: the check ran out of its budget or memory, or the parser overflowed.
            if check.trap in ("deadline", "fuel"):
                status: Status = "timeout" if check.trap == "deadline" else "fuel_exhausted"
                return result.finish(status, error=_audit_budget_error(status, limits.memory_mb))
            if limits.memory_mb * MIB - check.peak_memory_bytes < MEMORY_CAP_HEADROOM:
                error = ErrorInfo(
                    type="MemoryLimitExceeded",
                    message="checking the syntax of this source needs more than the "
                    f"{limits.memory_mb} MiB memory cap",
                )
                return result.finish("memory_exceeded", error=error)
            syntax_error = "source too complex to parse"
        if syntax_error is not None:
            result.syntax_valid = False
            return result.finish(
                "syntax_error", error=ErrorInfo(type="SyntaxError", message=syntax_error)
            )
        outcome = self._run(
            b"", limits, language="javascript", argv=javascript.run_argv(source)
        )
        return result.from_outcome(outcome)

    async def execute_async(self, code: str | bytes, **options: object) -> ExecutionResult:
        """`execute()` in a worker thread, so the event loop keeps running meanwhile (wasm
        calls release the GIL)."""
        return await asyncio.to_thread(self.execute, code, **options)  # type: ignore[arg-type]


@functools.lru_cache(maxsize=32)
def _policy_header(policy: AuditPolicy) -> bytes:
    """The policy tables as the guest reads them (policies are frozen, so this is cached).
    The strict tables are built into the guest: naming them saves parsing them per run."""
    tables = policy_tables(policy)
    if policy_tables(STRICT_POLICY.with_mode(policy.mode)) == tables:
        return b"@strict:enforce" if tables["enforce"] else b"@strict:report"
    return json.dumps(tables, separators=(",", ":")).encode()


def _parse_preamble(outcome: GuestOutcome) -> dict[str, object] | None:
    if outcome.preamble is None or outcome.preamble_too_large:
        return None
    try:
        answer = json.loads(outcome.preamble)
    except ValueError:
        return None
    return answer if isinstance(answer, dict) else None


def _without_audit_answer(result: _ResultBuilder, outcome: GuestOutcome) -> ExecutionResult:
    """The guest ended before its audit answer: the deadline, fuel or memory ran out while
    parsing, the parser exhausted the C stack, or the answer was unusable. No user code ran."""
    result.take_metrics(outcome)
    status, _, error = classify(outcome, result.limits, result.stack_bytes)
    if status in ("timeout", "fuel_exhausted"):
        return result.finish(status, error=_audit_budget_error(status, result.limits.memory_mb))
    if status in ("memory_exceeded", "internal_error"):
        return result.finish(status, error=error)
    if outcome.trap in ("c_stack_overflow", "stack_overflow", "memory_out_of_bounds"):
        # The parser overflowed its stack (or crashed on the source): it cannot be compiled.
        result.syntax_valid = False
        message = "source too complex to parse"
        if outcome.trap == "memory_out_of_bounds":
            message += f" (the parser accessed memory out of bounds {outcome.trap_detail})"
        error = ErrorInfo(type="SyntaxError", message=message)
        return result.finish("syntax_error", error=error)
    message = "the audit answer was too large" if outcome.preamble_too_large else (
        "the guest ended without an audit answer"
    )
    return result.finish("internal_error", error=ErrorInfo(type="InternalError", message=message))


def _audit_budget_error(status: Status, memory_mb: int) -> ErrorInfo:
    """The error of an audit (or syntax check) that ran out of its own budget, not the user's."""
    budget = audit_budget(memory_mb)
    if status == "timeout":
        return ErrorInfo(type="TimeoutError", message="auditing the source exceeded the "
                         f"audit's budget of {budget.timeout_ms} ms")
    return ErrorInfo(type="FuelExhausted", message="auditing the source exceeded the "
                     f"audit's budget of {budget.effective_fuel} fuel")


def _runtime_info(runtime: RuntimeFile) -> RuntimeInfo:
    return RuntimeInfo(
        name=runtime.name, version=runtime.version, sha256=runtime.sha256,
        wasmtime=wasmtime_version(),
    )


class _ResultBuilder:
    """Collects the parts of an ExecutionResult as the pipeline advances."""

    def __init__(self, language: Language, limits: Limits, runtime: RuntimeFile) -> None:
        self.execution_id = uuid.uuid4().hex
        self.language = language
        self.limits = EffectiveLimits.of(limits)
        self.runtime = _runtime_info(runtime)
        self.stack_bytes = runtime.stack_bytes
        self.metrics = Metrics()
        self.audit = AuditSummary(safety_verdict="safe", policy="none")
        self.syntax_valid = True

    def finish(
        self,
        status: Status,
        *,
        exit_code: int | None = None,
        error: ErrorInfo | None = None,
        outcome: GuestOutcome | None = None,
    ) -> ExecutionResult:
        stdout = stderr = ""
        stdout_truncated = stderr_truncated = False
        result_json: object | None = None
        result_json_error: str | None = None
        if outcome is not None:
            stdout, stderr = outcome.stdout_text, outcome.stderr_text
            stdout_truncated, stderr_truncated = outcome.stdout_truncated, outcome.stderr_truncated
            result_json, result_json_error = extract_result_json_checked(stdout)
        return ExecutionResult(
            execution_id=self.execution_id,
            language=self.language,
            status=status,
            exit_code=STATUS_EXIT_CODES[status] if exit_code is None else exit_code,
            syntax_valid=self.syntax_valid,
            stdout=stdout,
            stderr=stderr,
            stdout_truncated=stdout_truncated,
            stderr_truncated=stderr_truncated,
            result_json=result_json,
            result_json_error=result_json_error,
            audit=self.audit,
            error=error,
            limits=self.limits,
            metrics=self.metrics,
            runtime=self.runtime,
        )

    def take_metrics(self, outcome: GuestOutcome) -> None:
        metrics = self.metrics
        metrics.execution_time_ms = round(outcome.elapsed_ms, 3)
        metrics.fuel_consumed = outcome.fuel_consumed
        metrics.peak_memory_bytes = outcome.peak_memory_bytes
        metrics.stdout_bytes = outcome.stdout_bytes
        metrics.stderr_bytes = outcome.stderr_bytes

    def from_outcome(self, outcome: GuestOutcome) -> ExecutionResult:
        self.take_metrics(outcome)
        status, exit_code, error = classify(outcome, self.limits, self.stack_bytes)
        if status == "failed" and self.language == "javascript" and exit_code is not None:
            error = javascript.error_from_stderr(outcome.stderr, exit_code)
        return self.finish(status, exit_code=exit_code, error=error, outcome=outcome)


#: A guest that stops abnormally (not a caught MemoryError) with less than this left under
#: its memory cap is taken to have died of the cap: CPython aborts when a small allocation
#: fails where it cannot raise MemoryError.
MEMORY_CAP_HEADROOM = 2 * MIB


def classify(
    outcome: GuestOutcome, limits: EffectiveLimits, stack_bytes: int = 0
) -> tuple[Status, int | None, ErrorInfo | None]:
    """Translate a guest outcome into (status, exit code, error).

    The statuses the host decides come from what wasmtime reports, never from what the guest
    says: `timeout` from the epoch trap or a host call that outlived the deadline,
    `fuel_exhausted` from the fuel trap, `memory_exceeded` from the size of linear memory at
    an abnormal stop. `stack_bytes` is the C stack region the runtime grows at entry (part of
    that size once grown)."""
    if outcome.host_error is not None:
        return "internal_error", None, ErrorInfo(type="InternalError", message=outcome.host_error)
    if outcome.trap == "deadline":
        return "timeout", None, ErrorInfo(
            type="TimeoutError", message=f"execution exceeded the {limits.timeout_ms} ms deadline"
        )
    if outcome.trap == "fuel":
        return "fuel_exhausted", None, ErrorInfo(
            type="FuelExhausted", message=f"execution used its whole budget of {limits.fuel} fuel"
        )
    if outcome.trap in ("c_stack_overflow", "stack_overflow"):
        return "failed", 1, ErrorInfo(
            type="RecursionError",
            message="C stack exhausted (recursion through C code went too deep)",
        )
    if outcome.trap == "memory_out_of_bounds":
        return "failed", 1, ErrorInfo(
            type="GuestCrash",
            message=f"the interpreter accessed memory out of bounds ({outcome.trap_detail})",
        )
    if outcome.trap == "crash":
        memory_error = memory_cap_error(outcome, limits.memory_mb, stack_bytes)
        if memory_error is not None:
            return "memory_exceeded", None, memory_error
        return "failed", 1, ErrorInfo(
            type="GuestCrash", message=f"the interpreter stopped abnormally ({outcome.trap_detail})"
        )
    code = (outcome.exit_code or 0) % 256
    if code == 0:
        return "succeeded", 0, None
    return "failed", code, _guest_error(outcome, code)


def memory_cap_error(
    outcome: GuestOutcome, memory_mb: int, stack_bytes: int = 0
) -> ErrorInfo | None:
    """Why a guest that stopped abnormally died of its memory cap, or None if it did not:
    its linear memory (as wasmtime reports it) ended within MEMORY_CAP_HEADROOM of the cap,
    or the runtime could not even grow its C stack region at entry."""
    cap = memory_mb * MIB
    size = outcome.peak_memory_bytes
    start_needs = outcome.initial_memory_bytes + stack_bytes
    if stack_bytes and size < start_needs and start_needs > cap:
        needed = -(-start_needs // MIB) + 2
        return ErrorInfo(
            type="MemoryLimitExceeded",
            message=f"the {memory_mb} MiB memory cap is below what this runtime needs to start "
            f"(about {needed} MiB)",
        )
    if size and cap - size < MEMORY_CAP_HEADROOM:
        return ErrorInfo(
            type="MemoryLimitExceeded",
            message=f"the guest ran out of its {memory_mb} MiB memory cap",
        )
    return None


def _clean_text(text: str) -> str:
    """Guest text as valid Unicode: JSON escapes can decode to lone surrogates, which no
    JSON encoder (nor UTF-8) accepts; they become U+FFFD."""
    return text.encode("utf-8", "surrogatepass").decode("utf-8", "replace") if text else text


def clean_json_value(value: object) -> object:
    """`value` (parsed from guest JSON) with every string made valid Unicode. Iterative, so
    a deeply nested value cannot exhaust the host's stack."""
    if isinstance(value, str):
        return _clean_text(value)
    if not isinstance(value, (list, dict)):
        return value
    root: list[object] = [value]
    stack: list[tuple[object, object]] = [(root, 0)]
    while stack:
        container, key = stack.pop()
        item = container[key]  # type: ignore[index]
        if isinstance(item, str):
            container[key] = _clean_text(item)  # type: ignore[index]
        elif isinstance(item, list):
            stack.extend((item, index) for index in range(len(item)))
        elif isinstance(item, dict):
            cleaned = {_clean_text(k): v for k, v in item.items()}
            container[key] = cleaned  # type: ignore[index]
            stack.extend((cleaned, k) for k in cleaned)
    return root[0]


def _guest_error(outcome: GuestOutcome, code: int) -> ErrorInfo:
    if outcome.error_record:
        try:
            record = json.loads(outcome.error_record)
            return ErrorInfo(
                type=_clean_text(str(record["type"]))[:MAX_ERROR_TYPE_CHARS],
                message=_clean_text(str(record["message"]))[:MAX_ERROR_MESSAGE_CHARS],
            )
        except (ValueError, KeyError, TypeError, RecursionError):
            pass
    return ErrorInfo(type="SystemExit", message=f"the code exited with status {code}")


def _reject_constant(name: str) -> object:
    raise ValueError(f"{name} is not JSON")


def loads_strict_json(text: str) -> object:
    """`json.loads` of strict JSON: NaN, Infinity and -Infinity raise ValueError."""
    return json.loads(text, parse_constant=_reject_constant)


def extract_result_json(stdout: str) -> object | None:
    """The whole stdout as JSON if it is JSON, else the last non-empty line if it is a JSON
    object or array, else None. Strict JSON only: NaN and Infinity are not JSON."""
    text = stdout.strip()
    if not text:
        return None
    try:
        return clean_json_value(loads_strict_json(text))
    except (ValueError, RecursionError):
        pass
    for line in reversed(text.splitlines()):
        line = line.strip()
        if not line:
            continue
        if line[0] in "[{":
            try:
                return clean_json_value(loads_strict_json(line))
            except (ValueError, RecursionError):
                return None
        return None
    return None


class _ResultJsonProbe(BaseModel):
    """`result_json` at the depth it has in ExecutionResult, to try it before using it."""

    result_json: object | None = None


def extract_result_json_checked(stdout: str) -> tuple[object | None, str | None]:
    """`extract_result_json`, kept only if it survives the result model's JSON encoder and
    parser unchanged (pydantic-core bounds nesting in both): (value, None), or (None, why)."""
    value = extract_result_json(stdout)
    if value is None or isinstance(value, (str, bool)):
        return value, None
    try:
        encoded = _ResultJsonProbe(result_json=value).model_dump_json()
        same = _ResultJsonProbe.model_validate_json(encoded).result_json == value
    except (ValueError, RecursionError):  # pydantic's errors are ValueErrors
        same = False
    if not same:
        return None, (
            "stdout is JSON, but not representable in the result (nested too deeply or too "
            "large a number)"
        )
    return value, None


_default_sandbox: Sandbox | None = None
_default_lock = threading.Lock()


def default_sandbox() -> Sandbox:
    """The process-wide Sandbox used by the module-level functions."""
    global _default_sandbox
    with _default_lock:
        if _default_sandbox is None:
            _default_sandbox = Sandbox()
        return _default_sandbox


def execute(
    code: str | bytes,
    *,
    language: Language = "python",
    timeout_ms: int | None = None,
    memory_mb: int | None = None,
    limits: Limits | dict[str, object] | None = None,
    profile: TimeoutProfile | str | None = None,
    policy: AuditPolicy | None = None,
) -> ExecutionResult:
    """Audit and run `code` in a fresh sandbox instance; see `Sandbox.execute`."""
    return default_sandbox().execute(
        code, language=language, timeout_ms=timeout_ms, memory_mb=memory_mb,
        limits=limits, profile=profile, policy=policy,
    )


def audit(code: str | bytes, *, policy: AuditPolicy | None = None) -> AuditReport:
    """Audit `code` without running it; see `Sandbox.audit`."""
    return default_sandbox().audit(code, policy=policy)
