"""The audit cache (`_audit/cache.py`): a source run again under the same policy and runtime is
compiled by the guest without listing its facts again, and its result reads exactly as the
first run's; only answers that let the code run are kept, within a budget."""

from __future__ import annotations

import pytest

import sandbox_wasm as sw
from sandbox_wasm._audit.cache import (
    ANSWER_WEIGHT,
    AUDIT_CACHE,
    MAX_CODE_BYTES,
    AuditCache,
    KnownAudit,
)
from sandbox_wasm._models import AuditReport
from sandbox_wasm._wire import MAX_KEPT_CODE_BYTES, policy_line


@pytest.fixture(autouse=True)
def empty_cache() -> None:
    AUDIT_CACHE.clear()


def _counts() -> tuple[int, int]:
    return AUDIT_CACHE.hits, AUDIT_CACHE.misses


def test_a_repeated_source_is_judged_from_the_cache_and_reads_the_same() -> None:
    box = sw.Sandbox(policy="report")
    code = "import os\nprint(len(os.getcwd()) > 0, 6 * 7)\n41 + 1"
    hits, misses = _counts()
    first = box.execute(code)
    assert _counts() == (hits, misses + 1)
    second = box.execute(code)
    assert _counts() == (hits + 1, misses + 1)
    assert first.status == second.status == "succeeded", (first.stderr, second.stderr)
    assert first.stdout == second.stdout == "True 42\n"
    assert first.value is not None and second.value is not None
    assert first.value.json_value == second.value.json_value == 42
    assert first.audit == second.audit
    # The guest's facts walk was skipped the second time: the whole run used less fuel.
    assert second.metrics.fuel_consumed < first.metrics.fuel_consumed


def test_flagged_findings_come_back_from_the_cache_and_are_each_result_s_own() -> None:
    """Report mode runs a flagged source: its answer is kept, and its findings are copies
    that the caller may change without touching the next result."""
    box = sw.Sandbox(policy="report")
    code = "import subprocess\nprint('ran')"
    first = box.execute(code)
    assert first.audit.safety_verdict == "flagged" and first.stdout == "ran\n"
    first.audit.flagged_calls[0].reason = "changed by the caller"
    second = box.execute(code)
    assert AUDIT_CACHE.hits >= 1
    assert second.audit.safety_verdict == "flagged" and second.stdout == "ran\n"
    assert second.audit.flagged_calls[0].reason != "changed by the caller"
    assert second.audit.flagged_calls[0].name == "subprocess"


def test_a_blocked_source_is_never_kept() -> None:
    code = "print(().__class__.__base__.__subclasses__())"
    for _ in range(2):
        result = sw.execute(code)
        assert result.status == "blocked"
    assert len(AUDIT_CACHE) == 0


def test_a_syntax_error_is_never_kept() -> None:
    for _ in range(2):
        assert sw.execute("def broken(:\n    pass").status == "syntax_error"
    assert len(AUDIT_CACHE) == 0


def test_the_answer_of_one_policy_is_never_used_for_another() -> None:
    """A flagged source that ran under report mode is still blocked under enforce: the
    policy line is part of the key."""
    code = "import subprocess\nprint('ran')"
    assert sw.execute(code, policy="report").stdout == "ran\n"
    blocked = sw.execute(code, policy="strict")
    assert blocked.status == "blocked"
    assert blocked.error is not None and "subprocess" in blocked.error.message


def test_tools_and_network_findings_follow_the_run_not_the_cache() -> None:
    """The kept answer is the source's facts; which tools and network rules a run offers
    are judged per run."""
    def lookup(key: str) -> str:
        return key.upper()

    code = "import tools\nimport urllib.request\nprint(tools.lookup('a'))"
    with_tools = sw.execute(code, tools=[lookup], network=["https://example.com"])
    assert with_tools.status == "succeeded", with_tools.stderr
    assert with_tools.audit.tools == ["lookup"]
    assert "example.com" in with_tools.audit.network[0].reason
    without = sw.execute(code)
    assert AUDIT_CACHE.hits >= 1
    assert without.audit.tools == [] and "no network" in without.audit.network[0].reason
    assert without.status == "failed"  # no tools module offered


def test_a_session_call_repeated_is_judged_from_the_cache() -> None:
    with sw.Session() as session:
        session.execute("x = 0")
        hits = AUDIT_CACHE.hits
        for _ in range(3):
            result = session.execute("x += 1\nx")
        assert AUDIT_CACHE.hits == hits + 2
        assert result.value is not None and result.value.json_value == 3


def test_the_cache_keeps_to_its_budget() -> None:
    report = AuditReport(syntax_valid=True, safety_verdict="safe", policy="balanced")
    cache = AuditCache(max_entries=3, max_bytes=10_000)
    for i in range(5):
        cache.remember(("rt", b"@balanced:enforce", "balanced", f"print({i})", ""),
                       {"facts": [], "ran": True}, report, 100)
    assert len(cache) == 3
    assert cache.lookup(("rt", b"@balanced:enforce", "balanced", "print(0)", "")) is None
    assert cache.lookup(("rt", b"@balanced:enforce", "balanced", "print(4)", "")) is not None
    # By bytes: each entry costs its source and ANSWER_WEIGHT bytes per byte of answer.
    small = AuditCache(max_entries=100, max_bytes=3 * (ANSWER_WEIGHT * 100 + 30))
    for i in range(10):
        small.remember(("rt", b"line", "p", f"print({i})", ""), {"facts": []}, report, 100)
    assert len(small) <= 3 and small.stored_bytes <= small.max_bytes
    # An answer over MAX_ANSWER_BYTES, or a source over the whole budget, is not kept.
    small.clear()
    small.remember(("rt", b"line", "p", "x", ""), {"facts": []}, report, 10 * 2**20)
    small.remember(("rt", b"line", "p", "y" * 10_000, ""), {"facts": []}, report, 10)
    assert len(small) == 0 and small.stored_bytes == 0


