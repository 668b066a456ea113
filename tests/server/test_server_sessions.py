"""Sessions over HTTP (/v1/sessions), served by a real uvicorn on a loopback port.

Nothing is mocked: every session is a live interpreter in the real sandbox. The Redis
side (which replica holds a session) is in test_server_redis.py.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor

import httpx
import pytest
from live_server import LiveServer, error_of, serve
from prometheus_client.parser import text_string_to_metric_families

import sandbox_wasm as sw
from sandbox_wasm.server import settings_from_env

SESSIONS = "/v1/sessions"
RESTORE = "/v1/sessions/restore"
MIB = 2**20
#: What a session's files may hold on the host (its input and what it writes), reserved with
#: its memory.
FILES = sw.Limits().max_input_bytes + sw.Limits().max_written_bytes
#: A probe for a global that must not be there.
PROBE = "try:\n    print(secret)\nexcept NameError:\n    print('absent')"


def _serve(sandbox: sw.Sandbox, **settings: object) -> Iterator[LiveServer]:
    return serve(sandbox, **{"rate_limit": 10_000, **settings})


@pytest.fixture(scope="module")
def server(gateway_sandbox: sw.Sandbox) -> Iterator[LiveServer]:
    yield from _serve(gateway_sandbox, workers=2, queue=4)


@pytest.fixture(scope="module")
def capped_server(gateway_sandbox: sw.Sandbox) -> Iterator[LiveServer]:
    """Two sessions at most, 384 MiB for all of them, small snapshots only."""
    yield from _serve(gateway_sandbox, workers=2, queue=4, max_sessions=2, session_memory_mb=384,
                      max_snapshot_bytes=64 * 1024)


@pytest.fixture(scope="module")
def short_lived_server(gateway_sandbox: sw.Sandbox) -> Iterator[LiveServer]:
    """Sessions closed after one second without a call."""
    yield from _serve(gateway_sandbox, workers=2, queue=4, session_idle_seconds=1.0)


def open_session(server: LiveServer, **body: object) -> dict:
    response = server.client.post(SESSIONS, json=body)
    assert response.status_code == 201, response.text
    return response.json()  # type: ignore[no-any-return]


def run(server: LiveServer, session_id: str, code: str, **body: object) -> dict:
    response = server.client.post(
        f"{SESSIONS}/{session_id}/execute", json={"code": code, **body}
    )
    assert response.status_code == 200, response.text
    return response.json()  # type: ignore[no-any-return]


def in_background(fn: object) -> Future[httpx.Response]:
    pool = ThreadPoolExecutor(1)
    future = pool.submit(fn)  # type: ignore[arg-type]
    pool.shutdown(wait=False)
    return future


# -- a session's life -------------------------------------------------------------------
def test_state_persists_across_calls(server: LiveServer) -> None:
    response = server.client.post(SESSIONS, json={"memory_mb": 64, "timeout_ms": 2000})
    assert response.status_code == 201
    info = response.json()
    session_id = info["id"]
    assert response.headers["location"] == f"{SESSIONS}/{session_id}"
    assert len(session_id) == 32
    assert (info["limits"]["memory_mb"], info["limits"]["timeout_ms"]) == (64, 2000)
    assert (info["policy"], info["on_trap"], info["calls"]) == ("balanced", "rollback", 0)
    # The cap and the files, and a checkpoint as large.
    assert info["reserved_bytes"] == 2 * (64 * MIB + FILES)
    assert info["created_at"] < info["expires_at"]

    first = run(server, session_id, "import json\ndata = {'n': 41}\ndef bump():\n"
                "    data['n'] += 1\n    return data['n']")
    assert first["status"] == "succeeded"
    second = run(server, session_id, "print(json.dumps({'n': bump()}))")
    assert (second["status"], second["stdout"], second["result_json"]) == (
        "succeeded", '{"n": 42}\n', {"n": 42}
    )
    assert second["session"]["id"] == session_id
    assert (second["session"]["call"], second["session"]["rolled_back"]) == (2, False)
    assert second["session"]["memory_bytes"] > 0

    state = server.client.get(f"{SESSIONS}/{session_id}").json()
    assert state["calls"] == 2
    assert state["memory_bytes"] == second["session"]["memory_bytes"]
    assert 0 <= state["idle_seconds"] < state["idle_timeout_seconds"] == 600
    assert state["last_used_at"] >= info["last_used_at"]
    server.client.delete(f"{SESSIONS}/{session_id}")


def test_a_call_that_times_out_is_rolled_back_and_the_state_is_intact(
    server: LiveServer,
) -> None:
    session_id = open_session(server)["id"]
    run(server, session_id, "counter = 1\nitems = ['a']")
    stuck = run(server, session_id, "counter = 2\nitems.append('b')\nwhile True:\n    pass",
                timeout_ms=300)
    assert (stuck["status"], stuck["exit_code"]) == ("timeout", 124)
    assert stuck["session"]["rolled_back"] is True
    assert stuck["session"]["closed"] is False
    after = run(server, session_id, "print(counter, items)")
    assert after["stdout"] == "1 ['a']\n"
    assert after["session"]["call"] == 3
    server.client.delete(f"{SESSIONS}/{session_id}")


def test_on_trap_close_closes_the_session_after_a_trap(server: LiveServer) -> None:
    info = open_session(server, on_trap="close", memory_mb=64)
    assert info["reserved_bytes"] == 64 * MIB + FILES  # no checkpoint to hold
    stuck = run(server, info["id"], "while True:\n    pass", timeout_ms=300)
    assert stuck["status"] == "timeout"
    assert (stuck["session"]["rolled_back"], stuck["session"]["closed"]) == (False, True)
    gone = server.client.post(f"{SESSIONS}/{info['id']}/execute", json={"code": "1"})
    assert gone.status_code == 404


def test_deleted_session_is_404_everywhere(server: LiveServer) -> None:
    session_id = open_session(server)["id"]
    run(server, session_id, "x = 1")
    deleted = server.client.delete(f"{SESSIONS}/{session_id}")
    assert (deleted.status_code, deleted.content) == (204, b"")
    for response in (
        server.client.post(f"{SESSIONS}/{session_id}/execute", json={"code": "print(x)"}),
        server.client.get(f"{SESSIONS}/{session_id}"),
        server.client.get(f"{SESSIONS}/{session_id}/snapshot"),
        server.client.delete(f"{SESSIONS}/{session_id}"),
    ):
        assert response.status_code == 404
        error = error_of(response)
        assert (error["code"], error["field"]) == ("session_not_found", "session_id")
        assert session_id in error["message"]


@pytest.mark.parametrize(
    "session_id",
    [
        pytest.param("0123456789abcdef0123456789abcdef", id="well-formed"),
        pytest.param("nope", id="short"),
        pytest.param("x" * 300, id="long"),
    ],
)
def test_unknown_session_is_404(server: LiveServer, session_id: str) -> None:
    response = server.client.post(f"{SESSIONS}/{session_id}/execute", json={"code": "1"})
    assert response.status_code == 404
    assert error_of(response)["code"] == "session_not_found"


def test_idle_session_expires_after_the_ttl(short_lived_server: LiveServer) -> None:
    client = short_lived_server.client
    info = open_session(short_lived_server)
    assert info["idle_timeout_seconds"] == 1.0
    run(short_lived_server, info["id"], "kept = True")
    deadline = time.monotonic() + 10
    while client.get(f"{SESSIONS}/{info['id']}").status_code == 200:
        assert time.monotonic() < deadline, "the session outlived its idle TTL"
        time.sleep(0.1)
    response = client.post(f"{SESSIONS}/{info['id']}/execute", json={"code": "print(kept)"})
    assert response.status_code == 404
    assert "1 s without a call" in error_of(response)["message"]
    assert client.get("/healthz").json()["sessions"] == 0


def test_a_call_on_a_busy_session_is_409_and_state_stays_readable(server: LiveServer) -> None:
    session_id = open_session(server)["id"]
    sleeper = in_background(lambda: server.client.post(
        f"{SESSIONS}/{session_id}/execute",
        json={"code": "import time\ntime.sleep(1.5)\ndone = True", "timeout_ms": 5000},
    ))
    server.wait_until(lambda health: health["busy"] >= 1)
    refused = server.client.post(f"{SESSIONS}/{session_id}/execute", json={"code": "1"})
    assert refused.status_code == 409
    assert error_of(refused)["code"] == "session_busy"
    assert server.client.get(f"{SESSIONS}/{session_id}").status_code == 200
    assert sleeper.result(timeout=30).json()["status"] == "succeeded"
    assert run(server, session_id, "print(done)")["stdout"] == "True\n"
    server.client.delete(f"{SESSIONS}/{session_id}")


def test_deleting_a_busy_session_forgets_it_at_once_and_frees_it_after_the_call(
    server: LiveServer,
) -> None:
    def reserved() -> float:
        text = server.client.get("/metrics").text
        return next(sample.value for family in text_string_to_metric_families(text)
                    for sample in family.samples
                    if sample.name == "sandbox_session_reserved_bytes")

    before = reserved()
    session_id = open_session(server, memory_mb=32)["id"]
    sleeper = in_background(lambda: server.client.post(
        f"{SESSIONS}/{session_id}/execute",
        json={"code": "import time\ntime.sleep(1)\nprint('finished')", "timeout_ms": 5000},
    ))
    server.wait_until(lambda health: health["busy"] >= 1)
    assert server.client.delete(f"{SESSIONS}/{session_id}").status_code == 204
    assert server.client.get(f"{SESSIONS}/{session_id}").status_code == 404
    assert reserved() == before + 2 * (32 * MIB + FILES)  # held until the call ends
    finished = sleeper.result(timeout=30).json()
    assert (finished["stdout"], finished["session"]["closed"]) == ("finished\n", False)
    assert reserved() == before


# -- isolation ------------------------------------------------------------------------------
def test_sessions_and_one_shot_runs_do_not_see_each_others_globals(server: LiveServer) -> None:
    first = open_session(server)["id"]
    second = open_session(server)["id"]
    run(server, first, "secret = 'first'")
    assert run(server, second, PROBE)["stdout"] == "absent\n"
    run(server, second, "secret = 'second'")
    assert run(server, first, "print(secret)")["stdout"] == "first\n"
    one_shot = server.client.post("/v1/tools/safe-exec", json={"code": PROBE}).json()
    assert (one_shot["stdout"], one_shot["session"]) == ("absent\n", None)
    tool = server.client.post(
        "/v1/tools/execute_python_sandbox", json={"python_script": PROBE}
    ).json()
    assert (tool["simulated_stdout"], tool["session"]) == ("absent\n", None)
    for session_id in (first, second):
        server.client.delete(f"{SESSIONS}/{session_id}")


def test_tool_endpoint_runs_in_a_session_given_its_id(server: LiveServer) -> None:
    session_id = open_session(server)["id"]
    tool = "/v1/tools/execute_python_sandbox"
    server.client.post(tool, json={"python_script": "total = 40", "session_id": session_id})
    body = server.client.post(tool, json={
        "python_script": "total += 2\nprint(total)", "session_id": session_id,
        "timeout_profile": "fast_1s",
    }).json()
    assert (body["simulated_stdout"], body["session"]["call"]) == ("42\n", 2)
    server.client.delete(f"{SESSIONS}/{session_id}")
    gone = server.client.post(tool, json={"python_script": "1", "session_id": session_id})
    assert gone.status_code == 404


# -- snapshots ------------------------------------------------------------------------------
def test_snapshot_restores_into_a_new_session_with_the_state(server: LiveServer) -> None:
    original = open_session(server, memory_mb=96)["id"]
    run(server, original, "import json\nrows = [{'k': i} for i in range(3)]\n"
        "def keys():\n    return [row['k'] for row in rows]")
    snapshot = server.client.get(f"{SESSIONS}/{original}/snapshot")
    assert snapshot.status_code == 200
    assert snapshot.headers["content-type"] == "application/octet-stream"
    assert original in snapshot.headers["content-disposition"]

    restored = server.client.post(
        RESTORE, content=snapshot.content, headers={"content-type": "application/octet-stream"}
    )
    assert restored.status_code == 201, restored.text
    info = restored.json()
    assert info["id"] != original
    assert restored.headers["location"] == f"{SESSIONS}/{info['id']}"
    assert (info["limits"]["memory_mb"], info["calls"], info["policy"]) == (96, 1, "balanced")
    assert info["reserved_bytes"] == 2 * (96 * MIB + FILES)
    result = run(server, info["id"], "rows.append({'k': 9})\nprint(json.dumps(keys()))")
    assert (result["stdout"], result["session"]["call"]) == ("[0, 1, 2, 9]\n", 2)
    # The two sessions go their own ways.
    assert run(server, original, "print(len(rows))")["stdout"] == "3\n"
    for session_id in (original, info["id"]):
        server.client.delete(f"{SESSIONS}/{session_id}")


@pytest.fixture(scope="module")
def signed_snapshot(server: LiveServer) -> Iterator[bytes]:
    session_id = open_session(server)["id"]
    run(server, session_id, "x = 1")
    yield server.client.get(f"{SESSIONS}/{session_id}/snapshot").content
    server.client.delete(f"{SESSIONS}/{session_id}")


def _flip(data: bytes, at: int) -> bytes:
    changed = bytearray(data)
    changed[at] ^= 0x01
    return bytes(changed)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        pytest.param(lambda data, box: _flip(data, len(data) // 2), "integrity check",
                     id="tampered-body"),
        pytest.param(lambda data, box: _flip(data, 40), "session snapshot",
                     id="tampered-header"),
        pytest.param(lambda data, box: _flip(data, len(data) - 1), "integrity check",
                     id="tampered-digest"),
        pytest.param(lambda data, box: data[: len(data) // 2], "session snapshot",
                     id="truncated"),
        pytest.param(lambda data, box: sw.Session(sandbox=box).snapshot(), "not signed",
                     id="unsigned"),
        pytest.param(lambda data, box: sw.Session(sandbox=box).snapshot(key=b"k" * 32),
                     "signed with another key", id="foreign-key"),
        pytest.param(lambda data, box: b"hello", "not a sandbox-wasm session snapshot",
                     id="not-a-snapshot"),
        pytest.param(lambda data, box: b"", "not a sandbox-wasm session snapshot",
                     id="empty"),
    ],
)
def test_snapshots_it_did_not_sign_are_refused(
    server: LiveServer, gateway_sandbox: sw.Sandbox, signed_snapshot: bytes, make: object,
    message: str,
) -> None:
    before = server.client.get("/healthz").json()["sessions"]
    response = server.client.post(RESTORE, content=make(signed_snapshot, gateway_sandbox))  # type: ignore[operator]
    assert response.status_code == 400
    error = error_of(response)
    assert (error["code"], error["field"]) == ("invalid_snapshot", "snapshot")
    assert message in error["message"]
    assert server.client.get("/healthz").json()["sessions"] == before


def test_snapshot_over_the_limit_is_413(capped_server: LiveServer) -> None:
    session_id = open_session(capped_server, memory_mb=64)["id"]
    run(capped_server, session_id, "import random\nnoise = random.randbytes(200_000)")
    snapshot = capped_server.client.get(f"{SESSIONS}/{session_id}/snapshot").content
    assert len(snapshot) > 64 * 1024
    response = capped_server.client.post(RESTORE, content=snapshot)
    assert response.status_code == 413
    error = error_of(response)
    assert (error["code"], error["field"]) == ("snapshot_too_large", "snapshot")
    assert "65536" in error["message"]
    capped_server.client.delete(f"{SESSIONS}/{session_id}")


# -- caps -------------------------------------------------------------------------------------
def test_session_count_cap_is_503_with_retry_after(capped_server: LiveServer) -> None:
    client = capped_server.client
    held = [open_session(capped_server, memory_mb=32, on_trap="close")["id"] for _ in range(2)]
    refused = client.post(SESSIONS, json={"memory_mb": 32, "on_trap": "close"})
    assert refused.status_code == 503
    assert 1 <= int(refused.headers["retry-after"]) <= 600
    error = error_of(refused)
    assert error["code"] == "sessions_full"
    assert "all 2 sessions are in use" in error["message"]
    client.delete(f"{SESSIONS}/{held.pop()}")
    held.append(open_session(capped_server, memory_mb=32, on_trap="close")["id"])
    metrics = client.get("/metrics").text
    assert 'sandbox_rejected_requests_total{reason="sessions_full"} 1.0' in metrics
    for session_id in held:
        client.delete(f"{SESSIONS}/{session_id}")


def test_session_memory_budget_is_503_and_reserves_the_worst_case(
    capped_server: LiveServer,
) -> None:
    client = capped_server.client
    # 128 MiB and 64 MiB of files, with a checkpoint, reserve 384 MiB: the whole budget.
    held = open_session(capped_server, memory_mb=128)["id"]
    refused = client.post(SESSIONS, json={"memory_mb": 32, "on_trap": "close"})
    assert refused.status_code == 503
    assert "384 MiB that live sessions may hold together" in error_of(refused)["message"]
    # Memory the session does not use yet is still reserved: growing is always possible.
    grown = run(capped_server, held, "blob = bytearray(90 * 2**20)\nprint(len(blob))")
    assert grown["status"] == "succeeded"
    client.delete(f"{SESSIONS}/{held}")
    small = open_session(capped_server, memory_mb=32, on_trap="close")["id"]
    client.delete(f"{SESSIONS}/{small}")


def test_a_session_larger_than_the_whole_budget_is_400(capped_server: LiveServer) -> None:
    response = capped_server.client.post(SESSIONS, json={"memory_mb": 256})
    assert response.status_code == 400
    error = error_of(response)
    assert error["field"] == "memory_mb"
    assert "ask for at most 128 MiB" in error["message"]


# -- validation -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        pytest.param(SESSIONS, {"memory_mb": 4}, "memory_mb", id="memory-under-min"),
        pytest.param(SESSIONS, {"timeout_ms": 99_999}, "timeout_ms", id="timeout-over-max"),
        pytest.param(SESSIONS, {"on_trap": "explode"}, "on_trap", id="on-trap"),
        pytest.param(SESSIONS, {"policy": "lenient"}, "policy", id="unknown-policy"),
        pytest.param(SESSIONS, {"policy": "report"}, "policy", id="looser-policy"),
        pytest.param(SESSIONS, {"limits": {"memory": 64}}, "limits.memory",
                     id="unknown-limit"),
        pytest.param(SESSIONS, {"limits": {"memory_mb": 64, "max_memory_mb": 64}}, "limits",
                     id="both-memory-names"),
        pytest.param(SESSIONS, {"language": "javascript"}, "language", id="unknown-field"),
        pytest.param(f"{SESSIONS}/{{id}}/execute", {}, "code", id="missing-code"),
        pytest.param(f"{SESSIONS}/{{id}}/execute", {"code": "1\x00"}, "code", id="null-byte"),
        pytest.param(f"{SESSIONS}/{{id}}/execute",
                     {"code": "1", "limits": {"max_memory_mb": 64}},
                     "limits.max_memory_mb", id="memory-per-call"),
        pytest.param(f"{SESSIONS}/{{id}}/execute", {"code": "1", "timeout_ms": 0},
                     "timeout_ms", id="call-timeout-zero"),
    ],
)
def test_invalid_fields_are_400_naming_the_field(
    server: LiveServer, path: str, body: dict, field: str
) -> None:
    session_id = open_session(server)["id"]
    response = server.client.post(path.replace("{id}", session_id), json=body)
    assert response.status_code == 400, response.text
    error = error_of(response)
    assert (error["code"], error["field"]) == ("invalid_request", field)
    assert server.client.delete(f"{SESSIONS}/{session_id}").status_code == 204


def test_source_over_the_limit_is_413(server: LiveServer) -> None:
    session_id = open_session(server)["id"]
    response = server.client.post(
        f"{SESSIONS}/{session_id}/execute", json={"code": "x = 1\n" * 6_000}
    )
    assert response.status_code == 413
    assert (error_of(response)["code"], error_of(response)["field"]) == (
        "source_too_large", "code"
    )
    server.client.delete(f"{SESSIONS}/{session_id}")


def test_a_stricter_policy_may_be_chosen(server: LiveServer) -> None:
    info = open_session(server, policy="strict")
    assert info["policy"] == "strict"
    # `import sys` is fine under balanced (its safe subset), refused under strict.
    assert run(server, info["id"], "import sys")["status"] == "blocked"
    server.client.delete(f"{SESSIONS}/{info['id']}")


def test_a_call_may_change_its_limits_but_not_the_memory_cap(server: LiveServer) -> None:
    session_id = open_session(server, memory_mb=64, limits={"max_stdout_bytes": 10})["id"]
    capped = run(server, session_id, "print('x' * 100)")
    assert (capped["stdout_truncated"], capped["limits"]["max_stdout_bytes"]) == (True, 10)
    wider = run(server, session_id, "print('x' * 100)", limits={"max_stdout_bytes": 1000})
    assert (wider["stdout_truncated"], wider["limits"]["memory_mb"]) == (False, 64)
    server.client.delete(f"{SESSIONS}/{session_id}")


# -- health, metrics, docs, configuration ---------------------------------------------------
def test_health_and_metrics_count_sessions(server: LiveServer) -> None:
    session_id = open_session(server, memory_mb=32, on_trap="close")["id"]
    run(server, session_id, "1")
    health = server.client.get("/healthz").json()
    assert health["sessions"] >= 1
    assert health["max_sessions"] == 32
    samples = {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(server.client.get("/metrics").text)
        for sample in family.samples
    }
    assert samples[("sandbox_sessions", ())] >= 1
    assert samples[("sandbox_session_reserved_bytes", ())] >= 32 * MIB
    assert samples[("sandbox_session_calls_total", (("outcome", "kept"),))] >= 1
    assert ("sandbox_session_calls_total", (("outcome", "rolled_back"),)) in samples
    server.client.delete(f"{SESSIONS}/{session_id}")


def test_openapi_lists_the_session_endpoints(server: LiveServer) -> None:
    schema = server.client.get("/openapi.json").json()
    paths = schema["paths"]
    assert {SESSIONS, RESTORE, f"{SESSIONS}/{{session_id}}",
            f"{SESSIONS}/{{session_id}}/execute", f"{SESSIONS}/{{session_id}}/snapshot"} <= set(
        paths
    )
    assert set(paths[SESSIONS]["post"]["responses"]) >= {"201", "400", "429", "503"}
    assert set(paths[f"{SESSIONS}/{{session_id}}"]) == {"get", "delete"}
    assert "421" in paths[f"{SESSIONS}/{{session_id}}/execute"]["post"]["responses"]
    assert "application/octet-stream" in paths[RESTORE]["post"]["requestBody"]["content"]
    assert "application/octet-stream" in (
        paths[f"{SESSIONS}/{{session_id}}/snapshot"]["get"]["responses"]["200"]["content"]
    )
    assert "422" not in json.dumps(paths)


def test_session_settings_come_from_the_environment() -> None:
    settings = settings_from_env({
        "SANDBOX_WASM_MAX_SESSIONS": "5", "SANDBOX_WASM_SESSION_MEMORY_MB": "1024",
        "SANDBOX_WASM_SESSION_IDLE_SECONDS": "30", "SANDBOX_WASM_MAX_SNAPSHOT_BYTES": "1048576",
        "SANDBOX_WASM_SESSION_KEY": "a-key-of-enough-length",
    }, max_sessions=6)
    assert (settings.max_sessions, settings.session_memory_mb) == (6, 1024)
    assert (settings.session_idle_seconds, settings.max_snapshot_bytes) == (30.0, MIB)
    assert settings.session_key is not None
    assert "a-key-of-enough-length" not in repr(settings)


def test_a_short_session_key_is_a_usage_error_that_hides_the_key() -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "sandbox_wasm", "serve"],
        env={**os.environ, "SANDBOX_WASM_SESSION_KEY": "tooshort"},
        capture_output=True, text=True, timeout=60,
    )
    assert completed.returncode == 2
    assert "invalid session_key (SANDBOX_WASM_SESSION_KEY)" in completed.stderr
    assert "tooshort" not in completed.stderr
