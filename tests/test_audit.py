"""The audit, organised by the construct it judges. Parsing happens in the guest (3.12)."""

from __future__ import annotations

import pytest

import sandbox_wasm as sw
from sandbox_wasm._policy import judge_import


def _names(report: sw.AuditReport) -> set[tuple[str, str]]:
    return {(f.kind, f.name) for f in report.flagged_calls}


IMPORTS = [
    pytest.param("import os", ("import", "os"), id="import-os"),
    pytest.param("import os.path as p", ("import", "os.path"), id="import-submodule-alias"),
    pytest.param("from subprocess import Popen", ("import", "subprocess.Popen"), id="from-import"),
    pytest.param("from socket import *", ("import", "socket.*"), id="star-import"),
    pytest.param("import urllib.request", ("import", "urllib.request"), id="urllib-request"),
    pytest.param("import ctypes", ("import", "ctypes"), id="ctypes"),
    pytest.param("import pickle", ("import", "pickle"), id="pickle"),
    pytest.param("import numpy", ("import", "numpy"), id="not-allowlisted"),
    pytest.param("from . import x", ("import", ".x"), id="relative"),
    pytest.param("def f():\n    import shutil", ("import", "shutil"), id="nested-import"),
]


@pytest.mark.parametrize(("code", "finding"), IMPORTS)
def test_imports_flagged(sandbox: sw.Sandbox, code: str, finding: tuple[str, str]) -> None:
    report = sandbox.audit(code)
    assert report.safety_verdict == "blocked"
    assert finding in _names(report)


@pytest.mark.parametrize(
    "code",
    [
        pytest.param("import json, math, re", id="plain"),
        pytest.param("from urllib.parse import quote", id="urllib-parse-allowed"),
        pytest.param("import xml.etree.ElementTree as ET", id="etree"),
        pytest.param("from collections import Counter\nimport itertools as it", id="aliases"),
        pytest.param("x = [i * i for i in range(3)]\nprint(x)", id="comprehension"),
        pytest.param("type X = int\ndef f[T](x: T) -> T: return x", id="pep695"),
        pytest.param('a = "x"\nprint(f"{a!r:>{10}} {"nested"}")', id="pep701"),
    ],
)
def test_safe_code(sandbox: sw.Sandbox, code: str) -> None:
    report = sandbox.audit(code)
    assert report.syntax_valid and report.safety_verdict == "safe", report.flagged_calls


CALLS = [
    pytest.param("eval('1')", ("call", "eval"), id="eval"),
    pytest.param("exec('x=1')", ("call", "exec"), id="exec"),
    pytest.param("open('/etc/passwd')", ("call", "open"), id="open"),
    pytest.param("compile('1', 'f', 'eval')", ("call", "compile"), id="compile"),
    pytest.param("getattr(1, 'real')", ("call", "getattr"), id="getattr"),
    pytest.param("setattr(o, 'a', 1)", ("call", "setattr"), id="setattr"),
    pytest.param("globals()", ("call", "globals"), id="globals"),
    pytest.param("locals()", ("call", "locals"), id="locals"),
    pytest.param("vars()", ("call", "vars"), id="vars"),
    pytest.param("__import__('os')", ("call", "__import__"), id="dunder-import"),
    pytest.param("input()", ("call", "input"), id="input"),
    pytest.param("exit()", ("call", "exit"), id="exit"),
    pytest.param("quit()", ("call", "quit"), id="quit"),
    pytest.param("f = eval\nf('1')", ("name", "eval"), id="alias-of-eval"),
    pytest.param("(lambda: eval('1'))()", ("call", "eval"), id="inside-lambda"),
    pytest.param("[open(p) for p in 'ab']", ("call", "open"), id="inside-comprehension"),
    pytest.param("@eval\ndef f(): pass", ("name", "eval"), id="decorator"),
    pytest.param("ｅｖａｌ('1')", ("call", "eval"), id="nfkc-identifier"),
]


@pytest.mark.parametrize(("code", "finding"), CALLS)
def test_calls_flagged(sandbox: sw.Sandbox, code: str, finding: tuple[str, str]) -> None:
    assert finding in _names(sandbox.audit(code))


