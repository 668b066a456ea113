"""What the reset budget of reused instances buys on data work: model-style data scripts run
one after another on the data runtime, the way an agent sends them, each followed by a
pandas one-liner, with the runtime's reset budget (an eighth of its image) against the
former flat 4 MiB, in the same process (these machines are noisy: compare ratios).

A run that wrote more than the budget frees its instance, and the next run starts in a fresh
one, paying a copy-on-write fault for every page it touches; within the budget, the written
pages are copied back from the image instead (and given back to the image's mapping after a
few small runs in a row). The two budgets run in two sandboxes, item by item in turn. The
scripts are the data corpus's (tests/runtime/data_corpus), each given its inputs; the first
20 warm both sandboxes and are not timed.

    .venv/bin/python benchmarks/instance_reuse.py [--quick] [--rounds N]

Prints a table and writes benchmarks/results/instance_reuse.json.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import time
from pathlib import Path

import sandbox_wasm as sw
from sandbox_wasm._host import program as _program

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
CORPUS = REPO / "tests" / "runtime" / "data_corpus"
INPUTS_LINE = re.compile(r"^# inputs: (.+)$", re.M)
ONE_LINER = "import pandas as pd; print(pd.Series([{i}, 2]).sum())"
WARM = 20


def inputs(source: str) -> dict[str, bytes]:
    match = INPUTS_LINE.search(source)
    names = match.group(1).replace(",", " ").split() if match else []
    return {name: (CORPUS / "inputs" / name).read_bytes() for name in names}


def one_round(boxes: dict[str, sw.Sandbox], scripts: list[str],
              samples: dict[str, dict[str, list[float]]] | None = None) -> None:
    """Each script (then the one-liner) once on every sandbox in turn, timed from the
    caller's side in ms (into `samples` when given)."""
    for index, source in enumerate(scripts):
        files = inputs(source)
        for kind, code in (("script", source), ("one-liner", ONE_LINER.format(i=index))):
            for name, box in boxes.items():
                start = time.perf_counter()
                result = box.execute(code, files=files if kind == "script" else None,
                                     timeout_ms=20_000)
                elapsed = (time.perf_counter() - start) * 1000
                if result.status != "succeeded":
                    raise RuntimeError(f"{kind} {index}: {result.status} {result.error}")
                if samples is not None:
                    samples[name][kind].append(elapsed)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="40 scripts, 2 rounds")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    sources = [path.read_text(encoding="utf-8") for path in sorted(CORPUS.glob("[0-9]*.py"))]
    scripts = sources[WARM:WARM + 40] if args.quick else sources[WARM:]
    rounds = 2 if args.quick else max(1, args.rounds)
    names = ["flat 4 MiB (baseline)", "an eighth of the image"]
    samples: dict[str, dict[str, list[float]]] = {
        name: {"script": [], "one-liner": []} for name in names}
    # A sandbox each: a runtime's instances keep the budget they were made with.
    with sw.Sandbox(runtime="python-data") as flat, sw.Sandbox(runtime="python-data") as box:
        program = flat._program("python")
        program.reset_budget = lambda: _program.MAX_RESET_BYTES  # type: ignore[method-assign]
        boxes = dict(zip(names, (flat, box), strict=True))
        for sandbox in boxes.values():
            sandbox.warm_up()
        one_round(boxes, sources[:WARM])
        for _ in range(rounds):
            one_round(boxes, scripts, samples)
    rows = {
        name: {kind: {"p50_ms": round(statistics.median(values), 2),
                      "mean_ms": round(statistics.fmean(values), 2), "n": len(values)}
               for kind, values in kinds.items()}
        for name, kinds in samples.items()
    }
    base, new = (rows[name] for name in names)
    print(f"| {len(scripts)} data scripts x {rounds} rounds, ms | flat 4 MiB | an eighth "
          "of the image | ratio |")
    print("|---|---|---|---|")
    for kind in ("script", "one-liner"):
        for stat in ("p50_ms", "mean_ms"):
            print(f"| {kind} {stat[:-3]} | {base[kind][stat]:.2f} | {new[kind][stat]:.2f} "
                  f"| {new[kind][stat] / base[kind][stat]:.2f} |")
    report = {"scripts": len(scripts), "rounds": rounds, "cpus": os.cpu_count(),
              "load_average": os.getloadavg(), "budgets": rows}
    out = HERE / "results" / "instance_reuse.json"
    out.write_text(json.dumps(report, indent=2) + "\n")
    print(f"wrote {out.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
