# The guest's side of sandbox-wasm. It runs INSIDE the sandbox (our CPython 3.13 for WASI)
# in a pre-initialised snapshot that ran everything but the final `serve()` once at build
# time. `serve()` serves one request: the one the host left in the snapshot's memory
# (sandbox_entry.c's `sandbox_request`), else one read from stdin:
#   b"audit\n" + source
#       parse with the guest's own grammar; write the facts (the audit answer) to
#       stdout, framed; run nothing.
#   b"exec\n" + policy tables (JSON, or @strict:MODE / @balanced:MODE) + b"\n" + source
#       audit as above and write the audit answer BEFORE any user code runs; then, unless
#       the policy blocks it, run the source as __main__. The host recomputes the findings
#       from the answer with `judge_fact`.
#   b"exec tools\n" / b"session tools\n" + tools manifest (JSON) + b"\n" + the rest as above
#       first installs the `tools` module: one stub per host tool, calling it through the
#       tool channel (descriptor 4) with JSON arguments.
#   b"session\n" + policy line + b"\n" + source
#       as exec, but the code runs in the session's own __main__, which lives on in this
#       instance for the next request; serve() then returns its exit status, which the
#       resume entry returns to the host (the instance is left at rest, ready to serve
#       again).
# The host imports this module for the protocol below and for `judge_fact`, so that both
# sides share one definition of the wire format and the policy decision. Names are bound as
# default arguments so user code that patches `os`, `sys` or `traceback` cannot change how
# its outcome is reported.
import atexit
import builtins
import contextlib
import gc
import marshal
import os
import sys

# Modules that user code and the audit commonly need. The plain runtime imports them lazily
# (start-up cost is paid per run there); a pre-initialised snapshot imports them once at
# build time so that every run finds them ready.
_PRELOAD = ("ast", "json", "traceback", "re", "math", "collections", "functools",
            "itertools", "io", "datetime", "time", "string", "statistics", "base64",
            "hashlib", "textwrap", "typing", "dataclasses", "enum", "fractions", "decimal",
            "heapq", "bisect", "copy", "pprint", "operator", "random")

# The strict policy (the union of the product notes' lists). The host's AuditPolicy takes its
# defaults from here, and a pre-initialised snapshot keeps these tables (and the balanced
# ones below) ready, so a built-in policy costs no parsing.
STRICT_TABLES = {
    "blocked_modules": (
        "os", "sys", "subprocess", "socket", "builtins", "shutil", "ctypes", "requests",
        "urllib", "pty", "tty", "termios", "fcntl", "platform", "http", "ftplib",
        "smtplib", "importlib", "pathlib", "glob", "tempfile", "cryptography", "ssl",
        "pickle", "marshal", "yaml", "posix", "io.open", "multiprocessing", "threading",
        "signal", "select", "selectors", "asyncio", "code", "codeop", "gc", "inspect",
        "runpy", "zipimport", "pkgutil", "sysconfig", "site", "shelve", "dbm", "sqlite3",
        "_posixsubprocess", "_io", "_thread", "mmap", "resource", "webbrowser",
    ),
    "allowed_modules": (
        "tools", "json", "math", "cmath", "re", "datetime", "time", "calendar", "collections",
        "functools", "itertools", "random", "statistics", "string", "base64", "hashlib",
        "hmac", "secrets", "urllib.parse", "html", "xml.etree.ElementTree", "typing",
        "types", "copy", "pprint", "textwrap", "decimal", "fractions", "dataclasses",
        "enum", "heapq", "bisect", "csv", "io", "operator", "numbers", "array",
        "difflib", "unicodedata", "uuid", "zlib", "binascii", "struct", "abc",
        "contextlib", "graphlib", "colorsys", "__future__",
    ),
    "blocked_calls": (
        "eval", "exec", "open", "compile", "getattr", "setattr", "delattr", "globals",
        "locals", "vars", "__import__", "input", "exit", "quit", "breakpoint",
        "memoryview",
    ),
    "blocked_attributes": (
        "__subclasses__", "__globals__", "__builtins__", "__code__", "__closure__",
        "__class__", "__bases__", "__base__", "__mro__", "__dict__", "__getattribute__",
        "__reduce__", "__reduce_ex__", "__loader__", "__spec__", "__import__",
        "__self__", "__func__", "__wrapped__", "__init_subclass__", "__set_name__",
        "f_globals", "f_locals", "f_builtins", "f_back", "f_code", "tb_frame", "tb_next",
        "gi_frame", "gi_code", "cr_frame", "cr_code", "ag_frame", "ag_code",
        "co_code", "co_consts", "mro", "system", "popen", "spawn",
    ),
    "blocked_names": ("__builtins__", "__loader__", "__spec__"),
    "dunder_strings": True,
}

# The "balanced" policy refuses only what reaches into the interpreter's internals: the
# first step of every known Python sandbox escape (frame, code and function internals, the
# __subclasses__ / __globals__ / __builtins__ walks, gc/ctypes-style object access, the import
# machinery). Every other module of the guest's standard library is importable: what the
# sandbox lacks (processes, sockets, threads) fails at the call, with a one-line reason.
# Computed attribute names, eval/exec/compile and imports of computed names are checked at
# run time by the guard below (`_runtime_guard`), with the same tables.
BALANCED_BLOCKED_MODULES = (
    # Object and memory access below the language.
    "ctypes", "_ctypes", "gc", "marshal", "_testcapi", "_testinternalcapi",
    "_testbuffer", "_testmultiphase", "_testsinglephase", "_testimportmultiple",
    "_testclinic", "_testlimitedcapi", "_xxtestfuzz", "_xxsubinterpreters",
    "_xxinterpchannels", "_interpreters", "_interpchannels", "_interpqueues",
    # The import machinery itself (importing is fine; rewiring it is not).
    "_imp", "_frozen_importlib", "_frozen_importlib_external", "importlib._bootstrap",
    "importlib._bootstrap_external", "importlib.machinery",
    # What only walks frames or hooks every call.
    "sys._getframe", "sys._current_frames", "sys._current_exceptions", "sys.settrace",
    "sys.setprofile", "sys.meta_path", "sys.path_hooks", "sys.path_importer_cache",
    "sys.addaudithook", "sys.audit",
)
#: Attributes that only the first step of an escape reads (by attribute, by a literal or
#: computed getattr name, or by a dunder string a format walk could use).
BALANCED_BLOCKED_ATTRIBUTES = (
    "__subclasses__", "__globals__", "__builtins__", "__code__", "__closure__",
    "__getattribute__", "__reduce__", "__reduce_ex__", "__loader__", "__spec__",
    "__import__", "__self__",
    "f_globals", "f_locals", "f_builtins", "f_back", "f_code", "tb_frame",
    "gi_frame", "gi_code", "cr_frame", "cr_code", "ag_frame", "ag_code", "co_code",
    "co_consts", "_getframe", "_current_frames", "_current_exceptions", "settrace",
    "setprofile", "meta_path", "path_hooks", "path_importer_cache", "addaudithook",
)
BALANCED_TABLES = {
    "blocked_modules": BALANCED_BLOCKED_MODULES,
    "allowed_modules": None,
    "blocked_calls": (),
    "blocked_attributes": BALANCED_BLOCKED_ATTRIBUTES,
    "blocked_names": STRICT_TABLES["blocked_names"],
    "dunder_strings": True,
    # `x.f()` is a call into a blocked module only when `x` is bound by an import: a
    # variable that happens to be called `gc` reaches nothing.
    "import_bound_calls": True,
}
#: Builtins allowed under the strict policy's own rules when their attribute name is a
#: literal (the name is then judged as an attribute); a literal or computed name is also
#: checked at run time by the guard.
LITERAL_ATTRIBUTE_CALLS = ("getattr", "hasattr", "setattr", "delattr")

# The wire protocol between this bootstrap and the host. The host imports these names, so
# both sides share one definition.
#: Starts the record of the uncaught exception that the bootstrap writes to stderr.
ERROR_MARK = b"\x00sandbox-wasm-error:"
#: Largest error record (JSON, after ERROR_MARK): type name and message are cut (in
#: characters) before encoding, so that a record always fits and always parses.
MAX_ERROR_TYPE_CHARS = 200
MAX_ERROR_MESSAGE_CHARS = 1000
MAX_ERROR_RECORD_BYTES = 16 * 1024
#: The audit's answer is framed: an 8-byte little-endian length, then that much JSON; it
#: comes first on stdout, before any output of the user's code.
ANSWER_LENGTH_BYTES = 8
#: Largest audit answer the host reads (the fact limits keep real answers far below it).
MAX_ANSWER_BYTES = 32 * 1024 * 1024
#: The request on stdin: a mode line, then (exec) the policy line, then the source.
MODE_AUDIT = b"audit"
MODE_EXEC = b"exec"
MODE_SESSION = b"session"
#: Starts the record of the value of the code's last statement when it is an expression
#: (as a notebook cell shows it), written to stderr after that statement ran: JSON {type,
#: repr, repr_truncated, and json (the value itself) when it is JSON and small}; a value
#: of None is not reported.
VALUE_MARK = b"\x00sandbox-wasm-value:"
#: The value's repr is cut to this many characters; its JSON is left out beyond this size.
MAX_VALUE_REPR_CHARS = 10_000
MAX_VALUE_JSON_BYTES = 64 * 1024
#: Largest value record the host reads (repr cut and JSON bounded, so every record fits).
MAX_VALUE_RECORD_BYTES = 6 * MAX_VALUE_REPR_CHARS + MAX_VALUE_JSON_BYTES + 4 * 1024
#: The request's option that puts a tools manifest line before the rest.
TOOLS_OPTION = b"tools"
#: The request's option that makes a one-shot request return to rest (its exit status on
#: stderr, as a session request's) instead of ending the process: our runtime's entry
#: returns then, and the host may reuse the instance once its memory is put back.
REST_OPTION = b"rest"
#: The request's option that says the host already knows this source's audit answer
#: under this policy and runtime (its audit cache, `_audit/cache.py`): an earlier run's
#: facts, judged by the guest and the host alike, allowed it. The guest then only parses and
#: compiles it, and answers KNOWN_ANSWER instead of listing the facts again.
KNOWN_OPTION = b"known"
KNOWN_ANSWER = b'{"known":true,"ran":true}'
#: The option of a one-shot request whose compiled code the host may keep (with the audit
#: answer, `_audit/cache.py`): the guest follows its answer's JSON with a newline and the
#: code, marshalled (at most MAX_KEPT_CODE_BYTES; none when it is larger or not allowed to
#: run). It is written before any user code runs, by an interpreter no user code has run in.
KEEP_CODE_OPTION = b"keep-code"
MAX_KEPT_CODE_BYTES = 256 * 1024
#: The option `code=<n>` of a one-shot request with KNOWN_OPTION: the n bytes after the
#: mode line (and the tools manifest line) are the source's code as an earlier run of this
#: runtime marshalled it (KEEP_CODE_OPTION); the guest loads it instead of compiling the
#: source (a compile was most of a small run: `print('hi')` ~48 us against ~5 us).
CODE_OPTION_PREFIX = b"code="
#: The descriptor of the tool channel (0-2 stdio, 3 the filesystem root): a call is one
#: write of JSON {"tool", "args", "kwargs"}; its answer, read back, is an 8-byte length and
#: JSON {"result"} or {"error": {"type", "message"}}.
TOOLS_FD = 4
#: The descriptor of the network channel (`network=`): a request is one write of a 4-byte
#: little-endian length, JSON {"method", "url", "headers": [[name, value], ...], "timeout"}
#: and the body's bytes; its answer, read back, is framed as a tool's (an 8-byte length),
#: holding a 4-byte length, JSON {"status", "reason", "headers"} or {"error": {"type",
#: "message"}}, and the response body's bytes. The host carries the request out (no socket
#: ever exists in the guest); without a network policy the descriptor does not exist.
NETWORK_FD = 5
NETWORK_META_LENGTH_BYTES = 4
#: Exception types a refused or failed request is raised as in the guest (any other: OSError).
GUEST_NETWORK_EXCEPTIONS = ("PermissionError", "TimeoutError", "ConnectionError", "OSError",
                            "ValueError")