ATTRIBUTES = [
    pytest.param("().__class__.__bases__[0].__subclasses__()", "__subclasses__", id="subclasses"),
    pytest.param("f.__globals__", "__globals__", id="globals"),
    pytest.param("x.__builtins__", "__builtins__", id="builtins-attr"),
    pytest.param("def g(): yield\ng().gi_frame.f_back", "gi_frame", id="generator-frame"),
    pytest.param("f.__code__.co_code", "__code__", id="code-object"),
    pytest.param("'{0.__class__}'.format(1)", "__class__", id="format-string-walk"),
    pytest.param("t.tb_frame.f_globals", "f_globals", id="traceback-frame"),
]


@pytest.mark.parametrize(("code", "attribute"), ATTRIBUTES)
def test_attributes_flagged(sandbox: sw.Sandbox, code: str, attribute: str) -> None:
    report = sandbox.audit(code)
    assert ("attribute", attribute) in _names(report)
    assert report.safety_verdict == "blocked"


def test_finding_positions(sandbox: sw.Sandbox) -> None:
    report = sandbox.audit("x = 1\n\n  \nif x:\n    open('f')")
    (finding,) = report.flagged_calls
    assert (finding.name, finding.kind, finding.line, finding.col) == ("open", "call", 5, 4)
    assert "open" in finding.reason


def test_report_only_policy_flags_but_allows(sandbox: sw.Sandbox) -> None:
    report = sandbox.audit("import os", policy=sw.REPORT_ONLY_POLICY)
    assert report.safety_verdict == "flagged" and report.policy == "report-only"


def test_custom_policy_can_extend_and_shrink(sandbox: sw.Sandbox) -> None:
    policy = sw.STRICT_POLICY.model_copy(
        update={
            "name": "custom",
            "blocked_calls": sw.STRICT_POLICY.blocked_calls | {"print"},
            "allowed_modules": sw.STRICT_POLICY.allowed_modules - {"random"},  # type: ignore[operator]
        }
    )
    report = sandbox.audit("import random\nprint(1)", policy=policy)
    assert {("import", "random"), ("call", "print")} <= _names(report)
    assert report.policy == "custom"


@pytest.mark.parametrize(
    ("module", "flagged"),
    [("urllib.parse", False), ("urllib", True), ("urllib.request", True), ("json.decoder", False),
     ("os.path", True), ("numpy", True)],
)
def test_import_prefix_rule(module: str, flagged: bool) -> None:
    assert bool(judge_import(sw.STRICT_POLICY, module)) is flagged


@pytest.mark.parametrize(
    "code",
    [
        pytest.param("def f(:", id="bad-def"),
        pytest.param("x = (1,", id="unclosed"),
        pytest.param("(" * 100_000, id="100k-brackets"),
        pytest.param("1+" * 300_000 + "1", id="deep-operators"),
        pytest.param("-" * 200_000 + "1", id="deep-unary"),
    ],
)
def test_syntax_errors_and_parser_stress(python_runtime: str, code: str) -> None:
    box = sw.Sandbox(limits=sw.Limits(max_source_bytes=1 << 20), python_runtime=python_runtime)
    report = box.audit(code)
    assert not report.syntax_valid
    assert report.syntax_error


def test_syntax_error_result(sandbox: sw.Sandbox) -> None:
    report = sandbox.audit("print('a'")
    assert report.syntax_error and "line 1" in report.syntax_error


# -- the balanced policy: judged by what a construct can reach -------------------------------
BALANCED_SAFE = [
    pytest.param("getattr(obj, 'name', None)", id="getattr-literal-default"),
    pytest.param("hasattr(obj, 'items') and getattr(obj, 'items')", id="hasattr-literal"),
    pytest.param("setattr(obj, 'count', 3)\ndelattr(obj, 'count')", id="setattr-delattr"),
    pytest.param("import sys\nsys.stdout.write('x')", id="sys-stdout-write"),
    pytest.param("import sys\nprint('e', file=sys.stderr)", id="print-to-stderr"),
    pytest.param("import sys\nif sys.version_info >= (3, 8):\n    pass", id="sys-version-info"),
    pytest.param("import sys\nsys.setrecursionlimit(5000)", id="setrecursionlimit"),
    pytest.param("import sys\ndef main():\n    return 0\nsys.exit(main())", id="sys-exit-main"),
    pytest.param("import sys\nprint(sys.argv, sys.maxsize)", id="argv-maxsize"),
    pytest.param("from sys import stdout, version_info", id="from-sys-safe"),
    pytest.param("import logging, argparse, ipaddress, pprint, queue, sys", id="newly-allowed"),
    pytest.param("import sys\nfor resource in []:\n    resource.close()",
                 id="variable-named-resource"),
]

