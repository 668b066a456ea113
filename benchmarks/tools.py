"""The overhead of one host-tool call from the guest (round trip with small JSON): a run
making N calls of a trivial tool (sync through a worker thread, sync inline on the guest's
thread, async) against a run making N calls of the same function defined in the guest,
interleaved in one process (these machines are noisy: compare within a run).

    .venv/bin/python benchmarks/tools.py [--quick]

Prints a table and writes benchmarks/results/tools.json. Target: <= 50 µs per call.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
from pathlib import Path

import sandbox_wasm as sw

HERE = Path(__file__).resolve().parent
CALLS = 200


def ping(value: int, label: str = "x") -> dict[str, object]:
    return {"value": value, "label": label}


async def aping(value: int, label: str = "x") -> dict[str, object]:
    await asyncio.sleep(0)
    return {"value": value, "label": label}


LOCAL = ("def ping(value, label='x'):\n    return {'value': value, 'label': label}\n"
         f"for i in range({CALLS}):\n    ping(i, label='y')\n")
SYNC = f"import tools\nfor i in range({CALLS}):\n    tools.ping(i, label='y')\n"
INLINE = f"import tools\nfor i in range({CALLS}):\n    tools.iping(i, label='y')\n"
ASYNC = f"import tools\nfor i in range({CALLS}):\n    tools.aping(i, label='y')\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run (10 rounds)")
    rounds = 10 if parser.parse_args().quick else 60
    box = sw.Sandbox(python_runtime="cpython313",
                     tools=[ping, aping, sw.tool(ping, name="iping", inline=True)],
                     limits=sw.Limits(max_tool_calls=CALLS))
    cases = {"in-guest function (baseline)": LOCAL, "sync host tool": SYNC,
             "sync host tool, inline": INLINE, "async host tool": ASYNC}
    samples: dict[str, list[float]] = {name: [] for name in cases}
    for code in cases.values():
        assert box.execute(code).ok
    for _ in range(rounds):
        for name, code in cases.items():
            started = time.perf_counter()
            result = box.execute(code)
            samples[name].append((time.perf_counter() - started) * 1000)
            assert result.ok, result.error
    base = statistics.median(samples["in-guest function (baseline)"])
    rows = []
    for name, values in samples.items():
        run_ms = statistics.median(values)
        rows.append({"case": name, "run_p50_ms": round(run_ms, 3),
                     "per_call_overhead_us": round((run_ms - base) * 1000 / CALLS, 1)})
    print(f"| {CALLS} calls per run | run p50 ms | overhead per call (vs baseline) |")
    print("|---|---|---|")
    for row in rows:
        print(f"| {row['case']} | {row['run_p50_ms']} | {row['per_call_overhead_us']} µs |")
    (HERE / "results").mkdir(exist_ok=True)
    (HERE / "results" / "tools.json").write_text(json.dumps(
        {"calls_per_run": CALLS, "rounds": rounds, "rows": rows}, indent=2) + "\n")


if __name__ == "__main__":
    main()
