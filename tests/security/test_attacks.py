"""The attack suite: every case of attack_cases.ATTACKS, run under the strict policy, under the
balanced policy (the default), and with the audit in report-only mode (the WebAssembly
boundary alone).

Each case asserts the status and exit code it must have, that it returned within its time
bound, that the canary secret (host env var and file) neither leaked nor changed, that no
connection reached the host listener, and that the host process is healthy afterwards: its
epoch ticker alive, no new threads or descriptors, and its peak RSS bounded by the memory
the case was allowed.
"""

from __future__ import annotations

import collections
import threading
import time
from pathlib import Path

import pytest
from attack_cases import ATTACKS, DEFAULT_TIMEOUT_MS, Attack, Expect, fill
from bait import Canary, Listener
from host_probe import MIB, HostSnapshot, peak_rss_bytes, reset_peak_rss

import sandbox_wasm as sw

MODES = ("strict", "balanced", "report-only")
BLOCKED = Expect("blocked", 1, error=("SecurityViolation",), stdout="")
#: The run-time guard's refusal inside the guest (an enforcing policy).
GUARD_REFUSES = Expect("failed", 1, error=("PermissionError",),
                       message_has=("policy refuses this",))
RUN_TIME = "at run time: "

# Host-side allowances on a loaded 2-core CI machine. The guest's own time is held to the
# deadline plus scheduling noise (the epoch ticker is a host thread that must get a core);
# the whole call also pays interpreter start-up and the audit.
EXEC_FACTOR = 1.2
EXEC_SLACK_MS = 300
AUDIT_BOUND_MS = 3_000
WALL_SLACK_S = 4.0
# Host memory a case may add on top of its guest's memory cap (the audit guest, output
# buffers, chunk copies, allocator slack), and what may stay resident after it.
PEAK_RSS_SLACK = 128 * MIB
RESIDUAL_RSS = 48 * MIB
HOST_ONLY_ERRORS = {"TimeoutError", "FuelExhausted", "MemoryLimitExceeded", "InternalError",
                    "SecurityViolation"}


def _params() -> list[object]:
    params = []
    for attack in ATTACKS:
        for mode in MODES:
            marks = []
            # A known weakness fails only where the code actually runs.
            runs = mode != "strict" or attack.audit != "blocks"
            if attack.xfail and runs:
                marks.append(pytest.mark.xfail(strict=True, reason=attack.xfail))
            params.append(pytest.param(attack, mode, id=f"{attack.category}-{attack.id}-{mode}",
                                       marks=marks))
    return params


@pytest.fixture(scope="module")
def boxes(
    sandbox: sw.Sandbox, balanced_sandbox: sw.Sandbox, open_sandbox: sw.Sandbox
) -> dict[str, sw.Sandbox]:
    assert sandbox.policy == sw.STRICT_POLICY and balanced_sandbox.policy == sw.BALANCED_POLICY
    assert open_sandbox.policy.mode == "report"
    # Warm every path so that lazily created engine threads and caches exist before the
    # first case measures the host.
    for box in (sandbox, balanced_sandbox, open_sandbox):
        for _ in range(3):
            box.execute("print(1)")
    # A guest that fails after closing its stderr makes wasmtime's WASI start its lazily
    # created I/O runtime (two threads, three descriptors, once per process).
    open_sandbox.execute("import os\nos.close(2)\nraise ValueError")
    return {"strict": sandbox, "balanced": balanced_sandbox, "report-only": open_sandbox}


@pytest.fixture(scope="module")
def auditor() -> sw.Sandbox:
    """Audits (never runs) with the balanced policy, for any accepted source size."""
    return sw.Sandbox(policy=sw.BALANCED_POLICY, limits=sw.Limits(max_source_bytes=1 << 20))


def _balanced_blocks(box: sw.Sandbox, code: str | bytes) -> bool:
    try:
        report = box.audit(code)
    except sw.InvalidRequestError:
        return False
    return report.syntax_valid and report.safety_verdict == "blocked"


def _expected(attack: Attack, mode: str, balanced_blocks: bool, python_runtime: str) -> Expect:
    if attack.sandbox.raises is not None:
        return attack.sandbox
    if mode == "strict" and attack.audit == "blocks":
        return BLOCKED
    if mode == "balanced" and balanced_blocks:
        return BLOCKED
    if mode in attack.guard:
        return GUARD_REFUSES
    return attack.on_runtime.get(python_runtime, attack.sandbox)


