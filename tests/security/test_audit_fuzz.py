"""Fuzzing the audit, and the audit against the runtime (hypothesis).

1. The audit never raises on arbitrary text or bytes, except InvalidRequestError for input
   that is not a valid source (null bytes, invalid UTF-8, lone surrogates, too large).
2. `syntax_valid` agrees with the guest interpreter's own `compile()`.
3. Adding a flagged construct to a safe program never makes the verdict safer.
4. Differential: everything the strict policy blocks (imports and calls) is contained when it
   actually runs with the audit off: no host file, secret or connection is reached.

Each audit is a guest run (results are cached per source), so example counts are modest;
set SANDBOX_WASM_FUZZ_EXAMPLES to run more (e.g. 2000 for a long local session). CI runs a
fixed (derandomised) set of examples so that a red build is reproducible.
"""

from __future__ import annotations

import json
import os
import textwrap
from collections.abc import Iterator

import pytest
from bait import Canary, Listener
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

import sandbox_wasm as sw

EXAMPLES = int(os.environ.get("SANDBOX_WASM_FUZZ_EXAMPLES", "0") or 0)


def fuzz_settings(default: int) -> settings:
    return settings(
        max_examples=EXAMPLES or default,
        deadline=None,
        derandomize=not EXAMPLES,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                               HealthCheck.data_too_large, HealthCheck.filter_too_much],
        database=None,
    )


@pytest.fixture(scope="module")
def auditor() -> sw.Sandbox:
    """The default runtime with the strict policy, small limits for the probes it runs."""
    box = sw.Sandbox(policy=sw.STRICT_POLICY,
                     limits=sw.Limits(timeout_ms=2_000, max_source_bytes=64 * 1024))
    box.warm_up()
    return box


@pytest.fixture(scope="module")
def runner() -> sw.Sandbox:
    """The default runtime with the audit in report-only mode."""
    box = sw.Sandbox(
        policy=sw.REPORT_ONLY_POLICY,
        limits=sw.Limits(timeout_ms=2_000, max_source_bytes=256 * 1024),
    )
    box.warm_up()
    return box


# -- strategies ----------------------------------------------------------------------------

_TOKENS = [
    "x", "y", "f", "g", "C", "_", "é", "ｘ", "print", "len", "self", "T", "os", "eval", "open",
    "0", "1", "3.5", "1j", "0x1F", "1_000", "'s'", '"d"', "b'b'", "r'\\d'", "'''t'''",
    "f'{x}'", 'f"{x!r:>{y}}"', "f'{", "}'", "...", "None", "True",
    "(", ")", "[", "]", "{", "}", ",", ":", ";", ".", "=", "==", ":=", "->", "+", "-", "*",
    "**", "/", "//", "%", "@", "&", "|", "^", "~", "<<", ">>", "<", ">=", "!=", "+=",
    "def", "class", "lambda", "return", "yield", "yield from", "await", "async", "if",
    "elif", "else", "for", "while", "in", "not", "and", "or", "is", "try", "except",
    "except*", "finally", "with", "as", "pass", "break", "continue", "global", "nonlocal",
    "del", "import", "from", "raise", "assert", "match", "case", "type", "__class__",
    "\n", "\n", "\n", "    ", "    ", "\t", "\\\n", "#c\n", " ",
]

_CORPUS = [
    "print(sum(range(10)))\n",
    "def f(a, b=1, *args, c, **kw):\n    return a + b\nprint(f(1, c=2))\n",
    "class A:\n    x: int = 1\n    def m(self):\n        return self.x\nprint(A().m())\n",
    "import json, math\nprint(json.dumps({'r': math.sqrt(2)}))\n",
    "xs = [i * i for i in range(5) if i % 2]\nd = {k: v for k, v in zip('ab', xs)}\n",
    "try:\n    1 / 0\nexcept ZeroDivisionError as e:\n    print(e)\nfinally:\n    pass\n",
    "match [1, 2]:\n    case [a, b] if a < b:\n        print(a)\n    case _:\n        pass\n",
    "type Pair[T] = tuple[T, T]\ndef first[T](p: Pair[T]) -> T:\n    return p[0]\n",
    "async def g():\n    async with a as b:\n        await b\n    return [x async for x in b]\n",
    "names = ['a']\nprint(f\"{'-'.join(names)!r:>10}\")\n",
    "with open_ctx() as (a, b):\n    a += b\n",
    "def gen():\n    x = yield 1\n    yield from range(x)\n",
    "while (n := 3) > 0:\n    break\nelse:\n    pass\n",
    "lambda *a, **k: (a, k)\n",
    "@decorator(1)\nclass B(A, metaclass=M):\n    pass\n",
    "global_ = 1\ndef h():\n    global global_\n    global_ += 1\n",
    "try:\n    pass\nexcept* ValueError:\n    pass\n",
    "x = 1 if True else 2\ndel x\nassert True, 'msg'\n",
]

