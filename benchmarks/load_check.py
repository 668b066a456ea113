"""Load check of the HTTP gateway: N concurrent clients on loopback for a fixed time.

Starts `wasm-exec serve` as a subprocess on a free 127.0.0.1 port, warms it up, then lets
`--clients` httpx clients send a mix of requests (computations, the tool endpoint, a
blocked import, a syntax error) as fast as answers come back, for `--duration` seconds,
while one more client probes /healthz. Prints a table (requests/s, p50/p99 latency, answers
by status code) and writes it as JSON next to this file. Fails (exit 1) on any 5xx or
transport error, or when the server's RSS grows by more than `--max-rss-growth-mib` between
the middle and the end of the run (memory that keeps growing under a steady load).

    .venv/bin/python benchmarks/load_check.py --clients 8 --duration 10
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import platform
import socket
import statistics
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import httpx

HERE = Path(__file__).resolve().parent
MAX_DURATION_S = 300
MAX_CLIENTS = 64

# (name, path, body, expected status). Each client cycles through these from its own offset.
WORKLOAD = [
    ("compute", "/v1/tools/safe-exec", {
        "code": "import json\nprint(json.dumps(sorted({i * i % 97 for i in range(5000)})[:5]))",
        "limits": {"timeout_ms": 5000},
    }, "succeeded"),
    ("tool", "/v1/tools/execute_python_sandbox", {
        "python_script": "from fractions import Fraction\nprint(sum(Fraction(1, n) for n in "
        "range(1, 40)))",
        "timeout_profile": "fast_1s",
    }, "succeeded"),
    ("compute", "/v1/tools/safe-exec", {
        "code": "s = 0\nfor i in range(200_000):\n    s += i % 7\nprint(s)",
    }, "succeeded"),
    ("blocked", "/v1/tools/safe-exec", {"code": "import socket\nsocket.socket()"}, "blocked"),
    ("syntax_error", "/v1/tools/safe-exec", {"code": "def f(:\n  pass"}, "syntax_error"),
]


@dataclass
class Sample:
    kind: str
    status_code: int | None  # None: transport error
    latency_ms: float
    outcome: str | None = None


@dataclass
class Run:
    samples: list[Sample] = field(default_factory=list)
    rss_kib: list[tuple[float, int]] = field(default_factory=list)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def rss_kib(pid: int) -> int:
    """Resident set size of `pid` (Linux /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for pid {pid}")


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1]


async def client_loop(
    client: httpx.AsyncClient, offset: int, deadline: float, run: Run
) -> None:
    for index in itertools.count(offset):
        if time.monotonic() >= deadline:
            return
        kind, path, body, _ = WORKLOAD[index % len(WORKLOAD)]
        start = time.perf_counter()
        try:
            response = await client.post(path, json=body)
        except httpx.HTTPError:
            run.samples.append(Sample(kind, None, (time.perf_counter() - start) * 1000))
            continue
        latency = (time.perf_counter() - start) * 1000
        outcome = None
        if response.status_code == 200:
            outcome = response.json().get("status")
        run.samples.append(Sample(kind, response.status_code, latency, outcome))


async def health_loop(client: httpx.AsyncClient, deadline: float, run: Run, pid: int) -> None:
    while time.monotonic() < deadline:
        start = time.perf_counter()
        try:
            response = await client.get("/healthz")
            code: int | None = response.status_code
        except httpx.HTTPError:
            code = None
        run.samples.append(Sample("healthz", code, (time.perf_counter() - start) * 1000))
        run.rss_kib.append((time.monotonic(), rss_kib(pid)))
        await asyncio.sleep(0.25)


async def drive(url: str, clients: int, duration: float, pid: int) -> tuple[Run, int]:
    timeout = httpx.Timeout(60.0)
    limits = httpx.Limits(max_connections=clients + 2)
    async with httpx.AsyncClient(base_url=url, timeout=timeout, limits=limits) as client:
        for _, path, body, _ in WORKLOAD:  # warm-up: audit cache, compiled module, imports
            (await client.post(path, json=body)).raise_for_status()
        rss_before = rss_kib(pid)
        run = Run()
        deadline = time.monotonic() + duration
        await asyncio.gather(
            health_loop(client, deadline, run, pid),
            *(client_loop(client, i, deadline, run) for i in range(clients)),
        )
        return run, rss_before