#: Exception types a tool's failure is raised as in the guest; any other: tools.ToolError.
GUEST_TOOL_EXCEPTIONS = (
    "ValueError", "TypeError", "KeyError", "IndexError", "LookupError", "RuntimeError",
    "PermissionError", "TimeoutError", "NotImplementedError", "ArithmeticError",
    "ZeroDivisionError", "FileNotFoundError", "ConnectionError", "OverflowError", "NameError",
)
#: The policy lines that name a built-in policy's tables instead of sending them.
BUILTIN_POLICY_LINES = {
    b"@strict:enforce": ("strict", True), b"@strict:report": ("strict", False),
    b"@balanced:enforce": ("balanced", True), b"@balanced:report": ("balanced", False),
}
_FACT_LIMIT_PER_NAME = 20
# Bounds on the audit's answer: it must stay small enough to build, send and judge within
# the execution's own limits whatever the source looks like. A source with MAX_FACTS
# constructs or more is not fully listed, so it is never judged safe (see
# `answer_is_incomplete`, used by the guest to decide and by the host to report).
MAX_FACTS = 20_000
_MAX_NAME = 200


def _syntax_error(message, line=0, col=0):
    return {"syntax_error": {"message": message, "line": line or 0, "col": col or 0}}


try:
    # Our runtimes' built-in module (scripts/cpython_wasi/sandbox_audit.c): the same facts and
    # code as `_facts_of` and `_compile_module` below, from one parse into the parser's C
    # tree (no Python tree is built, converted back or walked in Python). Elsewhere (the host,
    # which imports this module; a runtime without it) the Python walk is used.
    from _sandbox_audit import compile_for_run as _native_compile
    from _sandbox_audit import facts_and_code as _native_facts
except ImportError:
    _native_compile = _native_facts = None


def _facts_and_code(source, _native=_native_facts):
    if _native is not None:
        return _native(source, "<sandbox>", _VALUE_NAME, LITERAL_ATTRIBUTE_CALLS, MAX_FACTS,
                       _FACT_LIMIT_PER_NAME, _MAX_NAME)
    import ast as _ast

    tree = _ast.parse(source, "<sandbox>", "exec")
    # Compiling too catches what only the compiler rejects ('return' outside a function,
    # duplicate arguments, ...); the code object is what will run.
    return _facts_of(tree), _compile_module(tree)


def _code_to_run(source, _native=_native_compile):
    """The code of `source` to run (see `_compile_module`), without its facts."""
    if _native is not None:
        return _native(source, "<sandbox>", _VALUE_NAME)
    import ast as _ast

    return _compile_module(_ast.parse(source, "<sandbox>", "exec"))


def _facts(source):
    """Parse and compile `source` (never run it); return ({"facts": [...]} or
    {"syntax_error": ...}, code object or None)."""
    try:
        return _facts_and_code(source)
    except SyntaxError as exc:
        return _syntax_error(str(exc.msg), exc.lineno, exc.offset), None
    except RecursionError:
        return _syntax_error("source too complex to parse (nested too deeply)"), None
    except MemoryError as exc:
        if "too complex" in str(exc):  # the parser's own stack limit, not the memory cap
            return _syntax_error("source too complex to parse (nested too deeply)"), None
        raise
    except ValueError as exc:
        return _syntax_error(f"invalid source: {exc}"), None


#: The global the last expression's value is bound to while the code runs (popped after).
_VALUE_NAME = "_sandbox_last_value_"


def _compile_module(tree, _compile=compile):
    """The code to run: a code object, or a 1-tuple of one when the last statement is an
    expression, compiled as an assignment of its value to `_VALUE_NAME` so that the value
    can be reported. One compile either way: a second one (of the expression alone) made
    every such run measurably slower."""
    import ast as _ast

    body = tree.body
    if not body or type(body[-1]) is not _ast.Expr:
        return _compile(tree, "<sandbox>", "exec", dont_inherit=True)
    last = body[-1]
    target = _ast.copy_location(_ast.Name(_VALUE_NAME, _ast.Store()), last)
    assign = _ast.copy_location(_ast.Assign([target], last.value), last)
    module = _ast.Module(body=[*body[:-1], assign], type_ignores=tree.type_ignores)
    return (_compile(module, "<sandbox>", "exec", dont_inherit=True),)


def _value_record(value, _repr=repr, _type=type, _len=len, _encoder=[]):  # noqa: B006
    """The value record (bytes after VALUE_MARK) of `value`. Its repr and JSON are made
    here, in the run and under its guard: both can call the user's code. The JSON is
    compact and made by one C encoder (see `_json_encoder`; `json.dumps` with options built
    a new one per call: ~35k of the ~110k guest instructions a record took); the value's
    JSON is spliced into the record's, not encoded twice."""
    if not _encoder:
        _encoder.append(_json_encoder(allow_nan=False, ensure_ascii=False))
    encode = _encoder[0]
    kind = _type(value)
    module = getattr(kind, "__module__", "") or ""
    name = getattr(kind, "__qualname__", "") or kind.__name__
    record = {"type": (name if module == "builtins" else f"{module}.{name}")[:200]}
    text = _repr(value)
    if not isinstance(text, str):
        raise TypeError(f"__repr__ returned non-string (type {_type(text).__name__})")
    record["repr"] = text[:MAX_VALUE_REPR_CHARS]
    record["repr_truncated"] = _len(text) > MAX_VALUE_REPR_CHARS
    if module == "numpy" and getattr(value, "ndim", None) == 0:
        value = value.item()  # a numpy scalar (`df["a"].sum()`): JSON as its Python value
    encoded = None
    if isinstance(value, (dict, list, tuple, str, int, float, bool)):
        try:
            encoded = encode(value)
        except (TypeError, ValueError, RecursionError):
            record["json_error"] = "not representable as JSON"
        else:
            if _len(encoded.encode("utf-8", "surrogatepass")) > MAX_VALUE_JSON_BYTES:
                encoded = None
                record["json_error"] = f"larger than {MAX_VALUE_JSON_BYTES} bytes as JSON"
    head = encode(record)
    if encoded is not None:
        head = f'{head[:-1]},"json":{encoded}}}'
    return head.encode("utf-8", "backslashreplace")


def _report_value_record(value):
    _flush()  # the value comes after what was printed
    data = memoryview(VALUE_MARK + _value_record(value) + b"\n")
    while data:
        data = data[os.write(2, data):]


def _run_code(code, namespace, builtins_module, _exec=exec,
              _report_value=_report_value_record, _name=_VALUE_NAME):
    """Run `code` (see `_compile_module`) in `namespace`; report its last expression's value
    and bind it to `_` in the user's builtins, as Python's prompt does (a global `_` of the
    user's own shadows it)."""
    if type(code) is not tuple:
        _exec(code, namespace)
        return
    _exec(code[0], namespace)
    value = namespace.pop(_name, None)
    if value is not None:
        builtins_module._ = value
        _report_value(value)


def _facts_of(tree):
    """The audit's facts of a parsed module: {"facts": [...]} (and "facts_truncated")."""
    import ast as _ast

    facts = []
    seen = {}
    call_targets = set()
    sys_bases = set()
    bound = set()  # names bound by an import statement anywhere in the source

    def add(kind, name, node):
        if len(name) > _MAX_NAME:
            name = name[:_MAX_NAME]
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
        if len(facts) >= MAX_FACTS:
            break
        kind = type(node)
        if kind is _ast.Import:
            for alias in node.names:
                bound.add(alias.asname or alias.name.split(".")[0])
                add("import", alias.name, node)
                if alias.name == "sys" and alias.asname not in (None, "sys"):
                    add("import_alias", "sys", node)
        elif kind is _ast.ImportFrom:
            base = "." * node.level + (node.module or "")
            for alias in node.names:
                bound.add(alias.asname or alias.name)
                add("import", base + "." + alias.name if node.module else base + alias.name, node)
        elif kind is _ast.Call:
            if isinstance(node.func, _ast.Name):
                call_targets.add(id(node.func))
            named = (
                isinstance(node.func, _ast.Name) and node.func.id in LITERAL_ATTRIBUTE_CALLS
                and len(node.args) >= 2 and isinstance(node.args[1], _ast.Constant)
                and isinstance(node.args[1].value, str)
            )
            literal = named and "__" not in node.args[1].value
            add("literal_call" if literal else "call", dotted(node.func), node)
            if named:  # getattr(x, "name") reads what x.name reads: judged alike
                add("attribute", node.args[1].value, node)
        elif kind is _ast.Attribute:
            add("attribute", node.attr, node)
            if isinstance(node.value, _ast.Name) and node.value.id == "sys":
                sys_bases.add(id(node.value))
                add("sys_attribute", node.attr, node)
        elif kind is _ast.Name:
            if id(node) not in call_targets:
                add("name", node.id, node)
            if node.id == "sys" and id(node) not in sys_bases:
                add("sys_value", "sys", node)
        elif kind is _ast.Constant and isinstance(node.value, str) and "__" in node.value:
            add("string", node.value[:_MAX_NAME], node)
    # A dotted call whose first name no import binds (a local variable, a parameter).
    for index, fact in enumerate(facts):
        if fact[0] == "call" and "." in fact[1] and fact[1].split(".", 1)[0] not in bound:
            facts[index] = ("unbound_call", *fact[1:])
    if len(facts) >= MAX_FACTS:
        del facts[MAX_FACTS:]
        return {"facts": facts, "facts_truncated": True}
    return {"facts": facts}


def answer_is_incomplete(answer):
    """True when the audit's answer does not list every construct of the source (the limit
    was reached): such a source is refused under an enforcing policy. The one rule, applied
    by the guest before running anything and by the host when it reports."""
    facts = answer.get("facts")
    return bool(answer.get("facts_truncated")) or (
        isinstance(facts, list) and len(facts) >= MAX_FACTS
    )


def _dunders(text):
    import re

    return re.findall(r"__[A-Za-z0-9_]+__", text)


def _judge_import(tables, module):
    if module.startswith("."):
        return "relative import (there is no package to import from)"
    # Only prefixes as deep as the deepest policy entry can match: checking just those keeps
    # this linear in the name, however many dots a hostile import has.
    parts = module.split(".", tables["max_depth"])
    allowed = tables["allowed_modules"]
    sys_attributes = tables["sys_attributes"]
    if sys_attributes is not None and parts[0] == "sys" and len(parts) > 1:
        if parts[1] not in sys_attributes:
            return f"import of 'sys.{parts[1]}', which is not in the safe subset of sys"
        return None
    for i in range(min(len(parts), tables["max_depth"]), 0, -1):
        prefix = ".".join(parts[:i])
        if prefix in tables["blocked_modules"]:
            return f"import of blocked module '{prefix}'"
        if allowed is not None and prefix in allowed:
            return None
    if allowed is None:
        return None
    return f"import of '{parts[0]}', which is not in the allowlist"


