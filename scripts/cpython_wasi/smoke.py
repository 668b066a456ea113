"""Smoke test and benchmark of the snapshot built by scripts/cpython_wasi/build.sh.

    /work/main/.venv/bin/python scripts/cpython_wasi/smoke.py [--snapshot PATH] [--old PATH]
        [--native PATH] [--runs N] [--no-bench]

Loads the snapshot with wasmtime-py the way production does (consume_fuel, epoch
interruption with a ticker thread, large fuel and deadline), WASI with no preopens, no env,
no argv, stdin/stdout/stderr as temporary files, and calls `sandbox_resume`. Checks:
  a) print('hi') under @strict:enforce gives the framed audit answer, then b"hi\\n";
  b) every module of STRICT_TABLES["allowed_modules"] (+ ast json traceback re decimal zlib)
     imports;
  c) os.listdir('/') under @strict:report fails or shows nothing of the host;
  d) a CPU benchmark timed inside the guest (time.perf_counter), against native CPython of
     the same version (the build's build-python) and the old runtime
     (runtime/python-snapshot.wasm, vmware 3.12 at -O0);
and measures print('hi') per execution (instantiate + run, new and old alternately) and the
smallest store memory limit at which the new snapshot still runs print('hi').
Exit status 0 when every check passed.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import wasmtime

sys.dont_write_bytecode = True  # no __pycache__ in the repository from this script
HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(HERE))

from sandbox_wasm._guest.bootstrap import ANSWER_LENGTH_BYTES, STRICT_TABLES  # noqa: E402
from sandbox_wasm._host.engine import MAX_WASM_STACK_BYTES  # noqa: E402

FUEL = 10**13
DEADLINE_TICKS = 10**9
MiB = 1024 * 1024

BENCH = r'''
import time, json, re, decimal
def _best(fn, n):
    ts = []
    for _ in range(n):
        t = time.perf_counter(); fn(); ts.append((time.perf_counter() - t) * 1000.0)
    return min(ts)
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)
def b_fib():
    fib(25)
def b_loop():
    s = 0
    for i in range(1_000_000):
        s += i
def b_strdict():
    d = {}
    for i in range(300_000):
        k = "k" + str(i % 5000)
        d[k] = d.get(k, 0) + 1
def b_json():
    data = {"items": [{"id": i, "name": f"item{i}", "tags": ["a", "b", "c"], "v": i * 1.5}
                      for i in range(200)]}
    for _ in range(100):
        data = json.loads(json.dumps(data))
def b_re():
    text = "The quick brown fox jumps over the lazy dog 12345 fox@example.com\n" * 2000
    pat = re.compile(r"\b(\w+)@(\w+)\.com\b|\d+")
    for _ in range(10):
        pat.findall(text)
        re.sub(r"o(\w)", r"0\1", text)
def b_decimal():
    D = decimal.Decimal
    ctx = decimal.getcontext()
    ctx.prec = 50
    x = D(1)
    for i in range(1, 20000):
        x = (x * D(i) + D(3)) / D(i + 1)
RUNS = __RUNS__
out = {}
for name, fn in (("fib(25)", b_fib), ("loop 1M", b_loop), ("str/dict 300k", b_strdict),
                 ("json 100x", b_json), ("re 10x", b_re), ("decimal 20k", b_decimal)):
    out[name] = _best(fn, RUNS)
print("BENCH " + json.dumps(out))
'''


class Runner:
    """One Engine + Module; each run is a fresh Store and instance, like production."""

    def __init__(self, path: Path, *, fuel: bool = True, epoch: bool = True):
        self.path = path
        cfg = wasmtime.Config()
        cfg.consume_fuel = fuel
        cfg.epoch_interruption = epoch
        cfg.max_wasm_stack = MAX_WASM_STACK_BYTES  # what the library gives it
        self.fuel, self.epoch = fuel, epoch
        self.engine = wasmtime.Engine(cfg)
        t0 = time.perf_counter()
        self.module = wasmtime.Module.from_file(self.engine, str(path))
        self.compile_s = time.perf_counter() - t0
        self.linker = wasmtime.Linker(self.engine)
        self.linker.define_wasi()
        self._stop = threading.Event()
        if epoch:
            self._ticker = threading.Thread(target=self._tick, daemon=True)
            self._ticker.start()
        self.tmp = tempfile.TemporaryDirectory(prefix="cpython-wasi-smoke-")

    def _tick(self):
        while not self._stop.wait(0.01):
            self.engine.increment_epoch()

    def close(self):
        self._stop.set()
        self.tmp.cleanup()

    def run(self, request: bytes, *, memory_limit: int | None = None):
        """(exit code or None, stdout, stderr, fuel used, seconds for instantiate + run)."""
        d = Path(self.tmp.name)
        (d / "stdin").write_bytes(request)
        for name in ("stdout", "stderr"):
            (d / name).write_bytes(b"")
        t0 = time.perf_counter()
        store = wasmtime.Store(self.engine)
        code, error = None, None
        try:
            if memory_limit is not None:
                store.set_limits(memory_size=memory_limit)
            if self.fuel:
                store.set_fuel(FUEL)
            if self.epoch:
                store.set_epoch_deadline(DEADLINE_TICKS)
            wasi = wasmtime.WasiConfig()  # no argv, no env, no preopens
            wasi.stdin_file = str(d / "stdin")
            wasi.stdout_file = str(d / "stdout")
            wasi.stderr_file = str(d / "stderr")
            store.set_wasi(wasi)
            try:
                instance = self.linker.instantiate(store, self.module)
                instance.exports(store)["sandbox_resume"](store)
                code = 0
            except wasmtime.ExitTrap as exc:
                code = exc.code
            except (wasmtime.Trap, wasmtime.WasmtimeError) as exc:
                error = str(exc).splitlines()[0]
            elapsed = time.perf_counter() - t0
            used = FUEL - store.get_fuel() if self.fuel else None
        finally:
            store.close()
        return code, (d / "stdout").read_bytes(), (d / "stderr").read_bytes(), used, elapsed, error


def split_answer(stdout: bytes):
    n = int.from_bytes(stdout[:ANSWER_LENGTH_BYTES], "little")
    answer = json.loads(stdout[ANSWER_LENGTH_BYTES : ANSWER_LENGTH_BYTES + n])
    return answer, stdout[ANSWER_LENGTH_BYTES + n :]


def request(source: str, policy: bytes = b"@strict:enforce") -> bytes:
    return b"exec\n" + policy + b"\n" + source.encode()


FAILURES: list[str] = []


def check(cond: bool, what: str, detail: str = "") -> None:
    print(f"  [{'PASS' if cond else 'FAIL'}] {what}" + (f": {detail}" if detail else ""))
    if not cond:
        FAILURES.append(what)


def checks(new: Runner) -> None:
    print("checks (new snapshot):")
    code, out, err, fuel, dt, error = new.run(request("print('hi')"))
    ok = False
    if code == 0 and len(out) >= ANSWER_LENGTH_BYTES:
        answer, rest = split_answer(out)
        ok = answer.get("ran") is True and rest == b"hi\n"
    check(ok, "a) print('hi') -> framed answer + b'hi\\n'",
          f"exit {code}, {len(out)} bytes, fuel {fuel or 0:,}, {dt * 1000:.1f} ms"
          + (f", error {error}" if error else "") + (f", stderr {err[-300:]!r}" if not ok else ""))

    code, out, err, fuel, dt, error = new.run(b"audit\nimport os\nos.system('x')\n")
    ok = code == 0 and len(out) >= ANSWER_LENGTH_BYTES
    facts = split_answer(out)[0].get("facts", []) if ok else []
    check(ok and any(f[0] == "import" and f[1] == "os" for f in facts)
          and split_answer(out)[1] == b"", "a') audit mode answers facts only",
          f"exit {code}, {len(facts)} facts")

    # Randomness at run time comes from the host, not from the snapshot.
    src = "import random, os, uuid\nprint(random.random(), os.urandom(8).hex(), uuid.uuid4())\n"
    seen = set()
    for _ in range(2):
        code, out, err, fuel, dt, error = new.run(request(src, b"@strict:report"))
        seen.add(split_answer(out)[1] if code == 0 else b"")
    check(len(seen) == 2 and b"" not in seen, "random/urandom/uuid4 differ between runs",
          " | ".join(x.decode(errors="replace").strip() for x in seen)[:160])

    modules = [*STRICT_TABLES["allowed_modules"], "ast", "json", "traceback", "re", "decimal",
               "zlib"]
    src = ("import importlib as _i\nbad = []\n"
           f"for m in {modules!r}:\n"
           "    try:\n        _i.import_module(m)\n"
           "    except Exception as e:\n        bad.append(f'{m}: {type(e).__name__}: {e}')\n"
           "print('BAD', bad)\n")
    code, out, err, fuel, dt, error = new.run(request(src, b"@strict:report"))
    rest = split_answer(out)[1] if code == 0 else b""
    check(code == 0 and rest.strip() == b"BAD []",
          f"b) {len(modules)} allowlisted/required modules import",
          rest.decode(errors="replace").strip()[:400] or f"exit {code} {err[-300:]!r}")
    # The allowlist as plain import statements under the enforcing policy (what users write).
    allowed = list(STRICT_TABLES["allowed_modules"])
    src = "\n".join(f"import {m}" for m in allowed) + "\nprint('ok')\n"
    code, out, err, fuel, dt, error = new.run(request(src))
    rest = split_answer(out)[1] if code == 0 else b""
    check(rest == b"ok\n", f"b') {len(allowed)} allowlisted imports run under @strict:enforce",
          f"exit {code}, {dt * 1000:.1f} ms" + ("" if rest == b"ok\n" else f" {err[-300:]!r}"))

    src = "import os\nprint(os.listdir('/'))\n"
    code, out, err, fuel, dt, error = new.run(request(src, b"@strict:report"))
    rest = split_answer(out)[1] if code is not None and len(out) >= 8 else b""
    host = {p for p in os.listdir("/")}
    shown = rest.decode(errors="replace").strip()
    leaked = [p for p in host if f"'{p}'" in shown]
    check(not leaked, "c) os.listdir('/') shows nothing of the host",
          f"exit {code}, stdout {shown[:200]!r}, "
          f"stderr {err.decode(errors='replace').strip().splitlines()[-1:]}")

    src = ("import sys\nprint(sys.version.split()[0], sys.path, len(sys.modules),"
           " [type(f).__name__ for f in sys.meta_path])\n")
    code, out, err, fuel, dt, error = new.run(request(src, b"@strict:report"))
    rest = split_answer(out)[1] if code == 0 else b""
    print(f"  info: {rest.decode(errors='replace').strip()}")
    # A deep recursion must end in RecursionError, not a trap (8 MiB C stack).
    src = ("import sys\nsys.setrecursionlimit(100000)\n"
           "def f(n):\n    return n if n == 0 else 1 + f(n - 1)\n"
           "try:\n    print(f(50000))\n"
           "except RecursionError as e:\n    print('RecursionError', e)\n")
    code, out, err, fuel, dt, error = new.run(request(src, b"@strict:report"))
    rest = split_answer(out)[1] if code is not None and len(out) >= 8 else b""
    print(f"  info: deep Python recursion: exit {code}, "
          f"{rest.decode(errors='replace').strip()[:120]}"
          + (f", trap {error}" if error else ""))
    # C-level recursion (a __getattr__ chain) must raise RecursionError before wasmtime's
    # default 512 KiB native stack is exhausted (that would be a trap).
    src = ("import sys\nsys.setrecursionlimit(10**6)\nclass A:\n    def __getattr__(self, k):\n"
           "        n = int(k[1:])\n"
           "        return 0 if n == 0 else getattr(self, 'a' + str(n - 1))\n"
           "try:\n    print(getattr(A(), 'a100000'))\n"
           "except RecursionError as e:\n    print('RecursionError', e)\n")
    code, out, err, fuel, dt, error = new.run(request(src, b"@strict:report"))
    rest = split_answer(out)[1] if code is not None and len(out) >= 8 else b""
    check(error is None and b"RecursionError" in rest,
          "C-level recursion ends in RecursionError, not a trap",
          f"exit {code}, {rest.decode(errors='replace').strip()[:120]}"
          + (f", trap {error}" if error else ""))
    # Error path: an uncaught exception gives exit 1 and the error record.
    code, out, err, fuel, dt, error = new.run(request("1/0"))
    check(code == 1 and b"ZeroDivisionError" in err, "uncaught exception -> exit 1 + record",
          f"exit {code}")


def bench(new: Runner, old: Runner | None, native: Path | None, runs: int) -> None:
    src = BENCH.replace("__RUNS__", str(runs))
    results = {}
    if native is not None:
        proc = subprocess.run([str(native), "-I", "-S", "-c", src], capture_output=True,
                              timeout=600)
        line = proc.stdout.decode().strip().splitlines()[-1]
        results["native"] = json.loads(line.split(" ", 1)[1])
    for label, runner in (("new", new), ("old", old)):
        if runner is None:
            continue
        code, out, err, _fuel, _dt, error = runner.run(request(src, b"@strict:report"))
        rest = split_answer(out)[1] if code == 0 else b""
        lines = [ln for ln in rest.decode().splitlines() if ln.startswith("BENCH ")]
        if not lines:
            check(False, f"benchmark on {label}", f"exit {code} {error} {err[-400:]!r}")
            continue
        results[label] = json.loads(lines[-1].split(" ", 1)[1])
    how = "with fuel + epoch as in production" if new.fuel else "WITHOUT fuel/epoch (--plain)"
    print(f"\nbenchmark (best of {runs}, ms; wasm {how}):")
    cols = [c for c in ("native", "new", "old") if c in results]
    header = f"  {'benchmark':<16}" + "".join(f"{c:>10}" for c in cols)
    if "native" in results:
        header += "".join(f"{c + '/nat':>10}" for c in cols if c != "native")
    if "new" in results and "old" in results:
        header += f"{'old/new':>10}"
    print(header)
    for name in results[cols[0]]:
        row = f"  {name:<16}" + "".join(f"{results[c][name]:>10.1f}" for c in cols)
        if "native" in results:
            row += "".join(f"{results[c][name] / results['native'][name]:>9.2f}x"
                           for c in cols if c != "native")
        if "new" in results and "old" in results:
            row += f"{results['old'][name] / results['new'][name]:>9.2f}x"
        print(row)
    BENCH_RESULTS.update(results)


BENCH_RESULTS: dict = {}


def per_exec(new: Runner, old: Runner | None, n: int) -> None:
    req = request("print('hi')")
    times = {"new": [], "old": []}
    fuels = {"new": [], "old": []}
    for _ in range(3):  # warm up
        new.run(req)
        if old:
            old.run(req)
    for _ in range(n):
        for label, runner in (("new", new), ("old", old)):
            if runner is None:
                continue
            code, _out, _err, fuel, dt, error = runner.run(req)
            if code != 0:
                check(False, f"print('hi') on {label}", f"exit {code} {error}")
                return
            times[label].append(dt * 1000)
            fuels[label].append(fuel)
    print(f"\nprint('hi') per execution (instantiate + run, {n} alternating runs each):")
    for label in ("new", "old"):
        if times[label]:
            t = times[label]
            fuel = (f", fuel {statistics.median(fuels[label]):,.0f}" if fuels[label][0] is not None
                    else "")
            print(f"  {label}: median {statistics.median(t):.2f} ms, mean {statistics.mean(t):.2f}"
                  f" ms, min {min(t):.2f} ms{fuel}")


def min_memory(new: Runner) -> None:
    req = request("print('hi')")

    def works(mib: int) -> bool:
        code, out, *_ = new.run(req, memory_limit=mib * MiB)
        return code == 0 and out.endswith(b"hi\n")

    lo, hi = 1, 512
    if not works(hi):
        print("  smallest memory limit: does not run even with 512 MiB")
        return
    while lo < hi:
        mid = (lo + hi) // 2
        if works(mid):
            hi = mid
        else:
            lo = mid + 1
    print(f"\nsmallest store memory limit that still runs print('hi'): {lo} MiB")


def default_paths():
    from build import Ctx  # scripts/cpython_wasi/build.py

    ctx = Ctx()
    return ctx.snapshot_dir / "python-snapshot.wasm", ctx.build_python


def main() -> int:
    snap_default, native_default = default_paths()
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--snapshot", type=Path, default=snap_default)
    ap.add_argument("--old", type=Path, default=REPO / "runtime" / "python-snapshot.wasm")
    ap.add_argument("--native", type=Path, default=native_default)
    ap.add_argument("--runs", type=int, default=3, help="benchmark repetitions (best of)")
    ap.add_argument("--per-exec", type=int, default=30)
    ap.add_argument("--no-bench", action="store_true")
    ap.add_argument("--plain", action="store_true",
                    help="engines without fuel and epoch interruption (not the production setup)")
    args = ap.parse_args()
    print(f"new snapshot: {args.snapshot} ({args.snapshot.stat().st_size:,} bytes)")
    instrument = not args.plain
    new = Runner(args.snapshot, fuel=instrument, epoch=instrument)
    mode = " (fuel + epoch)" if instrument else " (plain)"
    print(f"  compiled in {new.compile_s:.1f} s{mode}")
    old = None
    if args.old.is_file():
        old = Runner(args.old, fuel=instrument, epoch=instrument)
        print(f"old snapshot: {args.old} (compiled in {old.compile_s:.1f} s)")
    try:
        checks(new)
        if not args.no_bench:
            bench(new, old, args.native if args.native.is_file() else None, args.runs)
            per_exec(new, old, args.per_exec)
            min_memory(new)
    finally:
        new.close()
        if old:
            old.close()
        del new, old
    print(f"\n{'ALL CHECKS PASSED' if not FAILURES else 'FAILED: ' + ', '.join(FAILURES)}")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