def _assert_host_healthy(before: HostSnapshot, memory_mb: int) -> None:
    after = HostSnapshot.take()
    names = {t.name for t in threading.enumerate()}
    assert "sandbox-wasm-epoch" in names, "the epoch ticker thread died"
    assert after.python_threads <= before.python_threads, (before.describe(), after.describe())
    if before.threads is not None and after.threads is not None:
        assert after.threads <= before.threads, (before.describe(), after.describe())
    if before.fds is not None and after.fds is not None:
        assert after.fds <= before.fds, (before.describe(), after.describe())
    peak = peak_rss_bytes()
    if before.rss is not None and peak is not None:
        allowed = max(memory_mb, 64) * MIB + PEAK_RSS_SLACK
        assert peak - before.rss <= allowed, (
            f"host peak RSS grew by {(peak - before.rss) / MIB:.0f} MiB "
            f"(allowed {allowed / MIB:.0f} MiB)"
        )
    if before.rss is not None and after.rss is not None:
        assert after.rss - before.rss <= RESIDUAL_RSS, (before.describe(), after.describe())


def _assert_outcome(result: sw.ExecutionResult, expect: Expect) -> None:
    summary = (result.status, result.exit_code, result.error, result.stdout[:300],
               result.stderr[-600:])
    assert (result.status, result.exit_code) == (expect.status, expect.exit_code), summary
    if expect.error:
        assert result.error is not None and result.error.type in expect.error, summary
    if expect.status == "succeeded":
        assert result.error is None, summary
    if expect.stdout is not None:
        assert result.stdout == expect.stdout, summary
    for fragment in expect.stdout_has:
        assert fragment in result.stdout, summary
    for fragment in expect.stderr_has:
        assert fragment in result.stderr, summary
    for fragment in expect.stderr_lacks:
        assert fragment not in result.stderr, summary
    if expect.stdout_truncated is not None:
        assert result.stdout_truncated is expect.stdout_truncated, summary
        if expect.stdout_truncated:
            assert len(result.stdout.encode()) <= result.limits.max_stdout_bytes
    if expect.stderr_truncated is not None:
        assert result.stderr_truncated is expect.stderr_truncated, summary
        if expect.stderr_truncated:
            assert len(result.stderr.encode()) <= result.limits.max_stderr_bytes
    for fragment in expect.message_has:
        assert result.error is not None and fragment in result.error.message, summary
    if expect.error_type_chars is not None:
        assert result.error is not None and len(result.error.type) == expect.error_type_chars
    if expect.result_json_dropped is not None:
        assert (result.result_json_error is not None) is expect.result_json_dropped, summary
        if expect.result_json_dropped:
            assert result.result_json is None
    if result.status == "failed" and result.error is not None and expect.error:
        # A guest names its own errors; only the host may report a limit or a refusal.
        assert not (set(expect.error) & HOST_ONLY_ERRORS)


def _guard_refused(result: sw.ExecutionResult) -> bool:
    return (result.error is not None and result.error.type == "PermissionError"
            and "policy refuses this" in result.error.message
            and any(f.reason.startswith(RUN_TIME) for f in result.audit.flagged_calls))


def _assert_audit(
    result: sw.ExecutionResult, attack: Attack, mode: str, python_runtime: str
) -> None:
    if result.status == "syntax_error":
        return
    verdict, findings = result.audit.safety_verdict, result.audit.flagged_calls
    # What the run-time guard found while the code ran is reported apart: the static audit's
    # own verdict is judged below on the static findings.
    run_time = [f for f in findings if f.reason.startswith(RUN_TIME)]
    findings = [f for f in findings if not f.reason.startswith(RUN_TIME)]
    guarded = bool(attack.guard)
    if run_time:
        assert verdict == "flagged"
        if not findings:
            verdict = "safe"
    elif guarded and result.status not in ("blocked", "syntax_error"):
        # The cases marked guard= are ones the guard must catch.
        assert not (mode in attack.guard or mode == "report-only"), (
            "the run-time guard was expected to find this attack")
    if mode == "balanced":
        # Balanced never refuses what strict lets through; what it refuses it explains.
        if attack.audit != "blocks":
            assert verdict == "safe", f"balanced flags what strict allows: {findings}"
        assert (verdict == "blocked") == bool(findings)
        if result.status == "blocked":
            assert result.metrics.fuel_consumed == 0 and result.stdout == ""
        return
    if attack.audit == "blocks":
        assert findings, "the audit was expected to flag this attack"
        assert verdict == ("blocked" if mode == "strict" else "flagged")
    else:
        assert verdict == "safe", (
            f"audit={attack.audit!r} but the audit now flags it ({findings}): if the audit "
            "learnt to catch this attack, change the case to audit='blocks'"
        )
    if result.status == "blocked":
        assert result.metrics.fuel_consumed == 0 and result.stdout == ""


