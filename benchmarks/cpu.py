"""CPU-bound Python on our own CPython 3.13 runtime and on native CPython of the same version,
in one run: ratios per case.

    .venv/bin/python benchmarks/cpu.py [--quick] [--native PATH]

Each case runs inside one execution of the library (fuel and epoch interruption on, as in
production) and times itself with `time.perf_counter`, best of several repetitions, so the
figures are the interpreter's speed, not start-up. The native baseline is the build-python of
our runtime's own build (the same 3.13 source; -O3, no PGO/LTO) unless --native names another
interpreter. Prints a table and writes benchmarks/results/cpu.json.

    .venv/bin/python benchmarks/cpu.py --engines [--quick] [--rounds N] [--native PATH]

What fuel and epoch interruption cost: the same cases under four wasmtime engines (fuel and
epochs as in production, epochs only, fuel only, neither), each in a process of its own (the
engine is the process's; `engine.use_engine_flags`, for measurement only), the four taken in
turn for N rounds (best of the rounds per case), with native runs in the same rounds. Prints
the table with each one's share of production's time and writes
benchmarks/results/cpu_engines.json.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import sandbox_wasm as sw

HERE = Path(__file__).resolve().parent
REPO = HERE.parent

CASES: dict[str, str] = {
    "recursion fib(25)": (
        "def fib(n):\n    return n if n < 2 else fib(n - 1) + fib(n - 2)\n"
        "def work():\n    fib(25)\n"
    ),
    "loop 1M": (
        "def work():\n    total = 0\n    for i in range(1_000_000):\n        total += i % 7\n"
    ),
    "str/dict 300k": (
        "def work():\n    counts = {}\n    for i in range(300_000):\n"
        "        key = 'k' + str(i % 1000)\n        counts[key] = counts.get(key, 0) + 1\n"
        "    ','.join(sorted(counts))\n"
    ),
    "json 100x": (
        "import json\n"
        "DOC = {'items': [{'id': i, 'name': f'item{i}', 'tags': ['a', 'b'], 'price': i * 1.5}"
        " for i in range(200)]}\n"
        "def work():\n    for _ in range(100):\n        json.loads(json.dumps(DOC))\n"
    ),
    "re 10x": (
        "import re\n"
        "TEXT = ' '.join(f'user{i}@example{i % 7}.com id={i} ok' for i in range(2000))\n"
        "PATTERN = re.compile(r'(\\w+)@(\\w+)\\.com id=(\\d+)')\n"
        "def work():\n    for _ in range(10):\n        PATTERN.findall(TEXT)\n"
        "        re.sub(r'id=(\\d+)', lambda m: m.group(1), TEXT)\n"
    ),
    "decimal 20k": (
        "from decimal import Decimal, getcontext\ngetcontext().prec = 30\n"
        "def work():\n    total = Decimal(0)\n    for i in range(1, 20_000):\n"
        "        total += Decimal(1) / Decimal(i)\n"
    ),
    # A total past 2**31: wasm32's Py_ssize_t is 32 bits (our runtime's sum() keeps 64).
    "sum of squares 1M": "def work():\n    sum(i * i for i in range(1_000_000))\n",
}

TIMER = (
    "\nimport time as _time\n"
    "_best = float('inf')\n"
    "for _ in range({reps}):\n"
    "    _start = _time.perf_counter()\n"
    "    work()\n"
    "    _best = min(_best, _time.perf_counter() - _start)\n"
    "print(round(_best * 1000, 3))\n"
)


def default_native() -> Path | None:
    """The native build-python of our runtime's build (same CPython source)."""
    sys.path.insert(0, str(REPO / "scripts" / "cpython_wasi"))
    try:
        import build  # type: ignore[import-not-found]

        candidate = build.Ctx().build_python
    except Exception:  # the build script is a convenience here, never a requirement
        return None
    finally:
        sys.path.pop(0)
    return candidate if candidate.is_file() else None


def run_native(interpreter: Path, code: str) -> float:
    done = subprocess.run([str(interpreter), "-I", "-S", "-c", code], check=True,
                          capture_output=True, text=True, timeout=300)
    return float(done.stdout)


#: (name, fuel, epochs) of the engines --engines compares; production's first.
ENGINES = [("fuel + epochs", True, True), ("epochs only", False, True),
           ("fuel only", True, False), ("neither", False, False)]


def run_sandbox(box: sw.Sandbox, code: str) -> float:
    result = box.execute(code)
    if result.status != "succeeded":
        raise RuntimeError(f"{box.runtime_info.name}: {result.status} {result.error}")
    return float(result.stdout)