def judge_fact(tables, kind, name):
    """The findings [(kind, name, reason)] that one audit fact raises under a policy.

    `tables` holds sets: blocked_modules, allowed_modules (None: no allowlist),
    blocked_calls, blocked_attributes, blocked_names, literal_calls (calls allowed with a
    literal attribute name), sys_attributes (None: `sys` is judged as a module like any
    other), and the flag dunder_strings."""
    if kind == "import":
        reason = _judge_import(tables, name)
        return [("import", name, reason)] if reason else []
    if kind == "literal_call":  # getattr(obj, "name") & co. with a literal non-dunder name
        if name in tables["literal_calls"]:
            return []
        kind = "call"
    if kind == "unbound_call":
        if tables["import_bound_calls"]:
            return []  # its first name is no module: it cannot reach one by that name
        kind = "call"
    if kind == "call":
        parts = name.split(".")
        last = parts[-1]
        if last in tables["blocked_calls"] and (
            len(parts) == 1 or parts[0] in ("builtins", "__builtins__")
        ):
            return [("call", name, f"call to blocked function '{last}'")]
        if len(parts) > 1 and parts[0] in tables["blocked_modules"]:
            return [("call", name, f"call into blocked module '{parts[0]}'")]
        return []
    if kind == "attribute":
        if name in tables["blocked_attributes"]:
            return [("attribute", name, f"access to escape-prone attribute '{name}'")]
        return []
    if kind == "name":
        if name in tables["blocked_names"]:
            return [("name", name, f"use of blocked name '{name}'")]
        if name in tables["blocked_calls"]:
            return [("name", name, f"reference to blocked function '{name}'")]
        return []
    if tables["sys_attributes"] is not None:
        if kind == "sys_attribute" and name not in tables["sys_attributes"]:
            return [("attribute", "sys." + name,
                     f"access to 'sys.{name}', which is not in the safe subset of sys")]
        if kind == "sys_value":
            return [("name", name, "use of 'sys' as a value (only sys.<attribute> of the "
                     "safe subset is allowed)")]
        if kind == "import_alias":
            return [("import", name, "import of 'sys' under another name (its attributes "
                     "could not be judged)")]
    if kind == "string" and tables["dunder_strings"]:
        found = sorted(set(_dunders(name)) & tables["blocked_attributes"])
        return [("attribute", dunder,
                 f"string names escape-prone attribute '{dunder}' (format-string walk)")
                for dunder in found]
    return []


def tables_from_json(data):
    """Policy tables as sent by the host (lists) -> sets for fast lookups."""
    allowed = data.get("allowed_modules")
    modules = list(data["blocked_modules"]) + list(allowed or ())
    return {
        "max_depth": max([m.count(".") + 1 for m in modules] or [1]),
        "blocked_modules": frozenset(data["blocked_modules"]),
        "allowed_modules": None if allowed is None else frozenset(allowed),
        "blocked_calls": frozenset(data["blocked_calls"]),
        "blocked_attributes": frozenset(data["blocked_attributes"]),
        "blocked_names": frozenset(data["blocked_names"]),
        "literal_calls": frozenset(data.get("literal_calls") or ()),
        "import_bound_calls": bool(data.get("import_bound_calls")),
        "sys_attributes": (
            None if data.get("sys_attributes") is None else frozenset(data["sys_attributes"])
        ),
        "dunder_strings": bool(data["dunder_strings"]),
        "enforce": bool(data["enforce"]),
    }


def builtin_tables(name, enforce, _cache={}):  # noqa: B006 - the cache is the point
    """The built-in policy `name` ("strict" or "balanced") as sets; computed once for each
    (name, enforce) (at build time, in a snapshot) and shared by every run: nothing changes
    a table once made (an image's tables are new dicts beside these)."""
    tables = _cache.get((name, enforce))
    if tables is None:
        data = STRICT_TABLES if name == "strict" else BALANCED_TABLES
        tables = _cache[name, enforce] = tables_from_json({**data, "enforce": enforce})
    return tables



# -- the run-time half of the audit ----------------------------------------------------------
# A static audit cannot know a computed name. While user code runs, this guard judges what
# only the run can tell with the same tables and `judge_fact`: attribute names given to
# getattr & co. (and operator.attrgetter/methodcaller, vars() of a class), code compiled at
# run time (eval, exec, compile, a module the script wrote and imports), imports of computed
# names, and the interpreter's own audit events (PEP 578) for frame and code internals read
# by any path. Under an enforcing policy a refusal is a PermissionError in the user's code;
# either way it is a finding of the result (FINDINGS_MARK on stderr). Code of the standard
# library and of this bootstrap is trusted: it reads such attributes for its own work.
#: Starts the record of the findings the guard made while the code ran.
FINDINGS_MARK = b"\x00sandbox-wasm-findings:"
#: Findings one run reports at most (later ones are refused all the same).
MAX_RUNTIME_FINDINGS = 20
#: Where trusted code lives: the in-memory standard library, frozen modules, an image's
#: packages. The guest's writable tree (/input, /output, /tmp) is never under these.
TRUSTED_CODE_PREFIXES = ("/usr/local/lib/python3", "<frozen ", "<sandbox_stdlib>",
                         "<sandbox_packages>")
IMPORT_MACHINERY_PREFIXES = ("<frozen importlib", "/usr/local/lib/python3.13/importlib/")
_WATCHED_EVENTS = frozenset(("object.__getattr__", "compile", "import", "code.__new__",
                             "marshal.loads", "marshal.load", "function.__new__"))
_GUARD = {"tables": None, "armed": False, "busy": False, "findings": [], "policy": ""}


def _is_trusted(frame, _guard=_GUARD):
    code = frame.f_code  # raises object.__getattr__, ignored while the guard is busy
    return (code.co_filename.startswith(TRUSTED_CODE_PREFIXES)
            or frame.f_globals is _GUEST_GLOBALS)


def _caller(depth, _getframe=sys._getframe):
    """The frame `depth` levels above the caller of the guard's entry point."""
    try:
        return _getframe(depth + 1)
    except ValueError:
        return None


def _refuse(kind, name, reason, frame=None, _guard=_GUARD):
    """Record a finding of the run; under an enforcing policy refuse it (PermissionError)."""
    findings = _guard["findings"]
    if len(findings) < MAX_RUNTIME_FINDINGS:
        line = frame.f_lineno if frame is not None else 0
        findings.append([kind, str(name)[:_MAX_NAME], line, 0, "at run time: " + reason])
    if _guard["tables"]["enforce"]:
        raise PermissionError(f"the sandbox's {_guard['policy']} policy refuses this: "
                              f"{reason}")


def _untrusted_caller(depth, _guard=_GUARD):
    """The frame `depth` levels above the caller, if it runs code the user brought."""
    frame = _caller(depth + 1)
    if frame is None:
        return None
    _guard["busy"] = True
    try:
        return None if _is_trusted(frame) else frame
    finally:
        _guard["busy"] = False


def _check_attribute(name, how, _guard=_GUARD):
    """Refuse (record) an escape-prone attribute name given to getattr & co. by the user's
    code; the standard library asking for one for its own work is not refused."""
    if (_guard["armed"] and type(name) is str
            and name in _guard["tables"]["blocked_attributes"]):
        frame = _untrusted_caller(2)
        if frame is not None:
            _refuse("attribute", name, f"{how} of escape-prone attribute {name!r}", frame)


def _check_source(source, filename, _guard=_GUARD):
    """Judge code compiled at run time; refuse it (enforce) if the audit would have."""
    import ast as _ast

    try:
        tree = source if isinstance(source, _ast.AST) else _ast.parse(source, filename)
    except BaseException:
        return  # compile() itself reports the syntax error
    if not isinstance(tree, _ast.Module):
        tree = _ast.Module(body=[_ast.Expr(tree.body)] if isinstance(tree, _ast.Expression)
                           else getattr(tree, "body", []), type_ignores=[])
    answer = _facts_of(tree)
    tables = _guard["tables"]
    for fact in answer["facts"]:
        if fact[0] == "string":
            # Text compiled at run time (a doctest's expected output, a message) is data;
            # a format walk needs an attribute name, which the guard checks when it is used.
            continue
        for kind, name, reason in judge_fact(tables, fact[0], fact[1]):
            _refuse(kind, name, f"{reason} (in code compiled from {filename!r}, line "
                    f"{fact[2]})", _caller(2))
    if answer_is_incomplete(answer):
        _refuse("name", "<source>", f"code compiled from {filename!r} is too large to audit")


def _runtime_guard(event, args, _guard=_GUARD, _watched=_WATCHED_EVENTS):
    """The audit hook (installed once; it acts only while user code runs)."""
    if event not in _watched or not _guard["armed"] or _guard["busy"]:
        return
    _guard["busy"] = True
    try:
        frame = _caller(1)
        if frame is None:
            return
        if event == "object.__getattr__":
            name = args[1]
            if name in _guard["tables"]["blocked_attributes"] and not _is_trusted(frame):
                _refuse("attribute", name, f"read of escape-prone attribute {name!r}", frame)
        elif event == "compile":
            source, filename = args[0], str(args[1])
            # Code from the user's own files, or parsed where the user's code asked for
            # it; doctest examples are the user's code too, whoever parses them.
            user_file = (not filename.startswith((*TRUSTED_CODE_PREFIXES, "<"))
                         or filename.startswith("<doctest"))
            if user_file or not _is_trusted(frame):
                _check_source(source, filename)
        elif event == "import":
            reason = _judge_import(_guard["tables"], str(args[0]))
            # The frame that asked: past the import machinery's own frames.
            while frame is not None and frame.f_code.co_filename.startswith(
                    IMPORT_MACHINERY_PREFIXES):
                frame = frame.f_back
            if reason and frame is not None and not _is_trusted(frame):
                _refuse("import", args[0], reason, frame)
        elif not _is_trusted(frame):  # code objects made or loaded by hand
            _refuse("call", event, f"{event} (code objects are made only by compile)", frame)
    finally:
        _guard["busy"] = False


