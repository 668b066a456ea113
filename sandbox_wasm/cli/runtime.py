"""`wasm-exec runtime install|status|verify|path`: the pinned runtimes of this installation.

    wasm-exec runtime install     # fetch, build (cached) and verify them (idempotent)
    wasm-exec runtime status      # which are present and pass their checks
    wasm-exec runtime verify      # hash every file again; exit 1 on a mismatch
    wasm-exec runtime path        # the directory the library loads them from

The directory is $SANDBOX_WASM_RUNTIME_DIR, else the checkout's runtime/ (when run from a
repository checkout), else the user data directory. Our CPython is built from pinned inputs
the first time (~7 minutes on 2 cores; Debian's clang/lld 19 via apt-get, so as root) and
reused from ~/.cache/sandbox-wasm/cpython-wasi ($SANDBOX_WASM_BUILD_CACHE) afterwards.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path

from .._artifacts import runtime_dir
from .._runtime_install import RuntimeStatus, install, status
from ._common import EXIT_FAILED, EXIT_OK, OneLineParser, UsageError

PROG = "wasm-exec runtime"


def _parser(action: str, description: str) -> OneLineParser:
    parser = OneLineParser(prog=f"{PROG} {action}", description=description)
    parser.add_argument("--dir", type=Path, default=None, metavar="DIR",
                        help="the runtime directory (default: `wasm-exec runtime path`)")
    return parser


def _print_table(rows: list[RuntimeStatus], as_json: bool) -> None:
    if as_json:
        print(json.dumps([asdict(row) for row in rows], indent=2))
        return
    width = max(len(row.name) for row in rows)
    for row in rows:
        note = "" if row.required or row.state == "ok" else " (optional)"
        print(f"{row.name:<{width}}  {row.state:<7}  {row.detail}{note}")


def _install(argv: Sequence[str]) -> int:
    parser = _parser("install", "Fetch, build and verify the pinned runtimes.")
    parser.add_argument("--no-build", action="store_true",
                        help="skip our CPython 3.13 (fetch the fallback and QuickJS only)")
    args = parser.parse_args(list(argv))
    directory = args.dir or runtime_dir()
    install(directory, build=not args.no_build, log=lambda line: print(f"runtime: {line}"))
    rows = status(directory)
    _print_table(rows, as_json=False)
    wanted = [row for row in rows if row.required
              and not (args.no_build and row.name.startswith("cpython313"))]
    return EXIT_OK if all(row.state == "ok" for row in wanted) else EXIT_FAILED


def _status(argv: Sequence[str], *, recheck: bool) -> int:
    action = "verify" if recheck else "status"
    parser = _parser(action, "Hash every runtime file again and compare it with its pin or "
                     "manifest (exit 1 on a mismatch, or when no Python runtime is present)."
                     if recheck else "Show which runtimes are present and pass their checks.")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    args = parser.parse_args(list(argv))
    rows = status(args.dir or runtime_dir(), recheck=recheck)
    _print_table(rows, args.json)
    if not recheck:
        return EXIT_OK
    python = [row for row in rows if row.name != "quickjs"]
    broken = any(row.state == "invalid" for row in rows)
    return EXIT_FAILED if broken or all(row.state != "ok" for row in python) else EXIT_OK


def _path(argv: Sequence[str]) -> int:
    OneLineParser(prog=f"{PROG} path", description="Print the runtime directory.").parse_args(
        list(argv))
    print(runtime_dir())
    return EXIT_OK


ACTIONS = {
    "install": _install,
    "status": lambda argv: _status(argv, recheck=False),
    "verify": lambda argv: _status(argv, recheck=True),
    "path": _path,
}


def main(argv: Sequence[str]) -> int:
    """`wasm-exec runtime ACTION ...`; a runtime that cannot be obtained propagates to the
    dispatcher (exit 70)."""
    argv = list(argv)
    if not argv or argv[0] not in ACTIONS:
        if argv and argv[0] in ("-h", "--help"):
            print(__doc__.strip())
            return EXIT_OK
        raise UsageError(f"expected one of: {', '.join(ACTIONS)} (e.g. '{PROG} install')")
    return ACTIONS[argv[0]](argv[1:])