def engine_worker(fuel: bool, epochs: bool, reps: int) -> None:
    """Print {case: ms} of every case, run on an engine with these flags (a new process)."""
    from sandbox_wasm._host import engine

    engine.use_engine_flags(engine.EngineFlags(consume_fuel=fuel, epoch_interruption=epochs))
    box = sw.Sandbox(python_runtime="cpython313", policy="report",
                     limits=sw.Limits(timeout_ms=30_000, memory_mb=256))
    box.warm_up()
    print(json.dumps({name: run_sandbox(box, case + TIMER.format(reps=reps))
                      for name, case in CASES.items()}))


def compare_engines(native: Path, reps: int, rounds: int) -> int:
    best: dict[str, dict[str, float]] = {name: {} for name, _, _ in ENGINES}
    best["native"] = {}
    for _ in range(rounds):
        for name, fuel, epochs in ENGINES:
            done = subprocess.run(
                [sys.executable, __file__, "--engine-worker", f"{int(fuel)}{int(epochs)}",
                 "--reps", str(reps)],
                check=True, capture_output=True, text=True, timeout=1800)
            for case, ms in json.loads(done.stdout).items():
                best[name][case] = min(ms, best[name].get(case, ms))
        for case, code in CASES.items():
            ms = run_native(native, code + TIMER.format(reps=reps))
            best["native"][case] = min(ms, best["native"].get(case, ms))
    production = best[ENGINES[0][0]]
    shares = {
        case: {
            "fuel": round(1 - best["epochs only"][case] / production[case], 3),
            "epochs": round(1 - best["fuel only"][case] / production[case], 3),
            "both": round(1 - best["neither"][case] / production[case], 3),
        }
        for case in CASES
    }
    columns = [name for name, _, _ in ENGINES]
    print(f"| ms, best of {reps} x {rounds} rounds | " + " | ".join(columns)
          + " | native | fuel's share | epochs' share | both | neither / native |")
    print("|" + "---|" * (len(columns) + 6))
    for case in CASES:
        print(f"| {case} | " + " | ".join(f"{best[name][case]:.1f}" for name in columns)
              + f" | {best['native'][case]:.1f} | {shares[case]['fuel']:.0%}"
              f" | {shares[case]['epochs']:.0%} | {shares[case]['both']:.0%}"
              f" | {best['neither'][case] / best['native'][case]:.2f}x |")
    report = {"repetitions": reps, "rounds": rounds, "cpus": os.cpu_count(),
              "load_average": os.getloadavg(), "best_ms": best, "shares": shares}
    out = HERE / "results" / "cpu_engines.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(report, indent=2) + "\n")
    print(f"wrote {out.relative_to(REPO)}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    parser.add_argument("--native", type=Path, help="native interpreter to compare with")
    parser.add_argument("--engines", action="store_true",
                        help="what fuel and epochs cost: four engines compared")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of --engines")
    parser.add_argument("--engine-worker", choices=["11", "01", "10", "00"],
                        help=argparse.SUPPRESS)  # one engine's run, for --engines
    parser.add_argument("--reps", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    reps = args.reps or (3 if args.quick else 5)
    if args.engine_worker:
        engine_worker(args.engine_worker[0] == "1", args.engine_worker[1] == "1", reps)
        return 0
    native = args.native or default_native()
    if native is None:
        print("no native CPython 3.13 found: pass --native PATH", file=sys.stderr)
        return 2
    if args.engines:
        return compare_engines(native, reps, max(1, args.rounds))
    native_version = subprocess.run(
        [str(native), "-c", "import sys; print(sys.version.split()[0])"],
        check=True, capture_output=True, text=True,
    ).stdout.strip()
    limits = sw.Limits(timeout_ms=30_000, memory_mb=256)
    ours = sw.Sandbox(python_runtime="cpython313", policy="report", limits=limits)
    ours.warm_up()

    rows: dict[str, dict[str, float]] = {}
    for name, case in CASES.items():
        code = case + TIMER.format(reps=reps)
        # Interleaved per case, so a busy moment hits both alike.
        row = {
            "native_ms": run_native(native, code),
            "ours_ms": run_sandbox(ours, code),
        }
        row["ours/native"] = round(row["ours_ms"] / row["native_ms"], 2)
        rows[name] = row

    report = {
        "native": {"path": str(native), "version": native_version},
        "ours": sw.Sandbox(python_runtime="cpython313").runtime_info.model_dump(),
        "repetitions": reps,
        "cpus": os.cpu_count(),
        "cases": rows,
    }
    header = (f"| ms, best of {reps} | native {native_version} | ours {ours.runtime_info.version}"
              " | ours/native |")
    print(header)
    print("|" + "---|" * 4)
    for name, row in rows.items():
        print(f"| {name} | {row['native_ms']:.1f} | {row['ours_ms']:.1f}"
              f" | {row['ours/native']:.2f}x |")
    out = HERE / "results" / "cpu.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(report, indent=2) + "\n")
    print(f"wrote {out.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