def _guard_builtins(_builtins=builtins, _getattr=getattr, _setattr=setattr,
                    _delattr=delattr, _hasattr=hasattr, _vars=vars, _import=__import__,
                    _check=_check_attribute, _guard=_GUARD, _print=print, _str=str,
                    _sys=sys, _stdio=(sys.stdout, sys.stderr)):
    """The builtins user code runs with: the real ones, with getattr & co. checking the
    names they are given, `print` writing each call in one piece, and the `exit`/`quit` a
    normal interpreter's site module adds. The standard library keeps the real builtins
    (wrapping them there slowed every `getattr` it makes, the audit's own tree walk
    included); user code that imports `builtins` gets a module of these same functions, so
    that is no way around them."""

    def print(*args, sep=" ", end="\n", file=None, flush=False):
        # The real print writes each argument, separator and end apart, and our stdout and
        # stderr are unbuffered (output streams as it is written, and nothing is lost when
        # a run is cut short): each piece was a host call. To the guest's own streams a
        # call's text goes in one write; any other file gets the real print.
        if file is None:
            file = _sys.stdout
            if file is None:
                return None
        if file is not _stdio[0] and file is not _stdio[1]:
            return _print(*args, sep=sep, end=end, file=file, flush=flush)
        if sep is None:
            sep = " "
        elif not isinstance(sep, str):
            raise TypeError(f"sep must be None or a string, not {type(sep).__name__}")
        if end is None:
            end = "\n"
        elif not isinstance(end, str):
            raise TypeError(f"end must be None or a string, not {type(end).__name__}")
        parts = []
        try:
            for index, arg in enumerate(args):
                if index:
                    parts.append(sep)
                parts.append(_str(arg))
        except BaseException:
            if parts:  # what the real print had written before the failing argument
                file.write("".join(parts))
            raise
        parts.append(end)
        file.write("".join(parts))
        if flush:
            file.flush()
        return None

    def getattr(obj, name, *default):
        _check(name, "getattr")
        return _getattr(obj, name, *default)

    def setattr(obj, name, value):
        _check(name, "setattr")
        return _setattr(obj, name, value)

    def delattr(obj, name):
        _check(name, "delattr")
        return _delattr(obj, name)

    def hasattr(obj, name):
        _check(name, "hasattr")
        return _hasattr(obj, name)

    def vars(*obj):
        if not obj:  # the caller's namespace, as locals() gives it
            found = _caller(1).f_locals
            return found if type(found) is dict else dict(found)
        found = _vars(*obj)
        if (_guard["armed"] and isinstance(obj[0], type)
                and _untrusted_caller(1) is not None):
            blocked = _guard["tables"]["blocked_attributes"]  # a class's namespace: a view
            return {k: v for k, v in found.items() if k not in blocked}
        return found

    def __import__(name, globals=None, locals=None, fromlist=(), level=0):
        if _guard["armed"] and level == 0 and type(name) is str:
            if name == "builtins":
                return module
            reason = _judge_import(_guard["tables"], name)
            if reason:
                frame = _untrusted_caller(1)
                if frame is not None:
                    _refuse("import", name, reason, frame)
        return _import(name, globals, locals, fromlist, level)

    class Quitter:
        def __init__(self, name):
            self.name = name

        def __repr__(self):
            return f"Use {self.name}() or Ctrl-D (i.e. EOF) to exit"

        def __call__(self, code=None):
            raise SystemExit(code)

    module = type(_builtins)("builtins", _builtins.__doc__)
    guarded = module.__dict__
    guarded.update(_builtins.__dict__)
    _RUNNER_CODE.add(print.__code__)  # as the real print, it shows in no traceback
    for function in (getattr, setattr, delattr, hasattr, vars, __import__, print):
        function.__doc__ = _builtins.__dict__[function.__name__].__doc__
        function.__qualname__ = function.__name__
        function.__module__ = "builtins"
        guarded[function.__name__] = function
    guarded.setdefault("exit", Quitter("exit"))
    guarded.setdefault("quit", Quitter("quit"))
    return module


def _patch_operator(module, _check=_check_attribute):
    """operator.attrgetter / methodcaller check their names at run time, as getattr does."""
    attrgetter, methodcaller = module.attrgetter, module.methodcaller

    def checked_attrgetter(attr, *attrs):
        for name in (attr, *attrs):
            for part in (name.split(".") if type(name) is str else (name,)):
                _check(part, "operator.attrgetter")
        return attrgetter(attr, *attrs)

    def checked_methodcaller(name, *args, **kwargs):
        _check(name, "operator.methodcaller")
        return methodcaller(name, *args, **kwargs)

    checked_attrgetter.__doc__ = attrgetter.__doc__
    checked_methodcaller.__doc__ = methodcaller.__doc__
    module.attrgetter, module.methodcaller = checked_attrgetter, checked_methodcaller


def _patch_import_module(module, _guard=_GUARD):
    """importlib.import_module judges a computed name asked for by user code, as import
    statements are (a module already loaded raises no audit event)."""
    import_module = module.import_module

    def checked_import_module(name, package=None):
        tables = _guard["tables"]
        if _guard["armed"] and type(name) is str and not name.startswith("."):
            frame = _caller(1)
            _guard["busy"] = True
            try:
                untrusted = frame is not None and not _is_trusted(frame)
            finally:
                _guard["busy"] = False
            if untrusted and name == "builtins" and _USER_BUILTINS["module"] is not None:
                return _USER_BUILTINS["module"]  # the guarded builtins, as `import` gives
            reason = untrusted and _judge_import(tables, name)
            if reason:
                _refuse("import", name, reason, frame)
        return import_module(name, package)

    checked_import_module.__doc__ = import_module.__doc__
    module.import_module = checked_import_module


#: The builtins module user code sees (`_guard_builtins`); None: the real one.
_USER_BUILTINS = {"module": None}


def _install_guard(_sys=sys, _state={}):  # noqa: B006 - once per interpreter
    """Install the run-time guard (once per interpreter; it acts only while armed)."""
    if _state:
        return
    import importlib
    import operator

    from _sandbox_entry import set_audit_guard

    _patch_operator(operator)
    _patch_import_module(importlib)
    # Through a C hook that calls the guard for the watched events only: a Python hook is a
    # Python call for every event (`id()` raises one per call).
    set_audit_guard(_runtime_guard, tuple(sorted(_WATCHED_EVENTS)))
    _USER_BUILTINS["module"] = _guard_builtins()
    _state["installed"] = True


def _arm(tables, policy, _guard=_GUARD):
    """Arm the guard for the user code about to run under `tables`."""
    _guard["tables"] = tables
    _guard["policy"] = policy
    _guard["findings"] = []
    _guard["armed"] = True


def _disarm(_guard=_GUARD, _write=os.write):
    """Disarm the guard; its findings (if any) go to the host on stderr."""
    _guard["armed"] = False
    findings = _guard["findings"]
    if findings:
        _guard["findings"] = []
        # The user's code may have broken `json` (sys.modules["json"] = None): the record is
        # then lost, never the run's own outcome.
        with contextlib.suppress(BaseException):
            from json import dumps as _dumps

            _write(2, FINDINGS_MARK + _dumps(findings).encode("utf-8", "replace") + b"\n")


_GUEST_GLOBALS = globals()


def _write_all(fd, data, _write=os.write):
    view = memoryview(data)
    while view:
        view = view[_write(fd, view):]


def _exit_code(exc, _write=os.write):
    code = exc.code
    if code is None:
        return 0
    if isinstance(code, int):
        # Beyond 32 bits a native process cannot report it either; never let it read as 0.
        return code if -(2**31) <= code < 2**31 else 1
    with contextlib.suppress(Exception):
        _write(2, (str(code) + "\n").encode("utf-8", "backslashreplace"))
    return 1


#: The code of the bootstrap's functions that run the user's code (filled in below): their
#: frames are left out of the user's tracebacks.
_RUNNER_CODE = set()


def _user_traceback(tb, _runner=_RUNNER_CODE):
    """`tb` without the frames of the bootstrap's runners. They come first (a runner calls
    the user's code), and are skipped without allocating anything: a MemoryError a million
    frames deep is reported as it is. A runner frame further in (the user's `print`
    writing a value whose __str__ raised) is left out by relinking the user's frames, when
    there is memory for it."""
    while tb is not None and tb.tb_frame.f_code in _runner:
        tb = tb.tb_next
    entry = tb
    while entry is not None and entry.tb_frame.f_code not in _runner:
        entry = entry.tb_next
    if entry is None:
        return tb
    try:
        kept = []
        entry = tb
        while entry is not None:
            if entry.tb_frame.f_code not in _runner:
                kept.append(entry)
            entry = entry.tb_next
        relinked = None
        for entry in reversed(kept):
            relinked = type(entry)(relinked, entry.tb_frame, entry.tb_lasti, entry.tb_lineno)
        return relinked
    except MemoryError:
        return tb


def _report(exc, _write=os.write, _user_traceback=_user_traceback):
    from json import dumps as _dumps
    from traceback import format_exception as _format

    tb = _user_traceback(exc.__traceback__)
    try:
        text = "".join(_format(type(exc), exc, tb, limit=-64))
    except BaseException:
        text = f"{type(exc).__name__}: <unprintable exception>\n"
    _write(2, text.encode("utf-8", "backslashreplace"))
    try:
        message = str(exc)[:MAX_ERROR_MESSAGE_CHARS]
    except BaseException:
        message = "<unprintable>"
    # Cut in characters before encoding (never inside a character), and kept as UTF-8 so
    # that non-ASCII text does not grow sixfold: the record stays under
    # MAX_ERROR_RECORD_BYTES whatever the message holds.
    record = _dumps({"type": type(exc).__name__[:MAX_ERROR_TYPE_CHARS], "message": message},
                    ensure_ascii=False)
    _write(2, ERROR_MARK + record.encode("utf-8", "backslashreplace") + b"\n")


def _report_unguarded(exc, _guard=_GUARD, _report=_report):
    """The bootstrap's report of the user's exception, with the guard paused: it is our own
    code, and formatting a traceback a million frames deep reads `tb_frame` a million times
    (each an audit event the guard would judge)."""
    armed, _guard["armed"] = _guard["armed"], False
    try:
        _report(exc)
    finally:
        _guard["armed"] = armed


def _flush(_sys=sys):
    # On every run's path `try`/`except: pass`, not contextlib.suppress: its three Python
    # calls cost ~7k guest instructions a use (five uses were ~15% of a `pass` run's).
    for stream in (_sys.stdout, _sys.stderr):
        try:  # noqa: SIM105
            stream.flush()
        except BaseException:
            pass


def serve(request=None, _exit=os._exit):
    """Serve one request: `request`, or the one on stdin (the entry point of every run; a
    snapshot's resume trampoline calls it by this name, with the request the host left in
    its memory). A session request, and a one-shot request with the rest option, returns
    its exit status, leaving the instance at rest; any other one-shot request ends the
    process."""
    if request is None:
        request = _read_request()
    mode, _, rest = request.partition(b"\n")
    del request
    mode, *options = mode.split(b" ")
    if TOOLS_OPTION in options:
        manifest, _, rest = rest.partition(b"\n")
        _install_tools(manifest)
    else:
        sys.modules.pop("tools", None)  # a session's earlier call may have had tools
    given_code = b""
    if options and options[-1].startswith(CODE_OPTION_PREFIX):
        size = int(options[-1][len(CODE_OPTION_PREFIX):])
        given_code, rest = rest[:size], rest[size:]
    # Returning (instead of os._exit) leaves no frame of this call behind: the instance is
    # at rest, and its memory is the whole state (a session's, or one the host puts back).
    end = _come_to_rest if mode == MODE_SESSION or REST_OPTION in options else _exit
    if mode == MODE_AUDIT:
        _write_answer(_audit_answer(rest))
        return end(0)
    source, code_object, tables, policy = rest, None, None, b""
    if mode in (MODE_SESSION, MODE_EXEC):
        policy, _, source = rest.partition(b"\n")
        tables = _tables_for(policy)
        if KNOWN_OPTION in options:
            answer, code_object, blocked = (
                _session_code(source) if mode == MODE_SESSION
                else _compile_known(source, given_code))
        else:
            answer, code_object, blocked = _judge(source, tables)
        if KEEP_CODE_OPTION in options and not blocked and mode == MODE_EXEC:
            answer = _with_code(answer, code_object)
        _write_answer(answer)
        del answer
        if blocked:
            return end(0)
    guard = (tables, _policy_name(policy))
    if mode == MODE_SESSION:
        return end(_run_session_code(code_object, guard) & 0xFF)
    # Exit statuses are 8 bits wide, as for a native process (and os._exit rejects ints
    # beyond 32 bits).
    return end(_run_user_code(source, code_object, guard) & 0xFF)


def _policy_name(policy_line, _names={}):  # noqa: B006 - the cache is the point
    """The policy's name for the guard's messages: a built-in one's, or "configured". The
    built-in lines' (four, and with an image's suffix four more) are kept."""
    name = _names.get(policy_line)
    if name is None:
        head = policy_line.partition(b":")[0].partition(b"+")[0]
        name = head[1:].decode() if head in (b"@strict", b"@balanced") else "configured"
        if name != "configured":
            _names[policy_line] = name
    return name


def _come_to_rest(status):
    """End a request that returns: serve() returns its exit status, which the resume entry
    returns to the host."""
    return status


