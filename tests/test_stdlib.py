"""The classification of the guest's standard library for the balanced policy: complete,
consistent with the guest's allowlist, and true (allowed modules import and run; blocked
ones are refused with their reason)."""

from __future__ import annotations

import json

import pytest

import sandbox_wasm as sw
from sandbox_wasm._guest import BALANCED_ALLOWED_MODULES, STRICT_TABLES
from sandbox_wasm._stdlib import ALLOWED, ALLOWED_SUBMODULES, BLOCKED, STDLIB_313


def _stdlib_of(python_runtime: str) -> set[str]:
    code = "import sys, json\nprint(json.dumps(sorted(sys.stdlib_module_names)))"
    result = sw.Sandbox(policy=sw.REPORT_ONLY_POLICY, python_runtime=python_runtime).execute(code)
    assert result.status == "succeeded", result.error
    return set(json.loads(result.stdout))


@pytest.fixture(scope="module")
def guest_stdlib(python_runtime: str) -> set[str]:
    return _stdlib_of(python_runtime)


def test_every_module_of_the_guest_is_classified_once(guest_stdlib: set[str]) -> None:
    assert not set(ALLOWED) & set(BLOCKED)
    assert guest_stdlib <= set(ALLOWED) | set(BLOCKED)


def test_the_3_13_list_is_the_guest_s_own() -> None:
    # Images refuse packages by this list (`_image.shadowed_name`): it must be the guest's.
    assert _stdlib_of("cpython313") == STDLIB_313


def test_the_table_names_only_modules_some_runtime_has() -> None:
    both = _stdlib_of("cpython313") | _stdlib_of("snapshot")
    assert set(ALLOWED) | set(BLOCKED) == both
    for reason in [*ALLOWED.values(), *BLOCKED.values(), *ALLOWED_SUBMODULES.values()]:
        assert reason and "\n" not in reason and len(reason) < 120


def test_the_guest_allowlist_is_the_table() -> None:
    top = {m for m in BALANCED_ALLOWED_MODULES if "." not in m}
    subs = {m for m in BALANCED_ALLOWED_MODULES if "." in m}
    assert top == set(ALLOWED)
    assert subs == set(ALLOWED_SUBMODULES)
    for sub in subs:
        assert sub.split(".")[0] in BLOCKED  # a submodule exception of a blocked package


def test_balanced_allows_everything_strict_allows() -> None:
    for module in STRICT_TABLES["allowed_modules"]:
        assert sw.BALANCED_POLICY.allowed_modules is not None
        assert module in sw.BALANCED_POLICY.allowed_modules or module.split(".")[0] in ALLOWED


def test_every_allowed_module_imports_and_runs_in_the_guest(
    python_runtime: str, guest_stdlib: set[str]
) -> None:
    modules = sorted([*ALLOWED, *ALLOWED_SUBMODULES])
    assert {m.split(".")[0] for m in modules} <= guest_stdlib  # none was removed in 3.13
    code = "".join(f"import {m}\n" for m in modules) + "print('imported', " + str(
        len(modules)) + ")\n"
    result = sw.Sandbox(python_runtime=python_runtime).execute(code)
    assert result.audit.safety_verdict == "safe", result.audit.flagged_calls
    assert (result.status, result.stdout) == ("succeeded", f"imported {len(modules)}\n"), (
        result.error, result.stderr[-500:]
    )


@pytest.mark.parametrize("module", sorted(BLOCKED))
def test_every_blocked_module_is_refused_with_its_reason(module: str) -> None:
    report = sw.audit(f"import {module}\n")
    assert report.safety_verdict == "blocked"
    assert any(BLOCKED[module] in finding.reason for finding in report.flagged_calls), (
        report.flagged_calls
    )
