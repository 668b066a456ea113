#!/usr/bin/env python3
# ruff: noqa: E501
"""Probe a CPython-for-WASI runtime file with wasmtime-py and print a table.

    python scripts/runtime_probe.py runtime/python-snapshot.wasm [--only NAME,...] [--min-memory]

The kind is detected from the exports: a module exporting `sandbox_resume` is a
pre-initialised snapshot (called with no argv); otherwise `_start` is run with
argv `python -I -S -u -c <sandbox_wasm/_guest/bootstrap.py>`. Both read the request from stdin.
`proc_exit` is shadowed (as the library does): the exit code is recorded and the guest then
traps with UNREACHABLE. Columns: outcome (exit code or trap code), fuel consumed, wall time
of instantiate + run, C stack high-water mark (bytes, from the lowest non-zero byte of the
stack region, which starts at the module's initial memory size), memory pages at the end, and the last line of stderr.
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time
from pathlib import Path

import wasmtime

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from sandbox_wasm._runtimes.artifacts import GUEST_FILE as BOOT  # noqa: E402

PAGE = 65536
PLAIN_STACK_TOP = 524288  # pinned python.wasm: the stock stack is [0, 512 KiB)

FIB = """
import functools
@functools.lru_cache(maxsize=None)
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)
print(fib({n}))
"""

SCENARIOS: dict[str, str] = {
    "hi": "print('hi')",
    "lru_fib_90": FIB.format(n=90),
    "lru_fib_150": FIB.format(n=150),
    "lru_fib_190": FIB.format(n=190),
    "lru_fib_5000": FIB.format(n=5000),
    "lru_fib_5000_limit1e6": "import sys; sys.setrecursionlimit(10**6)\n" + FIB.format(n=5000),
    "py_recursion": "def f(n): return f(n + 1)\nf(0)",
    "py_recursion_limit1e5": "import sys; sys.setrecursionlimit(10**5)\ndef f(n): return 0 if n == 0 else f(n - 1) + 1\nprint(f(90000))",
    "map_recursion": "def f(n): return list(map(f, [n + 1]))\nf(0)",
    "getattr": "class A:\n    def __getattr__(self, name):\n        return self.missing\nA().x",
    "getattr_builtin": "class A:\n    def __getattr__(self, name):\n        return getattr(self, name)\nA().x",
    "str": "class A:\n    def __str__(self):\n        return str(self)\nstr(A())",
    "repr": "class A:\n    def __repr__(self):\n        return repr(self)\nrepr(A())",
    "eq": "class A:\n    def __eq__(self, other):\n        return self == other\nA() == A()",
    "hash": "class A:\n    def __hash__(self):\n        return hash(self)\n{A()}",
    "format": "class A:\n    def __format__(self, spec):\n        return f'{self}'\nf'{A()}'",
    "init_new": "class A:\n    def __init__(self):\n        A()\nA()",
    "deep_repr": "x = []\nfor _ in range(100000):\n    x = [x]\nrepr(x)",
    "deep_dict_repr": "x = {}\nfor _ in range(100000):\n    x = {'a': x}\nrepr(x)",
    "deep_json": "import json\nx = []\nfor _ in range(100000):\n    x = [x]\njson.dumps(x)",
    "deep_json_py": "import json\nx = []\nfor _ in range(100000):\n    x = [x]\njson.dumps(x, indent=1)",
    "deep_json_loads": "import json\njson.loads('[' * 100000 + ']' * 100000)",
    "deep_deepcopy": "import copy\nx = []\nfor _ in range(100000):\n    x = [x]\ncopy.deepcopy(x)",
    "deep_eq": "x = []\ny = []\nfor _ in range(100000):\n    x = [x]\n    y = [y]\nx == y",
    "deep_pickle": "import pickle\nx = []\nfor _ in range(100000):\n    x = [x]\npickle.dumps(x)",
    "deep_compile_unary": "compile('-' * 100000 + '1', 's', 'eval')",
    "deep_compile_binop": "compile('1' + '+1' * 100000, 's', 'eval')",
    "deep_compile_parens": "compile('(' * 199 + '1' + ')' * 199, 's', 'eval')",
    "deep_compile_lists": "compile('[' * 199 + ']' * 199, 's', 'eval')",
    "deep_ast_literal_eval": "import ast\nast.literal_eval('[' * 199 + ']' * 199)",
    "deep_yield_from": "def g(n):\n    yield n\n    yield from g(n + 1)\nfor _ in g(0): pass",
    "nested_map_iter": "it = iter([1])\nfor _ in range(100000):\n    it = map(abs, it)\nprint(next(it))",
    "nested_chain_iter": "import itertools\nit = iter([1])\nfor _ in range(100000):\n    it = itertools.chain(it)\nprint(next(it))",
    "deep_sorted_key": "def k(x):\n    return sorted([x], key=k)\nk(1)",
    "exc_chain": "def f(n):\n    try:\n        raise ValueError(n)\n    except ValueError:\n        f(n + 1)\nf(0)",
    "random_hash": "import random, os\nprint(random.random(), hash('abc'), os.urandom(4).hex())",
    "process_time": "import time\nt = time.process_time()\nsum(range(10**6))\nprint(time.process_time() - t, t, time.monotonic())",
    "atexit": "import atexit\natexit.register(lambda: print('atexit ran'))\nprint('body')",
    "sys_exit_3": "import sys\nsys.exit(3)",
    "memory_hog": "x = bytearray(200 * 1024 * 1024)\nprint(len(x))",
}
AUDIT_SCENARIOS = {
    "audit_simple": "import os\nprint(eval('1'))",
    "audit_deep_unary": "-" * 100000 + "1",
    "audit_deep_binop": "1" + "+1" * 100000,
}


class Runner:
    def __init__(self, path: Path, *, fuel: int, memory_mb: int, max_wasm_stack: int | None):
        cfg = wasmtime.Config()
        cfg.consume_fuel = True
        cfg.epoch_interruption = True
        if max_wasm_stack:
            cfg.max_wasm_stack = max_wasm_stack
        self.engine = wasmtime.Engine(cfg)
        t0 = time.perf_counter()
        self.module = wasmtime.Module.from_file(self.engine, str(path))
        self.compile_s = time.perf_counter() - t0
        names = {e.name for e in self.module.exports}
        self.snapshot = "sandbox_resume" in names
        self.initial_pages = next(
            e.type.limits.min
            for e in self.module.exports
            if isinstance(e.type, wasmtime.MemoryType)
        )
        self.fuel = fuel
        self.memory_mb = memory_mb
        self.boot = BOOT.read_text()
        self.local = threading.local()

    def _proc_exit(self, code: int) -> None:
        self.local.exit_code = code

    def run(self, request: bytes, memory_mb: int | None = None) -> dict:
        self.local.exit_code = None
        fds = []
        store = wasmtime.Store(self.engine)
        try:
            stdin_fd = os.memfd_create("stdin")
            out_fd = os.memfd_create("stdout")
            err_fd = os.memfd_create("stderr")
            fds += [stdin_fd, out_fd, err_fd]
            os.write(stdin_fd, request)
            os.lseek(stdin_fd, 0, 0)
            wasi = wasmtime.WasiConfig()
            wasi.stdin_file = f"/proc/self/fd/{stdin_fd}"
            wasi.stdout_file = f"/proc/self/fd/{out_fd}"
            wasi.stderr_file = f"/proc/self/fd/{err_fd}"
            if not self.snapshot:
                wasi.argv = ["python", "-I", "-S", "-u", "-c", self.boot]
            store.set_wasi(wasi)
            store.set_limits(memory_size=(memory_mb or self.memory_mb) * 1024 * 1024)
            store.set_fuel(self.fuel)
            store.set_epoch_deadline(1 << 40)
            linker = wasmtime.Linker(self.engine)
            linker.define_wasi()
            linker.allow_shadowing = True
            linker.define_func(
                "wasi_snapshot_preview1",
                "proc_exit",
                wasmtime.FuncType([wasmtime.ValType.i32()], []),
                self._proc_exit,
            )
            t0 = time.perf_counter()
            try:
                instance = linker.instantiate(store, self.module)
            except Exception as exc:
                return {
                    "outcome": "instantiate: " + str(exc).splitlines()[0][:60],
                    "fuel": 0,
                    "ms": 0.0,
                    "stack": 0,
                    "pages": 0,
                    "stderr": "",
                    "stdout": "",
                }
            exports = instance.exports(store)
            entry = exports["sandbox_resume" if self.snapshot else "_start"]
            outcome = "returned"
            try:
                entry(store)
            except wasmtime.Trap as trap:
                code = trap.trap_code
                if code == wasmtime.TrapCode.UNREACHABLE and self.local.exit_code is not None:
                    outcome = f"exit {self.local.exit_code}"
                else:
                    outcome = f"trap {code.name if code is not None else trap.message[:40]}"
            except wasmtime.WasmtimeError as exc:
                outcome = "error " + str(exc).splitlines()[0][:50]
            ms = (time.perf_counter() - t0) * 1000
            fuel = self.fuel - store.get_fuel()
            memory = exports["memory"]
            pages = memory.size(store)
            stack = self._stack_high_water(store, memory)
            out = _read_fd(out_fd)
            err = _read_fd(err_fd)
            return {
                "outcome": outcome,
                "fuel": fuel,
                "ms": ms,
                "stack": stack,
                "pages": pages,
                "stdout": out.decode("utf-8", "replace"),
                "stderr": err.decode("utf-8", "replace"),
            }
        finally:
            store.close()
            for fd in fds:
                os.close(fd)

    def _stack_high_water(self, store, memory) -> int:
        size = memory.data_len(store)
        if self._relocated:
            # The region is grown first thing at run time, right above the initial memory.
            lo = self.initial_pages * PAGE
            hi = lo + self.stack_pages * PAGE
        else:
            lo, hi = 0, PLAIN_STACK_TOP
        data = memory.read(store, lo, min(hi, size))
        stripped = len(data) - len(data.lstrip(b"\x00"))
        return (hi - lo) - stripped

    _relocated = False
    stack_pages = 0


def _read_fd(fd: int) -> bytes:
    os.lseek(fd, 0, 0)
    chunks = []
    while True:
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def detect_stack_pages(path: Path) -> int:
    """Read N from the manifest next to the file, else 0 (stock stack)."""
    import json

    manifest = path.parent / "manifest.json"
    if path.name == "python.wasm":
        return 0
    try:
        return int(json.loads(manifest.read_text())["stack_pages"])
    except (OSError, ValueError, KeyError):
        return 128


def min_memory_mb(runner: Runner) -> int:
    lo, hi = 1, 256
    while lo < hi:
        mid = (lo + hi) // 2
        res = runner.run(b"run\nprint('hi')\n", memory_mb=mid)
        if res["outcome"] == "exit 0" and res["stdout"] == "hi\n":
            hi = mid
        else:
            lo = mid + 1
    return lo


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("runtime")
    ap.add_argument("--only", default="", help="comma-separated scenario names")
    ap.add_argument("--fuel", type=int, default=20_000_000_000)
    ap.add_argument("--memory-mb", type=int, default=256)
    ap.add_argument("--max-wasm-stack", type=int, default=None)
    ap.add_argument(
        "--repeat", type=int, default=1, help="runs per scenario (the best time is shown)"
    )
    ap.add_argument(
        "--min-memory", action="store_true", help="search the smallest memory cap for print('hi')"
    )
    ap.add_argument("--stack-pages", type=int, default=None)
    ap.add_argument("-v", "--verbose", action="store_true", help="print stdout/stderr tails")
    args = ap.parse_args()
    path = Path(args.runtime)
    runner = Runner(
        path, fuel=args.fuel, memory_mb=args.memory_mb, max_wasm_stack=args.max_wasm_stack
    )
    pages = args.stack_pages if args.stack_pages is not None else detect_stack_pages(path)
    runner.stack_pages = pages
    runner._relocated = pages > 0
    print(
        f"# {path.name}: {'snapshot' if runner.snapshot else 'command'}, stack pages {pages}, "
        f"compile {runner.compile_s:.1f}s"
    )
    wanted = [n for n in args.only.split(",") if n]
    table = [(n, b"run\n" + s.encode()) for n, s in SCENARIOS.items()]
    table += [(n, b"audit\n" + s.encode()) for n, s in AUDIT_SCENARIOS.items()]
    print(
        f"{'scenario':24} {'outcome':26} {'fuel':>14} {'ms':>8} {'C stack':>9} {'pages':>6}  stderr (last line)"
    )
    for name, request in table:
        if wanted and name not in wanted:
            continue
        best = None
        for _ in range(args.repeat):
            res = runner.run(request)
            if best is None or res["ms"] < best["ms"]:
                best = res
        last = [
            ln for ln in best["stderr"].splitlines() if ln.strip() and not ln.startswith("\x00")
        ]
        print(
            f"{name:24} {best['outcome'][:26]:26} {best['fuel']:>14,} {best['ms']:>8.1f} "
            f"{best['stack']:>9,} {best['pages']:>6}  {(last[-1] if last else '')[:70]}"
        )
        if args.verbose:
            print("    stdout:", best["stdout"][-200:].replace("\n", "\\n"))
    if args.min_memory:
        print(f"# smallest memory cap for print('hi'): {min_memory_mb(runner)} MiB")
    del runner
    return 0


if __name__ == "__main__":
    sys.exit(main())