def wait_for_server(url: str, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"server exited with {process.returncode}")
        try:
            if httpx.get(f"{url}/healthz", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            time.sleep(0.1)
    raise SystemExit("server did not start within 60 s")


def summarise(run: Run, duration: float) -> list[dict[str, object]]:
    rows = []
    kinds = ["compute", "tool", "blocked", "syntax_error", "all executions", "healthz"]
    for kind in kinds:
        if kind == "all executions":
            samples = [s for s in run.samples if s.kind != "healthz"]
        else:
            samples = [s for s in run.samples if s.kind == kind]
        latencies = sorted(s.latency_ms for s in samples if s.status_code == 200)
        codes = Counter("transport" if s.status_code is None else str(s.status_code)
                        for s in samples)
        expected = {k: outcome for k, _, _, outcome in WORKLOAD}
        wrong = sum(
            1 for s in samples
            if s.status_code == 200 and s.kind in expected and s.outcome != expected[s.kind]
        )
        rows.append({
            "kind": kind,
            "requests": len(samples),
            "requests_per_s": round(len(samples) / duration, 1),
            "p50_ms": round(percentile(latencies, 50), 1),
            "p99_ms": round(percentile(latencies, 99), 1),
            "codes": dict(sorted(codes.items())),
            "unexpected_outcomes": wrong,
        })
    return rows


def print_table(rows: list[dict[str, object]], report: dict[str, object]) -> None:
    header = f"{'kind':<16}{'requests':>9}{'req/s':>8}{'p50 ms':>9}{'p99 ms':>9}  codes"
    print(header)
    print("-" * (len(header) + 20))
    for row in rows:
        codes = " ".join(f"{k}:{v}" for k, v in row["codes"].items())  # type: ignore[union-attr]
        print(f"{row['kind']:<16}{row['requests']:>9}{row['requests_per_s']:>8}"
              f"{row['p50_ms']:>9}{row['p99_ms']:>9}  {codes}")
    rss = report["server_rss_mib"]
    print(f"\nserver RSS MiB: before {rss['before']}, middle {rss['middle']}, "  # type: ignore[index]
          f"after {rss['after']}, peak {rss['peak']}")
    print(f"5xx: {report['server_errors']}, transport errors: {report['transport_errors']}, "
          f"unexpected outcomes: {report['unexpected_outcomes']}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=8, help="concurrent clients (default 8)")
    parser.add_argument("--duration", type=float, default=10.0, help="seconds (default 10)")
    parser.add_argument("--workers", type=int, default=None, help="server workers (CPUs)")
    parser.add_argument("--queue", type=int, default=None, help="server queue (= clients)")
    parser.add_argument("--max-rss-growth-mib", type=float, default=32.0,
                        help="allowed RSS growth from the middle to the end (default 32)")
    parser.add_argument("--output", type=Path, default=HERE / "load_check.json")
    args = parser.parse_args(argv)
    if not 1 <= args.clients <= MAX_CLIENTS:
        parser.error(f"--clients must be 1..{MAX_CLIENTS}")
    if not 0 < args.duration <= MAX_DURATION_S:
        parser.error(f"--duration must be in (0, {MAX_DURATION_S}]")

    port = free_port()
    url = f"http://127.0.0.1:{port}"
    # The queue holds every client, so a correct server answers all of them (no 503).
    queue = args.clients if args.queue is None else args.queue
    command = [sys.executable, "-m", "sandbox_wasm", "serve", "--host", "127.0.0.1",
               "--port", str(port), "--queue", str(queue), "--rate-limit", "0",
               "--log-level", "warning"]
    if args.workers is not None:
        command += ["--workers", str(args.workers)]
    process = subprocess.Popen(command)
    try:
        wait_for_server(url, process)
        workers = httpx.get(f"{url}/healthz").json()["workers"]
        run, before = asyncio.run(drive(url, args.clients, args.duration, process.pid))
        after = rss_kib(process.pid)
    finally:
        process.terminate()
        process.wait(timeout=60)

    rows = summarise(run, args.duration)
    rss_values = [kib for _, kib in run.rss_kib] or [after]
    middle = rss_values[len(rss_values) // 2]
    executions = [s for s in run.samples if s.kind != "healthz"]
    report: dict[str, object] = {
        "clients": args.clients,
        "duration_s": args.duration,
        "server_workers": workers,
        "server_queue": queue,
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version()},
        "rows": rows,
        "server_rss_mib": {
            "before": round(before / 1024, 1), "middle": round(middle / 1024, 1),
            "after": round(after / 1024, 1), "peak": round(max(rss_values) / 1024, 1),
        },
        "server_errors": sum(1 for s in run.samples if (s.status_code or 0) >= 500),
        "transport_errors": sum(1 for s in run.samples if s.status_code is None),
        "unexpected_outcomes": sum(int(r["unexpected_outcomes"]) for r in rows[:4]),  # type: ignore[call-overload]
        "executions": len(executions),
    }
    growth_mib = (after - middle) / 1024
    failures = []
    if report["server_errors"]:
        failures.append(f"{report['server_errors']} answers were 5xx")
    if report["transport_errors"]:
        failures.append(f"{report['transport_errors']} requests failed in transport")
    if report["unexpected_outcomes"]:
        failures.append(f"{report['unexpected_outcomes']} executions had the wrong status")
    if growth_mib > args.max_rss_growth_mib:
        failures.append(f"RSS grew {growth_mib:.1f} MiB in the second half of the run")
    report["failures"] = failures

    print(f"load check: {args.clients} clients, {args.duration:g} s, server with "
          f"{workers} workers and a queue of {queue}\n")
    print_table(rows, report)
    args.output.write_text(json.dumps(report, indent=2) + "\n")
    print(f"\nwritten to {args.output}")
    for failure in failures:
        print(f"FAIL: {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
