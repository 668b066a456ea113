"""The figures of the performance issue in one run, each beside its baseline measured in the
same run (these 2-core machines are noisy: compare within a run, never across runs):

- a fresh one-shot `print('hi')` (audit included), p50, and its parts as the result
  reports them; the same source again (a repeated source is judged from the audit cache);
- a session's `x += 1` back to back and 5 ms apart, rollback and close modes;
- a new process to its first result (`import sandbox_wasm`, runtime load, one run), and
  `import sandbox_wasm` alone, against `python -c pass`;
- CPU-bound fib / loop / str-dict against native CPython 3.13 (benchmarks/cpu.py's cases,
  fuel metered as in production);
- throughput of distinct `print('hi', i)` runs through `execute_many` on every core;
- a host tool round trip.

    .venv/bin/python benchmarks/fast_paths.py [--quick]

Prints a table and writes benchmarks/results/fast_paths.json.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from _timing import milliseconds, summary
from cpu import CASES, TIMER, default_native, run_native, run_sandbox

import sandbox_wasm as sw

HERE = Path(__file__).resolve().parent
REPO = HERE.parent


def fresh_runs(n: int) -> dict[str, object]:
    """A fresh `print('hi')` of distinct sources (no audit cache hit) and of one repeated
    source, interleaved."""
    box = sw.Sandbox()
    box.execute("print('warm')")
    distinct, repeated, audit_ms = [], [], []
    for i in range(n):
        source = f"print('hi', {i})"
        distinct.append(milliseconds(lambda source=source: box.execute(source)))
        result = box.execute("print('hi')")
        repeated.append(milliseconds(lambda: box.execute("print('hi')")))
        audit_ms.append(result.metrics.audit_time_ms or 0.0)
    box.close()
    return {"distinct sources": summary(distinct), "one repeated source": summary(repeated),
            "audit_time_ms p50 (guest, repeated)": round(statistics.median(audit_ms), 3)}


def session_calls(n: int) -> dict[str, dict[str, float]]:
    rows: dict[str, dict[str, float]] = {}
    for mode in ("rollback", "close"):
        with sw.Session(on_trap=mode) as session:  # type: ignore[arg-type]
            session.execute("x = 0")
            rows[f"{mode}, back to back"] = summary(
                [milliseconds(lambda: session.execute("x += 1")) for _ in range(n)])
            apart = []
            for _ in range(n // 2):
                time.sleep(0.005)
                apart.append(milliseconds(lambda: session.execute("x += 1")))
            rows[f"{mode}, 5 ms apart"] = summary(apart)
    return rows


FIRST_RESULT = ("import sandbox_wasm as sw; r = sw.execute(\"print('hi')\"); "
                "assert r.stdout == 'hi\\n', r")


def process_start(n: int) -> dict[str, dict[str, float]]:
    """Wall time of new processes, interleaved: `pass`, `import sandbox_wasm`, and
    `import` + a first result (the runtime's compiled code cached on disk by then)."""
    cases = {"python -c pass": "pass", "import sandbox_wasm": "import sandbox_wasm",
             "first result": FIRST_RESULT}
    # As installed: bytecode cached (a PYTHONDONTWRITEBYTECODE environment would compile
    # the package on every start), and the runtime's compiled code cached on disk.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run([sys.executable, "-c", FIRST_RESULT], check=True, env=env)
    samples: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(n):
        for name, code in cases.items():
            samples[name].append(milliseconds(lambda code=code: subprocess.run(
                [sys.executable, "-c", code], check=True, env=env)))
    return {name: summary(values) for name, values in samples.items()}


def cpu_ratios(reps: int) -> dict[str, dict[str, float]]:
    native = default_native()
    if native is None:
        return {}
    box = sw.Sandbox(policy="report", limits=sw.Limits(timeout_ms=30_000, memory_mb=256))
    rows = {}
    for name in ("recursion fib(25)", "loop 1M", "str/dict 300k"):
        code = CASES[name] + TIMER.format(reps=reps)
        row = {"native_ms": run_native(native, code), "ours_ms": run_sandbox(box, code)}
        row["ours/native"] = round(row["ours_ms"] / row["native_ms"], 2)
        rows[name] = row
    box.close()
    return rows


def throughput(n: int) -> dict[str, float]:
    from sandbox_wasm import execute_many

    requests = [{"code": f"print('hi', {i})"} for i in range(n)]
    execute_many(requests[:50])  # warm
    started = time.perf_counter()
    results = list(execute_many(requests))
    elapsed = time.perf_counter() - started
    assert all(r.status == "succeeded" for r in results)  # type: ignore[union-attr]
    return {"runs": n, "per_second": round(n / elapsed, 1)}


def tool_round_trip(n: int) -> dict[str, float]:
    def ping(value: int) -> int:
        return value

    box = sw.Sandbox(tools=[ping], limits=sw.Limits(max_tool_calls=10_000))
    code = ("import time, tools\nt = time.perf_counter()\n"
            f"for i in range({n}):\n    tools.ping(i)\n"
            f"print((time.perf_counter() - t) / {n} * 1e6)")
    result = box.execute(code)
    box.close()
    assert result.status == "succeeded", result.stderr
    return {"calls": n, "us_per_call": round(float(result.stdout), 1)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer samples")
    parser.add_argument("--out", type=Path, default=HERE / "results" / "fast_paths.json",
                        help="where the JSON goes")
    args = parser.parse_args()
    scale = 1 if args.quick else 4
    load = os.getloadavg()[0]
    report: dict[str, object] = {
        "cpus": os.cpu_count(), "load_1min_at_start": round(load, 2),
        "fresh print('hi')": fresh_runs(100 * scale),
        "session x += 1": session_calls(100 * scale),
        "new process": process_start(3 * scale),
        "cpu vs native": cpu_ratios(3),
        "execute_many throughput": throughput(500 * scale),
        "tool round trip": tool_round_trip(2500 * scale),
    }
    report["load_1min_at_end"] = round(os.getloadavg()[0], 2)
    print(json.dumps(report, indent=2))
    args.out.parent.mkdir(exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
