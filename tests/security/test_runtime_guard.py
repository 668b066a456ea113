"""Attacks on the balanced policy's run-time guard: what a static audit cannot see (computed
attribute names, code compiled at run time, imports of computed names, frame and code
internals reached through library functions) and the detours around each guard
(operator.attrgetter/methodcaller, vars() lookups, type.__getattribute__, a module the
script writes and imports, doctest examples). Under `balanced` each is refused inside the
guest and reported as a finding; under `report` each is reported and runs. Whatever the
policy, the code stays contained: the WebAssembly boundary is the guarantee."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import sandbox_wasm as sw

# Each builds an escape-prone name at run time, so no static audit can see it.
GLOBALS = "'__glo' + 'bals__'"
SUBCLASSES = "'__subcl' + 'asses__'"

ATTACKS = [
    pytest.param(f"def f(): pass\nprint(type(getattr(f, {GLOBALS})).__name__)",
                 ("attribute", "__globals__"), id="getattr-computed"),
    pytest.param(f"def f(): pass\nprint(hasattr(f, {GLOBALS}))", ("attribute", "__globals__"),
                 id="hasattr-computed"),
    pytest.param("class C: pass\nsetattr(C, '__cl' + 'osure__', 1)",
                 ("attribute", "__closure__"), id="setattr-computed"),
    pytest.param(f"import operator\ndef f(): pass\nprint(type(operator.attrgetter({GLOBALS})(f)))",
                 ("attribute", "__globals__"), id="attrgetter"),
    pytest.param(f"import operator\nprint(len(operator.methodcaller({SUBCLASSES})(object)) > 0)",
                 ("attribute", "__subclasses__"), id="methodcaller"),
    pytest.param("import operator\ng = (i for i in [])\n"
                 "print(operator.attrgetter('gi_' + 'frame')(g) is not None)",
                 ("attribute", "gi_frame"), id="attrgetter-generator-frame"),
    pytest.param("import operator\ndef f(): pass\n"
                 "print(operator.attrgetter('__co' + 'de__')(f).co_name)",
                 ("attribute", "__code__"), id="attrgetter-audited-member"),
    pytest.param(f"print(len(eval('().__cla' + 'ss__.__base__.' + {SUBCLASSES} + '()')) > 0)",
                 ("attribute", "__subclasses__"), id="eval-computed-source"),
    pytest.param("exec('imp' + 'ort gc')\nprint('gc imported')", ("import", "gc"),
                 id="exec-computed-import"),
    pytest.param("m = __import__('g' + 'c')\nprint(m.__name__)", ("import", "gc"),
                 id="dunder-import-computed"),
    pytest.param("import importlib\nprint(importlib.import_module('mar' + 'shal').__name__)",
                 ("import", "marshal"), id="import-module-computed"),
    pytest.param("import sys\nsys.path.insert(0, '/tmp')\n"
                 "open('/tmp/helper.py', 'w').write('imp' + 'ort gc\\nleak = gc.get_objects()')\n"
                 "import helper\nprint(len(helper.leak) > 0)", ("import", "gc"),
                 id="module-the-script-wrote"),
    pytest.param("import types\ndef f(): pass\nc = getattr(f, '__co' + 'de__')\nprint(c)",
                 ("attribute", "__code__"), id="code-object-by-getattr"),
]


@pytest.fixture(scope="module")
def box() -> Iterator[sw.Sandbox]:
    with sw.Sandbox(python_runtime="cpython313") as sandbox:
        yield sandbox


def _runtime_findings(result: sw.ExecutionResult) -> set[tuple[str, str]]:
    return {(f.kind, f.name) for f in result.audit.flagged_calls
            if f.reason.startswith("at run time: ")}


@pytest.mark.parametrize(("code", "finding"), ATTACKS)
def test_balanced_refuses_at_run_time_and_reports_it(
    box: sw.Sandbox, code: str, finding: tuple[str, str]
) -> None:
    result = box.execute(code, policy="balanced")
    assert result.audit.policy == "balanced"
    assert result.status == "failed", (result.stdout, result.stderr[-300:])
    assert result.error is not None and result.error.type == "PermissionError", result.error
    assert "policy refuses this" in result.error.message
    assert result.audit.safety_verdict == "flagged"
    assert finding in _runtime_findings(result), result.audit.flagged_calls
    assert result.stdout == ""  # nothing after the refusal ran


@pytest.mark.parametrize(("code", "finding"), ATTACKS)
def test_report_only_runs_it_and_reports_it(
    box: sw.Sandbox, code: str, finding: tuple[str, str]
) -> None:
    result = box.execute(code, policy="report")
    assert result.status == "succeeded", (result.error, result.stderr[-300:])
    assert result.audit.safety_verdict == "flagged"
    assert finding in _runtime_findings(result) or finding in {
        (f.kind, f.name) for f in result.audit.flagged_calls}


def test_vars_of_a_class_does_not_hand_out_escape_prone_entries(box: sw.Sandbox) -> None:
    result = box.execute(f"print({SUBCLASSES} in vars(type), 'mro' in vars(type))")
    assert result.stdout == "False True\n"


def test_type_getattribute_is_refused_before_it_runs(box: sw.Sandbox) -> None:
    result = box.execute(f"def f(): pass\nprint(type.__getattribute__(f, {GLOBALS}))")
    assert result.status == "blocked"
    assert ("attribute", "__getattribute__") in {
        (f.kind, f.name) for f in result.audit.flagged_calls}


def test_a_doctest_example_is_judged_like_the_script(box: sw.Sandbox) -> None:
    code = ('def f():\n    """\n    >>> import gc\n    >>> len(gc.get_objects()) > 0\n'
            '    True\n    """\n\nimport doctest\nprint(doctest.testmod())\n')
    result = box.execute(code)
    assert result.status == "succeeded"
    # The import is refused (and so the next example, which needs it, fails too).
    assert "PermissionError: the sandbox's balanced policy refuses this" in result.stdout
    assert result.stdout.endswith("TestResults(failed=2, attempted=2)\n")
    assert ("import", "gc") in _runtime_findings(result)


