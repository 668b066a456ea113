"""The benign corpus (tests/runtime/audit_corpus.py): scripts of the kind models write must be safe
under the default (balanced) policy and give the right output; under strict, each refusal
must be one its lists require, with the reason. Next to the attack suite, which must stay
contained under every policy."""

from __future__ import annotations

import collections

import pytest
from audit_corpus import CORPUS, Case

import sandbox_wasm as sw

CATEGORY_MINIMUM = 8


def test_corpus_shape() -> None:
    ids = [case.id for case in CORPUS]
    assert len(ids) == len(set(ids)) and len(ids) >= 150
    counts = collections.Counter(case.category for case in CORPUS)
    assert all(count >= CATEGORY_MINIMUM for count in counts.values()), counts


@pytest.fixture(scope="module")
def default_box() -> sw.Sandbox:
    box = sw.Sandbox()
    assert box.policy == sw.BALANCED_POLICY
    box.warm_up()
    return box


@pytest.fixture(scope="module")
def strict_box() -> sw.Sandbox:
    return sw.Sandbox(policy=sw.STRICT_POLICY)


@pytest.mark.parametrize("case", CORPUS, ids=[case.id for case in CORPUS])
def test_benign_script_is_safe_under_the_default_policy(
    default_box: sw.Sandbox, case: Case
) -> None:
    report = default_box.audit(case.code)
    assert report.syntax_valid and report.safety_verdict == "safe", report.flagged_calls


# Runs on the default runtime (our CPython 3.13): memoised recursion 250-300 deep
# (`memoised-staircase-300`, `recursion-limit-memo-depth`) works there.
@pytest.mark.parametrize("case", CORPUS, ids=[case.id for case in CORPUS])
def test_benign_script_runs_right_under_the_default_policy(
    default_box: sw.Sandbox, case: Case
) -> None:
    result = default_box.execute(case.code)
    assert result.audit.safety_verdict == "safe", result.audit.flagged_calls
    assert result.status == "succeeded", (result.error, result.stderr[-800:])
    assert result.stdout == case.stdout


def _required_by_strict(finding: sw.Finding) -> bool:
    """Whether a strict finding follows from strict's own lists (not an audit mistake)."""
    strict = sw.STRICT_POLICY
    top = finding.name.split(".")[0]
    if finding.kind == "import":
        allowed = strict.allowed_modules or frozenset()
        return top in strict.blocked_modules or (
            finding.name not in allowed and top not in allowed
        )
    if finding.kind == "call":
        return finding.name.split(".")[-1] in strict.blocked_calls or top in strict.blocked_modules
    if finding.kind == "name":
        return finding.name in strict.blocked_names or finding.name in strict.blocked_calls
    return finding.name in strict.blocked_attributes


def test_strict_refuses_only_what_its_lists_require(strict_box: sw.Sandbox) -> None:
    refused = []
    for case in CORPUS:
        report = strict_box.audit(case.code)
        assert report.syntax_valid, (case.id, report.syntax_error)
        if report.safety_verdict == "safe":
            continue
        refused.append(case.id)
        for finding in report.flagged_calls:
            assert finding.reason, (case.id, finding)
            assert _required_by_strict(finding), (case.id, finding)
    # Strict's lists are narrower than the corpus needs (sys, getattr, newer modules), but it
    # must not refuse everything: most model-style scripts stay within them.
    assert len(refused) < len(CORPUS) / 2, refused