def _read_request(_read=os.read):
    # The host serves stdin from memory and fills each read as far as it can: a read that
    # returns less than asked for has reached the end. Reads start at 16 KiB (one host call
    # for most requests) and double up to 4 MiB: os.read allocates the whole size it is
    # asked for, and a 4 MiB buffer for a one-line request made every run grow its memory
    # by 4 MiB and fault in the pages it touched there.
    chunks = []
    size = 1 << 14
    while True:
        chunk = _read(0, size)
        chunks.append(chunk)
        if len(chunk) < size:
            return b"".join(chunks)
        size = min(size * 2, 1 << 22)


def _write_answer(answer):
    """The audit answer, framed: it comes before any user output and no cap applies."""
    _write_all(1, len(answer).to_bytes(ANSWER_LENGTH_BYTES, "little") + answer)


def _json_encoder(allow_nan=True, ensure_ascii=True):
    """A function giving a value as compact JSON text, as `json.dumps(value,
    separators=(",", ":"), allow_nan=allow_nan, ensure_ascii=ensure_ascii)` does, through
    one C encoder made here: `json.dumps` and `JSONEncoder.encode` build a new one (and a
    Python closure) on every call, most of what encoding a small value costs."""
    from json.encoder import (
        JSONEncoder,
        c_make_encoder,
        encode_basestring,
        encode_basestring_ascii,
    )

    if c_make_encoder is None:
        return JSONEncoder(separators=(",", ":"), allow_nan=allow_nan,
                           ensure_ascii=ensure_ascii).encode
    markers = {}  # of the containers being encoded: a cycle is a ValueError, as in json
    encoder = c_make_encoder(markers, JSONEncoder().default,
                             encode_basestring_ascii if ensure_ascii else encode_basestring,
                             None, ":", ",", False, False, allow_nan)
    join = "".join

    def encode(value):
        try:
            return join(encoder(value, 0))
        except BaseException:
            markers.clear()  # a failed encoding leaves its open containers marked
            raise

    return encode


def _json_decoder():
    """A function giving the value of JSON text the host wrote (one value, nothing around
    it), through the C scanner `json.loads` ends in, without its per-call steps."""
    from json import JSONDecoder, loads
    from json.scanner import c_make_scanner

    if c_make_scanner is None:
        return loads
    scan = c_make_scanner(JSONDecoder())

    def decode(data):
        text = data.decode() if isinstance(data, bytes) else data
        try:
            value, end = scan(text, 0)
        except StopIteration:
            end = -1
        if end != len(text):
            raise ValueError("the host's answer is not one JSON value")
        return value

    return decode


def _compact_json(value, _encoder=[]):  # noqa: B006 - the encoder is made once
    """`value` as compact JSON text, by one encoder for every call."""
    if not _encoder:
        _encoder.append(_json_encoder())
    return _encoder[0](value)


def _audit_answer(source):
    try:
        return _compact_json(_facts(source)[0]).encode()
    except MemoryError:
        return b'{"audit_error":"memory"}'


def _tables_for(policy_line):
    builtin = BUILTIN_POLICY_LINES.get(policy_line)
    if builtin is not None:
        return builtin_tables(*builtin)  # built at start-up
    from json import loads as _loads

    return tables_from_json(_loads(policy_line))


def _judge(source, tables):
    """(audit answer, code object or None, blocked): the source parsed and compiled, its
    facts judged with `tables`; nothing of it runs here."""
    try:
        answer, code_object = _facts(source)
        facts = answer.get("facts")
        # Each (kind, name) judged once: a name comes back up to _FACT_LIMIT_PER_NAME times.
        blocked = facts is None or (tables["enforce"] and (
            answer_is_incomplete(answer)
            or any(judge_fact(tables, kind, name)
                   for kind, name in {(fact[0], fact[1]) for fact in facts})))
        answer["ran"] = not blocked
        return _compact_json(answer).encode(), code_object, blocked
    except MemoryError:
        return b'{"audit_error":"memory","ran":false}', None, True


def _compile_known(source, code=b"", _loads=marshal.loads):
    """(audit answer, code object or None, blocked) for a source whose audit answer the host
    already holds (KNOWN_OPTION): parsed and compiled only, or its `code` (marshalled by an
    earlier run, CODE_OPTION_PREFIX) loaded. Parsing it may run out of this run's memory
    cap (the cache's key has no cap in it): that is answered as `_judge` answers it. A
    source that no longer compiles (it cannot: same source, same interpreter) is refused,
    never run."""
    if code:
        try:
            return KNOWN_ANSWER, _loads(code), False
        except Exception:
            pass  # not this runtime's code after all: compile the source
    try:
        return KNOWN_ANSWER, _code_to_run(source), False
    except MemoryError as exc:
        if "too complex" in str(exc):
            return b'{"known":false,"ran":false}', None, True
        return b'{"audit_error":"memory","ran":false}', None, True
    except (SyntaxError, RecursionError, ValueError):
        return b'{"known":false,"ran":false}', None, True


def _with_code(answer, code_object, _dumps=marshal.dumps):
    """The audit answer followed by the code it lets run, marshalled (KEEP_CODE_OPTION),
    when that fits MAX_KEPT_CODE_BYTES."""
    try:
        code = _dumps(code_object)
    except ValueError:
        return answer
    return answer + b"\n" + code if len(code) <= MAX_KEPT_CODE_BYTES else answer


#: A session keeps the code of this many sources it ran (each at most SESSION_CODE_BYTES
#: long), so that a source it runs again is not compiled again (compiling is most of a
#: small call: `x += 1` is ~37 us of compile in a ~50 us guest call).
SESSION_CODE_ENTRIES = 64
SESSION_CODE_BYTES = 4096


def _session_code(source, _compile_known=_compile_known, _codes={}):  # noqa: B006
    """`_compile_known(source)` for a session's call, from the session's code cache. Only
    sources whose audit answer the host already holds come here, and a code object is what
    compiling the same source again would give (compiled with `dont_inherit`: nothing
    earlier in the session changes it); the oldest entry makes room for a new one."""
    found = _codes.get(source)
    if found is not None:
        return found
    found = _compile_known(source)
    if not found[2] and len(source) <= SESSION_CODE_BYTES:
        if len(_codes) >= SESSION_CODE_ENTRIES:
            del _codes[next(iter(_codes))]
        _codes[source] = found
    return found


#: Where a chart the code shows or leaves open goes: the first free name of this pattern.
FIGURE_PATH = "/output/figure-{}.png"


def _render_figures(figures=None, _sys=sys, _exists=os.path.exists, _remove=os.remove,
                    _write=os.write):
    """Save matplotlib's open figures (or `figures`) that changed since they were last drawn
    as PNG files under /output, and close pyplot's: what a notebook shows of a cell. A
    figure the code already saved (and left unchanged) is not saved twice. Each failure is
    a line on stderr; the run goes on."""
    pyplot = _sys.modules.get("matplotlib.pyplot")
    if pyplot is None:
        return
    managed = figures is None
    if managed:
        from matplotlib._pylab_helpers import Gcf

        figures = [manager.canvas.figure for manager in Gcf.get_all_fig_managers()]
    number = 1
    for figure in figures:
        if not figure.stale:
            continue
        while _exists(FIGURE_PATH.format(number)):
            number += 1
        path = FIGURE_PATH.format(number)
        number += 1
        try:
            figure.savefig(path, format="png")
        except Exception as exc:  # reported; the other figures go on
            with contextlib.suppress(OSError):
                _remove(path)  # not half a PNG
            _write(2, f"figure not saved as {path}: {type(exc).__name__}: {exc}\n".encode(
                "utf-8", "replace"))
    if managed:
        pyplot.close("all")


def _show_renders_figures(module):
    """matplotlib.pyplot: `plt.show()` and `Figure.show()` save the figures as PNG files
    (`_render_figures`) instead of warning that the Agg backend cannot show them."""
    from matplotlib.figure import Figure

    def show(*args, **kwargs):
        """Save the open figures as PNG files under /output (figure-1.png, ...) and close
        them: the sandbox's way of showing a chart (the result carries the files)."""
        _render_figures()

    def show_figure(self, warn=True):
        """Save this figure as a PNG file under /output (figure-N.png)."""
        _render_figures([self])

    module.show = show
    Figure.show = show_figure


def _run_user_code(source, code_object, guard=(None, ""), _atexit=atexit,
                   _builtins=builtins, _sys=sys, gc=gc, _report=_report,
                   _exit_code=_exit_code, _flush=_flush, _arm=_arm,
                   _disarm=_disarm, _user=_USER_BUILTINS, _render=_render_figures):
    """Run the user's code as __main__; return its exit status. The functions that report
    the outcome are bound here, before the user's code can reach this module."""
    _sys.argv[:] = ["-c"]  # as on the plain path, whether or not this is a snapshot
    # The user code gets a module of its own as __main__ (so `import __main__` finds the
    # user's namespace, as in a real interpreter, and not this bootstrap).
    main_module = type(_sys)("__main__")
    namespace = main_module.__dict__
    namespace["__builtins__"] = _user["module"] or _builtins
    _sys.modules["__main__"] = main_module
    _start_run()
    code = 0
    try:
        if code_object is None:
            code_object = _code_to_run(source)
        if guard[0] is not None:
            _arm(*guard)
        _run_code(code_object, namespace, _user["module"] or _builtins)
    except SystemExit as exc:
        code = _exit_code(exc)
    except BaseException as exc:
        # Free what the user code held (a memory bomb leaves no room to format the error).
        namespace.clear()
        gc.collect()
        _report_unguarded(exc)
        code = 130 if isinstance(exc, KeyboardInterrupt) else 1
    # Each step below may fail (the user's code can break what it calls); none stops the
    # next. `try`/`except: pass` rather than contextlib.suppress: see _flush.
    try:  # noqa: SIM105
        _render()
    except BaseException:
        pass
    # CPython runs atexit handlers at shutdown, then finalises what __main__ still holds
    # (its objects' __del__ methods run); so do we, under the same deadline and fuel.
    try:  # noqa: SIM105
        _atexit._run_exitfuncs()
    except BaseException:
        pass
    try:
        namespace.clear()
        gc.collect()
    except BaseException:
        pass
    _flush()
    _disarm()
    return code


def _read_frame(fd, closed, _read=os.read):
    """A frame the host wrote on `fd` (a tool's or the network's answer): its 8-byte length,
    then that many bytes; most fit the first read (one host call). Raises `closed` when the
    channel ends first."""
    data = _read(fd, 1 << 16)
    if len(data) < ANSWER_LENGTH_BYTES:
        raise closed
    length = int.from_bytes(data[:ANSWER_LENGTH_BYTES], "little")
    parts, have = [data[ANSWER_LENGTH_BYTES:]], len(data) - ANSWER_LENGTH_BYTES
    while have < length:
        chunk = _read(fd, min(length - have, 1 << 22))
        if not chunk:
            raise closed
        parts.append(chunk)
        have += len(chunk)
    return b"".join(parts)


