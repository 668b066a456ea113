# The guest's side of sandbox-wasm. It runs INSIDE the sandbox (our CPython 3.13 for WASI,
# or the vmware-labs 3.12 fallback) in a pre-initialised snapshot that ran everything but the
# final `serve()` once at build time (the fallback's plain start-up runs it as
# `python -I -S -u -c <this file>`). `serve()` serves one request read from stdin:
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
#       instance for the next request; serve() then writes a status record to stderr and
#       returns (the instance is left at rest, ready to serve again).
# The host imports this module for the protocol below and for `judge_fact`, so that both
# sides share one definition of the wire format and the policy decision. Names are bound as
# default arguments so user code that patches `os`, `sys` or `traceback` cannot change how
# its outcome is reported.
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

# The "balanced" policy judges by what a construct can reach. It allows every standard-library
# module that only computes (the classification, with a reason for each of the guest's
# modules, is `sandbox_wasm/_stdlib.py`; a test keeps the two in step), getattr & co. with a
# literal, non-dunder name, and `sys` for the attributes below; everything else is as strict.
BALANCED_ALLOWED_MODULES = """
__future__ abc argparse array ast atexit base64 binascii bisect calendar cmath collections colorsys
contextlib contextvars copy csv dataclasses datetime decimal difflib email encodings enum
errno filecmp fileinput fnmatch fractions functools getopt glob graphlib gzip hashlib heapq
hmac html io ipaddress itertools json keyword locale logging math numbers operator optparse
pathlib plistlib pprint queue random re reprlib sched secrets shlex shutil statistics string
stringprep struct sys tarfile tempfile textwrap time token tomllib traceback types typing
unicodedata urllib.parse uuid warnings weakref xml zipfile zlib
""".split()  # noqa: SIM905 - one word per module reads best
#: What `sys` offers that only describes the interpreter or uses the standard streams.
BALANCED_SYS_ATTRIBUTES = """
stdout stderr stdin argv exit version version_info hexversion implementation maxsize
maxunicode byteorder platform float_info int_info hash_info float_repr_style
getrecursionlimit setrecursionlimit getsizeof intern getdefaultencoding
getfilesystemencoding get_int_max_str_digits set_int_max_str_digits flags api_version
""".split()  # noqa: SIM905
#: Builtins allowed when their attribute name is a literal without double underscores.
LITERAL_ATTRIBUTE_CALLS = ("getattr", "hasattr", "setattr", "delattr")
#: What the guest's own filesystem (an in-memory tree: /input, /output, /tmp) needs: `open`
#: and the modules that work on files reach that tree and nothing of the host.
BALANCED_FILE_ACCESS = ("open", "io.open", "pathlib", "glob", "shutil", "tempfile")
BALANCED_TABLES = {
    **STRICT_TABLES,
    "blocked_modules": tuple(m for m in STRICT_TABLES["blocked_modules"]
                             if m not in ("sys", *BALANCED_FILE_ACCESS)),
    "blocked_calls": tuple(c for c in STRICT_TABLES["blocked_calls"]
                           if c not in BALANCED_FILE_ACCESS),
    # `tools` holds only the host's tools (and exists only when the host gives some).
    "allowed_modules": (*BALANCED_ALLOWED_MODULES, "tools"),
    "literal_calls": LITERAL_ATTRIBUTE_CALLS,
    "sys_attributes": tuple(BALANCED_SYS_ATTRIBUTES),
    # `x.f()` is a call into a blocked module only when `x` is bound by an import: a
    # variable that happens to be called `resource` reaches nothing.
    "import_bound_calls": True,
}

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
#: Ends a session request on stderr: the exit status of its code ("0".."255"), then b"\n".
STATUS_MARK = b"\x00sandbox-wasm-status:"
#: The request's option that puts a tools manifest line before the rest.
TOOLS_OPTION = b"tools"
#: The request's option that makes a one-shot request return to rest (its exit status on
#: stderr, as a session request's) instead of ending the process: our runtime's entry
#: returns then, and the host may reuse the instance once its memory is put back.
REST_OPTION = b"rest"
#: The descriptor of the tool channel (0-2 stdio, 3 the filesystem root): a call is one
#: write of JSON {"tool", "args", "kwargs"}; its answer, read back, is an 8-byte length and
#: JSON {"result"} or {"error": {"type", "message"}}.
TOOLS_FD = 4
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