def test_code_objects_made_by_hand_are_refused(box: sw.Sandbox) -> None:
    # compile() is audited; a code object edited afterwards is not what was audited.
    code = "c = compile('1', 's', 'eval').replace(co_names=('x',))\nprint(eval(c))\n"
    result = box.execute(code, policy="balanced")
    assert result.error is not None and result.error.type == "PermissionError", result.error
    assert ("call", "code.__new__") in _runtime_findings(result)


def test_user_code_cannot_replace_or_add_the_guard(box: sw.Sandbox) -> None:
    # The guard is a C audit hook set once, in the snapshot: under report (which lets the
    # import of the entry module run) a second guard is refused, and the guard still acts.
    for guard in ("lambda event, args: None", "print"):
        result = box.execute(
            "import _sandbox_entry\n"
            f"_sandbox_entry.set_audit_guard({guard}, ('import', 'compile'))", policy="report")
        assert result.status == "failed"
        assert result.error is not None and result.error.type == "RuntimeError", result.error
        assert "the audit guard is set already" in result.error.message
    for code, finding in (("m = __import__('g' + 'c')\nprint(m)", ("import", "gc")),
                          (f"def f(): pass\nprint(getattr(f, {GLOBALS}))",
                           ("attribute", "__globals__"))):
        refused = box.execute("[id(i) for i in range(1000)]\n" + code, policy="balanced")
        assert refused.error is not None and refused.error.type == "PermissionError"
        assert finding in _runtime_findings(refused), refused.audit.flagged_calls


