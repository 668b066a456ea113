"""The per-run cost of files: 1 MiB in (read by the guest), 1 MiB out (written and
returned), both, against a run without files, interleaved call by call in one process (these
machines are noisy: compare ratios, not absolute times).

    .venv/bin/python benchmarks/files.py [--quick]

Prints a table and writes benchmarks/results/files.json.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

import sandbox_wasm as sw

HERE = Path(__file__).resolve().parent
MIB = 1 << 20
PAYLOAD = bytes(range(256)) * (MIB // 256)
CASES = {
    "no files (baseline)": ("x = 1", None),
    "1 MiB in": ("data = open('/input/in.bin', 'rb').read()\nassert len(data) == 1 << 20",
                 {"in.bin": PAYLOAD}),
    "1 MiB out": ("open('/output/out.bin', 'wb').write(bytes(1 << 20))", None),
    "1 MiB in, 1 MiB out": (
        "open('/output/out.bin', 'wb').write(open('/input/in.bin', 'rb').read())",
        {"in.bin": PAYLOAD}),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run (30 calls per case)")
    runs = 30 if parser.parse_args().quick else 300
    box = sw.Sandbox(python_runtime="cpython313")
    samples: dict[str, list[float]] = {name: [] for name in CASES}
    for name, (code, files) in CASES.items():  # warm up
        result = box.execute(code, files=files)
        assert result.ok, (name, result.error)
    for _ in range(runs):
        for name, (code, files) in CASES.items():
            started = time.perf_counter()
            result = box.execute(code, files=files)
            samples[name].append((time.perf_counter() - started) * 1000)
            assert result.ok
    base = statistics.median(samples["no files (baseline)"])
    rows = []
    for name, values in samples.items():
        p50 = statistics.median(values)
        rows.append({"case": name, "p50_ms": round(p50, 3),
                     "p95_ms": round(sorted(values)[int(0.95 * (len(values) - 1))], 3),
                     "extra_ms": round(p50 - base, 3), "ratio": round(p50 / base, 2)})
    print("| case | p50 ms | p95 ms | extra over baseline | ratio |")
    print("|---|---|---|---|---|")
    for row in rows:
        print(f"| {row['case']} | {row['p50_ms']} | {row['p95_ms']} | "
              f"{row['extra_ms']:+} ms | {row['ratio']}x |")
    (HERE / "results").mkdir(exist_ok=True)
    (HERE / "results" / "files.json").write_text(
        json.dumps({"runs_per_case": runs, "rows": rows}, indent=2) + "\n")


if __name__ == "__main__":
    main()