def _facts(source):
    """Parse and compile `source` (never run it); return ({"facts": [...]} or
    {"syntax_error": ...}, code object or None)."""
    import ast as _ast

    try:
        tree = _ast.parse(source, "<sandbox>", "exec")
        # Compiling too catches what only the compiler rejects ('return' outside a
        # function, duplicate arguments, ...); the code object is what will run.
        code = compile(tree, "<sandbox>", "exec", dont_inherit=True)
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
            literal = (
                isinstance(node.func, _ast.Name) and node.func.id in LITERAL_ATTRIBUTE_CALLS
                and len(node.args) >= 2 and isinstance(node.args[1], _ast.Constant)
                and isinstance(node.args[1].value, str) and "__" not in node.args[1].value
            )
            add("literal_call" if literal else "call", dotted(node.func), node)
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
        return {"facts": facts, "facts_truncated": True}, code
    return {"facts": facts}, code


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
    """The built-in policy `name` ("strict" or "balanced") as sets; computed once (at build
    time, in a snapshot)."""
    tables = _cache.get(name)
    if tables is None:
        data = STRICT_TABLES if name == "strict" else BALANCED_TABLES
        tables = _cache[name] = tables_from_json({**data, "enforce": True})
    return {**tables, "enforce": enforce}


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
        message = str(exc)[:MAX_ERROR_MESSAGE_CHARS]
    except BaseException:
        message = "<unprintable>"
    # Cut in characters before encoding (never inside a character), and kept as UTF-8 so
    # that non-ASCII text does not grow sixfold: the record stays under
    # MAX_ERROR_RECORD_BYTES whatever the message holds.
    record = _dumps({"type": type(exc).__name__[:MAX_ERROR_TYPE_CHARS], "message": message},
                    ensure_ascii=False)
    _write(2, ERROR_MARK + record.encode("utf-8", "backslashreplace") + b"\n")


def _flush(_sys=sys):
    for stream in (_sys.stdout, _sys.stderr):
        with contextlib.suppress(BaseException):
            stream.flush()


def serve(_exit=os._exit):
    """Serve the one request on stdin (the entry point of every run; a snapshot's resume
    trampoline calls it by this name). A session request, and a one-shot request with the
    rest option, returns (its exit status on stderr), leaving the instance at rest; any
    other one-shot request ends the process."""
    mode, _, rest = _read_request().partition(b"\n")
    mode, *options = mode.split(b" ")
    if TOOLS_OPTION in options:
        manifest, _, rest = rest.partition(b"\n")
        _install_tools(manifest)
    else:
        sys.modules.pop("tools", None)  # a session's earlier call may have had tools
    # Returning (instead of os._exit) leaves no frame of this call behind: the instance is
    # at rest, and its memory is the whole state (a session's, or one the host puts back).
    end = _come_to_rest if mode == MODE_SESSION or REST_OPTION in options else _exit
    if mode == MODE_AUDIT:
        _write_answer(_audit_answer(rest))
        return end(0)
    source, code_object = rest, None
    if mode in (MODE_SESSION, MODE_EXEC):
        policy, _, source = rest.partition(b"\n")
        answer, code_object, blocked = _judge(source, _tables_for(policy))
        _write_answer(answer)
        del answer
        if blocked:
            return end(0)
    if mode == MODE_SESSION:
        return end(_run_session_code(code_object) & 0xFF)
    # Exit statuses are 8 bits wide, as for a native process (and os._exit rejects ints
    # beyond 32 bits).
    return end(_run_user_code(source, code_object) & 0xFF)


def _come_to_rest(status, _write_all=_write_all):
    """End a request that returns: its exit status goes to the host on stderr."""
    _write_all(2, STATUS_MARK + str(status).encode() + b"\n")


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


def _audit_answer(source):
    from json import dumps as _dumps

    try:
        return _dumps(_facts(source)[0], separators=(",", ":")).encode()
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
    from json import dumps as _dumps

    try:
        answer, code_object = _facts(source)
        facts = answer.get("facts")
        blocked = facts is None or (tables["enforce"] and (
            answer_is_incomplete(answer)
            or any(judge_fact(tables, fact[0], fact[1]) for fact in facts)))
        answer["ran"] = not blocked
        return _dumps(answer, separators=(",", ":")).encode(), code_object, blocked
    except MemoryError:
        return b'{"audit_error":"memory","ran":false}', None, True


def _run_user_code(source, code_object, _atexit=atexit, _builtins=builtins, _sys=sys,
                   gc=gc, _report=_report, _exit_code=_exit_code, _flush=_flush):
    """Run the user's code as __main__; return its exit status. The functions that report
    the outcome are bound here, before the user's code can reach this module."""
    _sys.argv[:] = ["-c"]  # as on the plain path, whether or not this is a snapshot
    # The user code gets a module of its own as __main__ (so `import __main__` finds the
    # user's namespace, as in a real interpreter, and not this bootstrap).
    main_module = type(_sys)("__main__")
    namespace = main_module.__dict__
    namespace["__builtins__"] = _builtins
    _sys.modules["__main__"] = main_module
    code = 0
    try:
        if code_object is None:
            code_object = compile(source, "<sandbox>", "exec", dont_inherit=True)
        exec(code_object, namespace)
    except SystemExit as exc:
        code = _exit_code(exc)
    except BaseException as exc:
        # Free what the user code held (a memory bomb leaves no room to format the error).
        namespace.clear()
        gc.collect()
        _report(exc)
        code = 130 if isinstance(exc, KeyboardInterrupt) else 1
    # CPython runs atexit handlers at shutdown, then finalises what __main__ still holds
    # (its objects' __del__ methods run); so do we, under the same deadline and fuel.
    with contextlib.suppress(BaseException):
        _atexit._run_exitfuncs()
    with contextlib.suppress(BaseException):
        namespace.clear()
        gc.collect()
    _flush()
    return code


