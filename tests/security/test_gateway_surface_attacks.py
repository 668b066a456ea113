"""Attacks on what issue 32 added to the gateway and the CLI: cancelling jobs that are not
one's own (in one process and through Redis), MCP on the gateway's port without a key, with
the wrong key or a forged Host, flooding its transport sessions, the documentation's
assets as a way into the host's files, and stdin as a way to hold host memory or to reach
the request or another run.

Real gateways on loopback (uvicorn in threads), a real redis-server, the SDK's MCP client
and the real sandbox: nothing is mocked."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import time
import uuid
from collections.abc import Iterator

import httpx
import pytest
from live_server import LiveServer, error_of, serve
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

import sandbox_wasm as sw
from sandbox_wasm.server import GatewaySettings
from sandbox_wasm.server.ops.auth import hash_key, owner_tag

KEYS = {"alice": "alice-secret-key-0001", "bob": "bob-secret-key-0002",
        "ops": "ops-secret-key-0003"}
HASHES = (f"alice:{hash_key(KEYS['alice'])}", f"bob:{hash_key(KEYS['bob'])}",
          f"ops:{hash_key(KEYS['ops'])}:metrics")
SAFE_EXEC = "/v1/tools/safe-exec"
SAFE_EXEC_ASYNC = "/v1/tools/safe-exec/async"
INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {},
    "clientInfo": {"name": "attacker", "version": "0"}}}
ACCEPT = {"Accept": "application/json, text/event-stream",
          "Content-Type": "application/json"}


def bearer(name: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {KEYS[name]}"}


@pytest.fixture(scope="module")
def keyed(gateway_sandbox: sw.Sandbox) -> Iterator[LiveServer]:
    yield from serve(gateway_sandbox, workers=2, queue=4, rate_limit=10_000,
                     api_key_hashes=HASHES, mcp_max_clients=3)


def _poll(server: LiveServer, job_id: str, key: str) -> dict:
    deadline = time.monotonic() + 30
    while True:
        job = server.client.get(f"/v1/jobs/{job_id}", headers=bearer(key)).json()
        if job["status"] == "done":
            return dict(job)
        assert time.monotonic() < deadline
        time.sleep(0.03)


# -- cancelling another key's job ---------------------------------------------------------
def test_another_keys_job_cannot_be_cancelled(keyed: LiveServer) -> None:
    accepted = keyed.client.post(SAFE_EXEC_ASYNC, headers=bearer("alice"), json={
        "code": "import time\ntime.sleep(1)\nprint('alice finished')"}).json()
    job_id = accepted["job_id"]
    # By its id, and by the id it has in the store (scoped by alice's tag): unknown to bob,
    # as a job that never was, and without a key at all the request is not even read.
    forged = f"{owner_tag('alice')}-{job_id}"
    for candidate in (job_id, forged, f"../{job_id}", job_id.upper()):
        refused = keyed.client.post(f"/v1/jobs/{candidate}/cancel", headers=bearer("bob"))
        assert refused.status_code == 404, candidate
        assert error_of(refused)["code"] in ("job_not_found", "not_found")
    assert keyed.client.post(f"/v1/jobs/{job_id}/cancel").status_code == 401
    metrics_only = keyed.client.post(f"/v1/jobs/{job_id}/cancel", headers=bearer("ops"))
    assert metrics_only.status_code == 403
    job = _poll(keyed, job_id, "alice")
    assert job["result"]["status"] == "succeeded"
    assert job["result"]["stdout"] == "alice finished\n"


def test_a_cancel_flag_cannot_reach_another_keys_job_through_redis(
    gateway_sandbox: sw.Sandbox, redis_server: object,
) -> None:
    """Two replicas on one Redis: bob's cancel on B of alice's job running on A is a 404
    and leaves no flag; alice's own cancel on B stops it."""
    url = redis_server.url  # type: ignore[attr-defined]
    settings = {"workers": 1, "queue": 4, "rate_limit": 10_000, "redis_url": url,
                "api_key_hashes": HASHES[:2]}
    a = LiveServer(GatewaySettings(**settings), gateway_sandbox)  # type: ignore[arg-type]
    b = LiveServer(GatewaySettings(**settings), gateway_sandbox)  # type: ignore[arg-type]
    try:
        job_id = a.client.post(SAFE_EXEC_ASYNC, headers=bearer("alice"), json={
            "code": "while True:\n    pass", "limits": {"timeout_ms": 10_000}}).json()["job_id"]
        refused = b.client.post(f"/v1/jobs/{job_id}/cancel", headers=bearer("bob"))
        assert refused.status_code == 404
        flags = list(redis_server.client.scan_iter("sandbox-wasm:cancel:*"))  # type: ignore[attr-defined]
        assert flags == []
        stopped = b.client.post(f"/v1/jobs/{job_id}/cancel", headers=bearer("alice"))
        assert stopped.status_code == 200
        assert stopped.json()["result"]["status"] == "interrupted"
    finally:
        b.stop()
        a.stop()


