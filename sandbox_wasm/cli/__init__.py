"""The `wasm-exec` command line (also `python -m sandbox_wasm`): one module per
subcommand, each exposing `main(argv) -> int`, dispatched from here.

- `run` (the default): audit and run a file or `-c CODE`
- `audit`: audit only
- `batch`: a JSONL file of requests
- `repl`: an interactive prompt on one session (its state lives across inputs)
- `doctor`: self-test of the limits and the isolation on this host
- `image`: build an image (pure-Python wheels baked into a pre-initialised runtime), show one
- `runtime`: install, check and locate the pinned runtimes
- `serve`, `mcp`: the HTTP and MCP gateways (need the `server` extra)
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Sequence
from types import ModuleType

from ._common import UsageError, report_failure

# Subcommand -> module; imported only when used (the server extras are optional).
SUBCOMMANDS = {
    "run": "sandbox_wasm.cli.run",
    "audit": "sandbox_wasm.cli.audit",
    "batch": "sandbox_wasm.cli.batch",
    "repl": "sandbox_wasm.cli.repl",
    "doctor": "sandbox_wasm.cli.doctor",
    "image": "sandbox_wasm.cli.image",
    "runtime": "sandbox_wasm.cli.runtime",
    "serve": "sandbox_wasm.cli.serve",
    "mcp": "sandbox_wasm.cli.mcp",
}
_NEEDS_SERVER_EXTRA = ("serve", "mcp")


class _ExtraMissing(UsageError):
    """A subcommand's optional dependencies are not installed."""


def _extra_missing(name: str, exc: ImportError) -> _ExtraMissing | None:
    """The usage error for a server subcommand whose optional dependencies are missing."""
    if name not in _NEEDS_SERVER_EXTRA or (exc.name or "sandbox_wasm").startswith(
            "sandbox_wasm"):
        return None
    return _ExtraMissing(f"'{name}' needs optional dependencies ({exc.name} missing): "
                         "pip install 'sandbox-wasm[server]'")


def _subcommand(name: str) -> ModuleType:
    try:
        return importlib.import_module(SUBCOMMANDS[name])
    except ImportError as exc:
        missing = _extra_missing(name, exc)
        if missing is None:
            raise
        raise missing from None


def version_line() -> str:
    """`wasm-exec --version`: the package's version and the wasmtime that runs the guests."""
    from .._runtimes.artifacts import wasmtime_version
    from .._version import __version__

    return f"wasm-exec (sandbox-wasm) {__version__}, wasmtime {wasmtime_version()}"


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of `wasm-exec`; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] in (["--version"], ["-V"]):
        print(version_line())
        return 0
    name = argv[0] if argv and argv[0] in SUBCOMMANDS else "run"
    rest = argv[1:] if argv and argv[0] in SUBCOMMANDS else argv
    try:
        try:
            module = _subcommand(name)
        except _ExtraMissing as missing:
            if "-h" not in rest and "--help" not in rest:
                raise
            # Help is asked for: say what the subcommand is and how to get it (exit 0).
            print(f"usage: wasm-exec {name} [...]\n\n{missing}")
            return 0
        try:
            return int(module.main(rest))
        except ImportError as exc:  # a server subcommand imports its extra when it starts
            extra = _extra_missing(name, exc)
            if extra is None:
                raise
            raise extra from None
    except (Exception, KeyboardInterrupt) as exc:
        # Subcommands with their own prefix report their errors themselves; what reaches
        # here is mapped by the one table (and anything it does not know is re-raised).
        return report_failure("wasm-exec", exc)


def run() -> None:
    """Console-script wrapper around `main`."""
    code = main()
    sys.stdout.flush()
    sys.stderr.flush()
    # Skip interpreter teardown: wasmtime's runtime threads can print a Rust panic while
    # Python finalises, and nothing is left to clean up that the OS does not reclaim.
    os._exit(code)
