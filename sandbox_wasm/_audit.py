"""The static audit: a configurable policy applied to facts the guest's own parser found.

The source is parsed inside the sandbox by the guest's CPython 3.12 (so `type X = int`,
`def f[T]()` and PEP 701 f-strings are judged by the grammar that will run them, whatever the
host's Python), and the guest reports imports, calls, attributes, names and dunder strings.
This module turns those facts into findings and a verdict. The audit explains refusals early;
the WebAssembly boundary and the limits are the guarantee.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict

from ._models import AuditReport, Finding, FindingKind, SafetyVerdict

_DUNDER = re.compile(r"__[A-Za-z0-9_]+__")


class AuditPolicy(BaseModel):
    """What the audit flags. `mode="enforce"` blocks flagged code; `"report"` only lists it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = "strict"
    mode: Literal["enforce", "report"] = "enforce"
    blocked_modules: frozenset[str] = frozenset(
        {
            "os", "sys", "subprocess", "socket", "builtins", "shutil", "ctypes", "requests",
            "urllib", "pty", "tty", "termios", "fcntl", "platform", "http", "ftplib",
            "smtplib", "importlib", "pathlib", "glob", "tempfile", "cryptography", "ssl",
            "pickle", "marshal", "yaml", "posix", "io.open", "multiprocessing", "threading",
            "signal", "select", "selectors", "asyncio", "code", "codeop", "gc", "inspect",
            "runpy", "zipimport", "pkgutil", "sysconfig", "site", "shelve", "dbm", "sqlite3",
            "_posixsubprocess", "_io", "_thread", "mmap", "resource", "webbrowser",
        }
    )
    allowed_modules: frozenset[str] | None = frozenset(
        {
            "json", "math", "cmath", "re", "datetime", "time", "calendar", "collections",
            "functools", "itertools", "random", "statistics", "string", "base64", "hashlib",
            "hmac", "secrets", "urllib.parse", "html", "xml.etree.ElementTree", "typing",
            "types", "copy", "pprint", "textwrap", "decimal", "fractions", "dataclasses",
            "enum", "heapq", "bisect", "csv", "io", "operator", "numbers", "array",
            "difflib", "unicodedata", "uuid", "zlib", "binascii", "struct", "abc",
            "contextlib", "graphlib", "colorsys", "__future__",
        }
    )
    blocked_calls: frozenset[str] = frozenset(
        {
            "eval", "exec", "open", "compile", "getattr", "setattr", "delattr", "globals",
            "locals", "vars", "__import__", "input", "exit", "quit", "breakpoint",
            "memoryview",
        }
    )
    blocked_attributes: frozenset[str] = frozenset(
        {
            "__subclasses__", "__globals__", "__builtins__", "__code__", "__closure__",
            "__class__", "__bases__", "__base__", "__mro__", "__dict__", "__getattribute__",
            "__reduce__", "__reduce_ex__", "__loader__", "__spec__", "__import__",
            "__self__", "__func__", "__wrapped__", "__init_subclass__", "__set_name__",
            "f_globals", "f_locals", "f_builtins", "f_back", "f_code", "tb_frame", "tb_next",
            "gi_frame", "gi_code", "cr_frame", "cr_code", "ag_frame", "ag_code",
            "co_code", "co_consts", "mro", "system", "popen", "spawn",
        }
    )
    blocked_names: frozenset[str] = frozenset({"__builtins__", "__loader__", "__spec__"})
    flag_dunder_strings: bool = True

    def with_mode(self, mode: Literal["enforce", "report"]) -> AuditPolicy:
        """This policy with another mode (e.g. `"report"` to list findings and still run)."""
        return self.model_copy(update={"mode": mode})


STRICT_POLICY = AuditPolicy()
REPORT_ONLY_POLICY = STRICT_POLICY.with_mode("report").model_copy(update={"name": "report-only"})


def judge_import(policy: AuditPolicy, module: str) -> str | None:
    """Why importing `module` is flagged, or None. The longest matching prefix decides, so
    an allowed `urllib.parse` wins over a blocked `urllib`."""
    if module.startswith("."):
        return "relative import (there is no package to import from)"
    parts = module.split(".")
    prefixes = [".".join(parts[:i]) for i in range(len(parts), 0, -1)]
    for prefix in prefixes:
        if prefix in policy.blocked_modules:
            return f"import of blocked module '{prefix}'"
        if policy.allowed_modules is not None and prefix in policy.allowed_modules:
            return None
    if policy.allowed_modules is None:
        return None
    return f"import of '{parts[0]}', which is not in the allowlist"


def _call_reason(policy: AuditPolicy, dotted: str) -> str | None:
    parts = dotted.split(".")
    last = parts[-1]
    if len(parts) == 1 and last in policy.blocked_calls:
        return f"call to blocked function '{last}'"
    if len(parts) > 1 and parts[0] in ("builtins", "__builtins__") and last in policy.blocked_calls:
        return f"call to blocked function '{last}'"
    if len(parts) > 1 and judge_import(policy, parts[0]) and parts[0] in policy.blocked_modules:
        return f"call into blocked module '{parts[0]}'"
    return None


def findings_from_facts(
    policy: AuditPolicy, facts: Iterable[Sequence[object]]
) -> list[Finding]:
    """Apply `policy` to the guest's facts: (kind, name, line, col) tuples."""
    found: list[Finding] = []

    def flag(name: str, kind: FindingKind, line: int, col: int, reason: str) -> None:
        found.append(Finding(name=name, kind=kind, line=line, col=col, reason=reason))

    for fact in facts:
        kind, name, line, col = str(fact[0]), str(fact[1]), int(fact[2]), int(fact[3])  # type: ignore[call-overload]
        if kind == "import":
            reason = judge_import(policy, name)
            if reason:
                flag(name, "import", line, col, reason)
        elif kind == "call":
            reason = _call_reason(policy, name)
            if reason:
                flag(name, "call", line, col, reason)
        elif kind == "attribute":
            if name in policy.blocked_attributes:
                flag(name, "attribute", line, col, f"access to escape-prone attribute '{name}'")
        elif kind == "name":
            if name in policy.blocked_names:
                flag(name, "name", line, col, f"use of blocked name '{name}'")
            elif name in policy.blocked_calls:
                flag(name, "name", line, col, f"reference to blocked function '{name}'")
        elif kind == "string" and policy.flag_dunder_strings:
            for dunder in sorted(set(_DUNDER.findall(name)) & policy.blocked_attributes):
                flag(dunder, "attribute", line, col,
                     f"string names escape-prone attribute '{dunder}' (format-string walk)")
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
    findings = findings_from_facts(policy, facts if isinstance(facts, list) else [])
    return AuditReport(
        syntax_valid=True,
        safety_verdict=verdict(policy, findings),
        flagged_calls=findings,
        policy=policy.name,
    )
