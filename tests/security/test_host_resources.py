"""What a client or a guest can make the host hold or wait for, attacked from outside:
batch pipes that fill both ways, request bodies in flight, async job results, session
reservations, restored limits, sessions of another API key (over HTTP and MCP), multipart
text that is not UTF-8, and the doctor's host-path check run where its guesses would lie.
Each asserts the bound or the refusal, not only that nothing crashed."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from live_server import LiveServer, error_of, wait_for_port

import sandbox_wasm as sw
from sandbox_wasm.server import hash_key
from sandbox_wasm.server.settings import GatewaySettings
from sandbox_wasm.server.state.budget import ByteBudget
from sandbox_wasm.server.state.jobs import InMemoryJobStore, result_bytes

BIG = 200_000
POLICIES = {"balanced": sw.BALANCED_POLICY, "report": sw.REPORT_ONLY_POLICY}


# -- batch pipes ------------------------------------------------------------------------
def _both_pipes_full() -> list[dict[str, Any]]:
    return [
        {"code": f"open('/output/a', 'wb').write(b'x' * {BIG})"},
        {"code": "print(1)", "files": {"f": b"y" * BIG}},
    ]


@pytest.mark.parametrize("policy", list(POLICIES))
def test_a_big_answer_and_a_big_request_do_not_deadlock_a_batch_worker(policy: str) -> None:
    done: list[list[sw.BatchResult]] = []
    thread = threading.Thread(target=lambda: done.append(list(sw.execute_many(
        _both_pipes_full(), workers=1, timeout_ms=1_000, policy=POLICIES[policy]))),
        daemon=True)
    thread.start()
    thread.join(120)
    assert done, "execute_many did not finish: the driver and its worker wait on each other"
    first, second = done[0]
    assert first.status == "succeeded" and len(first.files["a"]) == BIG
    assert second.status == "succeeded" and second.stdout == "1\n"


def test_the_cli_batch_with_both_pipes_full_finishes(tmp_path: Path) -> None:
    lines = [json.dumps({"code": item["code"], "files": {
        name: base64.b64encode(data).decode() for name, data in item.get("files", {}).items()
    }}) for item in _both_pipes_full()]
    source = tmp_path / "in.jsonl"
    source.write_text("\n".join(lines) + "\n")
    completed = subprocess.run(
        [sys.executable, "-m", "sandbox_wasm", "batch", str(source), "--workers", "1",
         "--no-progress"], capture_output=True, text=True, timeout=120)
    assert completed.returncode == 0, completed.stderr
    records = [json.loads(line) for line in completed.stdout.splitlines()]
    assert [r["status"] for r in records] == ["succeeded", "succeeded"]


@pytest.mark.parametrize("request_id", ["NaN", "1e400", "-Infinity"])
def test_the_cli_batch_never_echoes_an_id_that_is_not_strict_json(
    tmp_path: Path, request_id: str
) -> None:
    source = tmp_path / "in.jsonl"
    source.write_text('{"id": ' + request_id + ', "code": "print(1)"}\n')
    completed = subprocess.run(
        [sys.executable, "-m", "sandbox_wasm", "batch", str(source), "--no-progress"],
        capture_output=True, text=True, timeout=120)
    assert completed.returncode == 0, completed.stderr
    (line,) = completed.stdout.splitlines()
    record = json.loads(line, parse_constant=lambda name: pytest.fail(f"{name} in output"))
    assert record["status"] == "invalid_request"
    assert "id" not in record


# -- the gateway's memory ---------------------------------------------------------------
def test_the_body_budget_refuses_what_does_not_fit_before_reading_it() -> None:
    budget = ByteBudget(100)
    first = budget.reserve(60)
    assert first is not None and budget.reserve(50) is None and budget.used == 60
    assert budget.grow(first, 40) and not budget.grow(first, 1) and budget.used == 100
    first.release()
    first.release()  # once only
    assert budget.used == 0


def test_settings_need_room_for_the_largest_body() -> None:
    with pytest.raises(ValueError, match="max_request_memory_mb"):
        GatewaySettings(max_request_memory_mb=64)


def test_concurrent_large_bodies_past_the_budget_get_503_not_memory(
    gateway_sandbox: sw.Sandbox,
) -> None:
    # Budget: 3 x the largest body (~133 MiB with 32 MiB of files) + a little; the third
    # concurrent 40 MiB-ish body cannot fit and is refused before it is read.
    body = json.dumps({"code": "import time\ntime.sleep(1.5)\nprint(1)",
                       "files": {"f": base64.b64encode(b"z" * (30 * 2**20)).decode()}})
    server = LiveServer(GatewaySettings(workers=1, queue=4, rate_limit=0,
                                        max_request_memory_mb=200), gateway_sandbox)
    try:
        answers: list[int] = []

        def post() -> None:
            answers.append(httpx.post(server.url + "/v1/tools/safe-exec", content=body,
                                      headers={"content-type": "application/json"},
                                      timeout=60).status_code)

        threads = [threading.Thread(target=post) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(90)
        assert sorted(answers)[0] == 200 and 503 in answers, answers
        metrics = server.client.get("/metrics").text
        assert "sandbox_request_memory_budget_bytes 2.097152e+08" in metrics
        assert "sandbox_request_memory_bytes 0.0" in metrics  # all given back
    finally:
        server.stop()


def test_a_full_pool_refuses_before_reading_the_body(gateway_sandbox: sw.Sandbox) -> None:
    server = LiveServer(GatewaySettings(workers=1, queue=0, rate_limit=0), gateway_sandbox)
    try:
        slow = threading.Thread(target=lambda: server.client.post(
            "/v1/tools/safe-exec", json={"code": "import time\ntime.sleep(2)"}))
        slow.start()
        server.wait_until(lambda health: True, timeout=0.3)
        deadline = time.monotonic() + 5
        while server.app.state.gateway.pool.busy == 0 and time.monotonic() < deadline:
            time.sleep(0.02)
        # A client announcing a body it never sends: a guard that read bodies before
        # refusing would wait for it; this one answers at once.
        with socket.create_connection(("127.0.0.1", int(server.url.rsplit(":", 1)[1]))) as raw:
            raw.sendall(b"POST /v1/tools/safe-exec HTTP/1.1\r\nHost: x\r\n"
                        b"Content-Type: application/json\r\nContent-Length: 1000000\r\n\r\n")
            raw.settimeout(5)
            head = raw.recv(200)
        assert head.startswith(b"HTTP/1.1 503")
        slow.join(30)
    finally:
        server.stop()


def test_a_chunked_body_over_the_cap_is_413(gateway_sandbox: sw.Sandbox) -> None:
    server = LiveServer(GatewaySettings(rate_limit=0), gateway_sandbox)
    try:
        def chunks() -> Iterator[bytes]:
            yield b'{"memory_mb": 64, "padding": "'
            for _ in range(100):
                yield b"#" * 16_384
            yield b'"}'

        # 1.6 MiB, chunked (no length given), to an endpoint whose bodies are capped at
        # 256 KiB: refused as it arrives.
        response = server.client.post("/v1/sessions", content=chunks(),
                                      headers={"content-type": "application/json"})
        assert response.status_code == 413
        assert error_of(response)["code"] == "payload_too_large"
    finally:
        server.stop()


def test_multipart_code_that_is_not_utf8_is_400(gateway_sandbox: sw.Sandbox) -> None:
    server = LiveServer(GatewaySettings(rate_limit=0), gateway_sandbox)
    try:
        response = server.client.post("/v1/tools/safe-exec",
                                      files={"code": (None, b"\xff\xfeprint('x')")})
        assert response.status_code == 400
        assert "not UTF-8" in error_of(response)["message"]
    finally:
        server.stop()


def test_job_results_are_held_within_their_byte_budget() -> None:
    asyncio.run(_job_results_are_held_within_their_byte_budget())


async def _job_results_are_held_within_their_byte_budget() -> None:
    store = InMemoryJobStore(ttl_seconds=600, max_finished=1_000, max_bytes=10 * 2**20)
    big = sw.execute("open('/output/a', 'wb').write(b'x' * (4 * 2**20))")
    assert big.status == "succeeded"
    for index in range(6):
        await store.create(f"job-{index}")
        await store.finish(f"job-{index}", result=big)
        assert store.bytes_held <= store.max_bytes
    kept = [index for index in range(6) if await store.get(f"job-{index}") is not None]
    assert kept == [4, 5]  # the oldest made room
    huge = big.model_copy(update={"files": {"a": b"x" * (11 * 2**20)}})
    await store.create("huge")
    await store.finish("huge", result=huge)
    job = await store.get("huge")
    assert job is not None and job.error is not None and job.error.type == "ResultTooLarge"
    assert job.result is not None and job.result.files == {}
    assert store.bytes_held <= store.max_bytes and result_bytes(job.result) < 2**20


def test_async_jobs_with_large_output_stay_in_the_job_budget(gateway_sandbox: sw.Sandbox) -> None:
    server = LiveServer(GatewaySettings(rate_limit=0, workers=1, queue=16,
                                        max_job_store_mb=20), gateway_sandbox)
    try:
        code = ("for i in range(4):\n"
                "    open(f'/output/{i}', 'wb').write(b'x' * (2 * 2**20))\n")
        ids = [server.client.post("/v1/tools/safe-exec/async", json={"code": code}
                                  ).json()["job_id"] for _ in range(6)]
        deadline = time.monotonic() + 60
        kept: list[dict[str, Any]] = []
        while time.monotonic() < deadline:
            answers = [server.client.get(f"/v1/jobs/{job_id}") for job_id in ids]
            kept = [a.json() for a in answers if a.status_code == 200]
            assert all(a.status_code in (200, 404) for a in answers)
            if all(job["status"] == "done" for job in kept) and len(kept) <= 2:
                break
            time.sleep(0.2)
        assert len(kept) == 2, kept  # 8 MiB each: the two newest fit in 20 MiB
        assert all(len(job["result"]["files"]) == 4 for job in kept)
        metrics = server.client.get("/metrics").text
        held = next(float(line.split()[1]) for line in metrics.splitlines()
                    if line.startswith("sandbox_job_store_bytes "))
        assert 16 * 2**20 <= held <= 20 * 2**20
    finally:
        server.stop()


def test_a_sessions_reservation_counts_its_files(gateway_sandbox: sw.Sandbox) -> None:
    from sandbox_wasm.server.state.sessions import reservation_bytes

    limits = sw.Limits(memory_mb=64)
    assert reservation_bytes(limits, "close") == 64 * 2**20 + limits.max_input_bytes + \
        limits.max_written_bytes
    assert reservation_bytes(limits, "rollback") == 2 * reservation_bytes(limits, "close")
    server = LiveServer(GatewaySettings(rate_limit=0, session_memory_mb=256), gateway_sandbox)
    try:
        # 128 MiB of memory + 64 MiB of files, twice with rollback: over 256 MiB.
        refused = server.client.post("/v1/sessions", json={"memory_mb": 128})
        assert refused.status_code == 400
        assert "its memory and its files" in error_of(refused)["message"]
        opened = server.client.post("/v1/sessions", json={"memory_mb": 32})
        assert opened.status_code == 201
    finally:
        server.stop()


# -- ownership and restored limits --------------------------------------------------------
def test_a_restored_session_is_held_to_the_receiving_servers_caps(
    gateway_sandbox: sw.Sandbox,
) -> None:
    key = "a-shared-session-key-0123456789"
    lenient = LiveServer(GatewaySettings(rate_limit=0, session_key=key,
                                         max_timeout_ms=8_000), gateway_sandbox)
    try:
        session = lenient.client.post("/v1/sessions", json={"timeout_ms": 8_000}).json()
        snapshot = lenient.client.get(f"/v1/sessions/{session['id']}/snapshot").content
    finally:
        lenient.stop()
    strict = LiveServer(GatewaySettings(rate_limit=0, session_key=key, max_timeout_ms=1_000),
                        gateway_sandbox)
    try:
        refused = strict.client.post("/v1/sessions/restore", content=snapshot,
                                     headers={"content-type": "application/octet-stream"})
        assert refused.status_code == 400
        assert "timeout_ms=8000" in error_of(refused)["message"]
        assert "max_timeout_ms of 1000" in error_of(refused)["message"]
        assert strict.client.get("/healthz").json()["sessions"] == 0
    finally:
        strict.stop()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_mcp_over_http_keeps_each_keys_sessions_its_own() -> None:
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    port = _free_port()
    keys = {"alice": "alice-key-of-some-length", "bob": "bob-key-of-some-length!"}
    process = subprocess.Popen(
        [sys.executable, "-m", "sandbox_wasm", "mcp", "--transport", "streamable-http",
         "--port", str(port)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        env={**os.environ, "SANDBOX_WASM_API_KEY_HASHES": json.dumps(
            [f"{name}:{hash_key(key)}" for name, key in keys.items()])},
    )
    url = f"http://127.0.0.1:{port}/mcp"

    async def as_key(name: str, calls: list[tuple[str, dict[str, Any]]]) -> list[Any]:
        http = create_mcp_http_client(headers={"Authorization": f"Bearer {keys[name]}"})
        answers = []
        async with Client(streamable_http_client(url, http_client=http)) as client:
            for tool, arguments in calls:
                answers.append(await client.call_tool(tool, arguments))
        return answers

    try:
        wait_for_port(port, process)
        (opened, stored) = asyncio.run(as_key("alice", [
            ("open_python_session", {}), ("open_python_session", {})]))
        session_id = opened.structured_content["session_id"]
        asyncio.run(as_key("alice", [("execute_python_sandbox", {
            "python_script": "secret = 'alice-only'", "session_id": session_id})]))
        read, close = asyncio.run(as_key("bob", [
            ("execute_python_sandbox", {"python_script": "print(secret)",
                                        "session_id": session_id}),
            ("close_python_session", {"session_id": session_id})]))
        for answer in (read, close):
            assert answer.is_error is True
            assert f"no session {session_id!r}" in answer.content[0].text
            assert "alice-only" not in str(answer)
        (mine,) = asyncio.run(as_key("alice", [("execute_python_sandbox", {
            "python_script": "print(secret)", "session_id": session_id})]))
        assert mine.structured_content["simulated_stdout"] == "alice-only\n"
        assert stored.structured_content["session_id"] != session_id
    finally:
        process.terminate()
        process.wait(timeout=30)


# -- doctor ---------------------------------------------------------------------------------
def test_doctor_run_from_tmp_raises_no_false_alarm(tmp_path: Path) -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "sandbox_wasm", "doctor", "--json"], cwd="/tmp",
        capture_output=True, text=True, timeout=300)
    checks = {check["name"]: check for check in json.loads(completed.stdout)["checks"]}
    assert checks["no-preopens"]["ok"] is True, checks["no-preopens"]
