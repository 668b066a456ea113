"""What importing a package costs per run: tabulate (0.9.0 from PyPI, pinned by SHA-256)
baked into an image against the naive way, interleaved run by run in one process (these
machines are noisy: compare ratios, not absolute times).

- image, preloaded: `wasm-exec image build --wheel tabulate...whl`; the image was
  pre-initialised with tabulate imported, so `import tabulate` finds it in sys.modules;
- image, not preloaded (`--no-preload`): its code is in the image, compiled, and runs at the
  run's first import;
- naive: the base runtime, tabulate's sources sent with the request as files (/input) and
  put on sys.path: every run compiles and runs them.

Each run imports tabulate, under the report-only policy (the naive run needs `sys.path`); the
guest times the import itself (perf_counter around `import tabulate`), the host the whole
`execute()`. The images' build time and size are measured too.

    .venv/bin/python benchmarks/packages.py [--quick]

Prints a markdown table and writes benchmarks/results/packages.json. The wheel is
downloaded with pip into ~/.cache/sandbox-wasm/wheels the first time.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

from _timing import percentile

import sandbox_wasm as sw
from sandbox_wasm.image import build_image

HERE = Path(__file__).resolve().parent
WHEEL = "tabulate-0.9.0-py3-none-any.whl"
WHEEL_SHA256 = "024ca478df22e9340661486f85298cff5f6dcdba14f3813e8830015b9ed1948f"
CODE = """\
import sys, time
sys.path.insert(0, "/input")
start = time.perf_counter()
import tabulate
elapsed = time.perf_counter() - start
print(elapsed * 1000, tabulate.__version__)
"""
BASELINE = "image, preloaded"


def pinned_wheel() -> Path:
    target = Path.home() / ".cache" / "sandbox-wasm" / "wheels" / WHEEL
    if not target.is_file():
        target.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, "-m", "pip", "download", "tabulate==0.9.0",
                        "--no-deps", "--only-binary=:all:", "-q", "-d", str(target.parent)],
                       check=True)
    if hashlib.sha256(target.read_bytes()).hexdigest() != WHEEL_SHA256:
        raise SystemExit(f"{target} does not have the pinned SHA-256")
    return target




def _table(header: list[str], rows: list[list[object]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run (10 runs per case)")
    runs = 10 if parser.parse_args().quick else 100
    wheel = pinned_wheel()
    with zipfile.ZipFile(wheel) as archive:
        sources = {n: archive.read(n) for n in archive.namelist() if n.endswith(".py")}
    report: dict[str, object] = {"python": sys.version.split()[0], "cpus": os.cpu_count(),
                                 "wheel": {"file": WHEEL, "sha256": WHEEL_SHA256}}
    with tempfile.TemporaryDirectory() as tmp:
        builds: dict[str, dict[str, object]] = {}
        images = {}
        for name, preload in (("preloaded", None), ("lazy", ())):
            start = time.perf_counter()
            manifest = build_image([wheel], Path(tmp) / f"{name}.wasm", preload=preload)
            builds[name] = {"build_s": round(time.perf_counter() - start, 2),
                            "bytes": manifest.size, "sha256": manifest.sha256}
            images[name] = Path(tmp) / f"{name}.wasm"
        cases = {
            BASELINE: (sw.Sandbox(image=images["preloaded"], policy="report"), None),
            "image, not preloaded": (sw.Sandbox(image=images["lazy"], policy="report"), None),
            "naive: sources as files + sys.path": (
                sw.Sandbox(python_runtime="cpython313", policy="report"), sources),
        }
        # An image without wheels is the base runtime, byte for byte.
        base = build_image([], Path(tmp) / "base.wasm")
        report["base_runtime"] = {"sha256": base.sha256, "bytes": base.size}
        report["images"] = builds
        samples: dict[str, dict[str, list[float]]] = {
            name: {"import_ms": [], "execute_ms": [], "fuel": []} for name in cases}
        for box, files in cases.values():  # load (compile once, then cached) and warm up
            assert box.execute(CODE, files=files).ok
        for _ in range(runs):
            for name, (box, files) in cases.items():
                start = time.perf_counter()
                result = box.execute(CODE, files=files)
                elapsed = (time.perf_counter() - start) * 1000
                assert result.ok, result.stderr
                samples[name]["import_ms"].append(float(result.stdout.split()[0]))
                samples[name]["execute_ms"].append(elapsed)
                samples[name]["fuel"].append(float(result.metrics.fuel_consumed or 0))
        for box, _ in cases.values():
            box.close()

    def median(name: str, key: str) -> float:
        return statistics.median(samples[name][key])

    rows = {}
    for name in cases:
        rows[name] = {
            "import_ms_p50": round(median(name, "import_ms"), 4),
            "import_ms_p90": round(percentile(samples[name]["import_ms"], 0.9), 4),
            "execute_ms_p50": round(median(name, "execute_ms"), 3),
            "execute_ms_p90": round(percentile(samples[name]["execute_ms"], 0.9), 3),
            "fuel_p50": int(median(name, "fuel")),
            "import / image (p50)": round(median(name, "import_ms")
                                          / median(BASELINE, "import_ms"), 1),
            "execute / image (p50)": round(median(name, "execute_ms")
                                           / median(BASELINE, "execute_ms"), 2),
            "runs": runs,
        }
    report["cases"] = rows
    print(_table(
        ["tabulate per run", "import ms p50", "import ms p90", "import / image",
         "execute() ms p50", "execute / image", "fuel p50"],
        [[name, f"{r['import_ms_p50']:.3f}", f"{r['import_ms_p90']:.3f}",
          f"{r['import / image (p50)']:g}x", f"{r['execute_ms_p50']:.2f}",
          f"{r['execute / image (p50)']:.2f}x", f"{r['fuel_p50']:,}"]
         for name, r in rows.items()]))
    print()
    print(_table(["image", "bytes", "build s", "vs base runtime"],
                 [[name, f"{b['bytes']:,}", b["build_s"],
                   f"+{(int(b['bytes']) - base.size) / 2**20:.2f} MiB"]  # type: ignore[call-overload]
                  for name, b in builds.items()]))
    out = HERE / "results" / "packages.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(report, indent=2) + "\n")
    print(f"\nwrote {out.relative_to(HERE.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