python_like = st.one_of(
    st.lists(st.sampled_from(_TOKENS), max_size=40).map(" ".join),
    st.lists(st.sampled_from(_TOKENS), max_size=40).map("".join),
)


@st.composite
def mutated_corpus(draw: st.DrawFn) -> str:
    text = draw(st.sampled_from(_CORPUS))
    for _ in range(draw(st.integers(0, 4))):
        pos = draw(st.integers(0, len(text)))
        op = draw(st.sampled_from(["delete", "insert", "duplicate"]))
        if op == "delete":
            end = draw(st.integers(pos, min(len(text), pos + 4)))
            text = text[:pos] + text[end:]
        elif op == "insert":
            text = text[:pos] + draw(st.sampled_from(_TOKENS)) + text[pos:]
        else:
            text = text[:pos] + text[pos:pos + 8] + text[pos:]
    return text


sources = st.one_of(python_like, mutated_corpus(), st.sampled_from(_CORPUS),
                    st.text(max_size=120))


# -- 1. the audit never raises ---------------------------------------------------------------

def _check_report(report: sw.AuditReport) -> None:
    assert report.policy == "strict"
    if not report.syntax_valid:
        # Not a safety finding: no findings, so not "blocked"; it never runs either.
        assert report.safety_verdict == "safe" and report.syntax_error
        assert report.flagged_calls == []
    elif report.flagged_calls:
        assert report.safety_verdict == "blocked"
    else:
        assert report.safety_verdict == "safe"
    for finding in report.flagged_calls:
        assert finding.line >= 0 and finding.col >= 0 and finding.reason


def _audit_or_invalid(box: sw.Sandbox, source: str | bytes) -> sw.AuditReport | None:
    try:
        report = box.audit(source)
    except sw.InvalidRequestError:
        return None  # the one documented refusal (includes SourceTooLargeError)
    _check_report(report)
    return report


@fuzz_settings(300)
@given(text=st.text(max_size=300))
def test_audit_never_raises_on_text(auditor: sw.Sandbox, text: str) -> None:
    report = _audit_or_invalid(auditor, text)
    event("refused" if report is None else f"syntax_valid={report.syntax_valid}")


@fuzz_settings(200)
@given(raw=st.binary(max_size=300))
def test_audit_never_raises_on_bytes(auditor: sw.Sandbox, raw: bytes) -> None:
    report = _audit_or_invalid(auditor, raw)
    event("refused" if report is None else f"syntax_valid={report.syntax_valid}")


@fuzz_settings(300)
@given(source=st.one_of(python_like, mutated_corpus()))
def test_audit_never_raises_on_python_like_text(auditor: sw.Sandbox, source: str) -> None:
    report = _audit_or_invalid(auditor, source)
    event("refused" if report is None else f"syntax_valid={report.syntax_valid}")


@pytest.mark.parametrize(
    "source",
    [
        pytest.param("\x00", id="null"),
        pytest.param(b"\xff", id="invalid-utf8"),
        pytest.param(b"\xed\xa0\x80", id="utf8-encoded-surrogate"),
        pytest.param("\udcff", id="lone-surrogate"),
        pytest.param("#" * (64 * 1024 + 1), id="too-large"),
        pytest.param(b"x = 1\r\n\x0c\x1a", id="control-chars"),
        pytest.param("\ufeffprint(1)", id="bom"),
        pytest.param("# coding: latin-1\nx = '\u00e9'", id="coding-cookie-mismatch"),
        pytest.param("# coding: bogus-codec\nx = 1", id="unknown-coding-cookie"),
        pytest.param("# coding: utf-16\nx = 1", id="non-ascii-compatible-cookie"),
        pytest.param("\\", id="lone-backslash"),
        pytest.param("'''", id="unterminated-triple-quote"),
        pytest.param("\t \x0c" * 100, id="whitespace-only"),
        pytest.param("(" * 300, id="unclosed-parens"),
        pytest.param("f'{'" * 50, id="fstring-soup"),
    ],
)
def test_audit_edge_inputs(auditor: sw.Sandbox, source: str | bytes) -> None:
    _audit_or_invalid(auditor, source)