def test_a_kept_source_that_no_longer_fits_the_memory_cap_says_so() -> None:
    """The key has no memory cap in it: a source kept at the default cap and run again at
    the smallest one may run out of memory while the guest parses it. That is reported as
    on a first run (the audit needs more than the cap), never as a mismatch."""
    box = sw.Sandbox(limits=sw.Limits(max_source_bytes=1 << 20))
    source = "x = 1\n" * 20_000 + "print(x)\n"
    # Kept by a session's call: the answer alone, no code (a one-shot run then parses).
    with sw.Session(sandbox=box) as session:
        assert session.execute(source).stdout == "1\n"
    assert len(AUDIT_CACHE) == 1
    small = box.execute(source, memory_mb=32)
    assert small.status in ("failed", "memory_exceeded"), small.error
    assert small.error is not None and small.error.type != "InternalError"
    # Once a one-shot run brought the code, a run at the smallest cap loads it, unparsed.
    assert box.execute(source).stdout == "1\n"
    assert box.execute(source, memory_mb=32).stdout == "1\n"


def _kept(box: sw.Sandbox, source: str, policy: sw.AuditPolicy = sw.BALANCED_POLICY
          ) -> KnownAudit | None:
    key = (box.runtime_info.sha256, policy_line(policy), policy.name, source, "")
    return AUDIT_CACHE.lookup(key)


@pytest.mark.parametrize("source", [
    "print('hi')",
    "def double(x):\n    return x * 2\nprint(double(21))\ndouble(3)",
    "import json\nrows = [{'a': i} for i in range(3)]\nprint(json.dumps(rows))\nrows[-1]",
    "x = 1\n\ndef fails():\n    return 1 / 0\n\nfails()",
    "class Point:\n    def __init__(self, x): self.x = x\nPoint(4).x + 1",
])
def test_a_one_shot_source_run_again_runs_the_code_its_first_run_compiled(
    source: str,
) -> None:
    # The first run's guest follows its answer with the code it compiled; the audit cache
    # keeps it, and the next runs load it instead of compiling: fewer instructions, and a
    # result that reads as the first one's, tracebacks and values included.
    box = sw.Sandbox()
    first = box.execute(source)
    kept = _kept(box, source)
    assert kept is not None and kept.code
    again = [box.execute(source) for _ in range(2)]
    for result in again:
        assert result.status == first.status and result.exit_code == first.exit_code
        assert (result.stdout, result.stderr) == (first.stdout, first.stderr)
        assert result.value == first.value and result.error == first.error
        assert result.audit == first.audit
    assert again[0].metrics.fuel_consumed == again[1].metrics.fuel_consumed
    assert again[0].metrics.fuel_consumed < 0.8 * first.metrics.fuel_consumed


def test_code_comes_only_from_one_shot_runs_and_joins_a_kept_answer() -> None:
    box = sw.Sandbox()
    source = "print(sum(range(5)))"
    with sw.Session(sandbox=box) as session:
        assert session.execute(source).stdout == "10\n"
        assert session.execute(source).stdout == "10\n"
    kept = _kept(box, source)
    assert kept is not None and kept.code == b""  # a session's call brings no code
    assert box.execute(source).stdout == "10\n"  # asked for it: the kept answer gets it
    kept = _kept(box, source)
    assert kept is not None and kept.code
    assert box.execute(source).stdout == "10\n"
    with sw.Session(sandbox=box) as session:  # and a session never gets it
        assert session.execute(source).stdout == "10\n"


def test_kept_code_counts_in_the_budget() -> None:
    assert MAX_CODE_BYTES == MAX_KEPT_CODE_BYTES  # what the guest sends, the host keeps
    report = AuditReport(syntax_valid=True, safety_verdict="safe", policy="balanced")
    cache = AuditCache(max_entries=10, max_bytes=100_000)
    key = ("rt", b"line", "p", "print(1)", "")
    cache.remember(key, {"facts": []}, report, 10, b"c" * 1000)
    with_code = cache.stored_bytes
    cache.remember(key, {"facts": []}, report, 10)
    assert with_code - cache.stored_bytes == 1000
    cache.keep_code(key, b"d" * 500)
    assert cache.stored_bytes == with_code - 500
    known = cache.lookup(key)
    assert known is not None and known.code == b"d" * 500
    cache.keep_code(key, b"e" * 10)  # it has code: kept as it is
    known = cache.lookup(key)
    assert known is not None and known.code == b"d" * 500
    cache.remember(key, {"facts": []}, report, 10, b"x" * (MAX_CODE_BYTES + 1))
    known = cache.lookup(key)
    assert known is not None and known.code == b""
    cache.keep_code(("rt", b"line", "p", "gone", ""), b"code")  # nothing kept: nothing added
    assert len(cache) == 1
