"""JavaScript specifics: QuickJS-ng for WASI, run as `qjs -e CODE`.

The Python AST audit does not apply to JavaScript; the audit step only checks syntax
(compiled, never run, inside a separate sandboxed QuickJS instance) and reports policy
"none". The boundary is the same WebAssembly sandbox with the same limits.
"""

from __future__ import annotations

import json
import re

from .._models import ErrorInfo

# Runs with QuickJS's `std` module (only this fixed checker, never user code, gets it) and
# compiles the source from stdin without running it.
# `qjs -e` runs source with top-level import/export as an ES module, which `std` cannot
# compile without running; such sources are syntax-checked by QuickJS when they run.
SYNTAX_CHECKER = (
    "const src = std.in.readAsString();"
    "const ok = () => console.log('{\"ok\":true}');"
    "try { std.evalScript(src, {compile_only: true}); ok(); }"
    "catch (e) {"
    "  if (/^\\s*(import|export)\\b/m.test(src)) ok();"
    "  else console.log(JSON.stringify({syntax_error: String(e), stack: String(e.stack)}));"
    "}"
)
CHECK_ARGV = ["qjs", "--std", "-e", SYNTAX_CHECKER]

_POSITION = re.compile(r"<evalScript>:(\d+)")
_ERROR_LINE = re.compile(r"^([A-Za-z_$][\w$]*(?:Error|Exception)?):\s?(.*)$")


def run_argv(source: str) -> list[str]:
    """The fixed command line that evaluates `source` (no std/os modules)."""
    return ["qjs", "-e", source]


def syntax_error_from_check(stdout: bytes) -> str | None:
    """The syntax error the checker reported, or None if the source compiles.

    Raises ValueError when the checker's answer is not what it prints.
    """
    answer = json.loads(stdout)
    if not isinstance(answer, dict):
        raise ValueError("unexpected checker output")
    if answer.get("ok") is True:
        return None
    message = str(answer.get("syntax_error", "SyntaxError"))
    position = _POSITION.search(str(answer.get("stack", "")))
    return f"{message} (line {position.group(1)})" if position else message


def error_from_stderr(stderr: bytes, exit_code: int) -> ErrorInfo:
    """Describe an uncaught exception from QuickJS's report on stderr."""
    for line in stderr.decode("utf-8", "replace").splitlines():
        match = _ERROR_LINE.match(line.strip())
        if match:
            return ErrorInfo(type=match.group(1), message=match.group(2)[:1000])
    return ErrorInfo(type="Error", message=f"the script exited with status {exit_code}")