# -- 2. syntax_valid agrees with the guest's compile() ---------------------------------------

_COMPILE_PROBE = textwrap.dedent(
    """
    try:
        compile({source!r}, '<fuzz>', 'exec', dont_inherit=True)
    except SyntaxError as exc:
        print('SyntaxError', exc.msg)
    except (MemoryError, RecursionError, ValueError) as exc:
        print('TooComplex', type(exc).__name__)
    else:
        print('ok')
    """
)

# Errors that CPython reports from the compiler (symbol table, code generation), after the
# parser accepted the source. The audit only parses (ast.parse), so it calls these valid;
# see test_compiler_stage_syntax_errors below for the weakness this documents.
COMPILER_STAGE_ERRORS = (
    "outside function", "outside loop", "outside async function", "not properly in loop",
    "nonlocal declaration not allowed at module level", "no binding for nonlocal",
    "multiple starred expressions", "duplicate argument", "is parameter and global",
    "is parameter and nonlocal", "is assigned to before", "is used prior to",
    "is nonlocal and global", "starred assignment target must be in a list or tuple",
    "can't use starred expression here", "'await' outside", "asynchronous comprehension",
    "'yield' inside", "annotated name", "cannot be used in a type", "too many statically nested",
    "default 'except:' must be last", "'break', 'continue' and 'return' cannot appear",
    "cannot be nonlocal", "cannot be global", "irrefutable", "multiple assignments to name",
    "name capture", "wildcard makes remaining patterns unreachable", "duplicate",
)


def guest_compile(runner: sw.Sandbox, source: str) -> tuple[str, str]:
    """What the guest's own compile() says about `source` (compiled from the same bytes)."""
    result = runner.execute(_COMPILE_PROBE.format(source=source.encode("utf-8")))
    assert result.status == "succeeded", (result.status, result.error, result.stderr[-400:])
    verdict, _, detail = result.stdout.strip().partition(" ")
    return verdict, detail


@fuzz_settings(400)
@given(source=sources)
def test_syntax_valid_agrees_with_guest_compile(
    auditor: sw.Sandbox, runner: sw.Sandbox, source: str
) -> None:
    report = _audit_or_invalid(auditor, source)
    if report is None:
        return
    verdict, detail = guest_compile(runner, source)
    if report.syntax_valid and verdict == "SyntaxError" and any(
        marker in detail for marker in COMPILER_STAGE_ERRORS
    ):
        event("compiler-stage SyntaxError (known audit gap)")
        return
    event(f"compile={verdict}")
    assert report.syntax_valid == (verdict == "ok"), (source, report.syntax_error, verdict,
                                                      detail)


@pytest.mark.parametrize(
    "source",
    [
        pytest.param("return 1\n", id="return-outside-function"),
        pytest.param("yield 1\n", id="yield-outside-function"),
        pytest.param("break\n", id="break-outside-loop"),
        pytest.param("await x\n", id="await-outside-async"),
        pytest.param("nonlocal x\n", id="nonlocal-at-module-level"),
        pytest.param("def f(a, a):\n    pass\n", id="duplicate-argument"),
        pytest.param("*a, *b = [1, 2]\n", id="multiple-starred"),
    ],
)
def test_compiler_stage_syntax_errors(
    auditor: sw.Sandbox, runner: sw.Sandbox, source: str
) -> None:
    verdict, _ = guest_compile(runner, source)
    assert verdict == "SyntaxError"  # the guest interpreter rejects it ...
    result = auditor.execute(source)
    # ... so the sandbox should say so the same way as for any other SyntaxError.
    assert (result.status, result.exit_code, result.syntax_valid) == ("syntax_error", 1, False)


# -- 3. monotonicity: a flagged construct never makes the verdict safer ----------------------

_SAFE_PROGRAMS = [
    "x = 1\n",
    "import json\nprint(json.dumps([1, 2]))\n",
    "def f(a):\n    return [i * a for i in range(3)]\nprint(f(2))\n",
    "class P:\n    def __init__(self, v):\n        self.v = v\nprint(P(1).v)\n",
    "import math, statistics\nprint(statistics.mean([math.pi, 1]))\n",
    "total = 0\nfor i in range(10):\n    if i % 2:\n        total += i\n",
    "from collections import Counter\nprint(Counter('hello').most_common(1))\n",
]