def _install_tools(manifest, _sys=sys, _read=os.read, _write=os.write, _builtins=builtins):
    """The `tools` module: a stub per host tool (its name, signature and docstring) that
    sends its arguments through the tool channel and returns the host's answer."""
    from json import loads as _loads

    encode, decode = _json_encoder(allow_nan=False), _json_decoder()
    try:
        # The answer the host left in the runtime's answer area during the request's write
        # (None: it left none, the answer is read from the channel).
        from _sandbox_entry import take_answer
    except ImportError:  # a runtime without the area: every answer is read
        def take_answer():
            return None

    class ToolError(Exception):
        """A host tool failed with an exception that has no built-in type here."""

    ToolError.__module__ = "tools"
    raised_as = {name: getattr(_builtins, name) for name in GUEST_TOOL_EXCEPTIONS}

    def read_answer():
        return _read_frame(TOOLS_FD, RuntimeError("the tool channel closed"), _read)

    def call(name, args, kwargs):
        try:
            request = encode({"tool": name, "args": args, "kwargs": kwargs}).encode()
        except (TypeError, ValueError) as exc:
            raise TypeError(f"{name}(): arguments must be JSON values ({exc})") from None
        try:
            _write(TOOLS_FD, request)
        except OSError:
            # A session's later call that offers no tools: the module outlived them.
            raise RuntimeError(f"{name}(): no host tools are offered in this call") from None
        answer = decode(take_answer() or read_answer())
        error = answer.get("error")
        if error is not None:
            kind = raised_as.get(error["type"])
            if kind is None:
                raise ToolError(f"{error['type']}: {error['message']}")
            raise kind(error["message"])
        return answer["result"]

    missing = object()  # a parameter left to the host's default
    module = type(_sys)("tools")
    specs = _loads(manifest)
    module.__doc__ = "The host's tools: " + ", ".join(spec["name"] for spec in specs)
    module.ToolError = ToolError
    for spec in specs:
        namespace = {"__call": call, "__missing": missing}
        exec(_stub_source(spec["name"], spec["params"]), namespace)
        stub = namespace[spec["name"]]
        stub.__doc__ = spec["doc"] or None
        stub.__module__ = "tools"
        setattr(module, spec["name"], stub)
    module.__all__ = [spec["name"] for spec in specs]
    _sys.modules["tools"] = module


def _stub_source(name, params):
    """`def name(<the tool's parameters>): return __call(name, args, kwargs)`. Defaults
    that are JSON are written as literals; others are `__missing` and left to the host.
    Positional parameters go positionally (so that *args works), keyword-only ones by name."""
    from json import loads as _loads

    signature, positional, keywords = [], [], []
    star = starstar = None
    previous = None
    for pname, kind, default_json, has_default in params:
        if previous == "POSITIONAL_ONLY" and kind != "POSITIONAL_ONLY":
            signature.append("/")
        if kind == "KEYWORD_ONLY" and star is None and "*" not in signature:
            signature.append("*")
        default = ""
        if has_default:
            default = "=" + (repr(_loads(default_json)) if default_json is not None
                             else "__missing")
        if kind == "VAR_POSITIONAL":
            star = pname
            signature.append("*" + pname)
        elif kind == "VAR_KEYWORD":
            starstar = pname
            signature.append("**" + pname)
        else:
            signature.append(pname + default)
            (keywords if kind == "KEYWORD_ONLY" else positional).append(pname)
        previous = kind
    if previous == "POSITIONAL_ONLY":
        signature.append("/")
    lines = [f"def {name}({', '.join(signature)}):", "    __a, __k, __named = [], {}, False"]
    for pname in positional:
        # After a parameter left to the host's default, the rest go by name.
        lines += [f"    if {pname} is __missing:", "        __named = True",
                  "    elif __named:", f"        __k[{pname!r}] = {pname}",
                  "    else:", f"        __a.append({pname})"]
    for pname in keywords:
        lines.append(f"    if {pname} is not __missing:")
        lines.append(f"        __k[{pname!r}] = {pname}")
    if star:
        lines.append(f"    __a.extend({star})")
    if starstar:
        lines.append(f"    __k.update({starstar})")
    lines.append(f"    return __call({name!r}, __a, __k)")
    return "\n".join(lines) + "\n"


# The bootstrap's own module: the resume trampoline looks serve() up in sys.modules["__main__"],
# which a session's code replaces while it runs.
_BOOTSTRAP_MAIN = sys.modules.get("__main__")


def _run_session_code(code_object, guard=(None, ""), _builtins=builtins, _sys=sys, gc=gc,
                      _report=_report, _exit_code=_exit_code, _flush=_flush,
                      _arm=_arm, _disarm=_disarm, _user=_USER_BUILTINS,
                      _render=_render_figures, _state={}):  # noqa: B006
    """Run one request's code in the session's __main__ (created by the first request and
    kept for the next); return its exit status. Unlike a one-shot run, the namespace is not
    cleared and atexit handlers do not run: the session lives on."""
    main_module = _state.get("main")
    if main_module is None:
        main_module = _state["main"] = type(_sys)("__main__")
        main_module.__dict__["__builtins__"] = _user["module"] or _builtins
        _start_run()  # a session's first call; later ones keep its cwd and seeds
    _sys.argv[:] = ["-c"]
    _sys.modules["__main__"] = main_module
    code = 0
    try:
        if guard[0] is not None:
            _arm(*guard)
        _run_code(code_object, main_module.__dict__, _user["module"] or _builtins)
    except SystemExit as exc:
        code = _exit_code(exc)
    except BaseException as exc:
        gc.collect()
        with contextlib.suppress(BaseException):
            _report_unguarded(exc)
        code = 130 if isinstance(exc, KeyboardInterrupt) else 1
        del exc
    finally:
        try:  # noqa: SIM105 - see _flush
            _render()
        except BaseException:
            pass
        _flush()
        _disarm()
        _sys.modules["__main__"] = _BOOTSTRAP_MAIN
    return code


_RUNNER_CODE.update(function.__code__ for function in (
    _run_code, _report_value_record, _value_record, _run_user_code, _run_session_code))


def _reseed_random_on_first_use(random_module):
    """Make the snapshot's `random` reseed its shared generator from the host's entropy the
    first time a run uses it (a snapshot must never hand every run the same sequence).

    Reseeding in every run cost ~90k instructions and a page of writes, also in the runs
    that never use `random`. Every function `random` exports from its shared instance, and
    the instance itself (`random._inst`, now served by the module's `__getattr__`), reseeds
    first; the first use puts the instance's own methods back, so later lookups cost
    nothing. Each run starts from the snapshot, where the trap is set again."""
    instance = random_module._inst
    names = [name for name, value in vars(random_module).items()
             if getattr(value, "__self__", None) is instance]
    armed = [True]

    def reseed():
        if armed[0]:
            armed[0] = False
            instance.seed()
            for name in names:
                # Only our own traps go back: a name the user replaced meanwhile (e.g.
                # unittest.mock.patch("random.randint")) keeps the replacement.
                if vars(random_module).get(name) is traps[name]:
                    setattr(random_module, name, getattr(instance, name))

    def first_use(name):
        method = getattr(instance, name)

        def reseeding(*args, **kwargs):
            reseed()
            return method(*args, **kwargs)

        reseeding.__name__ = reseeding.__qualname__ = name
        reseeding.__doc__ = method.__doc__
        return reseeding

    def module_getattr(name):
        if name == "_inst":
            reseed()
            return instance
        raise AttributeError(f"module 'random' has no attribute {name!r}")

    traps = {name: first_use(name) for name in names}
    for name, trap in traps.items():
        setattr(random_module, name, trap)
    del random_module._inst
    random_module.__getattr__ = module_getattr


#: The guest's working directory: writable, so that relative paths work as on a desktop
#: (`open('out.csv', 'w')`); what is written there comes back as the result's files.
WORKING_DIRECTORY = "/output"


def _start_run(_chdir=os.chdir, _getcwd=os.getcwd, _urandom=os.urandom, _modules=sys.modules):
    """What a run (or a session's first call) starts with: the working directory, numpy's
    global generator seeded from the host's entropy, and dateutil's idea of this year. The
    data runtime imports numpy and pandas in its snapshot, under the snapshot's fixed clock
    (1970): unseeded, every run would draw the same numbers from np.random.rand & co. and
    pandas' sample() (generators made by np.random.default_rng() draw fresh entropy
    themselves), and dateutil's default parser, which pandas uses, would read two-digit years
    as around 1970 ('20/12/21' as 1921)."""
    if _getcwd() != WORKING_DIRECTORY:  # our snapshot starts there (sandbox_entry.c)
        with contextlib.suppress(OSError):  # a runtime without the in-memory tree keeps "/"
            _chdir(WORKING_DIRECTORY)
    mtrand = _modules.get("numpy.random.mtrand")
    if mtrand is not None:
        # 128 bits of host entropy, as seed() draws, but given to MT19937's own seeding by
        # array (init_by_array): seed() spreads them through a SeedSequence first, which
        # took ~0.28 ms of every run; this ~0.02 ms.
        numpy = _modules["numpy"]
        mtrand._rand.seed(numpy.frombuffer(_urandom(16), dtype=numpy.uint32))
    dateutil_parser = _modules.get("dateutil.parser._parser")
    if dateutil_parser is not None:
        from time import localtime

        info = dateutil_parser.DEFAULTPARSER.info
        info._year = localtime().tm_year
        info._century = info._year // 100 * 100


def _pbkdf2_hmac(hash_name, password, salt, iterations, dklen=None):
    """hashlib.pbkdf2_hmac (RFC 8018), as CPython's pure-Python version before 3.12 (since
    3.12 hashlib has it only through OpenSSL, which the guest does not have)."""
    import hmac as _hmac
    from hashlib import new as _new

    if not isinstance(hash_name, str):
        raise TypeError(hash_name)
    password = bytes(memoryview(password))
    salt = bytes(memoryview(salt))
    inner, outer = _new(hash_name), _new(hash_name)
    blocksize = getattr(inner, "block_size", 64)
    if len(password) > blocksize:
        password = _new(hash_name, password).digest()
    password = password + b"\x00" * (blocksize - len(password))
    inner.update(password.translate(_hmac.trans_36))
    outer.update(password.translate(_hmac.trans_5C))

    def prf(msg, inner=inner, outer=outer):
        icpy, ocpy = inner.copy(), outer.copy()
        icpy.update(msg)
        ocpy.update(icpy.digest())
        return ocpy.digest()

    if iterations < 1:
        raise ValueError(iterations)
    if dklen is None:
        dklen = outer.digest_size
    if dklen < 1:
        raise ValueError(dklen)
    dkey = b""
    loop = 1
    while len(dkey) < dklen:
        prev = prf(salt + loop.to_bytes(4, "big"))
        rkey = int.from_bytes(prev, "big")
        for _ in range(iterations - 1):
            prev = prf(prev)
            rkey ^= int.from_bytes(prev, "big")
        loop += 1
        dkey += rkey.to_bytes(inner.digest_size, "big")
    return dkey[:dklen]


def _explain_missing_capabilities():
    """What the sandbox lacks fails at the call with one line that says why (an agent can
    correct itself), instead of an errno that suggests a bug."""
    import errno
    import hashlib
    import subprocess
    import threading

    try:
        import socket
    except ImportError:  # a build without _socket: nothing to explain
        socket = None

    if not hasattr(hashlib, "pbkdf2_hmac"):
        hashlib.pbkdf2_hmac = _pbkdf2_hmac
        hashlib.__all__ = (*hashlib.__all__, "pbkdf2_hmac")

    def no_processes(*args, **kwargs):
        raise OSError(errno.ENOSYS, "no processes in the sandbox: a program cannot be "
                      "started (do the work in Python, or ask the host for a tool)")

    def popen_init(self, *args, **kwargs):
        no_processes()

    subprocess.Popen.__init__ = popen_init
    # os.system and os.popen say why; the rest of the process functions stay absent, as on
    # WASI (the standard library tests `hasattr(os, "fork")` to decide what to set up).
    os.system = os.popen = no_processes

    if socket is not None:
        real_socket_init = socket.socket.__init__

        def no_network(self, *args, **kwargs):
            try:
                real_socket_init(self, *args, **kwargs)
            except OSError:
                raise OSError(errno.ENOSYS, "no sockets in the sandbox: use urllib.request, "
                              "http.client or requests, which the host carries out for the "
                              "hosts the caller allows (network=)") from None

        socket.socket.__init__ = no_network

        def no_name_lookup(*args, **kwargs):
            raise OSError(errno.ENOSYS, "no sockets in the sandbox: host names cannot be "
                      "looked up here (urllib.request, http.client and requests reach the "
                      "hosts the caller allows through the host: network=)")

        for name in ("getaddrinfo", "gethostbyname", "gethostbyname_ex", "gethostbyaddr",
                     "create_connection", "create_server", "socketpair"):
            setattr(socket, name, no_name_lookup)

    def no_threads(self):
        raise RuntimeError("no threads in the sandbox: a thread cannot start (run the work in "
                           "this thread; asyncio works without threads)")

    threading.Thread.start = no_threads


