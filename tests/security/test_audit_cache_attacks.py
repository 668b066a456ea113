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


# The kept code (`_audit/cache.py`): a one-shot run's guest writes it with its answer, before
# any user code runs, and later runs of the source load it instead of compiling.
SWAP_KEPT_CODE = (
    "import sys, marshal\nboot = sys._getframe(1).f_globals\n"
    "evil = marshal.dumps(compile(\"print('swapped')\", '<x>', 'exec'))\n"
    "boot['_with_code'] = lambda answer, code: answer + b'\\n' + evil\n"
    "boot['_compile_known'] = lambda source, code=b'': "
    "(boot['KNOWN_ANSWER'], compile(\"print('swapped')\", '<x>', 'exec'), False)\n"
    "print('tampered')\n"
)


def test_a_run_cannot_change_the_code_later_runs_get() -> None:
    box = sw.Sandbox(policy="report")
    assert box.execute(SWAP_KEPT_CODE).stdout == "tampered\n"
    # Each run starts from the runtime's image: the next runs, and the code they bring
    # and load, are their own.
    for _ in range(3):
        assert box.execute("print('own', 6 * 7)").stdout == "own 42\n"
    # Output that looks like an answer with code after it is the run's output, and what
    # comes back of it, the run's again.
    fake = ("import sys, marshal\nsys.stdout.buffer.write(b'{\"known\":true,\"ran\":true}\\n' + "
            "marshal.dumps(compile(\"print('swapped')\", '<x>', 'exec')))\nprint()\n")
    outputs = [box.execute(fake).stdout for _ in range(3)]
    assert outputs[0] == outputs[1] == outputs[2]
    assert outputs[0].startswith('{"known":true,"ran":true}\n') and outputs[0].endswith("\n")
    assert "swapped\n" not in outputs[0]


def test_a_session_cannot_put_code_in_the_cache() -> None:
    # A session's later calls run in an interpreter its code may have changed: they are
    # never asked for code, and code after their answers is not taken.
    with sw.Session(policy=sw.REPORT_ONLY_POLICY) as session:
        assert session.execute(SWAP_KEPT_CODE).stdout == "tampered\n"
        # Every answer now has code after it, asked for or not.
        session.execute(
            "import sys, marshal\nboot = sys._getframe(1).f_globals\n"
            "evil = marshal.dumps(compile(\"print('swapped')\", '<x>', 'exec'))\n"
            "write = boot['_write_answer']\n"
            "boot['_write_answer'] = lambda answer: write(answer + b'\\n' + evil)\n")
        source = "print('session', 1 + 1)"
        session.execute(source)
        kept = [entry for key, entry in AUDIT_CACHE._entries.items() if key[3] == source]
        assert kept and all(entry.code == b"" for entry in kept)
    for _ in range(3):
        assert sw.execute(source, policy="report").stdout == "session 2\n"
