"""`wasm-exec serve --processes N`: several gateway processes (uvicorn workers) on one port.

Nothing is mocked: `wasm-exec serve` runs as a subprocess on a loopback port with a real
`redis-server` (several processes need one), and serves real executions in the sandbox.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from live_redis import RedisServer, free_port

from sandbox_wasm._runtimes.system import usable_cpus
from sandbox_wasm.server import GatewaySettings
from sandbox_wasm.server.ops.auth import hash_key
from sandbox_wasm.server.ops.processes import settings_json

SAFE_EXEC = "/v1/tools/safe-exec"


def children(pid: int) -> set[int]:
    """The live child processes of `pid` (Linux /proc)."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # exited while we looked
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            found.add(int(stat.parent.name))
    return found


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def by_process(url: str, processes: int, per_process: int = 2) -> dict[int, list[httpx.Client]]:
    """Clients of one kept-alive connection each, grouped by the process that accepted it
    (the kernel picks; /healthz says which), until every process has `per_process`."""
    groups: dict[int, list[httpx.Client]] = {}
    spare = []
    for _ in range(200):
        client = httpx.Client(base_url=url, timeout=30, limits=httpx.Limits(max_connections=1))
        pid = client.get("/healthz").json()["pid"]
        if len(groups.setdefault(pid, [])) < per_process:
            groups[pid].append(client)
        else:
            spare.append(client)
        if len(groups) == processes and all(len(g) == per_process for g in groups.values()):
            break
    for client in spare:
        client.close()
    return groups


def on(client: httpx.Client, pid: int) -> httpx.Client:
    """`client`, checked to still be connected to process `pid`."""
    assert client.get("/healthz").json()["pid"] == pid
    return client


def test_two_processes_serve_with_admission_per_process_and_leave_no_process(
    redis_server: RedisServer,
) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    process = subprocess.Popen(
        [sys.executable, "-m", "sandbox_wasm", "serve", "--port", str(port),
         "--processes", "2", "--workers", "1", "--queue", "0", "--max-sessions", "0",
         "--redis-url", redis_server.url, "--rate-limit", "0", "--log-level", "warning"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    groups: dict[int, list[httpx.Client]] = {}
    workers: set[int] = set()
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                httpx.get(f"{url}/healthz", timeout=5)
                break
            except httpx.TransportError:
                assert process.poll() is None, process.stderr.read().decode()  # type: ignore[union-attr]
                assert time.monotonic() < deadline, "the gateway did not start"
                time.sleep(0.1)
        groups = by_process(url, processes=2)
        assert len(groups) == 2, groups
        (first, (a1, a2)), (second, (b1, _)) = groups.items()
        workers = children(process.pid)
        assert {first, second} <= workers
        for pid, client in ((first, a1), (second, b1)):
            answer = on(client, pid).post(SAFE_EXEC, json={"code": "print(1)"})
            assert (answer.status_code, answer.json()["stdout"]) == (200, "1\n")
        # MCP at /mcp: a client initialised on one process is served by the other (each
        # request stands alone there: no transport session to lose).
        initialised = _mcp(on(a1, first), "initialize", {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "test", "version": "0"}})
        assert initialised["result"]["serverInfo"]["name"] == "sandbox-wasm"
        called = _mcp(on(b1, second), "tools/call", {
            "name": "execute_python_sandbox", "arguments": {"python_script": "print(3)"}})
        assert called["result"]["structuredContent"]["simulated_stdout"] == "3\n"

        # One worker and no queue in each process: with the first busy, it refuses at once
        # (503 + Retry-After, and asks for a new connection) while the second still runs
        # code. a2 was connected to the first before it got busy.
        on(a2, first)
        sleeper = _background(on(a1, first), {
            "code": "import time\ntime.sleep(2)\nprint('done')", "limits": {"timeout_ms": 5000}})
        deadline = time.monotonic() + 10
        while True:  # each probe on a new connection: a2 stays unused
            health = httpx.get(f"{url}/healthz", timeout=10).json()
            if (health["pid"], health["busy"]) == (first, 1):
                break
            assert time.monotonic() < deadline
            time.sleep(0.02)
        refused = a2.post(SAFE_EXEC, json={"code": "print(1)"})
        assert refused.status_code == 503
        assert int(refused.headers["retry-after"]) >= 1
        assert refused.headers["connection"] == "close"
        assert refused.json()["error"]["code"] == "overloaded"
        served = on(b1, second).post(SAFE_EXEC, json={"code": "print(2)"})
        assert (served.status_code, served.json()["stdout"]) == (200, "2\n")
        assert served.headers.get("connection") != "close"
        finished = sleeper.result(timeout=30)
        assert (finished.status_code, finished.json()["stdout"]) == (200, "done\n")
    finally:
        for group in groups.values():
            for client in group:
                client.close()
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=60)
    assert process.returncode == 0, process.stderr.read().decode()  # type: ignore[union-attr]
    deadline = time.monotonic() + 10
    while any(alive(pid) for pid in workers):
        assert time.monotonic() < deadline, [pid for pid in workers if alive(pid)]
        time.sleep(0.05)