@pytest.mark.parametrize(("attack", "mode"), _params())
def test_attack(
    attack: Attack,
    mode: str,
    boxes: dict[str, sw.Sandbox],
    auditor: sw.Sandbox,
    canary: Canary,
    listener: Listener,
    python_runtime: str,
) -> None:
    box = boxes[mode]
    code = fill(attack.code, canary_file=str(canary.file), canary_dir=str(canary.directory),
                canary_env=canary.env, port=listener.port)
    limits = {"timeout_ms": DEFAULT_TIMEOUT_MS, **attack.limits}
    memory_mb = int(limits.get("memory_mb", sw.Limits().memory_mb))
    balanced_blocks = mode == "balanced" and _balanced_blocks(auditor, code)
    expect = _expected(attack, mode, balanced_blocks, python_runtime)
    canary_before = canary.state()
    before = HostSnapshot.take()
    reset_peak_rss()

    started = time.monotonic()
    if expect.raises is not None:
        with pytest.raises(expect.raises):
            box.execute(code, limits=limits)
        result = None
    else:
        result = box.execute(code, limits=limits)
    wall = time.monotonic() - started

    assert wall <= attack.timeout_ms / 1000 + WALL_SLACK_S, f"took {wall:.2f} s"
    if result is not None:
        try:
            dumped = result.model_dump_json()
        except ValueError as exc:  # pydantic's serialisation error is a ValueError
            pytest.fail(f"the result is not JSON-serialisable: {exc}")
        if _guard_refused(result) and mode != "report-only":
            # The run-time guard stopped it inside the guest: contained, and explained.
            expect = GUARD_REFUSES
        _assert_outcome(result, expect)
        _assert_audit(result, attack, mode, python_runtime)
        exec_bound = attack.exec_bound_ms or attack.timeout_ms * EXEC_FACTOR + EXEC_SLACK_MS
        assert result.metrics.execution_time_ms <= exec_bound, (
            f"guest ran {result.metrics.execution_time_ms:.0f} ms, "
            f"deadline {attack.timeout_ms} ms"
        )
        assert result.metrics.audit_time_ms <= AUDIT_BOUND_MS
        canary.assert_not_in(dumped)
        assert sw.ExecutionResult.model_validate_json(dumped) == result
    assert canary.state() == canary_before, "the canary changed"
    assert not Path("/tmp/sandbox-wasm-pwned.txt").exists()
    assert listener.connections() == 0, "a guest connected to the host listener"
    _assert_host_healthy(before, memory_mb)


def test_attack_table_shape() -> None:
    """At least 80 attacks, readable unique ids, and every category the issue names."""
    ids = [attack.id for attack in ATTACKS]
    assert len(ids) == len(set(ids)) and len(ids) >= 80
    counts = collections.Counter(attack.category for attack in ATTACKS)
    assert set(counts) == {"audit-evasion", "host-files", "env-secrets", "network", "resource",
                           "hostile-source", "output-confusion", "host-calls", "forged-status"}
    assert all(count >= 5 for count in counts.values()), counts


def test_host_still_serves_after_the_attacks(boxes: dict[str, sw.Sandbox]) -> None:
    """After every attack above, the same sandboxes still run ordinary code correctly."""
    for box in boxes.values():
        result = box.execute("import json\nprint(json.dumps({'ok': sum(range(10))}))")
        assert (result.status, result.result_json) == ("succeeded", {"ok": 45})
