"""The static audit's report: findings and a verdict from the facts the guest's own parser
found, judged with the very function the guest used to decide whether to run the code.

The source is parsed inside the sandbox by the guest's CPython (so `type X = int`,
`def f[T=int]()` and PEP 701 f-strings are judged by the grammar that will run them, whatever the
host's Python), and the guest reports imports, calls, attributes, names and dunder strings.
The audit explains refusals early; the WebAssembly boundary and the limits are the guarantee.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .._guest.bootstrap import judge_fact
from .._models import AuditReport, Finding, SafetyVerdict, construct
from .._wire import MAX_FACTS, answer_is_incomplete
from .policy import AuditPolicy, judge_tables
from .stdlib import import_reason


def findings_from_facts(
    policy: AuditPolicy, facts: Iterable[Sequence[object]]
) -> list[Finding]:
    """Apply `policy` to the guest's facts: (kind, name, line, col) tuples, with the same
    `judge_fact` the guest used to decide whether to run the code."""
    tables = judge_tables(policy)
    found: list[Finding] = []
    for fact in facts:
        kind, name = str(fact[0]), str(fact[1])
        # The guest's numbers, as objects: int() raises for anything else.
        line, col = int(fact[2]), int(fact[3])  # type: ignore[call-overload]
        for flagged_kind, flagged_name, reason in judge_fact(tables, kind, name):
            if flagged_kind == "import":
                why = import_reason(flagged_name)
                if why is not None:
                    reason = f"{reason}: {why}"
            found.append(
                Finding(name=flagged_name, kind=flagged_kind, line=line, col=col, reason=reason)
            )
    found.sort(key=lambda f: (f.line, f.col))
    return found


#: Modules whose import means the code talks to the network: findings that never block,
#: reported with what the run's network policy allows (`network_findings`).
NETWORK_MODULES = ("urllib.request", "http.client", "requests", "urllib3", "httpx", "aiohttp",
                   "socket", "ftplib", "smtplib", "poplib", "imaplib", "xmlrpc.client",
                   "websocket", "websockets")


def network_findings(
    facts: Iterable[Sequence[object]], allowed: Sequence[str] | None
) -> list[Finding]:
    """The imports of network modules among the guest's facts, one finding per module and
    line, each saying what the run's network policy allows (`allowed`: its rules in one line
    each; None: no network)."""
    if allowed is None:
        reason = ("network: this run allows no network (no network= policy); every request "
                  "is refused")
    elif allowed:
        shown = "; ".join(allowed[:5]) + (f"; and {len(allowed) - 5} more"
                                           if len(allowed) > 5 else "")
        reason = f"network: the host makes the requests its network policy allows ({shown})"
    else:
        reason = "network: the run's network policy allows no host; every request is refused"
    found: dict[tuple[str, int], Finding] = {}
    for fact in facts:
        if str(fact[0]) != "import":
            continue
        name = str(fact[1])
        module = next((m for m in NETWORK_MODULES if name == m or name.startswith(m + ".")),
                      None)
        line, col = int(fact[2]), int(fact[3])  # type: ignore[call-overload]
        if module is not None and (module, line) not in found:
            found[module, line] = Finding(name=module, kind="import", line=line, col=col,
                                          reason=reason)
    return sorted(found.values(), key=lambda f: (f.line, f.col))


def verdict(policy: AuditPolicy, findings: Sequence[Finding]) -> SafetyVerdict:
    """`safe` without findings; otherwise `blocked` (enforce) or `flagged` (report-only)."""
    if not findings:
        return "safe"
    return "blocked" if policy.mode == "enforce" else "flagged"


def build_report(policy: AuditPolicy, guest_answer: dict[str, object]) -> AuditReport:
    """An `AuditReport` from the guest's answer: {"facts": [...]} or {"syntax_error": {...}}.

    A source that does not parse has no findings: its verdict is `safe` (nothing unsafe was
    found; `blocked` would claim a policy refused it) with `syntax_valid` false and the
    error; it cannot run, and a run of it ends `syntax_error`, never `blocked`."""
    error = guest_answer.get("syntax_error")
    if isinstance(error, dict):
        line = error.get("line") or 0
        where = f" (line {line})" if line else ""
        return construct(
            AuditReport,
            syntax_valid=False,
            safety_verdict="safe",
            flagged_calls=[],
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
    return construct(
        AuditReport,
        syntax_valid=True,
        safety_verdict=verdict(policy, findings),
        flagged_calls=findings,
        policy=policy.name,
    )
