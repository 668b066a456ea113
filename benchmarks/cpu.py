"""CPU-bound Python on our own CPython 3.13 runtime and on native CPython of the same version,
in one run: ratios per case.

    .venv/bin/python benchmarks/cpu.py [--quick] [--native PATH]

Each case runs inside one execution of the library (fuel and epoch interruption on, as in
production) and times itself with `time.perf_counter`, best of several repetitions, so the
figures are the interpreter's speed, not start-up. The native baseline is the build-python of
our runtime's own build (the same 3.13 source; -O3, no PGO/LTO) unless --native names another
interpreter. Prints a table and writes benchmarks/results/cpu.json.
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


def run_sandbox(box: sw.Sandbox, code: str) -> float:
    result = box.execute(code)
    if result.status != "succeeded":
        raise RuntimeError(f"{box.runtime_info.name}: {result.status} {result.error}")
    return float(result.stdout)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    parser.add_argument("--native", type=Path, help="native interpreter to compare with")
    args = parser.parse_args()
    reps = 3 if args.quick else 5
    native = args.native or default_native()
    if native is None:
        print("no native CPython 3.13 found: pass --native PATH", file=sys.stderr)
        return 2
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
