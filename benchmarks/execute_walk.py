"""The walk of one warm `sw.execute("print('hi')")` through the package: how many Python
calls it makes into sandbox_wasm, through how many functions and modules, and how often a
call crosses from one module into another, and from one folder into another (issue 29
measured 238 calls, 81 functions, 12 modules and 82 crossings at cb273ed). Comprehensions are
not counted.

    .venv/bin/python benchmarks/execute_walk.py [--list]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from types import FrameType
from typing import Any

import sandbox_wasm as sw

PACKAGE = "sandbox_wasm"
#: Comprehensions are frames of their own before Python 3.12 (inlined since), and their
#: count follows the data (e.g. the pages a reset copies back), not the code's structure.
COMPREHENSIONS = {"<genexpr>", "<listcomp>", "<dictcomp>", "<setcomp>"}


def walk() -> tuple[list[tuple[str, str]], Counter[tuple[str, str]]]:
    """The (module, function) of every call into the package during one warm run, and the
    module-to-module crossings among them."""
    calls: list[tuple[str, str]] = []
    crossings: Counter[tuple[str, str]] = Counter()

    def profile(frame: FrameType, event: str, _arg: Any) -> None:
        if event != "call":
            return
        module = frame.f_globals.get("__name__", "")
        if not module.startswith(PACKAGE) or frame.f_code.co_name in COMPREHENSIONS:
            return
        calls.append((module, frame.f_code.co_qualname))
        caller = frame.f_back
        caller_module = caller.f_globals.get("__name__", "") if caller else ""
        if caller_module.startswith(PACKAGE) and caller_module != module:
            crossings[(caller_module, module)] += 1

    sw.execute("print('hi')")  # warm: the runtime compiled, an instance idle
    sys.setprofile(profile)
    try:
        sw.execute("print('hi')")
    finally:
        sys.setprofile(None)
    return calls, crossings


def folder(module: str) -> str:
    """`sandbox_wasm.<folder>` for a module of a subpackage, else `sandbox_wasm`."""
    parts = module.split(".")
    return ".".join(parts[:2]) if len(parts) > 2 else PACKAGE


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--list", action="store_true", help="list the crossings")
    args = parser.parse_args()
    calls, crossings = walk()
    between_folders = sum(count for (caller, callee), count in crossings.items()
                          if folder(caller) != folder(callee))
    print(f"calls {len(calls)}, functions {len(set(calls))}, "
          f"modules {len({m for m, _ in calls})}, crossings {sum(crossings.values())} "
          f"({between_folders} between folders)")
    if args.list:
        for (caller, callee), count in crossings.most_common():
            print(f"{count:4}  {caller} -> {callee}")


if __name__ == "__main__":
    main()