BALANCED_BLOCKED = [
    pytest.param("getattr(obj, name)", ("call", "getattr"), id="getattr-dynamic"),
    pytest.param("getattr(obj, '__class__')", ("call", "getattr"), id="getattr-dunder"),
    pytest.param("getattr(obj, 'a' + 'b')", ("call", "getattr"), id="getattr-expression"),
    pytest.param("f = getattr", ("name", "getattr"), id="getattr-as-value"),
    pytest.param("import builtins\nbuiltins.getattr(o, 'x')", ("call", "builtins.getattr"),
                 id="builtins-getattr"),
    pytest.param("import resource as r\nr.getrlimit(0)", ("import", "resource"),
                 id="aliased-blocked-module"),
    pytest.param("import sys\nsys.modules", ("attribute", "sys.modules"), id="sys-modules"),
    pytest.param("import sys\nsys._getframe()", ("attribute", "sys._getframe"), id="getframe"),
    pytest.param("import sys\nsys.path.append('x')", ("attribute", "sys.path"), id="sys-path"),
    pytest.param("import sys\nx = sys", ("name", "sys"), id="sys-as-value"),
    pytest.param("import sys\nprint(vars(sys))", ("name", "sys"), id="sys-passed-on"),
    pytest.param("import sys as s", ("import", "sys"), id="sys-alias"),
    pytest.param("from sys import modules", ("import", "sys.modules"), id="from-sys-unsafe"),
    pytest.param("from sys import *", ("import", "sys.*"), id="from-sys-star"),
    pytest.param("import os\nos.path.join('a')", ("import", "os"), id="os-itself"),
    pytest.param("import os.path", ("import", "os.path"), id="os-path-binds-os"),
    pytest.param("import subprocess", ("import", "subprocess"), id="subprocess"),
    pytest.param("import numpy", ("import", "numpy"), id="not-stdlib"),
    pytest.param("eval('1')", ("call", "eval"), id="eval"),
    pytest.param("().__class__", ("attribute", "__class__"), id="dunder-attribute"),
]


@pytest.mark.parametrize("code", BALANCED_SAFE)
def test_balanced_allows(balanced_sandbox: sw.Sandbox, sandbox: sw.Sandbox, code: str) -> None:
    report = balanced_sandbox.audit(code)
    assert report.policy == "balanced"
    assert report.syntax_valid and report.safety_verdict == "safe", report.flagged_calls
    assert sandbox.audit(code).safety_verdict == "blocked"  # strict's lists refuse these


@pytest.mark.parametrize(("code", "finding"), BALANCED_BLOCKED)
def test_balanced_blocks(
    balanced_sandbox: sw.Sandbox, code: str, finding: tuple[str, str]
) -> None:
    report = balanced_sandbox.audit(code)
    assert report.safety_verdict == "blocked"
    assert finding in _names(report), report.flagged_calls


def test_the_default_policy_is_balanced() -> None:
    assert sw.Sandbox().policy == sw.BALANCED_POLICY
    assert sw.audit("import sys\nsys.exit(0)").safety_verdict == "safe"
    assert sw.audit("import sys\nsys.exit(0)", policy=sw.STRICT_POLICY).safety_verdict == (
        "blocked"
    )


def test_a_refused_import_says_why() -> None:
    finding = sw.audit("import socket").flagged_calls[0]
    assert finding.reason == "import of blocked module 'socket': network access"
    finding = sw.audit("import mailbox").flagged_calls[0]
    assert "file and directory access" in finding.reason
