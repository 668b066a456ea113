# This file runs INSIDE the sandbox (CPython 3.12 for WASI); the host never imports it.
# The host passes it to the guest interpreter as `python -I -S -u -c <this file>`.
# Everything above the final `_r()` line is start-up work (a pre-initialised runtime runs
# it once at build time); `_r()` serves one request read from stdin:
#   b"run\n"   + source -> execute the source as __main__
#   b"audit\n" + source -> parse it with the guest's own 3.12 grammar, print facts as JSON
# Names are bound as default arguments so user code that patches `os`, `sys` or
# `traceback` cannot change how its own outcome is reported.
import atexit
import builtins
import contextlib
import gc
import os
import sys

# Modules that user code and the audit commonly need. The plain runtime imports them lazily
# (start-up cost is paid per run there); a pre-initialised snapshot imports them once at
# build time so that every run finds them ready.
_PRELOAD = ("ast", "json", "traceback", "re", "math", "collections", "functools",
            "itertools", "io", "datetime", "time", "string", "statistics", "base64",
            "hashlib", "textwrap", "typing", "dataclasses", "enum", "fractions", "decimal",
            "heapq", "bisect", "copy", "pprint", "operator", "random")

_ERROR_MARK = b"\x00sandbox-wasm-error:"
_FACT_LIMIT_PER_NAME = 20


def _facts(source):
    import ast as _ast

    try:
        tree = _ast.parse(source, "<sandbox>", "exec")
    except SyntaxError as exc:
        return {"syntax_error": {"message": str(exc.msg), "line": exc.lineno or 0,
                                 "col": exc.offset or 0}}
    except (MemoryError, RecursionError, ValueError) as exc:
        return {"syntax_error": {"message": "source too complex to parse: " + type(exc).__name__,
                                 "line": 0, "col": 0}}
    facts = []
    seen = {}
    call_targets = set()

    def add(kind, name, node):
        key = (kind, name)
        count = seen.get(key, 0)
        if count < _FACT_LIMIT_PER_NAME:
            seen[key] = count + 1
            facts.append((kind, name, getattr(node, "lineno", 0), getattr(node, "col_offset", 0)))

    def dotted(node):
        parts = []
        while isinstance(node, _ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if isinstance(node, _ast.Name):
            parts.append(node.id)
        else:
            parts.append("?")
        return ".".join(reversed(parts))

    # ast.walk is iterative: a left-deep tree 100k levels deep cannot exhaust the C stack.
    for node in _ast.walk(tree):
        kind = type(node)
        if kind is _ast.Import:
            for alias in node.names:
                add("import", alias.name, node)
        elif kind is _ast.ImportFrom:
            base = "." * node.level + (node.module or "")
            for alias in node.names:
                add("import", base + "." + alias.name if node.module else base + alias.name, node)
        elif kind is _ast.Call:
            if isinstance(node.func, _ast.Name):
                call_targets.add(id(node.func))
            add("call", dotted(node.func), node)
        elif kind is _ast.Attribute:
            add("attribute", node.attr, node)
        elif kind is _ast.Name:
            if id(node) not in call_targets:
                add("name", node.id, node)
        elif kind is _ast.Constant and isinstance(node.value, str) and "__" in node.value:
            add("string", node.value[:200], node)
    return {"facts": facts}


def _exit_code(exc, _write=os.write):
    code = exc.code
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    with contextlib.suppress(Exception):
        _write(2, (str(code) + "\n").encode("utf-8", "backslashreplace"))
    return 1


def _report(exc, _write=os.write):
    from json import dumps as _dumps
    from traceback import format_exception as _format

    tb = exc.__traceback__.tb_next if exc.__traceback__ is not None else None
    try:
        text = "".join(_format(type(exc), exc, tb, limit=-64))
    except BaseException:
        text = f"{type(exc).__name__}: <unprintable exception>\n"
    _write(2, text.encode("utf-8", "backslashreplace"))
    try:
        message = str(exc)[:1000]
    except BaseException:
        message = "<unprintable>"
    record = _dumps({"type": type(exc).__name__, "message": message})
    _write(2, _ERROR_MARK + record.encode("utf-8", "backslashreplace") + b"\n")


def _flush(_sys=sys):
    for stream in (_sys.stdout, _sys.stderr):
        with contextlib.suppress(BaseException):
            stream.flush()


def _r(_read=os.read, _exit=os._exit, _atexit=atexit, _builtins=builtins, _sys=sys,
       _write=os.write, gc=gc):
    chunks = []
    while True:
        chunk = _read(0, 1 << 20)
        if not chunk:
            break
        chunks.append(chunk)
    mode, _, source = b"".join(chunks).partition(b"\n")
    if mode == b"audit":
        from json import dumps as _dumps

        _write(1, _dumps(_facts(source), separators=(",", ":")).encode())
        _exit(0)
    _sys.argv[:] = ["-c"]  # as on the plain path, whether or not this is a snapshot
    random_module = _sys.modules.get("random")
    if random_module is not None:
        random_module.seed()  # never reuse a seed baked into a snapshot
    namespace = {"__name__": "__main__", "__builtins__": _builtins}
    code = 0
    try:
        exec(compile(source, "<sandbox>", "exec", dont_inherit=True), namespace)
    except SystemExit as exc:
        code = _exit_code(exc)
    except BaseException as exc:
        # Free what the user code held (a memory bomb leaves no room to format the error).
        namespace.clear()
        gc.collect()
        _report(exc)
        code = 130 if isinstance(exc, KeyboardInterrupt) else 1
    # CPython runs atexit handlers at shutdown; so do we, under the same deadline.
    with contextlib.suppress(BaseException):
        _atexit._run_exitfuncs()
    _flush()
    _exit(code)


if sys.argv[1:] == ["--snapshot-init"]:
    for _name in _PRELOAD:
        __import__(_name)
    # Frozen objects are never scanned again: without this, the first collection of every
    # run walks the whole start-up heap.
    gc.collect()
    gc.freeze()
else:
    _r()
