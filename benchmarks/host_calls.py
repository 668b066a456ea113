"""What the guest's calls into the host cost: executions that make many WASI calls (writes,
clock reads, writes to a file) against `print('hi')` run in the same process and moment.

    .venv/bin/python benchmarks/host_calls.py [--rounds N]

Prints a table (median ms per execution, the ratio to `print('hi')`, and the extra cost per
host call) and writes benchmarks/results/host_calls.json.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

import sandbox_wasm as sw

HERE = Path(__file__).resolve().parent
BASELINE = ("print('hi')", "print('hi')", 1)
CASES = [
    ("1,000 writes", "for i in range(1000):\n    print(i, flush=True)", 1000),
    ("1,000 clock reads", "import time\nfor i in range(1000):\n    time.time()", 1000),
    # Unbuffered, so each write is one fd_write to the in-memory filesystem (our CPython has
    # no os.writev: CPython leaves it out on WASI).
    ("1,000 file writes", "with open('/tmp/f', 'wb', buffering=0) as f:\n"
                          "    for i in range(1000):\n        f.write(b'x' * 64)", 1000),
]


def median_ms(box: sw.Sandbox, code: str, rounds: int) -> float:
    samples = []
    for _ in range(rounds):
        started = time.perf_counter()
        result = box.execute(code)
        samples.append((time.perf_counter() - started) * 1000)
        assert result.status == "succeeded", result.error
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=60, help="executions per case")
    args = parser.parse_args()
    box = sw.Sandbox(policy=sw.REPORT_ONLY_POLICY)
    box.warm_up()
    for _ in range(10):
        box.execute(BASELINE[1])
    rows = []
    # Interleave the baseline with each case so that drift hits both alike.
    for name, code, calls in CASES:
        base = median_ms(box, BASELINE[1], args.rounds)
        case = median_ms(box, code, args.rounds)
        rows.append({"case": name, "ms": round(case, 3), "baseline_ms": round(base, 3),
                     "ratio": round(case / base, 2),
                     "us_per_call": round((case - base) * 1000 / calls, 2)})
    print(f"{'case':<22}{'median ms':>11}{'print(hi) ms':>14}{'ratio':>8}{'us/call':>9}")
    for row in rows:
        print(f"{row['case']:<22}{row['ms']:>11.3f}{row['baseline_ms']:>14.3f}"
              f"{row['ratio']:>8.2f}{row['us_per_call']:>9.2f}")
    out = HERE / "results" / "host_calls.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps({"rounds": args.rounds, "rows": rows}, indent=2) + "\n")


if __name__ == "__main__":
    main()
