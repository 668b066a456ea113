"""MCP on the HTTP gateway's own port (`/mcp`, streamable HTTP), driven by the official
SDK's client against real gateways on loopback: the same tools as `wasm-exec mcp`, behind
the gateway's API keys, on its worker pool and its sessions."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from live_server import LiveServer, serve
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

import sandbox_wasm as sw
from sandbox_wasm.server.ops.auth import hash_key

KEYS = {"alice": "alice-secret-key-0001", "bob": "bob-secret-key-0002",
        "ops": "ops-secret-key-0003"}
HASHES = (f"alice:{hash_key(KEYS['alice'])}", f"bob:{hash_key(KEYS['bob'])}",
          f"ops:{hash_key(KEYS['ops'])}:metrics")
TOOLS = {"execute_python_sandbox", "audit_python_code", "open_python_session",
         "close_python_session"}
INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {},
    "clientInfo": {"name": "test", "version": "0"}}}
ACCEPT = {"Accept": "application/json, text/event-stream"}


@pytest.fixture(scope="module")
def open_gateway(gateway_sandbox: sw.Sandbox) -> Iterator[LiveServer]:
    """No keys (loopback), one worker."""
    yield from serve(gateway_sandbox, workers=1, queue=4, rate_limit=10_000)


@pytest.fixture(scope="module")
def keyed_gateway(gateway_sandbox: sw.Sandbox) -> Iterator[LiveServer]:
    yield from serve(gateway_sandbox, workers=2, queue=4, rate_limit=10_000,
                     api_key_hashes=HASHES)


def client(server: LiveServer, key: str | None = None) -> Client:
    headers = {"Authorization": f"Bearer {KEYS[key]}"} if key else None
    http = create_mcp_http_client(headers=headers)
    return Client(streamable_http_client(f"{server.url}/mcp", http_client=http))


def structured(result: Any) -> dict[str, Any]:
    assert result.is_error is False, result.content
    assert result.structured_content is not None
    return dict(result.structured_content)


def test_the_gateway_answers_mcp_on_its_own_port(open_gateway: LiveServer) -> None:
    async def session() -> tuple[set[str], dict[str, Any]]:
        async with client(open_gateway) as mcp:
            listed = await mcp.list_tools()
            called = await mcp.call_tool("execute_python_sandbox",
                                         {"python_script": "print(6 * 7)"})
            return {tool.name for tool in listed.tools}, structured(called)

    def succeeded() -> float:
        for line in open_gateway.client.get("/metrics").text.splitlines():
            if line.startswith('sandbox_executions_total{status="succeeded"}'):
                return float(line.split()[-1])
        return 0.0

    before = succeeded()
    names, result = asyncio.run(session())
    assert names == TOOLS
    assert (result["exit_code"], result["simulated_stdout"]) == (0, "42\n")
    assert succeeded() == before + 1  # MCP runs are in the gateway's metrics
    # The HTTP API on the same port is unchanged.
    assert open_gateway.client.post("/v1/tools/safe-exec",
                                    json={"code": "print(1)"}).json()["stdout"] == "1\n"


def test_mcp_needs_a_key_with_the_run_scope(keyed_gateway: LiveServer) -> None:
    url = f"{keyed_gateway.url}/mcp"
    for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": KEYS["alice"]}):
        refused = httpx.post(url, json=INITIALIZE, headers={**ACCEPT, **headers})
        assert refused.status_code == 401
        assert refused.headers["www-authenticate"].startswith("Bearer")
        assert refused.json()["error"]["code"] == "unauthorized"
    forbidden = httpx.post(url, json=INITIALIZE, headers={
        **ACCEPT, "Authorization": f"Bearer {KEYS['ops']}"})
    assert (forbidden.status_code, forbidden.json()["error"]["code"]) == (403, "forbidden")


def test_mcp_sessions_are_the_gateways_and_belong_to_the_key(
    keyed_gateway: LiveServer,
) -> None:
    """A session opened over MCP is one of the gateway's: its key reaches it over HTTP too,
    another key neither over HTTP nor over MCP."""
    async def open_and_set() -> str:
        async with client(keyed_gateway, "alice") as mcp:
            opened = structured(await mcp.call_tool("open_python_session", {}))
            session_id = str(opened["session_id"])
            structured(await mcp.call_tool("execute_python_sandbox", {
                "python_script": "secret = 'alice-only'", "session_id": session_id}))
            return session_id

    session_id = asyncio.run(open_and_set())
    alice = {"Authorization": f"Bearer {KEYS['alice']}"}
    bob = {"Authorization": f"Bearer {KEYS['bob']}"}
    shared = keyed_gateway.client.post(f"/v1/sessions/{session_id}/execute",
                                       json={"code": "print(secret)"}, headers=alice)
    assert (shared.status_code, shared.json()["stdout"]) == (200, "alice-only\n")
    assert keyed_gateway.client.post(f"/v1/sessions/{session_id}/execute",
                                     json={"code": "print(secret)"},
                                     headers=bob).status_code == 404

    async def as_bob() -> str:
        async with client(keyed_gateway, "bob") as mcp:
            result = await mcp.call_tool("execute_python_sandbox", {
                "python_script": "print(secret)", "session_id": session_id})
            assert result.is_error is True
            return str(result.content[0].text)  # type: ignore[union-attr]

    assert f"no session {session_id!r}" in asyncio.run(as_bob())
    assert keyed_gateway.client.delete(f"/v1/sessions/{session_id}",
                                       headers=alice).status_code == 204


def test_a_cancelled_mcp_call_frees_the_gateways_worker(open_gateway: LiveServer) -> None:
    async def scenario() -> tuple[float, dict[str, Any]]:
        async with client(open_gateway) as mcp:
            call = asyncio.ensure_future(mcp.call_tool("execute_python_sandbox", {
                "python_script": "while True:\n    pass", "timeout_profile": "extended_30s"}))
            deadline = time.monotonic() + 20
            while (await asyncio.to_thread(open_gateway.client.get, "/healthz")).json()[
                    "busy"] != 1:
                assert time.monotonic() < deadline
                await asyncio.sleep(0.05)
            call.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await call
            started = time.monotonic()
            after = await mcp.call_tool("execute_python_sandbox",
                                        {"python_script": "print('next')"})
            return time.monotonic() - started, structured(after)

    elapsed, after = asyncio.run(scenario())
    assert after["simulated_stdout"] == "next\n"
    assert elapsed < 10  # the only worker was free at once, not at the 30 s deadline
    assert open_gateway.client.get("/healthz").json()["busy"] == 0