def _asyncio_without_a_self_pipe(module):
    """asyncio's event loop makes a socket pair so that other threads and signal handlers can
    wake it; the guest has neither, nor sockets. Without the pair, coroutines, tasks,
    sleeps and timeouts work as they do anywhere."""
    loop_class = module.BaseSelectorEventLoop
    make_self_pipe, close_self_pipe = loop_class._make_self_pipe, loop_class._close_self_pipe

    def _make_self_pipe(self):
        try:
            make_self_pipe(self)
        except OSError:
            self._ssock = self._csock = None

    def _close_self_pipe(self):
        if self._ssock is not None:
            close_self_pipe(self)

    loop_class._make_self_pipe, loop_class._close_self_pipe = _make_self_pipe, _close_self_pipe


# -- the network, through the host (`network=`) ---------------------------------------------
# The guest never has a socket: http.client's connections, urllib's HTTPS handler and
# requests' HTTPAdapter hand each request whole to the host on NETWORK_FD; the host checks
# it against the run's network policy, carries it out (DNS, the address check, TLS) and
# answers with the response. Redirects are followed by the library as anywhere else: every
# hop is a new request, checked again.
def _network_request(method, url, headers, body, timeout, _read=os.read, _write=os.write,
                     _builtins=builtins):
    """(status, reason, headers, body) of the host's answer to one request; raises the
    host's refusal or failure as PermissionError, TimeoutError, ConnectionError or OSError."""
    from json import dumps as _dumps
    from json import loads as _loads

    meta = _dumps({"method": method, "url": url, "headers": headers, "timeout": timeout},
                  separators=(",", ":")).encode()
    request = len(meta).to_bytes(NETWORK_META_LENGTH_BYTES, "little") + meta + bytes(body)
    try:
        _write(NETWORK_FD, request)
    except OSError:
        raise PermissionError(
            f"network policy: {method} {url} refused: this run allows no network (the caller "
            "allows hosts with network=)") from None
    answer = _read_frame(NETWORK_FD, ConnectionError("the network channel closed"), _read)
    meta_length = int.from_bytes(answer[:NETWORK_META_LENGTH_BYTES], "little")
    start = NETWORK_META_LENGTH_BYTES + meta_length
    meta = _loads(answer[NETWORK_META_LENGTH_BYTES:start])
    error = meta.get("error")
    if error is not None:
        kind = (getattr(_builtins, error["type"]) if error["type"] in GUEST_NETWORK_EXCEPTIONS
                else OSError)
        raise kind(error["message"])
    return meta["status"], meta["reason"], meta["headers"], answer[start:]


def _body_bytes(body):
    """A request body as bytes: bytes-like, text (ISO-8859-1, as http.client sends it), a
    file-like object or an iterable of chunks."""
    if body is None:
        return b""
    if isinstance(body, str):
        return body.encode("iso-8859-1")
    if isinstance(body, (bytes, bytearray, memoryview)):
        return bytes(body)
    if hasattr(body, "read"):
        data = body.read()
        return data.encode("iso-8859-1") if isinstance(data, str) else bytes(data)
    return b"".join(c.encode("iso-8859-1") if isinstance(c, str) else bytes(c) for c in body)


def _raw_response(status, reason, headers, body):
    """The response as bytes an http.client.HTTPResponse reads (the host's answer, whose
    header values carry no line breaks)."""
    lines = [f"HTTP/1.1 {status} {reason}"]
    lines += [f"{name}: {value}" for name, value in headers]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("iso-8859-1", "replace") + body


class _AnswerReader:
    """What http.client.HTTPResponse reads a response from: the host's answer in memory."""

    def __init__(self, data):
        self._data = data

    def makefile(self, mode="rb", *args, **kwargs):
        import io

        return io.BytesIO(self._data)


def _timeout_seconds(timeout):
    """A request's timeout as the host reads it: seconds, or None (the policy's)."""
    if isinstance(timeout, (tuple, list)):  # requests' (connect, read): both bound the whole
        parts = [t for t in timeout if isinstance(t, (int, float))]
        return float(sum(parts)) if parts else None
    total = getattr(timeout, "total", None)  # urllib3's Timeout
    if total is None and hasattr(timeout, "read_timeout"):
        parts = [t for t in (timeout.connect_timeout, timeout.read_timeout)
                 if isinstance(t, (int, float))]
        return float(sum(parts)) if parts else None
    if isinstance(total, (int, float)):
        return float(total)
    return float(timeout) if isinstance(timeout, (int, float)) else None


def _http_client_through_host(module, _request=_network_request):
    """http.client's HTTPConnection (and an HTTPSConnection, absent without ssl) carry each
    request through the host: the request is sent when its headers end (or, for a body
    sent later with send(), when the response is asked for)."""
    base = module.HTTPConnection

    class HTTPConnection(base):
        __doc__ = base.__doc__
        _scheme = "http"

        def __init__(self, host, port=None, timeout=None, source_address=None,
                     blocksize=8192, **_ignored):
            super().__init__(host, port, source_address=source_address, blocksize=blocksize)
            self.timeout = timeout
            self._pending = self._answer = None

        def connect(self):
            """Nothing to connect: the host connects for each request."""

        def close(self):
            self._pending = self._answer = None

        def set_tunnel(self, host, port=None, headers=None):
            raise OSError("proxies and tunnels are not available in the sandbox: the host "
                          "connects to the server itself")

        def putrequest(self, method, url, skip_host=False, skip_accept_encoding=False):
            self._validate_method(method)
            self._validate_path(url)
            if self._pending is not None and self._answer is None:
                raise module.CannotSendRequest("Request-sent")
            if not url.startswith(("http://", "https://")):
                port = "" if self.port == self.default_port else f":{self.port}"
                host = f"[{self.host}]" if ":" in self.host else self.host
                url = f"{self._scheme}://{host}{port}{url or '/'}"
            self._pending = {"method": method, "url": url, "headers": [], "body": []}
            self._answer = None

        def putheader(self, header, *values):
            if self._pending is None:
                raise module.CannotSendHeader()
            name = header.decode("latin-1") if isinstance(header, bytes) else str(header)
            if not module._is_legal_header_name(name.encode("latin-1", "replace")):
                raise ValueError(f"Invalid header name {name!r}")
            text = ", ".join(v.decode("latin-1") if isinstance(v, bytes) else str(v)
                             for v in values)
            if module._is_illegal_header_value(text.encode("latin-1", "replace")):
                raise ValueError(f"Invalid header value {text!r}")
            self._pending["headers"].append([name, text])

        def endheaders(self, message_body=None, *, encode_chunked=False):
            if self._pending is None:
                raise module.CannotSendHeader()
            if message_body is not None:
                self._pending["body"].append(_body_bytes(message_body))
            declared = [v for n, v in self._pending["headers"] if n.lower() == "content-length"]
            if message_body is not None or not declared or declared[0].strip() in ("", "0"):
                self._exchange()

        def send(self, data):
            if self._pending is None or self._answer is not None:
                raise module.CannotSendRequest()
            self._pending["body"].append(_body_bytes(data))

        def _exchange(self):
            pending = self._pending
            headers = [h for h in pending["headers"]
                       if h[0].lower() not in ("transfer-encoding", "content-length")]
            self._answer = _request(pending["method"], pending["url"], headers,
                                    b"".join(pending["body"]), _timeout_seconds(self.timeout))

        def getresponse(self):
            if self._pending is None:
                raise module.ResponseNotReady()
            if self._answer is None:
                self._exchange()
            status, reason, headers, body = self._answer
            method = self._pending["method"]
            self._pending = self._answer = None
            response = self.response_class(
                _AnswerReader(_raw_response(status, reason, headers, body)), method=method)
            response.begin()
            return response

    class HTTPSConnection(HTTPConnection):
        """An HTTPS connection: the host makes the TLS connection and verifies the
        server's certificate (a `context` given here is not used)."""

        default_port = module.HTTPS_PORT
        _scheme = "https"

        def __init__(self, host, port=None, *args, context=None, **kwargs):
            super().__init__(host, port, *args, **kwargs)

    for cls in (HTTPConnection, HTTPSConnection):
        cls.__module__, cls.__qualname__ = module.__name__, cls.__name__
    module.HTTPConnection, module.HTTPSConnection = HTTPConnection, HTTPSConnection
    module._create_https_context = lambda http_version: None
    if "HTTPSConnection" not in module.__all__:
        module.__all__.append("HTTPSConnection")


def _urllib_https(module):
    """urllib.request's HTTPS handler, which it leaves out when http.client had no
    HTTPSConnection at its import (the ssl module is absent)."""
    if hasattr(module, "HTTPSHandler"):
        return
    import http.client

    class HTTPSHandler(module.AbstractHTTPHandler):
        def __init__(self, debuglevel=None, context=None, check_hostname=None):
            super().__init__(debuglevel if debuglevel is not None else 0)

        def https_open(self, req):
            return self.do_open(http.client.HTTPSConnection, req)

        https_request = module.AbstractHTTPHandler.do_request_

    HTTPSHandler.__module__, HTTPSHandler.__qualname__ = module.__name__, "HTTPSHandler"
    module.HTTPSHandler = HTTPSHandler
    module.__all__.append("HTTPSHandler")


def _requests_through_host(module, _request=_network_request):
    """requests' HTTPAdapter (every Session's, and any subclass's) sends through the host;
    the response is built by requests' own build_response, as for urllib3's."""
    import http.client
    import io

    from requests import exceptions
    from urllib3 import HTTPResponse
    from urllib3._collections import HTTPHeaderDict

    def send(self, request, stream=False, timeout=None, verify=True, cert=None,
             proxies=None):
        try:
            status, reason, headers, body = _request(
                request.method, request.url, list(request.headers.items()),
                _body_bytes(request.body), _timeout_seconds(timeout))
        except TimeoutError as exc:
            raise exceptions.ReadTimeout(exc, request=request) from None
        except OSError as exc:
            raise exceptions.ConnectionError(exc, request=request) from None
        original = http.client.HTTPResponse(
            _AnswerReader(_raw_response(status, reason, headers, b"")), method=request.method)
        original.begin()
        raw = HTTPResponse(
            body=io.BytesIO(body), headers=HTTPHeaderDict(headers), status=status,
            version=11, version_string="HTTP/1.1", reason=reason, preload_content=False,
            decode_content=True, original_response=original, request_method=request.method,
            request_url=request.url, enforce_content_length=False)
        return self.build_response(request, raw)

    module.HTTPAdapter.send = send


def _certifi_in_place(module):
    """certifi.where() as the installed file's path (the packages' file view serves it):
    certifi's own copies the bundle to a temporary file first, at requests' import, which
    a snapshot's init has no directory for and a run would pay for. The guest never uses
    the bundle: TLS is the host's."""
    import os.path

    path = os.path.join(os.path.dirname(module.__file__), "cacert.pem")

    def where():
        return path

    def contents():
        with open(path, encoding="ascii") as bundle:
            return bundle.read()

    module.where, module.contents = where, contents


