"""Network by permission through the gateways: on HTTP a request asks for hosts (`network`)
within the operator's policy (`network` setting, `--allow-host`); on MCP every run gets the
operator's policy and the model cannot change it. Real uvicorn, a real `wasm-exec mcp`
subprocess, real loopback servers (tests/network_servers.py)."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from live_server import LiveServer, error_of, serve
from network_servers import LiveServer as WebServer
from network_servers import http_server
from test_server_mcp import StdioMcp

import sandbox_wasm as sw

SAFE_EXEC = "/v1/tools/safe-exec"


@pytest.fixture(scope="module")
def web() -> Iterator[WebServer]:
    with http_server() as live:
        yield live


@pytest.fixture(scope="module")
def gateway(gateway_sandbox: sw.Sandbox, web: WebServer) -> Iterator[LiveServer]:
    ceiling = {"allow": [{"host": "127.0.0.1", "schemes": ["http"], "ports": [web.port],
                          "headers": {"X-Operator-Key": "op-secret-91"}}],
               "max_requests": 3}
    yield from serve(gateway_sandbox, rate_limit=10_000, network=ceiling)


@pytest.fixture(scope="module")
def closed_gateway(gateway_sandbox: sw.Sandbox) -> Iterator[LiveServer]:
    yield from serve(gateway_sandbox, rate_limit=10_000)


def fetch_code(url: str, times: int = 1) -> str:
    return (f"import urllib.request\nfor _ in range({times}):\n"
            f"    print(urllib.request.urlopen({url!r}).status)\n")


def test_a_request_reaches_hosts_within_the_servers_policy(
    gateway: LiveServer, web: WebServer,
) -> None:
    response = gateway.client.post(SAFE_EXEC, json={
        "code": fetch_code(f"{web.url}/secret-check"),
        "network": [f"http://127.0.0.1:{web.port}"]})
    assert response.status_code == 200, response.text
    result = response.json()
    assert result["status"] == "succeeded", result["stderr"]
    assert result["network_calls"][0]["status"] == 200
    # The operator's pinned header reached the server; no report carries it.
    assert web.seen[-1]["X-Operator-Key"] == "op-secret-91"
    assert "op-secret-91" not in response.text


def test_without_network_a_request_has_none(gateway: LiveServer, web: WebServer) -> None:
    result = gateway.client.post(SAFE_EXEC, json={"code": fetch_code(f"{web.url}/echo")}).json()
    assert result["status"] == "failed"
    assert "allows no network" in result["error"]["message"]


def test_a_request_cannot_go_beyond_the_servers_policy(gateway: LiveServer) -> None:
    result = gateway.client.post(SAFE_EXEC, json={
        "code": fetch_code("https://example.com/"), "network": ["https://example.com"],
    }).json()
    assert result["status"] == "failed"
    assert "the server's network policy: no rule allows host 'example.com'" in (
        result["error"]["message"])


def test_the_servers_budgets_bound_the_requests(gateway: LiveServer, web: WebServer) -> None:
    result = gateway.client.post(SAFE_EXEC, json={
        "code": fetch_code(f"{web.url}/echo", times=4),
        "network": {"allow": [{"host": "127.0.0.1", "schemes": ["http"], "ports": [web.port]}],
                    "max_requests": 100}}).json()
    assert result["status"] == "failed"
    assert "at most 3 requests" in result["error"]["message"]


def test_a_client_cannot_name_a_ca_file_on_the_server(
    gateway: LiveServer, web: WebServer,
) -> None:
    result = gateway.client.post(SAFE_EXEC, json={
        "code": fetch_code(f"{web.url}/echo"),
        "network": {"allow": [{"host": "127.0.0.1", "schemes": ["http"], "ports": [web.port]}],
                    "ca_file": "/etc/shadow"}}).json()
    assert result["status"] == "succeeded", result  # the operator's CA setting applies


def test_a_server_without_network_refuses_the_field(closed_gateway: LiveServer) -> None:
    response = closed_gateway.client.post(SAFE_EXEC, json={
        "code": "pass", "network": ["https://example.com"]})
    assert response.status_code == 400
    error = error_of(response)
    assert (error["code"], error["field"]) == ("network_not_allowed", "network")


def test_an_invalid_network_field_is_a_400(gateway: LiveServer) -> None:
    response = gateway.client.post(SAFE_EXEC, json={"code": "pass", "network": ["ftp://x"]})
    assert response.status_code == 400
    assert error_of(response)["field"] == "network"


def test_session_calls_take_network_per_call(gateway: LiveServer, web: WebServer) -> None:
    opened = gateway.client.post("/v1/sessions", json={})
    assert opened.status_code == 201, opened.text
    path = f"/v1/sessions/{opened.json()['id']}/execute"
    allowed = gateway.client.post(path, json={
        "code": fetch_code(f"{web.url}/echo"),
        "network": [f"http://127.0.0.1:{web.port}"]}).json()
    assert allowed["stdout"].strip() == "200", allowed
    refused = gateway.client.post(path, json={"code": fetch_code(f"{web.url}/echo")}).json()
    assert refused["status"] == "failed"


def test_metrics_count_the_requests(gateway: LiveServer, web: WebServer) -> None:
    gateway.client.post(SAFE_EXEC, json={
        "code": fetch_code(f"{web.url}/echo"), "network": [f"http://127.0.0.1:{web.port}"]})
    metrics = gateway.client.get("/metrics").text
    ok = next(line for line in metrics.splitlines()
              if line.startswith('sandbox_network_requests_total{outcome="ok"}'))
    assert float(ok.split()[-1]) >= 1
    assert "sandbox_network_threads_budget 16.0" in metrics


def test_mcp_runs_get_the_operators_policy(web: WebServer) -> None:
    client = StdioMcp(flags=["--allow-host", f"http://127.0.0.1:{web.port}"])
    try:
        answer = client.call("execute_python_sandbox", {
            "python_script": fetch_code(f"{web.url}/echo") + fetch_code("http://example.com/")})
        content = answer.structured_content
        assert content is not None
        stdout = content["simulated_stdout"]
        assert stdout.startswith("200\n"), content
        assert "no rule allows host 'example.com'" in json.dumps(content)
    finally:
        client.close()


def test_a_multipart_request_takes_network_as_a_field(gateway: LiveServer, web: WebServer) -> None:
    response = gateway.client.post(SAFE_EXEC, data={
        "code": fetch_code(f"{web.url}/echo"),
        "network": json.dumps([f"http://127.0.0.1:{web.port}"])},
        files={"files": ("empty.txt", b"")})
    assert response.status_code == 200, response.text
    assert response.json()["stdout"].strip() == "200"