def _mcp(client: httpx.Client, method: str, params: dict) -> dict:
    """One JSON-RPC request to /mcp; its answer (the transport may send it as an SSE
    event)."""
    response = client.post("/mcp", json={"jsonrpc": "2.0", "id": 1, "method": method,
                                         "params": params},
                           headers={"Accept": "application/json, text/event-stream",
                                    "MCP-Protocol-Version": "2025-06-18"})
    assert response.status_code == 200, response.text
    if response.headers["content-type"].startswith("text/event-stream"):
        data = [line[5:] for line in response.text.splitlines() if line.startswith("data:")]
        return dict(json.loads(data[-1]))
    return dict(response.json())


def _background(client: httpx.Client, body: dict) -> Future[httpx.Response]:
    pool = ThreadPoolExecutor(1)
    future = pool.submit(client.post, SAFE_EXEC, json=body)
    pool.shutdown(wait=False)
    return future


@pytest.mark.parametrize(
    ("argv", "env", "message"),
    [
        pytest.param(["--processes", "2", "--max-sessions", "0"], {}, "needs --redis-url",
                     id="no-redis"),
        pytest.param(["--processes", "2", "--redis-url", "redis://127.0.0.1:1/0"], {},
                     "needs --max-sessions 0", id="sessions-on"),
        pytest.param([], {"SANDBOX_WASM_PROCESSES": "3"}, "--processes 3 needs --redis-url",
                     id="env"),
        pytest.param(["--processes", "0"], {}, "invalid processes", id="out-of-range"),
    ],
)
def test_refused_multi_process_combinations_exit_2(
    argv: list[str], env: dict[str, str], message: str
) -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "sandbox_wasm", "serve", *argv],
        env={**os.environ, **env}, capture_output=True, text=True, timeout=60,
    )
    assert completed.returncode == 2
    assert message in completed.stderr
    assert len(completed.stderr.strip().splitlines()) == 1


def test_workers_rebuild_exactly_the_parents_settings() -> None:
    settings = GatewaySettings(
        processes=2, redis_url="redis://127.0.0.1:6379/0", max_sessions=0, workers=3,
        session_key="k" * 32, api_key_hashes=(f"ci:{hash_key('secret')}:run",),
        tools=("gateway_tools_example:TOOLS",),
    )
    rebuilt = GatewaySettings(**json.loads(settings_json(settings)))
    assert rebuilt == settings
    assert rebuilt.session_key.get_secret_value() == "k" * 32  # type: ignore[union-attr]


def test_processes_share_the_cores_unless_workers_is_given() -> None:
    cores = usable_cpus()
    assert GatewaySettings().workers == cores
    assert GatewaySettings(processes=2).workers == max(1, cores // 2)
    assert GatewaySettings(processes=cores * 2).workers == 1
    assert GatewaySettings(processes=2, workers=3).workers == 3