#: Modules patched right after their import (not preloaded: most runs never import them,
#: and preloading would grow every instance's memory; the data runtime's snapshot imports
#: matplotlib.pyplot through this too).
_AFTER_IMPORT = {"asyncio.selector_events": _asyncio_without_a_self_pipe,
                 "http.client": _http_client_through_host,
                 "urllib.request": _urllib_https,
                 "requests.adapters": _requests_through_host,
                 "certifi.core": _certifi_in_place,
                 "matplotlib.pyplot": _show_renders_figures}
#: The modules of `_AFTER_IMPORT` patched so far (once each).
_PATCHED = set()


class _PatchingLoader:
    """A module's own loader, then its patch."""

    def __init__(self, loader, patch):
        self._loader, self._patch = loader, patch

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module, _patched=_PATCHED):
        self._loader.exec_module(module)
        self._patch(module)
        _patched.add(module.__name__)


class _AfterImportFinder:
    """First on sys.meta_path: finds nothing itself; for a module of `_AFTER_IMPORT` it
    wraps the spec the other finders give."""

    @staticmethod
    def find_spec(name, path=None, target=None, _patches=_AFTER_IMPORT, _sys=sys):
        patch = _patches.get(name)
        if patch is None:
            return None
        for finder in _sys.meta_path:
            if finder is _AfterImportFinder:
                continue
            spec = finder.find_spec(name, path, target)
            if spec is not None:
                spec.loader = _PatchingLoader(spec.loader, patch)
                return spec
        return None


#: Free heap our runtime's snapshot starts with (see the end of this file).
HEAP_HEADROOM_BYTES = 6 * 1024 * 1024

# A source with the constructs the audit meets most, judged a few times at build time.
_WARM_UP_SOURCE = b"""\
import json, math
from collections import Counter
class Point:
    def __init__(self, x, y=0, *args, **kw):
        self.x, self.y = x, y
    def norm(self):
        return math.hypot(self.x, self.y)
def main(items: list[int]) -> dict:
    total = sum(i * i for i in items if i % 2)
    words = Counter(str(i)[0] for i in items)
    try:
        data = json.loads('{"a": [1, 2]}')
    except ValueError as exc:
        data = {"error": f"{exc!r:>10}"}
    with open.__doc__ and None or __import__("io").StringIO() as buffer:
        print(total, words.most_common(1), data, Point(3, 4).norm(), file=buffer)
    return {k: v for k, v in data.items()}
print(main(list(range(10))), "__class__", sorted(range(3), key=lambda v: -v))
"""


def _warm_up_charts(pyplot):
    """Draw what a typical chart draws (a line with a title, axis labels, tick labels and a
    legend, every printable ASCII character in its text) to a PNG in memory, and close it."""
    import io
    import string

    figure, axes = pyplot.subplots(figsize=(4, 3))
    axes.plot([1, 2, 3, 4], [3, 1, 4, 1], marker="o", label=string.ascii_letters)
    axes.set_title(string.ascii_uppercase + string.digits)
    axes.set_xlabel(string.ascii_lowercase)
    axes.set_ylabel(string.punctuation)
    axes.legend()
    figure.savefig(io.BytesIO(), format="png")
    pyplot.close(figure)


def _warm_up_tables(pandas):
    """Read a CSV, describe, print, group, aggregate, merge, pivot and resample a small
    frame (what model code does with pandas first), writing nothing anywhere."""
    import io

    frame = pandas.read_csv(io.StringIO("k,v,d\na,1,2024-01-01\nb,2.5,2024-01-09\na,3,"
                                        "2024-02-01\n"), parse_dates=["d"])
    repr(frame.describe())
    repr(frame.head())
    frame.info(buf=io.StringIO())
    grouped = frame.groupby("k")["v"].agg(["sum", "mean", "count"])
    repr(grouped.reset_index().merge(frame, on="k").sort_values("v"))
    repr(frame.pivot_table(index="k", values="v", aggfunc="sum"))
    repr(frame.set_index("d")["v"].resample("W").sum())
    frame.to_csv(io.StringIO(), index=False)
    frame.to_dict(orient="records")


#: What an image's or the data runtime's init run reads (the wheels' files, their compiled
#: modules, the list of what to preload), written by sandbox_wasm/_images/build.py or the
#: build recipe; absent for the lean runtime.
PACKAGES_CONFIG = "/init/image.json"
PACKAGE_FINDER_SOURCE = "/init/package_finder.py"
#: The policy lines of the built-in policies with the packages allowed (_audit/policy.py
#: `image_policy_line`).
IMAGE_POLICY_SUFFIX = b"+image"


def _discard(*_args):
    """What the serving warm-up writes and runs at exit: nothing."""


def _warm_up_serving(rounds=4):
    """At snapshot init: serve a few one-shot requests that come back to rest (fresh and
    already audited, under both built-in policies), with their output and the atexit
    handlers left out, so that the adaptive instructions of every run's path are
    specialised in the snapshot: unspecialised, each run would execute their generic forms
    and write their counters, and so their code objects' pages, again."""
    global _write_all
    import atexit as _atexit_module

    main, argv, write_all = sys.modules["__main__"], list(sys.argv), _write_all
    run_exitfuncs = _atexit_module._run_exitfuncs
    _write_all = _discard  # the answer goes nowhere
    _atexit_module._run_exitfuncs = _discard
    try:
        for _ in range(rounds):
            for policy in (b"@balanced:enforce", b"@strict:enforce"):
                for mode in (MODE_EXEC + b" " + REST_OPTION + b" " + KEEP_CODE_OPTION,
                             MODE_EXEC + b" " + REST_OPTION + b" " + KNOWN_OPTION):
                    if serve(mode + b"\n" + policy + b"\npass\n") != 0:
                        raise SystemExit("the serving warm-up failed")
                code = marshal.dumps(_code_to_run(b"pass\n"))
                mode = b" ".join((MODE_EXEC, REST_OPTION, KNOWN_OPTION,
                                  CODE_OPTION_PREFIX + str(len(code)).encode()))
                if serve(mode + b"\n" + code + policy + b"\npass\n") != 0:
                    raise SystemExit("the serving warm-up failed")
            # The value record's encoder, made and its path specialised here too.
            _value_record({"warm-up": [1, 2.5, None, True, "caf\u00e9"]})
    finally:
        _write_all, _atexit_module._run_exitfuncs = write_all, run_exitfuncs
        sys.modules["__main__"], sys.argv[:] = main, argv


def _read_init_file(path):
    """The bytes of an /init file, or None when it is absent. os.read, not open(): open()
    stats the file, and its time stamps would stay in the snapshot's freed memory (every
    build would differ)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        return None
    try:
        return b"".join(iter(lambda: os.read(fd, 1 << 16), b""))
    finally:
        os.close(fd)


def _install_init_packages(_sys=sys):
    """At snapshot init, when /init holds packages: put the package finder
    (package_finder.py) on sys.meta_path, import the packages to preload, and allow the
    packages in the built-in policies' tables (kept ready under their `+image` lines)."""
    global _tables_for
    config_bytes = _read_init_file(PACKAGES_CONFIG)
    if config_bytes is None:
        return
    from json import loads

    module = type(_sys)("_sandbox_packages")
    _sys.modules["_sandbox_packages"] = module
    source = _read_init_file(PACKAGE_FINDER_SOURCE)
    exec(compile(source, "<sandbox_packages>", "exec", dont_inherit=True), module.__dict__)
    config = loads(config_bytes)
    module.install(config)
    # The packages' file view replaced builtins.open (their data files, read-only, at their
    # installed paths): the builtins user code runs with, made before, take it too.
    user_builtins = _USER_BUILTINS["module"]
    if user_builtins is not None:
        user_builtins.open = builtins.open
    # A preloaded package that drew from `random` here spent the trap that reseeds it at its
    # first use in a run: set it again, or every run would repeat one sequence.
    random = _sys.modules["random"]
    if getattr(random.random, "__self__", None) is not None:
        random._inst = random.random.__self__
        _reseed_random_on_first_use(random)
    packages = frozenset(config["top_level"])
    tables = {}
    for line, (name, enforce) in BUILTIN_POLICY_LINES.items():
        table = builtin_tables(name, enforce)
        if table["allowed_modules"] is not None:
            table = {**table, "allowed_modules": table["allowed_modules"] | packages}
        tables[line.replace(b":", IMAGE_POLICY_SUFFIX + b":", 1)] = table

    def image_tables_for(policy_line, _builtin=_tables_for):
        found = tables.get(policy_line)
        return _builtin(policy_line) if found is None else found

    _tables_for = image_tables_for


if __name__ == "__main__" and sys.argv[1:] == ["--snapshot-init"]:
    for _name in _PRELOAD:
        __import__(_name)
    _install_guard()
    _explain_missing_capabilities()
    sys.meta_path.insert(0, _AfterImportFinder)
    # A module the script writes is compiled from its source each time it is imported (and
    # so judged by the run-time guard), never cached as bytecode in the guest's tree.
    sys.dont_write_bytecode = True
    _reseed_random_on_first_use(sys.modules["random"])
    _install_init_packages()
    # Modules the snapshot imported before their patch could apply (a package's preload).
    for _name, _patch in _AFTER_IMPORT.items():
        if _name in sys.modules and _name not in _PATCHED:
            _patch(sys.modules[_name])
    # A preloaded pyplot (the data runtime) draws one small chart now: the font it loads,
    # the glyphs and text layouts it caches and the artists' tables it builds are then in
    # every run's memory instead of being rebuilt by each run's first chart.
    if "matplotlib.pyplot" in sys.modules:
        _warm_up_charts(sys.modules["matplotlib.pyplot"])
    # Likewise pandas' everyday paths, whose modules it imports on first use.
    if "pandas" in sys.modules:
        _warm_up_tables(sys.modules["pandas"])
    # Judge a typical source a few times under both built-in policies (nothing of it runs):
    # the interpreter's adaptive instructions on the audit's path specialise now, in the
    # snapshot, instead of rewriting their code objects' pages in every run.
    for _ in range(4):
        for _policy in (b"@strict:enforce", b"@balanced:enforce"):
            if b'"facts"' not in _judge(_WARM_UP_SOURCE, _tables_for(_policy))[0]:
                raise SystemExit("the warm-up source does not parse")
    _warm_up_serving()
    # Every built-in policy's tables and name (with an image's suffix too) made here once:
    # a run would otherwise make those it uses, and lose them with its memory.
    for _line in BUILTIN_POLICY_LINES:
        builtin_tables(*BUILTIN_POLICY_LINES[_line])
        _policy_name(_line)
        _policy_name(_line.replace(b":", IMAGE_POLICY_SUFFIX + b":", 1))
    # Frozen objects are never scanned again: without this, the first collection of every
    # run walks the whole start-up heap.
    gc.collect()
    gc.freeze()
    # Free heap in the snapshot (wasi-libc's malloc never gives memory back): a run that
    # allocates less than this does not grow linear memory, so the host can put its
    # instance back to the image and reuse it (grown memory cannot shrink). Never-written
    # pages cost nothing; the runtime then starts at ~27 MiB, under the smallest memory cap
    # a request may ask for (32 MiB).
    _headroom = bytearray(HEAP_HEADROOM_BYTES)
    del _headroom
elif __name__ == "__main__":
    serve()  # a plain start without a snapshot (scripts/runtime_probe.py's `_start` mode)
