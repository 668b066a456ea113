"""Authentication, ownership, the timeout cap and settings as data, against real gateways on
loopback (uvicorn in threads, and `wasm-exec serve` in subprocesses for the bind rules).

Nothing is mocked: every execution runs in the real sandbox.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from live_server import LiveServer, error_of, serve

import sandbox_wasm as sw
from sandbox_wasm.server.ops.auth import hash_key
from sandbox_wasm.server.settings import ConfigFileError, load_settings

SAFE_EXEC = "/v1/tools/safe-exec"
SAFE_EXEC_ASYNC = "/v1/tools/safe-exec/async"
TOOL = "/v1/tools/execute_python_sandbox"
SESSIONS = "/v1/sessions"

KEYS = {"alice": "alice-secret-key-0001", "bob": "bob-secret-key-0002",
        "ops": "ops-secret-key-0003", "runner": "runner-secret-key-0004"}
HASHES = (f"alice:{hash_key(KEYS['alice'])}", f"bob:{hash_key(KEYS['bob'])}",
          f"ops:{hash_key(KEYS['ops'])}:metrics", f"runner:{hash_key(KEYS['runner'])}:run")


def bearer(name: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {KEYS[name]}"}


@pytest.fixture(scope="module")
def server(gateway_sandbox: sw.Sandbox) -> Iterator[LiveServer]:
    """Four keys (two with scopes of their own); /healthz and /metrics protected."""
    yield from serve(gateway_sandbox, workers=2, queue=4, rate_limit=10_000,
                      api_key_hashes=HASHES, public_health=False)


@pytest.fixture(scope="module")
def capped(gateway_sandbox: sw.Sandbox) -> Iterator[LiveServer]:
    """No keys; timeouts capped at 2 s."""
    yield from serve(gateway_sandbox, workers=1, queue=4, rate_limit=10_000, max_timeout_ms=2_000)


# -- 401 and 403 ---------------------------------------------------------------------------
@pytest.mark.parametrize(("method", "path", "body"), [
    pytest.param("POST", SAFE_EXEC, {"code": "print(1)"}, id="safe-exec"),
    pytest.param("POST", SAFE_EXEC_ASYNC, {"code": "print(1)"}, id="safe-exec-async"),
    pytest.param("POST", TOOL, {"python_script": "print(1)"}, id="tool"),
    pytest.param("GET", "/v1/jobs/" + "0" * 32, None, id="job"),
    pytest.param("POST", SESSIONS, {}, id="open-session"),
    pytest.param("GET", "/v1/host-tools", None, id="host-tools"),
    pytest.param("GET", "/healthz", None, id="healthz-protected"),
    pytest.param("GET", "/metrics", None, id="metrics-protected"),
])
def test_no_key_is_401_with_www_authenticate(
    server: LiveServer, method: str, path: str, body: dict | None
) -> None:
    response = server.client.request(method, path, json=body)
    assert response.status_code == 401
    assert response.headers["www-authenticate"].startswith("Bearer")
    assert error_of(response)["code"] == "unauthorized"


@pytest.mark.parametrize("header", [
    pytest.param("Bearer not-a-configured-key", id="unknown-key"),
    pytest.param(f"Bearer {KEYS['alice']}x", id="key-plus-a-character"),
    pytest.param(f"Basic {KEYS['alice']}", id="other-scheme"),
    pytest.param("Bearer", id="no-token"),
    pytest.param("Bearer " + hash_key(KEYS["alice"]), id="the-hash-itself"),
])
def test_a_malformed_or_unknown_key_is_401(server: LiveServer, header: str) -> None:
    response = server.client.post(SAFE_EXEC, json={"code": "print(1)"},
                                  headers={"Authorization": header})
    assert response.status_code == 401
    assert response.headers["www-authenticate"].startswith("Bearer")
    # The presented secret is never echoed back.
    assert KEYS["alice"] not in response.text


def test_a_key_runs_code_and_a_key_without_the_scope_is_403(server: LiveServer) -> None:
    ran = server.client.post(SAFE_EXEC, json={"code": "print(6 * 7)"}, headers=bearer("alice"))
    assert ran.status_code == 200 and ran.json()["stdout"] == "42\n"
    assert server.client.post(SAFE_EXEC, json={"code": "print(1)"},
                              headers=bearer("runner")).status_code == 200
    # ops has the metrics scope only; runner the run scope only.
    refused = server.client.post(SAFE_EXEC, json={"code": "print(1)"}, headers=bearer("ops"))
    assert refused.status_code == 403
    assert error_of(refused)["code"] == "forbidden" and "'run'" in error_of(refused)["message"]
    assert server.client.get("/metrics", headers=bearer("runner")).status_code == 403
    assert server.client.get("/healthz", headers=bearer("runner")).status_code == 403
    assert server.client.get("/healthz", headers=bearer("ops")).status_code == 200
    metrics = server.client.get("/metrics", headers=bearer("alice")).text
    assert 'sandbox_rejected_requests_total{reason="forbidden"}' in metrics
    assert 'sandbox_rejected_requests_total{reason="unauthorized"}' in metrics


def test_the_api_documentation_needs_no_key_and_documents_it(server: LiveServer) -> None:
    assert server.client.get("/docs").status_code == 200
    schema = server.client.get("/openapi.json").json()
    assert schema["components"]["securitySchemes"]["apiKey"]["scheme"] == "bearer"
    operation = schema["paths"][SAFE_EXEC]["post"]
    assert operation["security"] == [{"apiKey": []}]
    assert {"401", "403"} <= set(operation["responses"])
    assert schema["paths"]["/healthz"]["get"]["security"] == [{"apiKey": []}]


def test_without_keys_the_documentation_names_no_scheme(capped: LiveServer) -> None:
    schema = capped.client.get("/openapi.json").json()
    assert "securitySchemes" not in schema["components"]
    assert "401" not in schema["paths"][SAFE_EXEC]["post"]["responses"]


def test_health_is_public_by_default(gateway_sandbox: sw.Sandbox) -> None:
    for live in serve(gateway_sandbox, workers=1, queue=1, api_key_hashes=HASHES[:1]):
        assert live.client.get("/healthz").status_code == 200
        assert live.client.get("/metrics").status_code == 200
        assert live.client.post(SAFE_EXEC, json={"code": "1"}).status_code == 401


# -- ownership: another key's job or session is unknown ----------------------------------------
def test_another_keys_job_is_404(server: LiveServer) -> None:
    accepted = server.client.post(SAFE_EXEC_ASYNC, json={"code": "print('mine')"},
                                  headers=bearer("alice"))
    assert accepted.status_code == 202
    job_id = accepted.json()["job_id"]
    deadline = time.monotonic() + 20
    while True:
        job = server.client.get(f"/v1/jobs/{job_id}", headers=bearer("alice"))
        assert job.status_code == 200
        if job.json()["status"] == "done":
            break
        assert time.monotonic() < deadline
        time.sleep(0.03)
    assert job.json()["job_id"] == job_id
    assert job.json()["result"]["stdout"] == "mine\n"
    other = server.client.get(f"/v1/jobs/{job_id}", headers=bearer("bob"))
    assert other.status_code == 404
    assert error_of(other)["code"] == "job_not_found"
    # The same answer as for a job that never was: nothing confirms it exists.
    never = server.client.get("/v1/jobs/" + "f" * 32, headers=bearer("bob"))
    assert error_of(never)["message"].replace("f" * 32, job_id) == error_of(other)["message"]


def test_another_keys_session_is_404(server: LiveServer) -> None:
    opened = server.client.post(SESSIONS, json={"memory_mb": 64}, headers=bearer("alice"))
    assert opened.status_code == 201
    sid = opened.json()["id"]
    path = f"{SESSIONS}/{sid}"
    assert server.client.post(path + "/execute", json={"code": "x = 'A'"},
                              headers=bearer("alice")).status_code == 200
    for response in (
        server.client.post(path + "/execute", json={"code": "print(x)"}, headers=bearer("bob")),
        server.client.get(path, headers=bearer("bob")),
        server.client.get(path + "/snapshot", headers=bearer("bob")),
        server.client.delete(path, headers=bearer("bob")),
        server.client.post(TOOL, json={"python_script": "print(x)", "session_id": sid},
                           headers=bearer("bob")),
    ):
        assert response.status_code == 404, response.text
        assert error_of(response)["code"] == "session_not_found"
    # Bob's attempts changed nothing for Alice.
    answer = server.client.post(path + "/execute", json={"code": "print(x)"},
                                headers=bearer("alice"))
    assert answer.json()["stdout"] == "A\n"
    assert server.client.delete(path, headers=bearer("alice")).status_code == 204


def test_each_key_has_its_own_rate_limit(gateway_sandbox: sw.Sandbox) -> None:
    for live in serve(gateway_sandbox, workers=1, queue=4, rate_limit=2, api_key_hashes=HASHES[:2]):
        for _ in range(2):
            assert live.client.post(SAFE_EXEC, json={"code": "1"},
                                    headers=bearer("alice")).status_code == 200
        assert live.client.post(SAFE_EXEC, json={"code": "1"},
                                headers=bearer("alice")).status_code == 429
        assert live.client.post(SAFE_EXEC, json={"code": "1"},
                                headers=bearer("bob")).status_code == 200


# -- the timeout cap ---------------------------------------------------------------------------
@pytest.mark.parametrize(("path", "body", "field"), [
    pytest.param(SAFE_EXEC, {"code": "1", "limits": {"timeout_ms": 2_001}},
                 "limits.timeout_ms", id="safe-exec"),
    pytest.param(SAFE_EXEC_ASYNC, {"code": "1", "limits": {"timeout_ms": 5_000}},
                 "limits.timeout_ms", id="safe-exec-async"),
    pytest.param(TOOL, {"python_script": "1", "timeout_profile": "extended_30s"},
                 "timeout_profile", id="tool-profile"),
    pytest.param(SESSIONS, {"timeout_ms": 3_000}, "timeout_ms", id="open-session"),
])
def test_a_timeout_over_the_cap_is_400_naming_the_field(
    capped: LiveServer, path: str, body: dict, field: str
) -> None:
    response = capped.client.post(path, json=body)
    assert response.status_code == 400
    error = error_of(response)
    assert error["field"] == field and "max_timeout_ms" in error["message"]


def test_within_the_cap_runs_and_no_timeout_gets_the_cap(capped: LiveServer) -> None:
    ran = capped.client.post(SAFE_EXEC, json={"code": "1", "limits": {"timeout_ms": 2_000}})
    assert ran.status_code == 200
    default = capped.client.post(SAFE_EXEC, json={"code": "1"})
    assert default.json()["limits"]["timeout_ms"] == 2_000
    opened = capped.client.post(SESSIONS, json={"memory_mb": 64})
    assert opened.json()["limits"]["timeout_ms"] == 2_000
    sid = opened.json()["id"]
    over = capped.client.post(f"{SESSIONS}/{sid}/execute",
                              json={"code": "1", "timeout_ms": 9_000})
    assert over.status_code == 400 and error_of(over)["field"] == "timeout_ms"
    assert capped.client.delete(f"{SESSIONS}/{sid}").status_code == 204


# -- settings as data --------------------------------------------------------------------------
def test_precedence_is_flags_then_env_then_file_then_defaults(tmp_path: Path) -> None:
    toml = tmp_path / "gateway.toml"
    toml.write_text('queue = 9\nrate_limit = 5\nmax_jobs = 7\napi_key_hashes = ["a:' +
                    "a" * 64 + '"]\n')
    env = {"SANDBOX_WASM_RATE_LIMIT": "6", "SANDBOX_WASM_MAX_JOBS": "8"}
    settings = load_settings({"max_jobs": 11, "queue": None}, environ=env, config_file=toml)
    assert (settings.queue, settings.rate_limit, settings.max_jobs) == (9, 6, 11)
    assert [key.name for key in settings.api_keys] == ["a"]
    assert settings.port == 8000  # the default
    as_json = tmp_path / "gateway.json"
    as_json.write_text(json.dumps({"queue": 3}))
    assert load_settings(environ={"SANDBOX_WASM_CONFIG": str(as_json)}).queue == 3
    (tmp_path / "gateway.yaml").write_text("queue: 3\n")
    with pytest.raises(ConfigFileError, match=r"must end in \.toml or \.json"):
        load_settings(config_file=tmp_path / "gateway.yaml")
    (tmp_path / "broken.toml").write_text("queue = = 3\n")
    with pytest.raises(ConfigFileError, match=r"broken\.toml"):
        load_settings(config_file=tmp_path / "broken.toml")


@pytest.mark.parametrize(("value", "names"), [
    pytest.param(json.dumps(list(HASHES[:2])), ["alice", "bob"], id="json-array"),
    pytest.param(",".join(HASHES[:2]), ["alice", "bob"], id="comma-list"),
    pytest.param(hash_key("k"), ["key-" + hash_key("k")[:8]], id="a-bare-hash"),
])
def test_key_hashes_from_the_environment(value: str, names: list[str]) -> None:
    settings = load_settings(environ={"SANDBOX_WASM_API_KEY_HASHES": value})
    assert [key.name for key in settings.api_keys] == names


@pytest.mark.parametrize(("value", "expected"), [
    pytest.param('["m:tools", "n:more"]', ("m:tools", "n:more"), id="json-array"),
    pytest.param("python -m server --opt a,b", ("python -m server --opt a,b",), id="one-entry"),
    pytest.param("", (), id="empty"),
])
def test_bridges_from_the_environment_are_one_entry_or_a_json_array(
    value: str, expected: tuple[str, ...]
) -> None:
    settings = load_settings(environ={"SANDBOX_WASM_BRIDGE": value})
    assert tuple(settings.bridge) == expected
    with pytest.raises(ValueError, match="JSON array of strings or one entry"):
        load_settings(environ={"SANDBOX_WASM_BRIDGE": "[not json"})


# -- the command line --------------------------------------------------------------------------
def _wasm_exec(*argv: str, env: dict[str, str] | None = None,
               stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "sandbox_wasm", *argv], input=stdin,
                          env={**os.environ, **(env or {})}, capture_output=True, text=True,
                          timeout=60)


@pytest.mark.parametrize(("argv", "env", "message"), [
    pytest.param(["--host", "0.0.0.0"], {}, "refusing to listen on 0.0.0.0 without API keys",
                 id="non-loopback-without-keys"),
    pytest.param([], {"SANDBOX_WASM_HOST": "0.0.0.0"}, "refusing to listen on 0.0.0.0",
                 id="non-loopback-from-env"),
    pytest.param(["--api-key-hashes", "alice:abc"], {}, "64 hex digits", id="not-a-hash"),
    pytest.param(["--api-key-hashes", f"a:{'a' * 64}:admin"], {}, "unknown scope 'admin'",
                 id="unknown-scope"),
    pytest.param(["--config", "/nonexistent/gateway.toml"], {}, "does not exist",
                 id="missing-config-file"),
])
def test_serve_refusals_are_one_line_and_exit_2(
    argv: list[str], env: dict[str, str], message: str
) -> None:
    completed = _wasm_exec("serve", *argv, env=env)
    assert completed.returncode == 2
    assert message in completed.stderr
    assert len(completed.stderr.strip().splitlines()) == 1


def test_a_bad_config_file_value_names_the_setting(tmp_path: Path) -> None:
    config = tmp_path / "gateway.toml"
    config.write_text('queue = "lots"\n')
    completed = _wasm_exec("serve", "--config", str(config))
    assert completed.returncode == 2 and "invalid queue" in completed.stderr


def test_hash_key_prints_the_sha256_of_stdin() -> None:
    completed = _wasm_exec("serve", "--hash-key", stdin="my key\n")
    assert completed.returncode == 0
    assert completed.stdout.strip() == hash_key("my key")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _started(argv: list[str], port: int, headers: dict[str, str] | None = None
             ) -> tuple[str, int]:
    """Run `wasm-exec serve` until /healthz answers; its first two stderr lines, and the status
    of a safe-exec without (or with) `headers`."""
    process = subprocess.Popen(
        [sys.executable, "-m", "sandbox_wasm", "serve", "--port", str(port), "--workers",
         "1", "--log-level", "warning", *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True,
    )
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
            deadline = time.monotonic() + 30
            while True:
                try:
                    assert client.get("/healthz").status_code == 200
                    break
                except httpx.TransportError:
                    assert process.poll() is None, process.stderr.read() if process.stderr else ""
                    assert time.monotonic() < deadline
                    time.sleep(0.1)
            status = client.post(SAFE_EXEC, json={"code": "1"}, headers=headers).status_code
    finally:
        process.terminate()
        _, stderr = process.communicate(timeout=30)
    lines = stderr.splitlines()
    # The second line says where the docs and /mcp are, and the rate limit in force.
    assert lines[1].startswith("wasm-exec serve: docs at http://") and f":{port}/docs" in lines[1]
    return lines[0] + "\n" + lines[1], status


def test_non_loopback_is_accepted_with_insecure_no_auth() -> None:
    line, status = _started(["--host", "0.0.0.0", "--insecure-no-auth"], _free_port())
    assert "WARNING: no API keys" in line and status == 200


def test_non_loopback_is_accepted_with_keys() -> None:
    argv = ["--host", "0.0.0.0", "--api-key-hashes", HASHES[0]]
    port = _free_port()
    line, status = _started(argv, port)
    assert "1 API key(s)" in line and status == 401
    assert "rate limit 60 requests a minute per client" in line
    assert KEYS["alice"] not in line
    _, status = _started(argv, _free_port(), headers=bearer("alice"))
    assert status == 200


def test_loopback_without_keys_says_so() -> None:
    port = _free_port()
    line, status = _started([], port)
    assert "no API keys: listening on loopback (127.0.0.1) only" in line and status == 200
    assert f"MCP at http://127.0.0.1:{port}/mcp; rate limit off" in line
