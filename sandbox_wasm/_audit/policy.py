"""Audit policies: what the audit flags, as a pydantic model, and the tables that
`judge_fact` (the same function in the guest and on the host) works on.

The strict and balanced tables live in the guest file (`_guest.STRICT_TABLES`,
`BALANCED_TABLES`): a snapshot builds them at start-up, so those policies are named in a
request instead of sent.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any, Literal, cast

from pydantic import BaseModel, ConfigDict

from .._errors import InvalidRequestError
from .._guest.bootstrap import (
    BALANCED_TABLES,
    STRICT_TABLES,
    judge_fact,
    tables_from_json,
)


def _guest_names(tables: Mapping[str, object], key: str) -> frozenset[str]:
    """One of the guest's name tables (a tuple of str literals in the bootstrap) as a set."""
    return frozenset(cast("tuple[str, ...]", tables[key]))


class AuditPolicy(BaseModel):
    """What the audit flags. `mode="enforce"` blocks flagged code; `"report"` only lists it."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    name: str = "strict"
    mode: Literal["enforce", "report"] = "enforce"
    blocked_modules: frozenset[str] = _guest_names(STRICT_TABLES, "blocked_modules")
    allowed_modules: frozenset[str] | None = _guest_names(STRICT_TABLES, "allowed_modules")
    blocked_calls: frozenset[str] = _guest_names(STRICT_TABLES, "blocked_calls")
    blocked_attributes: frozenset[str] = _guest_names(STRICT_TABLES, "blocked_attributes")
    blocked_names: frozenset[str] = _guest_names(STRICT_TABLES, "blocked_names")
    flag_dunder_strings: bool = True
    #: Builtins (getattr, hasattr, setattr, delattr) allowed when the attribute name is a
    #: literal string without double underscores; dynamic or dunder names stay blocked.
    literal_attribute_calls: frozenset[str] = frozenset()
    #: The attributes of `sys` code may use (`import sys` is then allowed and every other
    #: use of `sys` is flagged); None judges `sys` as a module like any other.
    sys_attributes: frozenset[str] | None = None
    #: Judge `x.f()` as a call into module `x` only when an import binds `x` (a variable
    #: that happens to share a blocked module's name reaches nothing).
    import_bound_calls: bool = False

    def with_mode(self, mode: Literal["enforce", "report"]) -> AuditPolicy:
        """This policy with another mode (e.g. `"report"` to list findings and still run)."""
        return self.model_copy(update={"mode": mode})


# The presets are built from the guest's own tables (trusted values) without validating:
# the validator is built on first use, not by `import sandbox_wasm`.
#: The union of the product notes' lists: modules, calls (getattr & co. included) and
#: attributes; `sys` is refused whatever it is used for.
STRICT_POLICY = AuditPolicy.model_construct()
#: Refuses only what reaches into the interpreter's internals (the first step of every known
#: Python sandbox escape): frame, code and function internals, the __subclasses__ /
#: __globals__ / __builtins__ walks, gc/ctypes/marshal, the import machinery. Every other
#: standard-library module imports; computed attribute names, eval/exec/compile and imports
#: of computed names are judged inside the guest at run time. The default.
BALANCED_POLICY = AuditPolicy.model_construct(
    name="balanced",
    blocked_modules=_guest_names(BALANCED_TABLES, "blocked_modules"),
    allowed_modules=None,
    blocked_calls=_guest_names(BALANCED_TABLES, "blocked_calls"),
    blocked_attributes=_guest_names(BALANCED_TABLES, "blocked_attributes"),
    blocked_names=_guest_names(BALANCED_TABLES, "blocked_names"),
    import_bound_calls=bool(BALANCED_TABLES["import_bound_calls"]),
)
#: The strict lists, reported but not enforced: the sandbox alone contains the code.
REPORT_ONLY_POLICY = STRICT_POLICY.with_mode("report").model_copy(update={"name": "report-only"})
#: The policy a Sandbox uses unless told otherwise. Balanced, because the WebAssembly boundary
#: and the limits are the guarantee either way, and every false refusal is a failed agent
#: step; the strict lists (the products' notes) stay one argument away.
DEFAULT_POLICY = BALANCED_POLICY
#: The presets by name, as the command line and the gateways name them.
PRESETS: dict[str, AuditPolicy] = {
    "balanced": BALANCED_POLICY, "strict": STRICT_POLICY, "report": REPORT_ONLY_POLICY,
}
PolicyLike = AuditPolicy | Literal["balanced", "strict", "report"]


def resolve_policy(policy: AuditPolicy | str | None, default: AuditPolicy) -> AuditPolicy:
    """A policy given as an `AuditPolicy` or a preset's name ("balanced", "strict",
    "report"); `default` when None."""
    if policy is None:
        return default
    if isinstance(policy, AuditPolicy):
        return policy
    if isinstance(policy, str) and policy in PRESETS:
        return PRESETS[policy]
    raise InvalidRequestError(
        f"unknown policy {policy!r} (expected an AuditPolicy or one of "
        f"{', '.join(PRESETS)})", field="policy",
    )


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
        "literal_calls": sorted(policy.literal_attribute_calls),
        "import_bound_calls": policy.import_bound_calls,
        "sys_attributes": (
            None if policy.sys_attributes is None else sorted(policy.sys_attributes)
        ),
        "enforce": policy.mode == "enforce",
    }


@functools.lru_cache(maxsize=32)
def judge_tables(policy: AuditPolicy) -> dict[str, Any]:
    """The policy's tables as the sets `judge_fact` looks names up in (policies are frozen,
    so this is built once per policy)."""
    tables: dict[str, Any] = tables_from_json(policy_tables(policy))
    return tables


def judge_import(policy: AuditPolicy, module: str) -> str | None:
    """Why importing `module` is flagged, or None. The longest matching prefix decides, so
    an allowed `urllib.parse` wins over a blocked `urllib`."""
    findings = judge_fact(judge_tables(policy), "import", module)
    return findings[0][2] if findings else None


@functools.lru_cache(maxsize=64)
def allowing_modules(policy: AuditPolicy, modules: frozenset[str]) -> AuditPolicy:
    """`policy` with `modules` added to its allowlist (an image's packages). A policy without
    an allowlist already allows them; a module the policy blocks stays blocked (the blocked
    list wins over the allowlist for the same name)."""
    if policy.allowed_modules is None or modules <= policy.allowed_modules:
        return policy
    return policy.model_copy(update={"allowed_modules": policy.allowed_modules | modules})
