"""From what happened in the guest to the result the caller gets: the audit's answer judged,
the outcome classified into a status, output and `result_json` checked, metrics reported.

The statuses the host decides come from what wasmtime reports, never from what the guest
says: `timeout` from the epoch trap or a host call that outlived the deadline,
`fuel_exhausted` from the fuel trap, `memory_exceeded` from the size of linear memory at an
abnormal stop, `internal_error` from the host's own failures, `interrupted` from the
caller's interrupt seen by the host during the run.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import os
import threading
from collections.abc import Collection, Sequence

import pydantic_core

from ._audit.cache import AUDIT_CACHE, AuditKey, KnownAudit
from ._audit.policy import AuditPolicy
from ._audit.report import build_report, network_findings
from ._host.output import GuestOutcome
from ._json import JSON_STARTS, clean_json_value, clean_text, loads_strict_json
from ._models import (
    MIB,
    STATUS_EXIT_CODES,
    AuditReport,
    AuditSummary,
    EffectiveLimits,
    ErrorInfo,
    ExecutionResult,
    ExpressionValue,
    Finding,
    Language,
    Limits,
    Metrics,
    NetworkCall,
    RuntimeInfo,
    Status,
    ToolCall,
    construct,
    set_fields,
    shallow_copy,
)
from ._request import audit_budget
from ._runtimes import javascript
from ._runtimes.artifacts import RuntimeFile, wasmtime_version
from ._wire import (
    KNOWN_ANSWER,
    MAX_ERROR_MESSAGE_CHARS,
    MAX_ERROR_TYPE_CHARS,
    MAX_RUNTIME_FINDINGS,
    MAX_VALUE_REPR_CHARS,
    answer_is_incomplete,
    decode_error_record,
    decode_value_record,
    parse_audit_answer,
    split_answer,
)

#: The longest type name of a value the host keeps, whatever the record says.
MAX_VALUE_TYPE_CHARS = 200

#: A guest that stops abnormally (not a caught MemoryError) with less than this left under
#: its memory cap is taken to have died of the cap: CPython aborts when a small allocation
#: fails where it cannot raise MemoryError.
MEMORY_CAP_HEADROOM = 2 * MIB


def _no_audit() -> AuditSummary:
    """The audit section before (or without) an audit."""
    return construct(AuditSummary, safety_verdict="safe", policy="none", flagged_calls=[],
                     tools=[], network=[])


def new_execution_id() -> str:
    """A random (version 4) UUID as 32 hex digits: `uuid.uuid4().hex` without building the
    UUID object, from the operating system's randomness as uuid4 takes it, read 4 KiB at a
    time (a read per id was half of the cost, on every result's path)."""
    with _random_lock:
        if len(_random_bytes) < 16:
            _random_bytes[:] = os.urandom(4096)
        value = int.from_bytes(_random_bytes[-16:], "big")
        del _random_bytes[-16:]
    value = (value & _UUID_KEPT_BITS) | _UUID_VERSION_4_BITS
    return f"{value:032x}"


_random_lock = threading.Lock()
_random_bytes = bytearray()


def _forget_random_bytes() -> None:
    # A child made by fork must not hand out its parent's next ids.
    global _random_lock
    _random_lock = threading.Lock()
    _random_bytes.clear()


os.register_at_fork(after_in_child=_forget_random_bytes)


# RFC 4122: version 4 in bits 76-79, variant 0b10 in bits 62-63.
_UUID_VERSION_4_BITS = (0x4000 << 64) | (0x8000 << 48)
_UUID_KEPT_BITS = ~((0xF000 << 64) | (0xC000 << 48))


def _error(*, type: str, message: str) -> ErrorInfo:
    """An `ErrorInfo` of the host's own strings, constructed without a validation."""
    return construct(ErrorInfo, type=type, message=message)


def runtime_info(runtime: RuntimeFile) -> RuntimeInfo:
    """The public description of a runtime (each result gets its own, mutable, copy)."""
    return shallow_copy(_runtime_info(runtime))


@functools.lru_cache(maxsize=64)
def _runtime_info(runtime: RuntimeFile) -> RuntimeInfo:
    # Once per runtime file: it is on every execution's path.
    return construct(RuntimeInfo, name=runtime.name, version=runtime.version,
                     sha256=runtime.sha256, wasmtime=wasmtime_version())


def runtime_findings(record: bytes | None) -> list[Finding]:
    """The run-time guard's findings from its record (a JSON list of [kind, name, line,
    col, reason]); what does not have that shape is dropped (user code can write to
    stderr too, so the record is read as untrusted)."""
    if not record:
        return []
    try:
        items = json.loads(record)
    except ValueError:
        return []
    found: list[Finding] = []
    for item in items[:MAX_RUNTIME_FINDINGS] if isinstance(items, list) else ():
        try:
            kind, name, line, col, reason = item
            found.append(Finding(kind=kind, name=clean_text(str(name)), line=int(line),
                                 col=int(col), reason=clean_text(str(reason))))
        except (TypeError, ValueError):
            continue
    return found


class ResultBuilder:
    """The result of one execution, built as the pipeline advances: the audit summary and
    syntax flag first, the guest's outcome and metrics last."""

    def __init__(self, language: Language, limits: Limits, runtime: RuntimeFile) -> None:
        self.execution_id = new_execution_id()
        self.language = language
        self.limits = EffectiveLimits.of(limits)
        self.runtime = runtime_info(runtime)
        # The host's own values: constructed, not validated (a validation per run is host
        # work on every result's path, and a first one builds the model's validator).
        self.metrics = construct(Metrics)
        #: The audit section; None: none yet (`_no_audit()` in the result).
        self.audit: AuditSummary | None = None
        self.syntax_valid = True

    # -- Python: one instance audits, then runs ----------------------------------------
    def from_python_run(
        self, outcome: GuestOutcome, policy: AuditPolicy, tools: Collection[str] = (),
        network: Sequence[str] | None = None, *, known: KnownAudit | None = None,
        cache_key: AuditKey | None = None, code_asked: bool = False,
    ) -> ExecutionResult:
        """The result of an exec run: the guest's audit answer judged with `policy` (the
        same function the guest used), then the user code's outcome if it ran. `tools` are
        the names of the host tools offered, listed in the audit where the source uses them;
        `network`, the rules of the run's network policy (None: no network), named in the
        audit's network findings. `known`: the audit cache's answer for this source, which
        the request told the guest (it answers KNOWN_ANSWER instead of the facts);
        `cache_key`: where an answer that let the code run is kept (`_audit/cache.py`);
        `code_asked`: whether the request asked for the compiled code with the answer (a
        one-shot run's: only then is code after the answer taken, and kept with it)."""
        raw, code = split_answer(None if outcome.answer_too_large else outcome.audit_answer)
        if not code_asked:
            code = b""
        if known is not None and raw == KNOWN_ANSWER:
            # The answer the request asked for (parsed, it says no more than that).
            if code and cache_key is not None:
                AUDIT_CACHE.keep_code(cache_key, code)
            return self._judged(outcome, policy, tools, network, known.answer,
                                _fresh_report(known.report))
        answer = parse_audit_answer(raw)
        if known is not None and answer is not None and "audit_error" not in answer:
            if raw != KNOWN_ANSWER:
                # The guest could not compile what it compiled before: trust neither.
                error = _error(type="InternalError", message="audit decision mismatch")
                return self.finish("internal_error", error=error)
            return self._judged(outcome, policy, tools, network, known.answer,
                                _fresh_report(known.report))
        if answer is None:
            return self._without_audit_answer(outcome)
        if answer.get("audit_error") == "memory":
            self.take_metrics(outcome, user_code_only=False)
            error = _error(
                type="MemoryLimitExceeded",
                message="auditing this source needs more than the "
                f"{self.limits.memory_mb} MiB memory cap",
            )
            return self.finish("memory_exceeded", error=error)
        report = build_report(policy, answer)
        if (cache_key is not None and raw is not None and answer.get("ran") is True
                and report.syntax_valid and report.safety_verdict != "blocked"
                and not answer_is_incomplete(answer)):
            AUDIT_CACHE.remember(cache_key, answer, report, len(raw), code)
            report = _fresh_report(report)  # the kept one is never the caller's
        return self._judged(outcome, policy, tools, network, answer, report)

    def _judged(
        self, outcome: GuestOutcome, policy: AuditPolicy, tools: Collection[str],
        network: Sequence[str] | None, answer: dict[str, object], report: AuditReport,
    ) -> ExecutionResult:
        """The result once the audit's answer is judged (`report`)."""
        if outcome.audit_answer_ms is not None:
            # The user's deadline starts at the audit's answer: report the two apart.
            set_fields(self.metrics, audit_time_ms=round(outcome.audit_answer_ms, 3))
        self.audit = construct(
            AuditSummary,
            safety_verdict=report.safety_verdict,
            flagged_calls=report.flagged_calls,
            policy=report.policy,
            tools=tool_references(answer, tools),
            network=network_findings(_facts(answer), network),
        )
        self.syntax_valid = report.syntax_valid
        if not report.syntax_valid:
            error = _error(type="SyntaxError", message=report.syntax_error or "invalid syntax")
            return self.finish("syntax_error", error=error)
        ran = answer.get("ran") is True
        if ran == (report.safety_verdict == "blocked"):
            # Host and guest disagree about the same facts: trust neither; show nothing.
            error = _error(type="InternalError", message="audit decision mismatch")
            return self.finish("internal_error", error=error)
        if not ran:
            first = report.flagged_calls[0]
            more = len(report.flagged_calls) - 1
            message = f"blocked by policy '{policy.name}': {first.reason} (line {first.line})"
            if more:
                message += f" and {more} more finding{'s' if more > 1 else ''}"
            return self.finish("blocked", error=_error(type="SecurityViolation",
                                                       message=message))
        self._add_runtime_findings(outcome)
        return self.from_outcome(outcome)

    def _add_runtime_findings(self, outcome: GuestOutcome) -> None:
        """What the guest's run-time guard found while the code ran (computed attribute
        names, code compiled at run time, ...): listed with the static findings, and the
        verdict is `flagged` (the code ran; the guard refused what it found under an
        enforcing policy)."""
        found = runtime_findings(outcome.findings_record)
        if found and self.audit is not None:
            self.audit = self.audit.model_copy(update={
                "flagged_calls": [*self.audit.flagged_calls, *found],
                "safety_verdict": "flagged",
            })

    def _without_audit_answer(self, outcome: GuestOutcome) -> ExecutionResult:
        """The guest ended before its audit answer: the deadline, fuel or memory ran out
        while parsing, the parser exhausted the C stack, or the answer was unusable. No user
        code ran."""
        self.take_metrics(outcome)
        status, _, error = classify(outcome, self.limits)
        if status in ("timeout", "fuel_exhausted"):
            return self.finish(status, error=audit_budget_error(status, self.limits.memory_mb))
        if status in ("memory_exceeded", "internal_error", "interrupted"):
            return self.finish(status, error=error)
        if outcome.trap in ("c_stack_overflow", "stack_overflow", "memory_out_of_bounds"):
            # The parser overflowed its stack (or crashed on the source): it cannot compile.
            self.syntax_valid = False
            message = "source too complex to parse"
            if outcome.trap == "memory_out_of_bounds":
                message += f" (the parser accessed memory out of bounds {outcome.trap_detail})"
            return self.finish("syntax_error", error=_error(type="SyntaxError",
                                                            message=message))
        message = "the audit answer was too large" if outcome.answer_too_large else (
            "the guest ended without an audit answer"
        )
        return self.finish("internal_error", error=_error(type="InternalError",
                                                          message=message))

    # -- JavaScript: a syntax check, then the run ----------------------------------------
    def from_javascript_check(self, check: GuestOutcome) -> ExecutionResult | None:
        """The result when the syntax check refuses the source (or could not finish); None
        when the source compiles and should run."""
        self.audit = _no_audit()
        self.metrics.audit_time_ms = round(check.elapsed_ms, 3)
        if check.host_error is not None:
            return self.finish("internal_error",
                               error=_error(type="InternalError", message=check.host_error))
        if check.trap == "interrupted":
            return self.finish("interrupted", error=interrupted_error(check))
        try:
            syntax_error = javascript.syntax_error_from_check(check.stdout)
        except ValueError:
            # No answer: the check ran out of its budget or memory, or the parser overflowed.
            if check.trap in ("deadline", "fuel"):
                status: Status = "timeout" if check.trap == "deadline" else "fuel_exhausted"
                return self.finish(status, error=audit_budget_error(status,
                                                                    self.limits.memory_mb))
            if self.limits.memory_mb * MIB - check.peak_memory_bytes < MEMORY_CAP_HEADROOM:
                error = _error(
                    type="MemoryLimitExceeded",
                    message="checking the syntax of this source needs more than the "
                    f"{self.limits.memory_mb} MiB memory cap",
                )
                return self.finish("memory_exceeded", error=error)
            syntax_error = "source too complex to parse"
        if syntax_error is None:
            return None
        self.syntax_valid = False
        return self.finish("syntax_error", error=_error(type="SyntaxError",
                                                        message=syntax_error))

    # -- any run ---------------------------------------------------------------------------
    def from_outcome(self, outcome: GuestOutcome) -> ExecutionResult:
        """The result of a run of the user's code."""
        self.take_metrics(outcome)
        status, exit_code, error = classify(outcome, self.limits)
        if status == "failed" and self.language == "javascript" and exit_code is not None:
            error = javascript.error_from_stderr(outcome.stderr, exit_code)
        return self.finish(status, exit_code=exit_code, error=error, outcome=outcome)

    def take_metrics(self, outcome: GuestOutcome, *, user_code_only: bool = True) -> None:
        elapsed = outcome.user_code_ms if user_code_only else outcome.elapsed_ms
        set_fields(self.metrics, execution_time_ms=round(elapsed, 3),
                    fuel_consumed=outcome.fuel_consumed,
                    peak_memory_bytes=outcome.peak_memory_bytes,
                    stdout_bytes=outcome.stdout_bytes, stderr_bytes=outcome.stderr_bytes)

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
        files = outcome.files if outcome is not None else {}
        files_dropped = outcome.files_dropped if outcome is not None else []
        tool_calls = [construct(ToolCall, name=c.name, duration_ms=c.duration_ms, ok=c.ok,
                                error=c.error)
                      for c in (outcome.tool_calls if outcome is not None else [])]
        value = None
        if outcome is not None and outcome.value_record is not None and status == "succeeded":
            value = expression_value(outcome.value_record)
        network_calls = [construct(NetworkCall, **dataclasses.asdict(c))
                         for c in (outcome.network_calls if outcome is not None else [])]
        # Every value is the host's own, built above from checked and cleaned guest output.
        return construct(
            ExecutionResult,
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
            audit=self.audit if self.audit is not None else _no_audit(),
            error=error,
            limits=self.limits,
            metrics=self.metrics,
            runtime=self.runtime,
            files=files,
            files_dropped=files_dropped,
            tool_calls=tool_calls,
            value=value,
            network_calls=network_calls,
        )


def _fresh_report(report: AuditReport) -> AuditReport:
    """A kept report with findings of its own: a result's findings are the caller's to
    change, never the audit cache's."""
    if not report.flagged_calls:
        return report
    return report.model_copy(update={"flagged_calls": [
        finding.model_copy() for finding in report.flagged_calls]})


def _facts(answer: dict[str, object]) -> list[Sequence[object]]:
    facts = answer.get("facts")
    return facts if isinstance(facts, list) else []


def tool_references(answer: dict[str, object], tools: Collection[str]) -> list[str]:
    """The offered tools the audit's facts name: imports from `tools` and `tools.<name>`
    calls or attributes."""
    facts = answer.get("facts")
    if not tools or not isinstance(facts, list):
        return []
    found = set()
    for fact in facts:
        kind, name = fact[0], fact[1]
        if kind in ("import", "call", "unbound_call") and name.startswith("tools."):
            found.add(name.split(".")[1])
    return sorted(found & set(tools))


def interrupted_error(outcome: GuestOutcome) -> ErrorInfo:
    """The error of a run its caller interrupted."""
    return _error(type="Interrupted", message="execution was interrupted by the caller "
                  f"after {outcome.elapsed_ms:.0f} ms")


def audit_budget_error(status: Status, memory_mb: int) -> ErrorInfo:
    """The error of an audit (or syntax check) that ran out of its own budget, not the user's."""
    budget = audit_budget(memory_mb)
    if status == "timeout":
        return _error(type="TimeoutError", message="auditing the source exceeded the "
                      f"audit's budget of {budget.timeout_ms} ms")
    return _error(type="FuelExhausted", message="auditing the source exceeded the "
                  f"audit's budget of {budget.effective_fuel} fuel")


def classify(
    outcome: GuestOutcome, limits: EffectiveLimits
) -> tuple[Status, int | None, ErrorInfo | None]:
    """Translate a guest outcome into (status, exit code, error)."""
    if outcome.host_error is not None:
        return "internal_error", None, _error(type="InternalError", message=outcome.host_error)
    if outcome.trap == "interrupted":
        return "interrupted", None, interrupted_error(outcome)
    if outcome.trap == "deadline":
        return "timeout", None, _error(
            type="TimeoutError", message=f"execution exceeded the {limits.timeout_ms} ms deadline"
        )
    if outcome.trap == "fuel":
        return "fuel_exhausted", None, _error(
            type="FuelExhausted", message=f"execution used its whole budget of {limits.fuel} fuel"
        )
    if outcome.trap in ("c_stack_overflow", "stack_overflow"):
        return "failed", 1, _error(
            type="RecursionError",
            message="C stack exhausted (recursion through C code went too deep)",
        )
    if outcome.trap == "memory_out_of_bounds":
        return "failed", 1, _error(
            type="GuestCrash",
            message=f"the interpreter accessed memory out of bounds ({outcome.trap_detail})",
        )
    if outcome.trap == "crash":
        memory_error = memory_cap_error(outcome, limits.memory_mb)
        if memory_error is not None:
            return "memory_exceeded", None, memory_error
        return "failed", 1, _error(
            type="GuestCrash", message=f"the interpreter stopped abnormally ({outcome.trap_detail})"
        )
    code = (outcome.exit_code or 0) % 256
    if code == 0:
        return "succeeded", 0, None
    return "failed", code, _guest_error(outcome, code)


def memory_cap_error(outcome: GuestOutcome, memory_mb: int) -> ErrorInfo | None:
    """Why a guest that stopped abnormally died of its memory cap, or None if it did not:
    its linear memory (as wasmtime reports it) ended within MEMORY_CAP_HEADROOM of the cap."""
    cap = memory_mb * MIB
    size = outcome.peak_memory_bytes
    if size and cap - size < MEMORY_CAP_HEADROOM:
        return _error(
            type="MemoryLimitExceeded",
            message=f"the guest ran out of its {memory_mb} MiB memory cap",
        )
    return None


def _guest_error(outcome: GuestOutcome, code: int) -> ErrorInfo:
    record = decode_error_record(outcome.error_record) if outcome.error_record else None
    if record is not None:
        error_type, message = record
        return _error(type=clean_text(error_type)[:MAX_ERROR_TYPE_CHARS],
                      message=clean_text(message)[:MAX_ERROR_MESSAGE_CHARS])
    return _error(type="SystemExit", message=f"the code exited with status {code}")


def extract_result_json(stdout: str) -> object | None:
    """The whole stdout as JSON if it is JSON, else the last non-empty line if it is a JSON
    object or array, else None. Strict JSON only: NaN and Infinity are not JSON."""
    text = stdout.strip()
    if not text:
        return None
    if text[0] in JSON_STARTS:  # most output is text: not worth a parse of all of it
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


def expression_value(record: bytes) -> ExpressionValue | None:
    """The guest's value record as the result reports it (None: unusable). The record is
    read as untrusted (user code can write one too): text cleaned and held to its bounds."""
    parsed = decode_value_record(record)
    if parsed is None:
        return None
    json_value = clean_json_value(parsed.get("json"))
    json_error = parsed.get("json_error")
    if json_value is not None and not _survives_result_json(json_value):
        json_value, json_error = None, "not representable in the result (nested too deeply)"
    return ExpressionValue(
        type=clean_text(parsed["type"])[:MAX_VALUE_TYPE_CHARS],
        repr=clean_text(parsed["repr"])[:MAX_VALUE_REPR_CHARS],
        repr_truncated=parsed.get("repr_truncated") is True,
        json_value=json_value,
        json_error=clean_text(json_error)[:200] if isinstance(json_error, str) else None,
    )


def _survives_result_json(value: object) -> bool:
    """Whether `value` survives the result model's JSON encoder and parser unchanged
    (pydantic-core bounds nesting in both): tried at the depth it has in ExecutionResult,
    with pydantic-core's own functions (no model to build on a new process's first run)."""
    if value is None or isinstance(value, (str, bool)):
        return True
    try:
        encoded = pydantic_core.to_json({"result_json": value}, inf_nan_mode="null")
        return bool(pydantic_core.from_json(encoded)["result_json"] == value)
    except (ValueError, RecursionError):  # pydantic-core's errors are ValueErrors
        return False


def extract_result_json_checked(stdout: str) -> tuple[object | None, str | None]:
    """`extract_result_json`, kept only if it survives the result model's JSON encoder and
    parser unchanged: (value, None), or (None, why)."""
    value = extract_result_json(stdout)
    if not _survives_result_json(value):
        return None, (
            "stdout is JSON, but not representable in the result (nested too deeply or too "
            "large a number)"
        )
    return value, None
