"""The static audit: a configurable policy applied to facts the guest's own parser found.

The source is parsed inside the sandbox by the guest's CPython 3.12 (so `type X = int`,
`def f[T]()` and PEP 701 f-strings are judged by the grammar that will run them, whatever the
host's Python), and the guest reports imports, calls, attributes, names and dunder strings.
This module turns those facts into findings and a verdict, with the very function the guest
uses to decide whether to run the code (`_guest_boot.judge_fact`). The audit explains
refusals early; the WebAssembly boundary and the limits are the guarantee.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict

from ._guest_boot import (
    MAX_FACTS,
    STRICT_TABLES,
    answer_is_incomplete,
    judge_fact,
    tables_from_json,
)
from ._models import AuditReport, Finding, SafetyVerdict


class AuditPolicy(BaseModel):
    """What the audit flags. `mode="enforce"` blocks flagged code; `"report"` only lists it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = "strict"
    mode: Literal["enforce", "report"] = "enforce"
    blocked_modules: frozenset[str] = frozenset(STRICT_TABLES["blocked_modules"])
    allowed_modules: frozenset[str] | None = frozenset(STRICT_TABLES["allowed_modules"])
    blocked_calls: frozenset[str] = frozenset(STRICT_TABLES["blocked_calls"])
    blocked_attributes: frozenset[str] = frozenset(STRICT_TABLES["blocked_attributes"])
    blocked_names: frozenset[str] = frozenset(STRICT_TABLES["blocked_names"])
    flag_dunder_strings: bool = True

    def with_mode(self, mode: Literal["enforce", "report"]) -> AuditPolicy:
        """This policy with another mode (e.g. `"report"` to list findings and still run)."""
        return self.model_copy(update={"mode": mode})


STRICT_POLICY = AuditPolicy()
REPORT_ONLY_POLICY = STRICT_POLICY.with_mode("report").model_copy(update={"name": "report-only"})


def policy_tables(policy: AuditPolicy) -> dict[str, object]:
    """The policy as the JSON tables that `judge_fact` (host and guest) works on."""
    return {
        "blocked_modules": sorted(policy.blocked_modules),
        "allowed_modules": (
            None if policy.allowed_modules is None else sorted(policy.allowed_modules)
        ),
        "blocked_calls": sorted(policy.blocked_calls),
        "blocked_attributes": sorted(policy.blocked_attributes),
        "blocked_names": sorted(policy.blocked_names),
        "dunder_strings": policy.flag_dunder_strings,
        "enforce": policy.mode == "enforce",
    }


def judge_import(policy: AuditPolicy, module: str) -> str | None:
    """Why importing `module` is flagged, or None. The longest matching prefix decides, so
    an allowed `urllib.parse` wins over a blocked `urllib`."""
    tables = tables_from_json(policy_tables(policy))
    findings = judge_fact(tables, "import", module)
    return findings[0][2] if findings else None


def findings_from_facts(
    policy: AuditPolicy, facts: Iterable[Sequence[object]]
) -> list[Finding]:
    """Apply `policy` to the guest's facts: (kind, name, line, col) tuples, with the same
    `judge_fact` the guest used to decide whether to run the code."""
    tables = tables_from_json(policy_tables(policy))
    found: list[Finding] = []
    for fact in facts:
        kind, name = str(fact[0]), str(fact[1])
        line, col = int(fact[2]), int(fact[3])  # type: ignore[call-overload]
        for flagged_kind, flagged_name, reason in judge_fact(tables, kind, name):
            found.append(
                Finding(name=flagged_name, kind=flagged_kind, line=line, col=col, reason=reason)
            )
    found.sort(key=lambda f: (f.line, f.col))
    return found


def verdict(policy: AuditPolicy, findings: Sequence[Finding]) -> SafetyVerdict:
    """`safe` without findings; otherwise `blocked` (enforce) or `flagged` (report-only)."""
    if not findings:
        return "safe"
    return "blocked" if policy.mode == "enforce" else "flagged"


def build_report(policy: AuditPolicy, guest_answer: dict[str, object]) -> AuditReport:
    """An `AuditReport` from the guest's answer: {"facts": [...]} or {"syntax_error": {...}}."""
    error = guest_answer.get("syntax_error")
    if isinstance(error, dict):
        line = error.get("line") or 0
        where = f" (line {line})" if line else ""
        return AuditReport(
            syntax_valid=False,
            safety_verdict="blocked",
            policy=policy.name,
            syntax_error=f"{error.get('message', 'invalid syntax')}{where}",
        )
    facts = guest_answer.get("facts")
    facts = facts[:MAX_FACTS] if isinstance(facts, list) else []
    findings = findings_from_facts(policy, facts)
    if guest_answer.get("audit_error"):
        findings.append(Finding(
            name="<source>", kind="name", line=0, col=0,
            reason="the audit ran out of memory; the source was not examined",
        ))
    if answer_is_incomplete(guest_answer):
        # The guest stops listing at MAX_FACTS constructs; what it did not list was not
        # examined, so the verdict cannot be "safe" (the guest applies the same rule).
        findings.append(Finding(
            name="<source>", kind="name", line=0, col=0,
            reason=f"the source reaches the audit's limit of {MAX_FACTS} constructs; what lies "
            "beyond it was not audited",
        ))
    return AuditReport(
        syntax_valid=True,
        safety_verdict=verdict(policy, findings),
        flagged_calls=findings,
        policy=policy.name,
    )