# (kind, code) with kind "stmt" (a statement) or "expr" (an expression).
_FLAGGED = [
    ("stmt", "import os"),
    ("stmt", "import subprocess as sp"),
    ("stmt", "from socket import socket"),
    ("stmt", "from os import *"),
    ("stmt", "import urllib.request"),
    ("stmt", "import importlib"),
    ("stmt", "import ctypes"),
    ("stmt", "import nosuchmodule"),
    ("expr", "eval('1')"),
    ("expr", "exec('1')"),
    ("expr", "open('/etc/passwd')"),
    ("expr", "compile('1', 's', 'eval')"),
    ("expr", "getattr(x, 'y')"),
    ("expr", "__import__('os')"),
    ("expr", "globals()"),
    ("expr", "vars()"),
    ("expr", "breakpoint()"),
    ("expr", "().__class__.__bases__"),
    ("expr", "x.__subclasses__()"),
    ("expr", "f.__globals__"),
    ("expr", "g.gi_frame.f_back"),
    ("expr", "__builtins__"),
    ("expr", "'{0.__class__}'.format(1)"),
    ("expr", "eval"),
]

# Places a flagged expression can hide; {e} is the expression.
_EXPR_CONTEXTS = [
    "{e}",
    "if False:\n    {e}",
    "lambda: {e}",
    "[{e} for _ in ()]",
    "{{k: {e} for k in ()}}",
    "(lambda x={e}: x)",
    "f'{{{e}}}'",
    "def hidden():\n    return {e}",
    "class Hidden:\n    attr = {e}",
    "@{e}\ndef decorated(): pass",
    "type Alias = {e}",
    "def generic[T: {e}](): pass",
    "match 1:\n    case _ if {e}:\n        pass",
    "try:\n    pass\nexcept {e}:\n    pass",
    "with {e} as w:\n    pass",
    "async def co():\n    await {e}",
    "x: {e} = 1",
    "assert True, {e}",
]

_STMT_CONTEXTS = [
    "{s}",
    "if False:\n    {s}",
    "def hidden():\n    {s}",
    "class Hidden:\n    {s}",
    "try:\n    {s}\nexcept Exception:\n    pass",
    "while False:\n    {s}",
]


@st.composite
def with_flagged_construct(draw: st.DrawFn) -> tuple[str, str]:
    base = draw(st.sampled_from(_SAFE_PROGRAMS))
    kind, construct = draw(st.sampled_from(_FLAGGED))
    contexts = _EXPR_CONTEXTS if kind == "expr" else _STMT_CONTEXTS
    context = draw(st.sampled_from(contexts))
    # `import *` is only valid at module level; the audit compiles, so inside a function or
    # class it would (rightly) be a syntax error rather than a finding.
    assume(not ("import *" in construct and context.startswith(("def ", "class "))))
    snippet = context.format(e=construct, s=construct)
    lines = base.splitlines(keepends=True)
    # Insert at a top-level line boundary (before a line that is not indented).
    boundaries = [i for i, line in enumerate(lines) if not line[:1].isspace()] + [len(lines)]
    at = draw(st.sampled_from(boundaries))
    return base, "".join(lines[:at]) + snippet + "\n" + "".join(lines[at:])


_RANK = {"safe": 0, "flagged": 1, "blocked": 2}


@fuzz_settings(300)
@given(pair=with_flagged_construct())
def test_flagged_construct_never_makes_verdict_safer(
    auditor: sw.Sandbox, pair: tuple[str, str]
) -> None:
    base, combined = pair
    before = auditor.audit(base)
    after = auditor.audit(combined)
    assert before.syntax_valid and before.safety_verdict == "safe"
    assert after.syntax_valid, (combined, after.syntax_error)
    assert _RANK[after.safety_verdict] >= _RANK[before.safety_verdict]
    assert after.safety_verdict == "blocked", combined
    keys = {(f.kind, f.name) for f in after.flagged_calls}
    assert {(f.kind, f.name) for f in before.flagged_calls} <= keys