def _install_tools(manifest, _sys=sys, _read=os.read, _write=os.write, _builtins=builtins):
    """The `tools` module: a stub per host tool (its name, signature and docstring) that
    sends its arguments through the tool channel and returns the host's answer."""
    from json import dumps as _dumps
    from json import loads as _loads

    class ToolError(Exception):
        """A host tool failed with an exception that has no built-in type here."""

    ToolError.__module__ = "tools"
    raised_as = {name: getattr(_builtins, name) for name in GUEST_TOOL_EXCEPTIONS}

    def read_answer():
        # Most answers fit the first read (one host call): its 8-byte length, then JSON.
        data = _read(TOOLS_FD, 1 << 16)
        if len(data) < 8:
            raise RuntimeError("the tool channel closed")
        length = int.from_bytes(data[:8], "little")
        parts, have = [data[8:]], len(data) - 8
        while have < length:
            chunk = _read(TOOLS_FD, min(length - have, 1 << 22))
            if not chunk:
                raise RuntimeError("the tool channel closed")
            parts.append(chunk)
            have += len(chunk)
        return b"".join(parts)

    def call(name, args, kwargs):
        try:
            request = _dumps({"tool": name, "args": args, "kwargs": kwargs},
                             allow_nan=False, separators=(",", ":")).encode()
        except (TypeError, ValueError) as exc:
            raise TypeError(f"{name}(): arguments must be JSON values ({exc})") from None
        try:
            _write(TOOLS_FD, request)
        except OSError:
            # A session's later call that offers no tools: the module outlived them.
            raise RuntimeError(f"{name}(): no host tools are offered in this call") from None
        answer = _loads(read_answer())
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


def _run_session_code(code_object, _builtins=builtins, _sys=sys, gc=gc, _report=_report,
                      _exit_code=_exit_code, _flush=_flush, _state={}):  # noqa: B006
    """Run one request's code in the session's __main__ (created by the first request and
    kept for the next); return its exit status. Unlike a one-shot run, the namespace is not
    cleared and atexit handlers do not run: the session lives on."""
    main_module = _state.get("main")
    if main_module is None:
        main_module = _state["main"] = type(_sys)("__main__")
        main_module.__dict__["__builtins__"] = _builtins
    _sys.argv[:] = ["-c"]
    _sys.modules["__main__"] = main_module
    code = 0
    try:
        exec(code_object, main_module.__dict__)
    except SystemExit as exc:
        code = _exit_code(exc)
    except BaseException as exc:
        gc.collect()
        with contextlib.suppress(BaseException):
            _report(exc)
        code = 130 if isinstance(exc, KeyboardInterrupt) else 1
        del exc
    finally:
        _flush()
        _sys.modules["__main__"] = _BOOTSTRAP_MAIN
    return code


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

    for name in names:
        setattr(random_module, name, first_use(name))
    del random_module._inst
    random_module.__getattr__ = module_getattr


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


if __name__ == "__main__" and sys.argv[1:] == ["--snapshot-init"]:
    for _name in _PRELOAD:
        __import__(_name)
    _reseed_random_on_first_use(sys.modules["random"])
    # Judge a typical source a few times under both built-in policies (nothing of it runs):
    # the interpreter's adaptive instructions on the audit's path specialise now, in the
    # snapshot, instead of rewriting their code objects' pages in every run.
    for _ in range(4):
        for _policy in (b"@strict:enforce", b"@balanced:enforce"):
            if b'"facts"' not in _judge(_WARM_UP_SOURCE, _tables_for(_policy))[0]:
                raise SystemExit("the warm-up source does not parse")
    # Frozen objects are never scanned again: without this, the first collection of every
    # run walks the whole start-up heap.
    gc.collect()
    gc.freeze()
    if sys.version_info >= (3, 13):
        # Free heap in the snapshot (wasi-libc's malloc never gives memory back): a run
        # that allocates less than this does not grow linear memory, so our runtime's host
        # can put its instance back to the image and reuse it (grown memory cannot
        # shrink). Never-written pages cost nothing; the runtime then starts at ~27 MiB,
        # under the smallest memory cap a request may ask for (32 MiB).
        _headroom = bytearray(HEAP_HEADROOM_BYTES)
        del _headroom
elif __name__ == "__main__":
    serve()
