"""The audit's facts from the parser's C tree (`_sandbox_audit`, scripts/cpython_wasi/
sandbox_audit.c) against the bootstrap's Python walk (`_facts_of`, `_compile_module`), inside
the guest: for every source of a corpus, the same answer (facts, in order, with their
limits) and an equal code object, or the same error."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

import sandbox_wasm as sw
from sandbox_wasm._guest import bootstrap

REPO = Path(__file__).resolve().parents[2]
BOOTSTRAP = Path(bootstrap.__file__)

#: Constructs the repository's own code (3.11 syntax) does not have, and the answer's limits.
_CONSTRUCTS = [
    "type X = int\ndef f[T: (int, str), *Ts, **P](x: T) -> T: return x\nclass C[T = int]: pass\n",
    'a = "x"\nprint(f"{a!r:>{10}} {"nested"} {a.__class__} {getattr(a, "__doc__")}")\n',
    "match p:\n    case {'k': [1, *rest], **kw} if rest: pass\n"
    "    case Point(x=0, y=_) | Point(1, 2): pass\n    case str() as s: pass\n"
    "    case None | True: pass\n    case -1 | 1+2j | b'x': pass\n",
    "import sys as s, os.path, a.b.c as d\nfrom . import x\nfrom ..pkg.mod import (y as z, w)\n"
    "from __future__ import annotations\nfrom os import *\n",
    "import sys\nsys.modules; sys._getframe(0).f_back; print(sys)\nsys()\nx.sys.y\n",
    "getattr(o, 'real'); getattr(o, '__class__'); hasattr(o, 'x', 1); setattr(o, *a)\n"
    "getattr(o, b'x'); getattr(o); getattr(o, f'x'); delattr(o, 'd')\n",
    "import gc\ngc.get_objects(); g.get_objects(); a.b.c.d(); (lambda: 1)(); x[0].y()\n",
    "async def g():\n    async with a as b, c:\n        await b\n    async for i in x: pass\n"
    "    return [x async for x in b if await x]\n",
    "@dec(1)\nclass A(B, metaclass=M, **kw):\n    x: int = 1\n    def m(self, /, a, *b, c=2, **d): ...\n",
    "d = {**a, 'k': 1, None: 2}\nprint(*a, **{'sep': ''})\n(x := 10)\ndel x[0], y.z\n",
    "try:\n    pass\nexcept* (ValueError, TypeError) as e:\n    raise X from e\nfinally:\n"
    "    assert 1, '__dunder__'\n",
    "with open('f') as (a, b), ctx(): pass\nglobal q\nfor i in range(3): continue\nelse: pass\n",
    "x = '" + "__a" * 300 + "'\ny." + "l" * 400 + "\nimport " + "m" * 300 + "\n",
    "".join(f"print(n{i % 3})\n" for i in range(60)),  # the per-name limit
    "x = [" + ", ".join(f"n{i}" for i in range(20_050)) + "]\n",  # MAX_FACTS: truncated
    "import a, b, " + ", ".join(f"m{i}" for i in range(20_010)) + "\n",  # one node, past it
    "café = 1\nprint(ﬁle)\n'''docstring'''\n1 + 1\n",  # identifiers NFKC-normalised
    "# -*- coding: latin-1 -*-\nx = 'caf\xe9'\n",  # bytes below: the cookie decides
    "",
    "\n\n# only a comment\n",
    "x\n",
    "def f():\n    return 1\nf()\n",
    # errors: the same type and message from both
    "def f(:\n",
    "return 1\n",
    "def f(a, a): pass\n",
    "x = 1\0\n",
    "nonlocal x\n",
    "f(**a, *b)\n",
    "\tif x:\n  pass\n",
]


def _corpus() -> list[bytes]:
    files = sorted(p for p in REPO.glob("**/*.py") if ".venv" not in p.parts
                   and "node_modules" not in p.parts and not p.name.startswith("."))
    sources = [p.read_bytes() for p in files]
    sources += [c.encode("latin-1") if "coding: latin-1" in c else c.encode() for c in _CONSTRUCTS]
    return sources


#: The guest's side: both walks over each source of /input/corpus.json (hex-encoded bytes).
_COMPARE = textwrap.dedent(
    """\
    import ast, json, _sandbox_audit
    ns = {"__name__": "bootstrap_copy"}
    exec(compile(open("/input/bootstrap.py").read(), "bootstrap_copy.py", "exec"), ns)
    limits = (ns["_VALUE_NAME"], ns["LITERAL_ATTRIBUTE_CALLS"], ns["MAX_FACTS"],
              ns["_FACT_LIMIT_PER_NAME"], ns["_MAX_NAME"])

    def python_walk(source):
        try:
            tree = ast.parse(source, "<sandbox>", "exec")
            return ns["_facts_of"](tree), ns["_compile_module"](tree)
        except Exception as exc:
            return type(exc).__name__, str(exc)

    def native(source):
        try:
            return _sandbox_audit.facts_and_code(source, "<sandbox>", *limits)
        except Exception as exc:
            return type(exc).__name__, str(exc)

    def native_code(source):
        try:
            return _sandbox_audit.compile_for_run(source, "<sandbox>", limits[0])
        except Exception as exc:
            return type(exc).__name__, str(exc)

    compared, facts, errors, truncated, mismatches = 0, 0, 0, 0, []
    for index, text in enumerate(json.load(open("/input/corpus.json"))):
        source = bytes.fromhex(text)
        expected, got, code = python_walk(source), native(source), native_code(source)
        compared += 1
        if isinstance(expected[0], dict):
            facts += len(expected[0]["facts"])
            truncated += bool(expected[0].get("facts_truncated"))
        else:
            errors += 1
        if got != expected or code != (expected[1] if isinstance(expected[0], dict)
                                       else expected):
            mismatches.append({"index": index, "python": repr(expected)[:600],
                               "native": repr(got)[:600], "code": repr(code)[:300]})
    print(json.dumps({"compared": compared, "facts": facts, "errors": errors,
                      "truncated": truncated, "mismatches": mismatches[:5]}))
    """
)

_CHUNK_BYTES = 700_000


def _chunks() -> list[list[bytes]]:
    chunks: list[list[bytes]] = [[]]
    size = 0
    for source in _corpus():
        if size + len(source) > _CHUNK_BYTES and chunks[-1]:
            chunks.append([])
            size = 0
        chunks[-1].append(source)
        size += len(source)
    return chunks


CHUNKS = _chunks()


@pytest.mark.parametrize("chunk", range(len(CHUNKS)))
def test_native_facts_equal_the_python_walk(sandbox: sw.Sandbox, chunk: int) -> None:
    sources = CHUNKS[chunk]
    corpus = json.dumps([s.hex() for s in sources])
    result = sandbox.execute(
        _COMPARE, policy=sw.REPORT_ONLY_POLICY, limits={"timeout_ms": 30_000, "memory_mb": 512},
        files={"bootstrap.py": BOOTSTRAP.read_bytes(), "corpus.json": corpus},
    )
    assert result.status == "succeeded", (result.error, result.stderr[-2000:])
    summary = json.loads(result.stdout)
    assert summary["mismatches"] == []
    assert summary["compared"] == len(sources)
    assert summary["facts"] > 0
    if chunk == len(CHUNKS) - 1:  # the constructs: errors and the limits were reached
        assert summary["errors"] >= 6 and summary["truncated"] == 2


def test_audit_uses_the_native_facts(balanced_sandbox: sw.Sandbox) -> None:
    """The runtime has the module, and a run's audit answer is its facts (a source that the
    Python walk would judge the same)."""
    sandbox = balanced_sandbox
    result = sandbox.execute("import _sandbox_audit\nprint(_sandbox_audit.__name__)")
    assert result.stdout == "_sandbox_audit\n"
    report = sandbox.audit(
        "import ctypes as c\ngetattr(x, '__subclasses__')\nprint(f'{a.__globals__}')")
    assert {(f.kind, f.name) for f in report.flagged_calls} >= {
        ("import", "ctypes"), ("attribute", "__subclasses__"), ("attribute", "__globals__")}


def test_user_code_cannot_compile_around_the_guard(balanced_sandbox: sw.Sandbox) -> None:
    """Parsing raises the same "compile" audit event as compile(): a source the user's code
    compiles through the module is judged by the run-time guard like one given to compile()."""
    code = textwrap.dedent(
        """\
        import _sandbox_audit
        code = _sandbox_audit.compile_for_run(b"().__class__.__subclasses__()", "<x>", "v")
        print("compiled")
        """
    )
    result = balanced_sandbox.execute(code)
    assert "compiled" not in result.stdout
    assert result.error is not None and result.error.type == "PermissionError"
    assert "__subclasses__" in result.error.message