@fuzz_settings(200)
@given(a=sources, b=sources)
def test_concatenation_keeps_every_finding(auditor: sw.Sandbox, a: str, b: str) -> None:
    """Findings of two valid programs survive their concatenation (a generic monotonicity)."""
    first, second = _audit_or_invalid(auditor, a), _audit_or_invalid(auditor, b)
    if not (first and second and first.syntax_valid and second.syntax_valid):
        return
    both = _audit_or_invalid(auditor, a.rstrip("\\") + "\n" + b)
    if both is None or not both.syntax_valid:
        return  # e.g. an open bracket in `a` swallowing `b`
    names = {(f.kind, f.name) for f in both.flagged_calls}
    assert {(f.kind, f.name) for f in first.flagged_calls} <= names
    assert _RANK[both.safety_verdict] >= max(_RANK[first.safety_verdict],
                                             _RANK[second.safety_verdict])


# -- 4. differential: what the policy blocks is contained when it runs ----------------------

_CONTAINED = {"succeeded", "failed", "timeout", "fuel_exhausted", "memory_exceeded"}


def _arg_pool(canary: Canary, port: int) -> list[str]:
    """Argument tuples (as Python source) aimed at the host."""
    f, d = str(canary.file), str(canary.directory)
    return [
        "()",
        f"({f!r},)",
        f"({f!r}, 'w')",
        f"({f!r}, {f!r} + '.moved')",
        f"({d!r},)",
        f"({d + '/pwned.txt'!r}, 'w')",
        "('/',)",
        "('/tmp/sandbox-wasm-pwned.txt', 'w')",
        f"({canary.env!r},)",
        f"(('127.0.0.1', {port}),)",
        f"('127.0.0.1', {port})",
        "(['sh', '-c', 'echo pwned > /tmp/sandbox-wasm-pwned.txt'],)",
        "('echo pwned > /tmp/sandbox-wasm-pwned.txt',)",
        "(1, b'x')",
        "(3,)",
        "(0,)",
        "(-1,)",
        "(1 << 40,)",
    ]


@pytest.fixture(scope="module")
def blocked_callables(runner: sw.Sandbox) -> dict[str, list[str]]:
    """The public callables of every module the strict policy blocks, as the guest sees them."""
    modules = sorted(m for m in sw.STRICT_POLICY.blocked_modules if "." not in m)
    probe = textwrap.dedent(
        f"""
        import importlib, json
        found = {{}}
        for name in {modules!r}:
            try:
                module = importlib.import_module(name)
            except BaseException:
                found[name] = []
                continue
            found[name] = sorted(n for n in dir(module)
                                 if not n.startswith('_') and callable(getattr(module, n)))
        print(json.dumps(found))
        """
    )
    result = runner.execute(probe)
    assert result.status == "succeeded", result.stderr[-500:]
    found = json.loads(result.stdout)
    found["builtins"] = sorted(sw.STRICT_POLICY.blocked_calls)
    return found


def _call_probe(module: str, name: str, args: str) -> str:
    return textwrap.dedent(
        f"""
        import importlib
        try:
            target = getattr(importlib.import_module({module!r}), {name!r})
            value = target(*{args})
            if hasattr(value, '__next__'):
                value = [next(value) for _ in range(3)]
        except BaseException as exc:
            print('raised', type(exc).__name__)
        else:
            print('returned', repr(value)[:300])
        """
    )


def _assert_contained(result: sw.ExecutionResult, canary: Canary, listener: Listener) -> None:
    assert result.status in _CONTAINED, (result.status, result.error)
    canary.assert_not_in(result.model_dump_json())
    assert listener.connections() == 0
    assert not os.path.exists("/tmp/sandbox-wasm-pwned.txt")
    assert sorted(os.listdir(canary.directory)) == [canary.file.name]


@fuzz_settings(400)
@given(data=st.data())
def test_blocked_callables_are_contained_without_the_audit(
    runner: sw.Sandbox,
    blocked_callables: dict[str, list[str]],
    canary: Canary,
    listener: Listener,
    data: st.DataObject,
) -> None:
    module = data.draw(st.sampled_from(sorted(m for m, names in blocked_callables.items()
                                              if names)), label="module")
    name = data.draw(st.sampled_from(blocked_callables[module]), label="name")
    args = data.draw(st.sampled_from(_arg_pool(canary, listener.port)), label="args")
    before = canary.state()
    result = runner.execute(_call_probe(module, name, args), limits={"timeout_ms": 1_000})
    event(f"{result.status}")
    _assert_contained(result, canary, listener)
    assert canary.state() == before


