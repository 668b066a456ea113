"""Attacks on the audit cache (`_audit/cache.py`): getting a source run unaudited by having
an answer kept under a laxer policy or another runtime, a near-identical source, an answer the
guest cannot stand behind, or flooding the cache."""

from __future__ import annotations

import pytest

import sandbox_wasm as sw
from sandbox_wasm._audit.cache import AUDIT_CACHE, MAX_ENTRIES
from sandbox_wasm._models import AuditReport
from sandbox_wasm._wire import policy_line

#: The first step of an escape: refused by both presets that enforce, run by report mode.
ESCAPE = "base = ().__class__.__base__\nprint('ran', len(base.__subclasses__()) > 0)"


@pytest.fixture(autouse=True)
def empty_cache() -> None:
    AUDIT_CACHE.clear()


def test_an_answer_kept_in_report_mode_never_lets_enforce_run_it() -> None:
    assert sw.execute(ESCAPE, policy="report").stdout == "ran True\n"
    for policy in ("balanced", "strict"):
        result = sw.execute(ESCAPE, policy=policy)
        assert result.status == "blocked" and result.stdout == ""


def test_a_near_identical_source_is_audited_afresh() -> None:
    """The key is the whole source: an allowed source with something appended (after a
    comment, a newline, a null-free trick) is a different source."""
    allowed = "print('ok')"
    assert sw.execute(allowed).status == "succeeded"
    for tail in ("\nf = print.__self__", "  # x\nf = print.__self__", ";f = print.__self__"):
        result = sw.execute(allowed + tail)
        assert result.status == "blocked", tail
        assert result.stdout == ""


def test_an_answer_from_one_runtime_is_not_used_by_another() -> None:
    code = "print(sum(range(10)))"
    assert sw.execute(code).stdout == "45\n"
    misses = AUDIT_CACHE.misses
    data = sw.execute(code, runtime="python-data")
    assert data.stdout == "45\n"
    assert AUDIT_CACHE.misses == misses + 1


def test_a_kept_answer_the_guest_cannot_stand_behind_runs_nothing() -> None:
    """Were the cache ever to hold an answer for a source that does not compile (it keeps
    only sources that did), the guest refuses it and the host reports a mismatch: nothing
    runs, nothing is trusted."""
    box = sw.Sandbox()
    source = "print('before')\ndef broken(:\n    pass"
    key = (box.runtime_info.sha256, policy_line(sw.BALANCED_POLICY), sw.BALANCED_POLICY.name,
           source, "")
    report = AuditReport(syntax_valid=True, safety_verdict="safe", policy="balanced")
    AUDIT_CACHE.remember(key, {"facts": [], "ran": True}, report, 30)
    result = box.execute(source)
    assert result.status == "internal_error"
    assert result.error is not None and result.error.message == "audit decision mismatch"
    assert result.stdout == ""


def test_flooding_the_cache_with_distinct_sources_stays_within_its_budget() -> None:
    report = AuditReport(syntax_valid=True, safety_verdict="safe", policy="balanced")
    for i in range(MAX_ENTRIES + 500):
        AUDIT_CACHE.remember(("rt", b"line", "balanced", f"x = {i}", ""), {"facts": []}, report,
                             20)
    assert len(AUDIT_CACHE) == MAX_ENTRIES
    assert AUDIT_CACHE.stored_bytes <= AUDIT_CACHE.max_bytes
    # Real runs of distinct sources go through the same bound.
    for i in range(20):
        assert sw.execute(f"print({i})").stdout == f"{i}\n"
    assert len(AUDIT_CACHE) == MAX_ENTRIES
