"""Audit policies: what the audit flags, as a pydantic model, and the tables that
`judge_fact` (the same function in the guest and on the host) works on.

The strict tables live in the guest file (`_guest.STRICT_TABLES`): a snapshot builds them at
start-up, so the default policy is named in a request instead of sent.
"""

from __future__ import annotations

import functools
import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from ._guest import STRICT_POLICY_LINE, STRICT_TABLES, judge_fact, tables_from_json


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


@functools.lru_cache(maxsize=32)
def judge_tables(policy: AuditPolicy) -> dict[str, Any]:
    """The policy's tables as the sets `judge_fact` looks names up in (policies are frozen,
    so this is built once per policy)."""
    return tables_from_json(policy_tables(policy))


@functools.lru_cache(maxsize=32)
def policy_line(policy: AuditPolicy) -> bytes:
    """The policy as the guest reads it in an exec request. The strict tables are built into
    the guest: naming them saves the guest parsing them on every run."""
    tables = policy_tables(policy)
    if policy_tables(STRICT_POLICY.with_mode(policy.mode)) == tables:
        return STRICT_POLICY_LINE[bool(tables["enforce"])]
    return json.dumps(tables, separators=(",", ":")).encode()


def judge_import(policy: AuditPolicy, module: str) -> str | None:
    """Why importing `module` is flagged, or None. The longest matching prefix decides, so
    an allowed `urllib.parse` wins over a blocked `urllib`."""
    findings = judge_fact(judge_tables(policy), "import", module)
    return findings[0][2] if findings else None
