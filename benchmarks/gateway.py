"""What the HTTP gateway adds to a trivial request, against the library call measured in the
same run: `print(1)` through `wasm-exec serve` (one process, on loopback) and through
`Sandbox.execute` in this process, one after the other so that a busy moment of the machine
hits both alike; the gateway's own layers timed apart in this process (request validation,
the hop to a worker thread and back, response serialisation); then requests/s and p50 with 1
and 8 clients (the load generator of `load_check.py`).

    .venv/bin/python benchmarks/gateway.py [--quick]

Prints a table and writes benchmarks/results/gateway.json.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import time
from pathlib import Path

import httpx
from _timing import percentile, summary
from load_check import TRIVIAL, Connection, drive, free_port, wait_for_server

import sandbox_wasm as sw
from sandbox_wasm.server.http.schemas import SafeExecRequest
from sandbox_wasm.server.ops.pool import WorkerPool

HERE = Path(__file__).resolve().parent
BODY = {"code": "print(1)"}


def start_gateway(port: int) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "sandbox_wasm", "serve", "--host", "127.0.0.1",
               "--port", str(port), "--rate-limit", "0", "--log-level", "warning"]
    process = subprocess.Popen(command)
    wait_for_server(f"http://127.0.0.1:{port}", process)
    return process


def overhead(port: int, box: sw.Sandbox, n: int) -> dict[str, dict[str, float]]:
    """p50/p95 of the library call and of the same request through the gateway, alternated."""
    library: list[float] = []
    gateway: list[float] = []

    async def alternate() -> None:
        connection = Connection(port)
        try:
            for index in range(n + 50):
                start = time.perf_counter()
                result = box.execute("print(1)")
                library_ms = (time.perf_counter() - start) * 1000
                start = time.perf_counter()
                status, data = await connection.post("/v1/tools/safe-exec", BODY)
                gateway_ms = (time.perf_counter() - start) * 1000
                if status != 200 or json.loads(data)["stdout"] != "1\n" or result.stdout != "1\n":
                    raise SystemExit(f"unexpected answer: {status} {data[:200]!r}")
                if index >= 50:  # the first ones warm both up
                    library.append(library_ms)
                    gateway.append(gateway_ms)
        finally:
            connection.close()

    asyncio.run(alternate())
    return {"library": summary(library), "gateway": summary(gateway)}


def layers(box: sw.Sandbox, n: int) -> dict[str, float]:
    """Microseconds (p50) of the gateway's own steps, timed in this process."""
    body = json.dumps(BODY).encode()
    result = box.execute("print(1)")
    pool = WorkerPool(2, 8)

    def timed_us(fn) -> float:  # type: ignore[no-untyped-def]
        samples = []
        for _ in range(n):
            start = time.perf_counter()
            fn()
            samples.append((time.perf_counter() - start) * 1e6)
        return round(percentile(samples, 0.5), 1)

    async def hops() -> float:
        samples = []
        for _ in range(n):
            start = time.perf_counter()
            await pool.run(lambda: None)
            samples.append((time.perf_counter() - start) * 1e6)
        return round(percentile(samples, 0.5), 1)

    try:
        return {
            "validate request (JSON -> SafeExecRequest) us": timed_us(
                lambda: SafeExecRequest.model_validate_json(body)),
            "thread hop (event loop -> worker -> event loop) us": asyncio.run(hops()),
            "serialise result (ExecutionResult -> JSON) us": timed_us(result.model_dump_json),
        }
    finally:
        pool.shutdown()


def load(port: int, clients: int, duration: float, pid: int) -> dict[str, float]:
    run, _ = asyncio.run(drive(port, TRIVIAL, clients, duration, pid))
    latencies = [s.latency_ms for s in run.samples
                 if s.kind == "trivial" and s.status_code == 200 and s.outcome == "succeeded"]
    failures = sum(1 for s in run.samples if s.kind == "trivial" and s.status_code != 200)
    if failures or not latencies:
        raise SystemExit(f"{failures} requests failed under {clients} clients")
    return {"requests_per_s": round(len(latencies) / duration, 1),
            "p50_ms": round(percentile(latencies, 0.5), 3),
            "p99_ms": round(percentile(latencies, 0.99), 3)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer samples")
    args = parser.parse_args()
    n, duration = (200, 3.0) if args.quick else (1000, 10.0)
    port = free_port()
    process = start_gateway(port)
    try:
        with sw.Sandbox() as box:
            box.warm_up()
            timing = overhead(port, box, n)
            steps = layers(box, n)
        loads = {f"{clients} client{'s' * (clients > 1)}": load(port, clients, duration,
                                                                process.pid)
                 for clients in (1, 8)}
        workers = httpx.get(f"http://127.0.0.1:{port}/healthz").json()["workers"]
    finally:
        process.terminate()
        process.wait(timeout=60)
    added = round(timing["gateway"]["p50_ms"] - timing["library"]["p50_ms"], 3)
    report = {"print(1) p50/p95 ms": timing, "gateway adds (p50) ms": added,
              "gateway layers": steps, f"load (1 process, {workers} workers)": loads}
    print(f"{'':34} {'p50 ms':>8} {'p95 ms':>8}")
    for name, row in timing.items():
        print(f"{name:34} {row['p50_ms']:>8} {row['p95_ms']:>8}")
    print(f"{'the gateway adds (p50)':34} {added:>8}")
    for name, value in steps.items():
        print(f"  {name}: {value}")
    for name, row in loads.items():
        print(f"{name:10} {row['requests_per_s']:>8} req/s  p50 {row['p50_ms']} ms  "
              f"p99 {row['p99_ms']} ms")
    out = HERE / "results" / "gateway.json"
    out.write_text(json.dumps(report, indent=2) + "\n")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
