"""The audit, organised by the construct it judges. Parsing happens in the guest (3.13)."""

from __future__ import annotations

import pytest

import sandbox_wasm as sw
from sandbox_wasm._audit.policy import judge_import


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


# -- the balanced policy: refuses only the first steps of an escape -------------------------
BALANCED_SAFE = [
    pytest.param("getattr(obj, 'name', None)", id="getattr-literal-default"),
    pytest.param("hasattr(obj, 'items') and getattr(obj, 'items')", id="hasattr-literal"),
    pytest.param("setattr(obj, 'count', 3)\ndelattr(obj, 'count')", id="setattr-delattr"),
    pytest.param("for field in ('a', 'b'):\n    print(getattr(cfg, field))",
                 id="getattr-computed-name"),
    pytest.param("getattr(fn, '__name__', '?')", id="getattr-name-dunder"),
    pytest.param("print(self.__class__.__name__, obj.__dict__, vars(obj))",
                 id="ordinary-dunders"),
    pytest.param("print(type(x).__mro__, cls.__bases__, f.__wrapped__, f.__qualname__)",
                 id="class-introspection"),
    pytest.param("import sys\nsys.stdout.write('x')", id="sys-stdout-write"),
    pytest.param("import sys\nsys.path.insert(0, '.')\nprint(sys.modules['json'])",
                 id="sys-path-and-modules"),
    pytest.param("import sys\nx = sys\nimport sys as s", id="sys-as-value"),
    pytest.param("import os\nprint(os.path.join('a', 'b'), os.getcwd(), os.listdir('.'))",
                 id="os"),
    pytest.param("import unittest, doctest, subprocess, socket, sqlite3, inspect, codecs",
                 id="stdlib-modules"),
    pytest.param("import urllib.request, smtplib, configparser, mimetypes, getpass, platform",
                 id="more-stdlib-modules"),
    pytest.param("import asyncio, concurrent.futures, threading, pickle, importlib",
                 id="stdlib-that-may-fail-at-the-call"),
    pytest.param("print(eval('1 + 1'))\nexec('x = 2')\ncompile('1', '<s>', 'eval')",
                 id="eval-exec-compile"),
    pytest.param("print(globals().keys(), locals(), memoryview(b'ab')[0])",
                 id="globals-locals-memoryview"),
    pytest.param("exit()\nquit(0)\ninput()\nopen('out.txt', 'w')", id="exit-input-open"),
    pytest.param("import numpy", id="not-stdlib-fails-at-import"),
    pytest.param("import builtins, importlib\nprint(builtins.len, "
                 "importlib.import_module('builtins').getattr(1, 'real'))", id="builtins-module"),
]

BALANCED_BLOCKED = [
    pytest.param("().__class__.__base__.__subclasses__()", ("attribute", "__subclasses__"),
                 id="subclasses-walk"),
    pytest.param("f.__globals__['os']", ("attribute", "__globals__"), id="globals-walk"),
    pytest.param("print(__builtins__)", ("name", "__builtins__"), id="builtins-name"),
    pytest.param("f.__code__.co_code", ("attribute", "__code__"), id="code-internals"),
    pytest.param("getattr(f, '__globals__')", ("attribute", "__globals__"),
                 id="getattr-literal-escape-name"),
    pytest.param("getattr(f, 'f_globals')", ("attribute", "f_globals"),
                 id="getattr-literal-frame-name"),
    pytest.param("'{0.__globals__}'.format(f)", ("attribute", "__globals__"),
                 id="format-string-walk"),
    pytest.param("import sys\nsys._getframe().f_back", ("attribute", "_getframe"),
                 id="getframe"),
    pytest.param("from sys import _getframe", ("import", "sys._getframe"), id="from-sys-frame"),
    pytest.param("import sys\nsys.settrace(None)", ("attribute", "settrace"), id="settrace"),
    pytest.param("import gc\ngc.get_objects()", ("import", "gc"), id="gc"),
    pytest.param("import ctypes", ("import", "ctypes"), id="ctypes"),
    pytest.param("import marshal", ("import", "marshal"), id="marshal"),
    pytest.param("from importlib import machinery", ("import", "importlib.machinery"),
                 id="import-machinery"),
    pytest.param("object.__getattribute__(f, n)", ("attribute", "__getattribute__"),
                 id="getattribute"),
    pytest.param("def g():\n    yield\ng().gi_frame", ("attribute", "gi_frame"),
                 id="generator-frame"),
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
    finding = sw.audit("import gc").flagged_calls[0]
    assert finding.reason == ("import of blocked module 'gc': interpreter internals: every "
                              "object, or raw memory")
    finding = sw.audit("import importlib.machinery").flagged_calls[0]
    assert "the import machinery" in finding.reason