@pytest.mark.parametrize("module", sorted(m for m in sw.STRICT_POLICY.blocked_modules))
def test_every_blocked_module_is_contained(
    auditor: sw.Sandbox,
    runner: sw.Sandbox,
    canary: Canary,
    listener: Listener,
    module: str,
) -> None:
    """The audit blocks the import; with the audit off, calling every public callable of the
    module with host-aimed arguments reaches nothing on the host."""
    assert auditor.audit(f"import {module}").safety_verdict == "blocked"
    pool = _arg_pool(canary, listener.port)
    # Calls that end or stall the sweep are exercised one at a time by the hypothesis test.
    skip = {"abort", "_exit", "exit", "pause", "sleep", "wait", "waitpid", "wait3", "wait4",
            "select", "poll", "input", "interact", "read", "readline", "sigwait", "spawn",
            "set_trace", "breakpoint", "run", "runcall", "main", "kill", "raise_signal",
            "alarm", "setitimer", "closerange", "close", "dup2", "set_inheritable",
            "set_blocking"}
    sweep = textwrap.dedent(
        f"""
        import importlib
        calls = 0
        outcomes = set()
        try:
            mod = importlib.import_module({module.split('.')[0]!r})
        except BaseException as exc:
            mod = None
            print('absent', type(exc).__name__)
        names = sorted(n for n in dir(mod) if not n.startswith('_')) if mod else []
        for name in names:
            if name in {sorted(skip)!r}:
                continue
            target = getattr(mod, name)
            if not callable(target):
                continue
            if isinstance(target, type) and issubclass(target, BaseException):
                continue
            for args in [{", ".join(pool)}]:
                calls += 1
                try:
                    value = target(*args)
                    if hasattr(value, 'close') and not isinstance(value, type):
                        try:
                            value.close()
                        except BaseException:
                            pass
                    outcomes.add('returned')
                except BaseException as exc:
                    outcomes.add(type(exc).__name__)
        print('calls', calls, sorted(outcomes))
        """
    )
    before = canary.state()
    result = runner.execute(sweep, limits={"timeout_ms": 5_000})
    _assert_contained(result, canary, listener)
    assert canary.state() == before


_CALL_ATTACKS = {
    "eval": "eval(\"open({f!r}).read()\")",
    "exec": "exec(\"print(open({f!r}).read())\")",
    "open": "print(open({f!r}).read())",
    "compile": "exec(compile(\"print(open({f!r}).read())\", 's', 'exec'))",
    "getattr": "print(getattr(__builtins__, 'open')({f!r}).read())",
    "setattr": "setattr(__builtins__, 'print', None)\nimport os\nos.listdir('/')",
    "delattr": "delattr(__builtins__, 'open')\nimport io\nio.open({f!r})",
    "globals": "print(globals()['__builtins__'].open({f!r}).read())",
    "locals": "print(locals()['__builtins__'].open({f!r}).read())",
    "vars": "print(vars(__builtins__)['open']({f!r}).read())",
    "__import__": "print(__import__('os').listdir('/'))",
    "input": "print(input('secret? '))",
    "exit": "exit(7)",
    "quit": "quit(7)",
    "breakpoint": "breakpoint()\nprint(open({f!r}).read())",
    "memoryview": "m = memoryview(bytearray(16))\nprint(m.cast('B')[0])\nprint(open({f!r}).read())",
}


@pytest.mark.parametrize("name", sorted(sw.STRICT_POLICY.blocked_calls))
def test_every_blocked_call_is_contained(
    auditor: sw.Sandbox,
    runner: sw.Sandbox,
    canary: Canary,
    listener: Listener,
    name: str,
) -> None:
    """Each blocked builtin, used to reach the canary, is refused by the audit and contained
    by the sandbox when the audit is off."""
    assert name in _CALL_ATTACKS, f"add an attack for the newly blocked call {name!r}"
    code = _CALL_ATTACKS[name].format(f=str(canary.file)) + "\n"
    assert auditor.audit(code).safety_verdict == "blocked"
    result = runner.execute(code, limits={"timeout_ms": 2_000})
    _assert_contained(result, canary, listener)
    assert result.status != "succeeded" or canary.value not in result.stdout


@pytest.fixture(scope="module", autouse=True)
def _no_stray_files() -> Iterator[None]:
    yield
    assert not os.path.exists("/tmp/sandbox-wasm-pwned.txt")
