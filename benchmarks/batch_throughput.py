"""Executions per second of a mixed batch: in-process sequential `execute()`, `execute_many`
on the local backend at 1 and 2 workers, and on a Ray cluster started on this machine.

    .venv/bin/python benchmarks/batch_throughput.py            # 10,000 snippets
    .venv/bin/python benchmarks/batch_throughput.py --n 1000   # quicker

Prints a table (with each run's scaling against one local worker) and writes the numbers to
benchmarks/batch_throughput.json. Every snippet is distinct, so no audit is served from the
cache; wall time includes starting the workers (not starting the Ray cluster).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sandbox_wasm as sw
from sandbox_wasm.batch import connect_ray, shutdown_ray

HERE = Path(__file__).resolve().parent

# One cycle of 20 requests, roughly what grading model-written code meets: mostly small
# computations that succeed, some exceptions and refusals, a syntax error, some JavaScript
# and one infinite loop cut off by a short deadline.
TEMPLATES: list[Callable[[int], dict[str, Any]]] = [
    lambda i: {"code": f"print(sum(k * k for k in range({i % 500 + 10})))"},
    lambda i: {"code": f"import json\nprint(json.dumps({{'i': {i}, 'sq': {i} ** 2}}))"},
    lambda i: {"code": f"words = 'the quick brown fox {i}'.split()\nprint(sorted(words))"},
    lambda i: {"code": f"import math\nprint(round(math.sqrt({i} + 2), 6))"},
    lambda i: {"code": f"xs = [k % 7 for k in range({i % 300})]\nprint(max(xs, default=0))"},
    lambda i: {"code": f"import statistics\nprint(statistics.mean([{i}, 2, 3, 5]))"},
    lambda i: {"code": f"d = {{}}\nfor k in range(50):\n    d[k] = k * {i}\nprint(len(d))"},
    lambda i: {"code": f"s = 'abc{i}' * 10\nprint(s.count('a'), s[::-1][:5])"},
    lambda i: {"code": f"n = {i % 1500 + 500}\n"
               "sieve = [True] * n\nfor p in range(2, int(n ** 0.5) + 1):\n"
               "    if sieve[p]:\n        sieve[p*p::p] = [False] * len(sieve[p*p::p])\n"
               "print(sum(sieve) - 2)"},
    lambda i: {"code": f"def fib(n):\n    return n if n < 2 else fib(n - 1) + fib(n - 2)\n"
               f"print(fib({i % 5 + 12}))"},
    lambda i: {"code": f"raise ValueError('bad input {i}')"},
    lambda i: {"code": f"items = [1, 2, 3]\nprint(items[{i % 10 + 5}])"},
    lambda i: {"code": f"import os\nprint(os.listdir('/'), {i})"},
    lambda i: {"code": f"print(open('/etc/passwd').read(), {i})"},
    lambda i: {"code": f"def broken({i}:\n    pass"},
    lambda i: {"language": "javascript",
               "code": f"console.log(JSON.stringify({{i: {i}, sq: {i} * {i}}}))"},
    lambda i: {"language": "javascript",
               "code": f"const xs = Array.from({{length: {i % 100 + 5}}}, (_, k) => k);\n"
               "console.log(xs.reduce((a, b) => a + b, 0))"},
    lambda i: {"language": "javascript", "code": f"[3, 1, {i}].sort().join(',')"},
    lambda i: {"language": "javascript", "code": f"throw new Error('js failure {i}')"},
    lambda i: {"code": f"i = {i}\nwhile True:\n    i += 1", "limits": {"timeout_ms": 100}},
]


def requests(n: int) -> Iterator[dict[str, Any]]:
    for i in range(n):
        yield TEMPLATES[i % len(TEMPLATES)](i)


Outcome = tuple[float, Counter[str], set[str]]


def run_sequential(n: int) -> Outcome:
    box = sw.Sandbox()
    box.warm_up("python", "javascript")
    counts: Counter[str] = Counter()
    runtimes: set[str] = set()
    start = time.perf_counter()
    for item in requests(n):
        request = sw.ExecutionRequest.model_validate(item)
        result = box.execute(request.code, language=request.language, limits=request.limits)
        counts[result.status] += 1
        runtimes.add(result.runtime.name)
    return time.perf_counter() - start, counts, runtimes


def run_batch(n: int, **options: Any) -> Outcome:
    counts: Counter[str] = Counter()
    runtimes: set[str] = set()
    start = time.perf_counter()
    for result in sw.execute_many(requests(n), **options):
        counts[result.status] += 1
        if isinstance(result, sw.ExecutionResult):
            runtimes.add(result.runtime.name)
    return time.perf_counter() - start, counts, runtimes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10_000, help="snippets per run")
    parser.add_argument("--skip-ray", action="store_true", help="only the local runs")
    parser.add_argument("--skip-sequential", action="store_true",
                        help="no in-process sequential baseline")
    parser.add_argument("--out", type=Path, default=HERE / "batch_throughput.json")
    args = parser.parse_args(argv)

    runs: list[tuple[str, str, int, Callable[[], Outcome]]] = []
    if not args.skip_sequential:
        runs.append(("sequential", "execute() in-process", 1, lambda: run_sequential(args.n)))
    runs.append(("local", "execute_many", 1,
                 lambda: run_batch(args.n, backend="local", workers=1)))
    runs.append(("local", "execute_many", 2,
                 lambda: run_batch(args.n, backend="local", workers=2)))
    if not args.skip_ray:
        runs.append(("ray", "execute_many, local 2-CPU cluster", 2,
                     lambda: run_batch(args.n, backend="ray", workers=2)))

    rows: list[dict[str, Any]] = []
    reference: Counter[str] | None = None
    for backend, how, workers, run in runs:
        if backend == "ray":
            # A single-node cluster on loopback only; its start-up is not timed.
            os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
            connect_ray(None, num_cpus=2, include_dashboard=False, log_to_driver=False)
        print(f"running {backend} ({how}, {workers} worker{'s' if workers > 1 else ''}) "
              f"on {args.n} snippets ...", file=sys.stderr, flush=True)
        seconds, counts, runtimes = run()
        if reference is None:
            reference = counts
        elif counts != reference:
            print(f"warning: {backend} x{workers} statuses differ: {dict(counts)}",
                  file=sys.stderr)
        rows.append({"backend": backend, "how": how, "workers": workers, "n": args.n,
                     "seconds": round(seconds, 3), "executions_per_s": round(args.n / seconds, 1),
                     "statuses": dict(counts), "runtimes": sorted(runtimes)})
    shutdown_ray()

    base = next((r for r in rows if r["backend"] == "local" and r["workers"] == 1), rows[0])
    for row in rows:
        row["scaling_vs_local_1"] = round(row["executions_per_s"] / base["executions_per_s"], 2)

    header = f"{'backend':<11}{'workers':>8}{'n':>8}{'seconds':>10}{'exec/s':>10}{'scaling':>9}"
    print(header)
    print("-" * len(header))
    for row in rows:
        print(f"{row['backend']:<11}{row['workers']:>8}{row['n']:>8}{row['seconds']:>10.2f}"
              f"{row['executions_per_s']:>10.1f}{row['scaling_vs_local_1']:>8.2f}x")
    print(f"statuses per run: {dict(reference or {})}")
    print(f"runtimes: {sorted({name for row in rows for name in row['runtimes']})}")

    report = {
        "benchmark": "batch_throughput",
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": {"cpus": os.cpu_count(), "platform": platform.platform(),
                    "python": platform.python_version()},
        "sandbox_wasm": sw.__version__,
        "rows": rows,
    }
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