# What the guard must never refuse: the standard library doing its own work with the same
# attributes, when the user's code asks it to.
ORDINARY = [
    pytest.param("from dataclasses import dataclass, field\n@dataclass(frozen=True, order=True)\n"
                 "class P:\n    x: int\n    y: list = field(default_factory=list)\n"
                 "print(P(1) < P(2), P(1))", "True P(x=1, y=[])\n", id="dataclasses"),
    pytest.param("from collections import namedtuple\nP = namedtuple('P', 'x y')\n"
                 "print(P(1, 2)._asdict())", "{'x': 1, 'y': 2}\n", id="namedtuple"),
    pytest.param("import typing\ndef f(x: int) -> str: ...\nprint(typing.get_type_hints(f))",
                 "{'x': <class 'int'>, 'return': <class 'str'>}\n", id="get-type-hints"),
    pytest.param("import inspect\ndef f(a, b=2): pass\nprint(inspect.signature(f))",
                 "(a, b=2)\n", id="inspect-signature"),
    pytest.param("import traceback\ntry:\n    1/0\nexcept ZeroDivisionError:\n"
                 "    print(traceback.format_exc().splitlines()[-1])",
                 "ZeroDivisionError: division by zero\n", id="traceback"),
    pytest.param("import logging, io\ns = io.StringIO()\nlogging.basicConfig(stream=s, "
                 "format='%(funcName)s %(lineno)d %(message)s')\nlogging.warning('hi')\n"
                 "print(s.getvalue().strip())", "<module> 4 hi\n", id="logging-finds-caller"),
    pytest.param("import functools\ndef d(f):\n    @functools.wraps(f)\n    def w(*a):\n"
                 "        return f(*a)\n    return w\n@d\ndef g():\n    'doc'\n"
                 "print(g.__name__, g.__doc__, g.__wrapped__.__name__)", "g doc g\n",
                 id="functools-wraps"),
    pytest.param("def f():\n    '''\n    >>> 1 + 1\n    2\n    '''\nimport doctest\n"
                 "print(doctest.testmod())", "TestResults(failed=0, attempted=1)\n",
                 id="doctest"),
    pytest.param("import unittest, io\nclass T(unittest.TestCase):\n    def test(self):\n"
                 "        self.assertEqual(1, 1)\n        with self.assertRaises(KeyError):\n"
                 "            {}['x']\nr = unittest.TextTestRunner(stream=io.StringIO())."
                 "run(unittest.defaultTestLoader.loadTestsFromTestCase(T))\n"
                 "print(r.wasSuccessful())", "True\n", id="unittest"),
    pytest.param("for field in ('real', 'imag'):\n    print(getattr(3 + 4j, field))",
                 "3.0\n4.0\n", id="getattr-computed-ordinary"),
    pytest.param("print(eval('sum(range(5))'), exec('x = 1') or 'ok')", "10 ok\n",
                 id="eval-exec-ordinary"),
    pytest.param("import asyncio\nasync def main():\n    await asyncio.sleep(0)\n"
                 "    return 7\nprint(asyncio.run(main()))", "7\n", id="asyncio-run"),
    pytest.param("exit()", "", id="exit"),
]


@pytest.mark.parametrize(("code", "stdout"), ORDINARY)
def test_the_guard_lets_ordinary_code_run(box: sw.Sandbox, code: str, stdout: str) -> None:
    result = box.execute(code)
    assert (result.status, result.stdout) == ("succeeded", stdout), (
        result.error, result.stderr[-500:])
    assert result.audit.safety_verdict == "safe", result.audit.flagged_calls


@pytest.mark.parametrize(("code", "message"), [
    pytest.param("import subprocess\nsubprocess.run(['ls'])", "no processes in the sandbox",
                 id="subprocess"),
    pytest.param("import os\nos.system('ls')", "no processes in the sandbox", id="os-system"),
    pytest.param("import socket\nsocket.create_connection(('example.com', 80))",
                 "no sockets in the sandbox", id="socket"),
    pytest.param("import threading\nthreading.Thread(target=print).start()",
                 "no threads in the sandbox", id="thread"),
    pytest.param("from concurrent.futures import ThreadPoolExecutor\n"
                 "ThreadPoolExecutor().submit(print).result()", "no threads in the sandbox",
                 id="thread-pool"),
])
def test_what_the_sandbox_lacks_fails_with_one_line_saying_why(
    box: sw.Sandbox, code: str, message: str
) -> None:
    result = box.execute(code)
    assert result.audit.safety_verdict == "safe"
    assert result.status == "failed" and result.error is not None
    assert message in result.error.message, result.error