# -- MCP on the gateway's port ---------------------------------------------------------------
@pytest.mark.parametrize("method", ["POST", "GET", "DELETE"])
@pytest.mark.parametrize("headers", [
    pytest.param({}, id="no-key"),
    pytest.param({"Authorization": "Bearer not-a-key"}, id="unknown-key"),
    pytest.param({"Authorization": KEYS["alice"]}, id="no-bearer-scheme"),
    pytest.param({"Authorization": "Basic YWxpY2U6eA=="}, id="basic-auth"),
])
def test_mcp_without_a_valid_key_is_401(
    keyed: LiveServer, method: str, headers: dict[str, str]
) -> None:
    response = httpx.request(method, f"{keyed.url}/mcp", json=INITIALIZE if method == "POST"
                             else None, headers={**ACCEPT, **headers})
    assert response.status_code == 401
    assert response.headers["www-authenticate"].startswith("Bearer")


def test_mcp_with_a_metrics_only_key_is_403(keyed: LiveServer) -> None:
    response = httpx.post(f"{keyed.url}/mcp", json=INITIALIZE,
                          headers={**ACCEPT, **bearer("ops")})
    assert response.status_code == 403


def test_mcp_refuses_a_forged_host_on_a_loopback_gateway(keyed: LiveServer) -> None:
    """DNS rebinding: a page on another origin that resolves to 127.0.0.1 sends its own
    Host and Origin; the transport refuses both before any message is read."""
    host = httpx.post(f"{keyed.url}/mcp", json=INITIALIZE,
                      headers={**ACCEPT, **bearer("alice"), "Host": "evil.example"})
    assert host.status_code == 421
    origin = httpx.post(f"{keyed.url}/mcp", json=INITIALIZE, headers={
        **ACCEPT, **bearer("alice"), "Origin": "http://evil.example"})
    assert origin.status_code == 403


def test_mcp_transport_sessions_are_bounded(keyed: LiveServer) -> None:
    """mcp_max_clients=3: a client opening transport sessions without end gets 503 past
    the cap; the gateway's HTTP API keeps answering."""
    answers = []
    for _ in range(6):
        response = httpx.post(f"{keyed.url}/mcp", json=INITIALIZE,
                              headers={**ACCEPT, **bearer("bob")})
        answers.append(response.status_code)
    assert answers[:3] == [200, 200, 200]
    assert set(answers[3:]) == {503}
    ran = keyed.client.post(SAFE_EXEC, json={"code": "print('still here')"},
                            headers=bearer("bob"))
    assert ran.json()["stdout"] == "still here\n"


async def _bob_over_mcp(url: str, session_id: str) -> tuple[bool, str]:
    """Bob's key runs code in, then closes, `session_id` over MCP: whether both were
    refused, and what the run answered."""
    http = create_mcp_http_client(headers=bearer("bob"))
    async with Client(streamable_http_client(f"{url}/mcp", http_client=http)) as mcp:
        result = await mcp.call_tool("execute_python_sandbox", {
            "python_script": "print(token)", "session_id": session_id})
        closed = await mcp.call_tool("close_python_session", {"session_id": session_id})
        return bool(result.is_error and closed.is_error), str(result.content)


def test_mcp_cannot_reach_another_keys_session(gateway_sandbox: sw.Sandbox) -> None:
    """A session opened over HTTP by alice is unknown to bob over MCP (guessing its id
    does not help)."""
    for live in serve(gateway_sandbox, workers=1, queue=4, rate_limit=10_000,
                      api_key_hashes=HASHES[:2]):
        opened = live.client.post("/v1/sessions", json={}, headers=bearer("alice"))
        session_id = opened.json()["id"]
        live.client.post(f"/v1/sessions/{session_id}/execute", headers=bearer("alice"),
                         json={"code": "token = 'alice-token-77'"})

        refused, text = asyncio.run(_bob_over_mcp(live.url, session_id))
        assert refused and "alice-token-77" not in text
        still = live.client.post(f"/v1/sessions/{session_id}/execute",
                                 headers=bearer("alice"), json={"code": "print(token)"})
        assert still.json()["stdout"] == "alice-token-77\n"


