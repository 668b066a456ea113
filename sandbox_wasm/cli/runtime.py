"""`wasm-exec runtime install|status|verify|path|pack`: the runtimes of this installation.

    wasm-exec runtime install [--from WHEEL|DIR]  # put the runtimes in place (idempotent)
    wasm-exec runtime status      # which are present and pass their checks
    wasm-exec runtime verify      # hash every file again
    wasm-exec runtime path        # the directory the library loads them from
    wasm-exec runtime pack -o DIR # pack them into reproducible wheels

The directory is $SANDBOX_WASM_RUNTIME_DIR, else the checkout's runtime/ (when run from a
repository checkout), else an installed runtime wheel's (`pip install sandbox-wasm-runtime`),
else the user data directory. `install` takes the runtimes from `--from`, else from an
installed runtime wheel, else builds our CPython from pinned inputs (reused from
~/.cache/sandbox-wasm/cpython-wasi, $SANDBOX_WASM_BUILD_CACHE, afterwards). An admin can
install into a shared directory (`--dir /opt/sandbox-wasm/runtime`) that every user reads
through SANDBOX_WASM_RUNTIME_DIR. `status`, `verify` and `install` exit 1 unless the default
runtimes are all present and valid.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path

from .._runtimes.artifacts import RUNTIME_NAMES, runtime_dir
from .._runtimes.install import RuntimeStatus, install, status, usable
from .._runtimes.wheel import RUNTIME_WHEELS, pack_wheel, wheels_to_pack
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
    parser = _parser("install", "Put the runtimes in place: from --from, else an installed "
                     "runtime wheel, else by building our CPython from pinned inputs.")
    parser.add_argument("--from", dest="source", type=Path, default=None,
                        metavar="WHEEL|DIR",
                        help="take the runtimes from a runtime wheel or another runtime "
                        "directory (no compiler needed)")
    parser.add_argument("--no-build", action="store_true",
                        help="never build our CPython (take it from --from or a wheel only)")
    parser.add_argument("--runtime", dest="extra", action="append", default=[],
                        choices=[name for name in RUNTIME_NAMES if name != "python"],
                        help="also install this runtime (python-data: numpy and pandas; "
                        "building it takes ~40 min more on 2 cores)")
    args = parser.parse_args(list(argv))
    directory = args.dir or runtime_dir()
    install(directory, source=args.source, build=not args.no_build, extra=args.extra,
            log=lambda line: print(f"runtime: {line}"))
    rows = status(directory)
    _print_table(rows, as_json=False)
    return EXIT_OK if usable(rows) else EXIT_FAILED


def _status(argv: Sequence[str], *, recheck: bool) -> int:
    action = "verify" if recheck else "status"
    parser = _parser(action, "Hash every runtime file again and compare it with its pin or "
                     "manifest (exit 1 unless the default runtimes are present and valid)."
                     if recheck else "Show which runtimes are present and pass their checks "
                     "(exit 1 unless the default runtimes are present and valid).")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    args = parser.parse_args(list(argv))
    rows = status(args.dir or runtime_dir(), recheck=recheck)
    _print_table(rows, args.json)
    return EXIT_OK if usable(rows) else EXIT_FAILED


def _path(argv: Sequence[str]) -> int:
    OneLineParser(prog=f"{PROG} path", description="Print the runtime directory.").parse_args(
        list(argv))
    print(runtime_dir())
    return EXIT_OK


def _pack(argv: Sequence[str]) -> int:
    parser = _parser("pack", "Pack the installed runtimes into reproducible, "
                     "platform-independent wheels (py3-none-any), one per runtime wheel.")
    parser.add_argument("-o", "--out", type=Path, required=True, metavar="DIR",
                        help="where to write the wheels")
    parser.add_argument("--wheel", dest="wheels", action="append", default=None,
                        choices=tuple(RUNTIME_WHEELS), metavar="NAME",
                        help=f"which wheel to pack (repeatable; one of "
                        f"{', '.join(RUNTIME_WHEELS)}; default: the first, and the others "
                        "whose runtimes are installed)")
    args = parser.parse_args(list(argv))
    directory = args.dir or runtime_dir()
    for name in args.wheels or wheels_to_pack(directory):
        wheel = pack_wheel(directory, args.out, RUNTIME_WHEELS[name])
        print(f"{wheel} ({wheel.stat().st_size:,} bytes)")
    return EXIT_OK


ACTIONS = {
    "install": _install,
    "status": lambda argv: _status(argv, recheck=False),
    "verify": lambda argv: _status(argv, recheck=True),
    "path": _path,
    "pack": _pack,
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
