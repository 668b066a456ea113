"""Load check of the HTTP gateway: N concurrent clients on loopback for a fixed time.

Starts `wasm-exec serve` as a subprocess on a free 127.0.0.1 port, warms it up, then lets
`--clients` httpx clients send a mix of requests as fast as answers come back, for
`--duration` seconds, while one more client probes /healthz. The standard mix has
computations, the tool endpoint, a blocked import and a syntax error; the trivial mix is
`print(1)` alone, where the gateway's own cost per request dominates. Prints a table
(requests/s, p50/p99 latency, answers by status code) and writes it as JSON to
benchmarks/results/load_check.json. Fails (exit 1) on any 5xx or transport error, or when
the server's RSS (all its processes) grows by more than `--max-rss-growth-mib` between the
middle and the end of the run (memory that keeps growing under a steady load).

`--processes 1 2` runs the same load against a gateway of one process and then of two
(`wasm-exec serve --processes`), and adds a table comparing them (the ratio of requests/s to
the first); `--min-ratio` makes a ratio under it a failure. Several processes need a Redis:
the check starts a `redis-server` on a free port and gives every run the same flags.

    .venv/bin/python benchmarks/load_check.py --clients 8 --duration 10
    .venv/bin/python benchmarks/load_check.py --mix trivial --processes 1 2 --duration 15
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import os
import platform
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
MAX_DURATION_S = 300
MAX_CLIENTS = 64

SAFE_EXEC = "/v1/tools/safe-exec"
# (name, path, body, expected status). Each client cycles through these from its own offset.
STANDARD = [
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
TRIVIAL = [("trivial", SAFE_EXEC, {"code": "print(1)"}, "succeeded")]
MIXES = {"standard": STANDARD, "trivial": TRIVIAL}
Workload = list[tuple[str, str, dict[str, object], str]]


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


def _children(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(stat.parent.name))
        except (OSError, ValueError):  # exited while we looked
            continue
    return found


def rss_kib(pid: int) -> int:
    """Resident set size of `pid` and its child processes, the worker processes of a
    gateway with several (Linux /proc)."""
    total = 0
    for process in [pid, *_children(pid)]:
        try:
            lines = Path(f"/proc/{process}/status").read_text().splitlines()
        except OSError:
            continue
        total += next((int(line.split()[1]) for line in lines if line.startswith("VmRSS:")), 0)
    return total


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1]


class Connection:
    """One kept-alive HTTP/1.1 connection speaking just enough of the protocol for this
    gateway's answers (Content-Length bodies). Far cheaper per request than httpx: on a
    machine of two cores the load generator shares the cores with the server, and its own
    cost would otherwise cap what the server is seen to do."""

    def __init__(self, port: int, *, keep_alive: bool = True) -> None:
        self.port = port
        self.keep_alive = keep_alive
        self._streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def post(self, path: str, body: dict[str, object]) -> tuple[int, bytes]:
        payload = json.dumps(body).encode()
        request = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
                   f"Content-Type: application/json\r\nContent-Length: {len(payload)}\r\n"
                   f"{'' if self.keep_alive else 'Connection: close' + chr(13) + chr(10)}"
                   "\r\n").encode() + payload
        if self._streams is None:
            self._streams = await asyncio.open_connection("127.0.0.1", self.port)
        reader, writer = self._streams
        try:
            writer.write(request)
            head = await reader.readuntil(b"\r\n\r\n")
            lines = head.decode("latin-1").split("\r\n")
            status = int(lines[0].split()[1])
            headers = dict(line.lower().split(": ", 1) for line in lines[1:] if ": " in line)
            data = await reader.readexactly(int(headers.get("content-length", "0")))
        except (OSError, asyncio.IncompleteReadError, ValueError):
            self.close()
            raise
        if not self.keep_alive or headers.get("connection") == "close":
            self.close()
        return status, data

    def close(self) -> None:
        if self._streams is not None:
            self._streams[1].close()
            self._streams = None


async def client_loop(
    port: int, workload: Workload, offset: int, deadline: float, run: Run, keep_alive: bool
) -> None:
    connection = Connection(port, keep_alive=keep_alive)
    try:
        for index in itertools.count(offset):
            if time.monotonic() >= deadline:
                return
            kind, path, body, _ = workload[index % len(workload)]
            start = time.perf_counter()
            try:
                status, data = await connection.post(path, body)
            except (OSError, asyncio.IncompleteReadError, ValueError):
                run.samples.append(Sample(kind, None, (time.perf_counter() - start) * 1000))
                continue
            latency = (time.perf_counter() - start) * 1000
            outcome = json.loads(data).get("status") if status == 200 else None
            run.samples.append(Sample(kind, status, latency, outcome))
    finally:
        connection.close()


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


async def drive(
    port: int, workload: Workload, clients: int, duration: float, pid: int,
    keep_alive: bool = True,
) -> tuple[Run, int]:
    url = f"http://127.0.0.1:{port}"
    timeout = httpx.Timeout(60.0)
    limits = httpx.Limits(max_connections=clients + 2)
    async with httpx.AsyncClient(base_url=url, timeout=timeout, limits=limits) as client:
        # Warm-up: audit cache, compiled module, imports, on every connection (so on every
        # process of a gateway with several).
        for _, path, body, _ in workload:
            for answer in await asyncio.gather(*(client.post(path, json=body)
                                                 for _ in range(clients))):
                answer.raise_for_status()
        rss_before = rss_kib(pid)
        run = Run()
        deadline = time.monotonic() + duration
        await asyncio.gather(
            health_loop(client, deadline, run, pid),
            *(client_loop(port, workload, i, deadline, run, keep_alive)
              for i in range(clients)),
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


def summarise(run: Run, workload: Workload, duration: float) -> list[dict[str, object]]:
    rows = []
    kinds = [*dict.fromkeys(kind for kind, _, _, _ in workload), "all executions", "healthz"]
    for kind in kinds:
        if kind == "all executions":
            samples = [s for s in run.samples if s.kind != "healthz"]
        else:
            samples = [s for s in run.samples if s.kind == kind]
        latencies = sorted(s.latency_ms for s in samples if s.status_code == 200)
        codes = Counter("transport" if s.status_code is None else str(s.status_code)
                        for s in samples)
        expected = {k: outcome for k, _, _, outcome in workload}
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


@contextlib.contextmanager
def redis_server() -> Iterator[str]:
    """A throwaway `redis-server` on a free loopback port; yields its URL."""
    executable = shutil.which("redis-server")
    if executable is None:
        raise SystemExit("several processes need a Redis: redis-server is not on PATH")
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="load-check-redis-") as directory:
        process = subprocess.Popen(
            [executable, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", directory],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        try:
            deadline = time.monotonic() + 10
            while True:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    if process.poll() is not None or time.monotonic() > deadline:
                        raise SystemExit("redis-server did not start") from None
                    time.sleep(0.05)
            yield f"redis://127.0.0.1:{port}/0"
        finally:
            process.terminate()
            process.wait(timeout=10)


def measure(
    args: argparse.Namespace, workload: Workload, processes: int, queue: int,
    extra: list[str],
) -> dict[str, object]:
    """One gateway of `processes` processes under the load; its report."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "sandbox_wasm", "serve", "--host", "127.0.0.1",
               "--port", str(port), "--queue", str(queue), "--rate-limit", "0",
               "--log-level", "warning", "--processes", str(processes), *extra]
    if args.workers is not None:
        command += ["--workers", str(args.workers)]
    process = subprocess.Popen(command)
    try:
        wait_for_server(url, process)
        workers = httpx.get(f"{url}/healthz").json()["workers"]
        run, before = asyncio.run(
            drive(port, workload, args.clients, args.duration, process.pid,
                  keep_alive=args.connection == "keep-alive"))
        after = rss_kib(process.pid)
    finally:
        process.terminate()
        process.wait(timeout=60)

    rows = summarise(run, workload, args.duration)
    rss_values = [kib for _, kib in run.rss_kib] or [after]
    middle = rss_values[len(rss_values) // 2]
    executions = [s for s in run.samples if s.kind != "healthz"]
    report: dict[str, object] = {
        "processes": processes,
        "server_workers_per_process": workers,
        "rows": rows,
        "server_rss_mib": {
            "before": round(before / 1024, 1), "middle": round(middle / 1024, 1),
            "after": round(after / 1024, 1), "peak": round(max(rss_values) / 1024, 1),
        },
        "server_errors": sum(1 for s in run.samples if (s.status_code or 0) >= 500),
        "transport_errors": sum(1 for s in run.samples if s.status_code is None),
        "unexpected_outcomes": sum(int(r["unexpected_outcomes"])  # type: ignore[call-overload]
                                   for r in rows if r["kind"] != "all executions"),
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

    print(f"\n{processes} process(es) of {workers} workers, a queue of {queue} each\n")
    print_table(rows, report)
    return report


def compare(reports: list[dict[str, object]]) -> list[dict[str, object]]:
    """One row per run: its executions' requests/s, p50/p99, errors, ratio to the first."""
    table = []
    for report in reports:
        total = next(r for r in report["rows"]  # type: ignore[attr-defined]
                     if r["kind"] == "all executions")
        table.append({
            "processes": report["processes"],
            "workers_per_process": report["server_workers_per_process"],
            "requests_per_s": total["requests_per_s"],
            "p50_ms": total["p50_ms"], "p99_ms": total["p99_ms"],
            "errors": int(report["server_errors"]) + int(report["transport_errors"]),  # type: ignore[call-overload]
        })
    base = float(table[0]["requests_per_s"])  # type: ignore[arg-type]
    for row in table:
        row["ratio"] = round(float(row["requests_per_s"]) / base, 2) if base else None  # type: ignore[arg-type]
    return table


def print_comparison(table: list[dict[str, object]]) -> None:
    header = (f"{'processes':>9}{'workers':>9}{'req/s':>9}{'p50 ms':>9}{'p99 ms':>9}"
              f"{'errors':>8}{'ratio':>7}")
    print(header)
    print("-" * len(header))
    for row in table:
        print(f"{row['processes']:>9}{row['workers_per_process']:>9}"
              f"{row['requests_per_s']:>9}{row['p50_ms']:>9}{row['p99_ms']:>9}"
              f"{row['errors']:>8}{row['ratio']:>7}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=8, help="concurrent clients (default 8)")
    parser.add_argument("--duration", type=float, default=10.0,
                        help="seconds per run (default 10)")
    parser.add_argument("--mix", choices=sorted(MIXES), default="standard",
                        help="the requests sent (default standard; trivial: print(1))")
    parser.add_argument("--processes", type=int, nargs="+", default=[1],
                        help="gateway processes; several values: one run each, compared")
    parser.add_argument("--workers", type=int, default=None,
                        help="server workers per process (default: usable CPUs / processes)")
    parser.add_argument("--connection", choices=["keep-alive", "close"], default="keep-alive",
                        help="keep each client's connection (default), or open one per "
                        "request; a kept connection stays with the process that accepted "
                        "it, new ones go to whichever process is free to accept")
    parser.add_argument("--queue", type=int, default=None, help="server queue (= clients)")
    parser.add_argument("--min-ratio", type=float, default=None,
                        help="fail when a run's requests/s is under this times the first's")
    parser.add_argument("--max-rss-growth-mib", type=float, default=32.0,
                        help="allowed RSS growth from the middle to the end (default 32)")
    parser.add_argument("--output", type=Path, default=RESULTS / "load_check.json")
    args = parser.parse_args(argv)
    if not 1 <= args.clients <= MAX_CLIENTS:
        parser.error(f"--clients must be 1..{MAX_CLIENTS}")
    if not 0 < args.duration <= MAX_DURATION_S:
        parser.error(f"--duration must be in (0, {MAX_DURATION_S}]")
    if not all(1 <= n <= 64 for n in args.processes):
        parser.error("--processes must be 1..64")

    workload = MIXES[args.mix]
    # The queue holds every client, so a correct server answers all of them (no 503).
    queue = args.clients if args.queue is None else args.queue
    print(f"load check: the {args.mix} mix, {args.clients} clients ({args.connection}), "
          f"{args.duration:g} s per run")
    with contextlib.ExitStack() as stack:
        extra: list[str] = []
        if max(args.processes) > 1:
            # Every run gets the same flags, so that only the processes differ.
            extra = ["--redis-url", stack.enter_context(redis_server()), "--max-sessions", "0"]
        reports = [measure(args, workload, n, queue, extra) for n in args.processes]
    table = compare(reports)
    failures = [f"{r['processes']} process(es): {f}"
                for r in reports for f in r["failures"]]  # type: ignore[attr-defined]
    if args.min_ratio is not None:
        failures += [f"{row['processes']} processes: {row['ratio']}x the first run's "
                     f"requests/s, under --min-ratio {args.min_ratio:g}"
                     for row in table[1:] if float(row["ratio"] or 0) < args.min_ratio]  # type: ignore[arg-type]
    if len(reports) > 1:
        print(f"\nexecutions ({args.mix} mix), one run per row\n")
        print_comparison(table)
    result = {
        "mix": args.mix,
        "clients": args.clients,
        "connection": args.connection,
        "duration_s": args.duration,
        "server_queue": queue,
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version()},
        "comparison": table,
        "runs": reports,
        "failures": failures,
    }
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(result, indent=2) + "\n")
    print(f"\nwritten to {args.output}")
    for failure in failures:
        print(f"FAIL: {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
