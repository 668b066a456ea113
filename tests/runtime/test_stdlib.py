"""The classification of the guest's standard library for the balanced policy: complete,
consistent with the guest's blocklist, and true (allowed modules import, or are absent as
they would be natively; blocked ones are refused with their reason)."""

from __future__ import annotations

import json

import pytest

import sandbox_wasm as sw
from sandbox_wasm._audit.stdlib import ALLOWED, BLOCKED, BLOCKED_SUBMODULES, STDLIB_313
from sandbox_wasm._guest.bootstrap import BALANCED_TABLES, STRICT_TABLES


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


def test_the_table_names_only_modules_the_runtime_has() -> None:
    assert set(ALLOWED) | set(BLOCKED) == _stdlib_of("cpython313")
    for reason in [*ALLOWED.values(), *BLOCKED.values(), *BLOCKED_SUBMODULES.values()]:
        assert reason and "\n" not in reason and len(reason) < 120


def test_the_guest_blocklist_is_the_table() -> None:
    blocked = set(BALANCED_TABLES["blocked_modules"])
    top = {m for m in blocked if "." not in m}
    guest_stdlib = set(BLOCKED) | set(ALLOWED)
    # The guest also names test and private interpreter modules absent from the list.
    assert top & guest_stdlib == set(BLOCKED)
    assert {m for m in blocked if m.split(".")[0] == "importlib"} == set(BLOCKED_SUBMODULES)
    assert BALANCED_TABLES["allowed_modules"] is None  # every other module is allowed


def test_balanced_allows_everything_strict_allows() -> None:
    for module in STRICT_TABLES["allowed_modules"]:
        assert sw.audit(f"import {module}\n").safety_verdict == "safe", module


def test_every_allowed_module_imports_or_is_absent_in_the_guest(
    python_runtime: str, guest_stdlib: set[str]
) -> None:
    # Allowed by the audit: each either imports, or is absent from a WASI build (another
    # platform's, a toolkit, a C library the guest lacks) and fails as it would natively.
    # `this` prints the Zen of Python and `antigravity` opens a web page when imported.
    modules = sorted(m for m in ALLOWED if m in guest_stdlib and m not in ("this", "antigravity"))
    code = ("import importlib, json\nbad = {}\n"
            f"for name in {modules!r}:\n"
            "    try:\n        importlib.import_module(name)\n"
            "    except ImportError:\n        pass\n"
            "    except Exception as exc:\n        bad[name] = repr(exc)[:200]\n"
            "print(json.dumps(bad))\n")
    result = sw.Sandbox(python_runtime=python_runtime).execute(code)
    assert result.audit.safety_verdict == "safe", result.audit.flagged_calls
    assert result.status == "succeeded", (result.error, result.stderr[-500:])
    assert json.loads(result.stdout) == {}


def test_the_modules_model_code_needs_import_in_our_runtime() -> None:
    needed = ["os", "sys", "unittest", "doctest", "sqlite3", "subprocess", "socket",
              "inspect", "codecs", "configparser", "mimetypes", "getpass", "smtplib",
              "urllib.request", "asyncio", "concurrent.futures", "platform", "pickle"]
    code = "".join(f"import {m}\n" for m in needed) + "print('ok')\n"
    result = sw.Sandbox(python_runtime="cpython313").execute(code)
    assert (result.status, result.stdout) == ("succeeded", "ok\n"), (
        result.error, result.stderr[-500:])
    assert result.audit.safety_verdict == "safe"


@pytest.mark.parametrize("module", sorted({*BLOCKED, *BLOCKED_SUBMODULES}))
def test_every_blocked_module_is_refused_with_its_reason(module: str) -> None:
    report = sw.audit(f"import {module}\n")
    assert report.safety_verdict == "blocked"
    reason = BLOCKED_SUBMODULES.get(module) or BLOCKED[module]
    assert any(reason in finding.reason for finding in report.flagged_calls), (
        report.flagged_calls
    )