def test_mcp_cannot_go_around_the_gateways_caps(gateway_sandbox: sw.Sandbox) -> None:
    """max_timeout_ms, max_source_bytes and max_input_bytes hold over /mcp as over HTTP,
    for runs and for the sessions MCP opens."""
    for live in serve(gateway_sandbox, workers=1, queue=4, rate_limit=10_000,
                      max_timeout_ms=2_000, max_source_bytes=100, max_input_bytes=10):
        async def probe(url: str) -> tuple[list[str], dict, str]:
            async with Client(f"{url}/mcp") as mcp:
                errors = []
                for arguments in (
                    {"python_script": "print(1)", "timeout_profile": "extended_30s"},
                    {"python_script": "#" + "x" * 200, "timeout_profile": "fast_1s"},
                    {"python_script": "print(1)", "files": {"f.bin": "A" * 40},
                     "timeout_profile": "fast_1s"},
                ):
                    result = await mcp.call_tool("execute_python_sandbox", arguments)
                    assert result.is_error is True, arguments
                    errors.append(str(result.content[0].text))  # type: ignore[union-attr]
                ran = await mcp.call_tool("execute_python_sandbox", {
                    "python_script": "print('ok')", "timeout_profile": "fast_1s"})
                opened = await mcp.call_tool("open_python_session", {})
                assert opened.structured_content is not None
                return errors, dict(ran.structured_content or {}), str(
                    opened.structured_content["session_id"])

        errors, ran, session_id = asyncio.run(probe(live.url))
        assert "max_timeout_ms of 2000" in errors[0]
        assert "100" in errors[1] and "source" in errors[1]
        assert "10 bytes" in errors[2]
        assert ran["simulated_stdout"] == "ok\n"
        limits = live.client.get(f"/v1/sessions/{session_id}").json()["limits"]
        assert (limits["timeout_ms"], limits["max_source_bytes"], limits["max_input_bytes"]) == (
            2_000, 100, 10)


# -- the documentation's assets --------------------------------------------------------------
@pytest.mark.parametrize("path", [
    "/docs/assets/../../../../etc/passwd", "/docs/assets/%2e%2e/%2e%2e/etc/passwd",
    "/docs/assets/..%2f..%2fserver%2fsettings.py", "/docs/assets/", "/docs/assets",
    "/docs/assets/static", "/docs/assets/../core.py",
])
def test_doc_assets_serve_nothing_else(keyed: LiveServer, path: str) -> None:
    # Sent byte for byte (an HTTP client would resolve the dot segments first).
    host, port = keyed.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as conn:
        conn.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\n"
                     "Connection: close\r\n\r\n".encode())
        answer = b""
        while chunk := conn.recv(65536):
            answer += chunk
    status = int(answer.split(b" ", 2)[1])
    assert status in (401, 404), (path, answer[:200])
    assert b"root:" not in answer and b"import " not in answer


def test_doc_assets_need_no_key_and_nothing_else_does(keyed: LiveServer) -> None:
    assert httpx.get(f"{keyed.url}/docs/assets/swagger-ui.css").status_code == 200
    assert httpx.get(f"{keyed.url}/docs/assetsx/v1").status_code in (401, 404)
    assert httpx.post(f"{keyed.url}{SAFE_EXEC}", json={"code": "1"}).status_code == 401


# -- stdin -------------------------------------------------------------------------------------
def test_oversized_stdin_is_refused_before_anything_runs() -> None:
    with pytest.raises(sw.InvalidRequestError) as refused:
        sw.execute("print('ran')", stdin=b"x" * (sw.Limits().max_input_bytes + 1))
    assert refused.value.field == "stdin"


def test_stdin_reaches_neither_the_request_nor_another_run() -> None:
    """The code reads only its stdin: it cannot seek back into the request on the same
    descriptor, and the next run on the same (reused) instance sees none of it."""
    secret = f"stdin-secret-{uuid.uuid4().hex}"
    with sw.Sandbox(policy=sw.REPORT_ONLY_POLICY) as box:
        first = box.execute(
            "import os, sys\n"
            "data = sys.stdin.read()\n"
            "try:\n    os.lseek(0, 0, 0)\n    print('seeked')\nexcept OSError:\n    pass\n"
            "print(repr(data), repr(os.read(0, 1 << 16)))", stdin=secret)
        assert first.stdout == f"'{secret}' b''\n"
        for _ in range(3):
            after = box.execute("import os, sys\nprint(repr(sys.stdin.read()), "
                                "repr(os.read(0, 1 << 16)))")
            assert after.stdout == "'' b''\n"
            assert secret not in after.stdout


def test_a_flood_on_a_stdin_descriptor_yields_at_most_the_cap() -> None:
    """A writer that never stops: the code gets max_input_bytes, then EIO; the host reads
    a bounded slice at a time and holds none of it."""
    import os
    import threading

    read_end, write_end = os.pipe()
    stop = threading.Event()

    def flood() -> None:
        chunk = b"z" * 65536
        with contextlib.suppress(OSError):
            while not stop.is_set():
                os.write(write_end, chunk)

    writer = threading.Thread(target=flood, daemon=True)
    writer.start()
    try:
        result = sw.execute(
            "import sys\nseen = 0\n"
            "try:\n    while True:\n        block = sys.stdin.buffer.read1(1 << 20)\n"
            "        if not block:\n            break\n        seen += len(block)\n"
            "except OSError as e:\n    print(seen, e.errno)",
            stdin=read_end, limits={"max_input_bytes": 300_000, "timeout_ms": 10_000})
    finally:
        stop.set()
        os.close(read_end)
        writer.join(timeout=10)
        os.close(write_end)
    assert result.stdout == "300000 29\n"
