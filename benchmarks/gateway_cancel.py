"""Cancelling over the gateways (issue 32): from the cancel request to its answer, for a
job running a busy loop (`POST /v1/jobs/{id}/cancel` on the replica that runs it, and on
another replica sharing a Redis, where the request travels as a flag the holder polls),
for a job waiting in the queue, and for an MCP call at `/mcp` (from the client's cancel to
the answer of its next call on the only worker, which waits for the interrupted run).

    .venv/bin/python benchmarks/gateway_cancel.py [--quick]

Prints a table and writes benchmarks/results/gateway_cancel.json. Needs the server extra;
the Redis row needs `redis-server` on PATH (skipped, and said so, without it).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from _timing import summary

import sandbox_wasm as sw
from sandbox_wasm.server import GatewaySettings

HERE = Path(__file__).resolve().parent
ASYNC = "/v1/tools/safe-exec/async"
BUSY = {"code": "while True:\n    pass", "limits": {"timeout_ms": 20_000}}


def _live(settings: GatewaySettings, sandbox: sw.Sandbox) -> object:
    import sys

    sys.path.insert(0, str(HERE.parent / "tests"))
    from live_server import LiveServer

    return LiveServer(settings, sandbox)


def _wait(predicate: Callable[[], bool]) -> None:
    deadline = time.monotonic() + 30
    while not predicate():
        assert time.monotonic() < deadline
        time.sleep(0.01)


def cancel_running(submit_to: object, cancel_on: object) -> float:
    client = submit_to.client  # type: ignore[attr-defined]
    job_id = client.post(ASYNC, json=BUSY).json()["job_id"]
    _wait(lambda: client.get(f"/v1/jobs/{job_id}").json()["status"] == "running")
    time.sleep(0.1)
    started = time.perf_counter()
    answer = cancel_on.client.post(f"/v1/jobs/{job_id}/cancel")  # type: ignore[attr-defined]
    elapsed = (time.perf_counter() - started) * 1000
    assert answer.status_code == 200 and answer.json()["result"]["status"] == "interrupted"
    return elapsed


def cancel_waiting(server: object) -> float:
    client = server.client  # type: ignore[attr-defined]
    blocker = client.post(ASYNC, json=BUSY).json()["job_id"]
    _wait(lambda: client.get(f"/v1/jobs/{blocker}").json()["status"] == "running")
    waiting = client.post(ASYNC, json={"code": "print(1)"}).json()["job_id"]
    started = time.perf_counter()
    answer = client.post(f"/v1/jobs/{waiting}/cancel")
    elapsed = (time.perf_counter() - started) * 1000
    assert answer.json()["error"]["type"] == "Cancelled"
    client.post(f"/v1/jobs/{blocker}/cancel")
    return elapsed


async def mcp_cancel(url: str) -> float:
    from mcp import Client

    async with Client(f"{url}/mcp") as mcp:
        call = asyncio.ensure_future(mcp.call_tool("execute_python_sandbox", {
            "python_script": "while True:\n    pass", "timeout_profile": "extended_30s"}))
        await asyncio.sleep(0.5)
        started = time.perf_counter()
        call.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await call
        after = await mcp.call_tool("execute_python_sandbox", {"python_script": "pass"})
        assert after.is_error is False
        return (time.perf_counter() - started) * 1000


def _redis(directory: str) -> tuple[subprocess.Popen[bytes], str] | None:
    executable = shutil.which("redis-server")
    if executable is None:
        return None
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen([executable, "--port", str(port), "--bind", "127.0.0.1",
                                "--save", "", "--appendonly", "no", "--dir", directory],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return process, f"redis://127.0.0.1:{port}/0"
        except OSError:
            assert time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.05)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run (3 tries)")
    tries = 3 if parser.parse_args().quick else 10
    logging.getLogger("httpx").setLevel(logging.WARNING)  # the MCP client turns it on
    samples: dict[str, list[float]] = {}
    with sw.Sandbox() as box:
        box.warm_up()
        one = _live(GatewaySettings(workers=1, queue=4), box)
        try:
            samples["HTTP: running job, same process"] = [
                cancel_running(one, one) for _ in range(tries)]
            samples["HTTP: waiting job"] = [cancel_waiting(one) for _ in range(tries)]
            samples["MCP at /mcp: cancel -> next call answered"] = [
                asyncio.run(mcp_cancel(one.url)) for _ in range(tries)]  # type: ignore[attr-defined]
        finally:
            one.stop()  # type: ignore[attr-defined]
        with tempfile.TemporaryDirectory() as directory:
            redis = _redis(directory)
            if redis is None:
                print("redis-server is not on PATH: the Redis row is skipped")
            else:
                process, url = redis
                settings = GatewaySettings(workers=1, queue=4, redis_url=url)
                a, b = _live(settings, box), _live(settings, box)
                try:
                    samples["HTTP: running job, another replica (Redis)"] = [
                        cancel_running(a, b) for _ in range(tries)]
                finally:
                    b.stop()  # type: ignore[attr-defined]
                    a.stop()  # type: ignore[attr-defined]
                    process.terminate()
                    process.wait(timeout=10)
    rows = [{"case": name, **summary(values)} for name, values in samples.items()]
    print(f"| cancel -> answer ({tries} tries) | p50 ms | p95 ms |")
    print("|---|---|---|")
    for row in rows:
        print(f"| {row['case']} | {row['p50_ms']} | {row['p95_ms']} |")
    (HERE / "results").mkdir(exist_ok=True)
    (HERE / "results" / "gateway_cancel.json").write_text(
        json.dumps({"tries": tries, "latency": rows}, indent=2) + "\n")


if __name__ == "__main__":
    main()
