"""The HTTP gateway, served by a real uvicorn on a loopback port and driven with httpx.

Nothing is mocked: every execution runs in the real sandbox on the pinned runtime.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor

import httpx
import pytest
from live_server import LiveServer, error_of, serve
from prometheus_client.parser import text_string_to_metric_families

import sandbox_wasm as sw
from sandbox_wasm.server import InMemoryJobStore
from sandbox_wasm.server.ops.pool import PoolSaturated, WorkerPool

SAFE_EXEC = "/v1/tools/safe-exec"
SAFE_EXEC_ASYNC = "/v1/tools/safe-exec/async"
TOOL = "/v1/tools/execute_python_sandbox"


@pytest.fixture(scope="module")
def server(gateway_sandbox: sw.Sandbox) -> Iterator[LiveServer]:
    """Two workers, a small queue, a rate limit no test reaches."""
    yield from serve(gateway_sandbox, workers=2, queue=4, rate_limit=10_000)


@pytest.fixture(scope="module")
def tight_server(gateway_sandbox: sw.Sandbox) -> Iterator[LiveServer]:
    """One worker, no queue, one finished job kept."""
    yield from serve(gateway_sandbox, workers=1, queue=0, rate_limit=10_000, max_jobs=1)


@pytest.fixture(scope="module")
def limited_server(gateway_sandbox: sw.Sandbox) -> Iterator[LiveServer]:
    """Three requests a minute per client."""
    yield from serve(gateway_sandbox, workers=1, queue=4, rate_limit=3)


def in_background(fn: Callable[[], httpx.Response]) -> Future[httpx.Response]:
    pool = ThreadPoolExecutor(1)
    future = pool.submit(fn)
    pool.shutdown(wait=False)
    return future


# -- POST /v1/tools/safe-exec ------------------------------------------------------------
def test_safe_exec_returns_the_full_result(server: LiveServer) -> None:
    response = server.client.post(SAFE_EXEC, json={
        "language": "python",
        "code": "import json\nprint(json.dumps({'answer': 6 * 7}))",
        "limits": {"timeout_ms": 2000, "max_memory_mb": 128, "max_stdout_bytes": 1000},
    })
    assert response.status_code == 200
    result = sw.ExecutionResult.model_validate(response.json())
    assert result.status == "succeeded"
    assert result.exit_code == 0
    assert result.stdout == '{"answer": 42}\n'
    assert result.result_json == {"answer": 42}
    assert result.audit.safety_verdict == "safe"
    assert (result.limits.timeout_ms, result.limits.memory_mb) == (2000, 128)
    assert result.limits.max_stdout_bytes == 1000
    assert result.metrics.stdout_bytes == len(result.stdout)
    assert result.metrics.fuel_consumed > 0
    assert len(result.execution_id) == 32


def test_safe_exec_takes_a_stricter_policy_never_a_looser_one(server: LiveServer) -> None:
    """The server runs balanced: a request may ask for strict, not for report."""
    code = "import socket\nprint('ran')"
    assert server.client.post(SAFE_EXEC, json={"code": code}).json()["status"] == "succeeded"
    strict = server.client.post(SAFE_EXEC, json={"code": code, "policy": "strict"}).json()
    assert (strict["status"], strict["audit"]["policy"]) == ("blocked", "strict")
    looser = server.client.post(SAFE_EXEC, json={"code": "import gc", "policy": "report"})
    assert looser.status_code == 400
    assert looser.json()["error"]["field"] == "policy"
    assert "may not loosen" in looser.json()["error"]["message"]
    queued = server.client.post(SAFE_EXEC_ASYNC, json={"code": "import gc", "policy": "report"})
    assert queued.status_code == 400 and queued.json()["error"]["field"] == "policy"
    form = server.client.post(SAFE_EXEC, data={"code": code, "policy": "strict"},
                              files={"files": ("x.txt", b"x")})
    assert form.json()["status"] == "blocked"


def test_safe_exec_names_memory_as_everywhere_and_takes_its_former_name(
        server: LiveServer) -> None:
    for name in ("memory_mb", "max_memory_mb"):
        response = server.client.post(SAFE_EXEC, json={"code": "print(1)",
                                                       "limits": {name: 96}})
        assert response.status_code == 200, response.text
        assert response.json()["limits"]["memory_mb"] == 96


@pytest.mark.parametrize(
    ("code", "status", "exit_code", "error_type"),
    [
        pytest.param("import gc\nprint(gc.get_objects())", "blocked", 1, "SecurityViolation",
                     id="blocked-import-gc"),
        pytest.param("def f(:\n  pass", "syntax_error", 1, "SyntaxError", id="syntax-error"),
        pytest.param("raise ValueError('nope')", "failed", 1, "ValueError", id="exception"),
        pytest.param("while True:\n    pass", "timeout", 124, "TimeoutError", id="timeout"),
    ],
)
def test_safe_exec_reports_guest_outcomes_as_200(
    server: LiveServer, code: str, status: str, exit_code: int, error_type: str
) -> None:
    response = server.client.post(SAFE_EXEC, json={"code": code, "limits": {"timeout_ms": 300}})
    assert response.status_code == 200
    body = response.json()
    assert (body["status"], body["exit_code"], body["error"]["type"]) == (
        status, exit_code, error_type
    )


def test_safe_exec_runs_javascript(server: LiveServer) -> None:
    response = server.client.post(
        SAFE_EXEC, json={"language": "javascript", "code": "console.log(6 * 7)"}
    )
    assert response.status_code == 200
    result = response.json()
    assert (result["language"], result["status"], result["stdout"]) == (
        "javascript", "succeeded", "42\n"
    )


# -- POST /v1/tools/execute_python_sandbox ------------------------------------------------
def test_tool_endpoint_runs_a_script(server: LiveServer) -> None:
    response = server.client.post(
        TOOL, json={"python_script": "print(sum(range(10)))", "timeout_profile": "fast_1s"}
    )
    assert response.status_code == 200
    body = response.json()
    assert body["exit_code"] == 0
    assert body["syntax_valid"] is True
    assert body["simulated_stdout"] == "45\n"
    assert body["ast_security_audit"] == {"safety_verdict": "safe", "flagged_calls": []}
    assert body["demo"] is False


def test_tool_endpoint_reports_a_blocked_script(server: LiveServer) -> None:
    response = server.client.post(TOOL, json={"python_script": "import ctypes"})
    assert response.status_code == 200
    body = response.json()
    assert body["exit_code"] == 1
    assert body["simulated_stdout"] == ""
    assert body["ast_security_audit"]["safety_verdict"] == "blocked"
    [finding] = body["ast_security_audit"]["flagged_calls"]
    assert (finding["name"], finding["kind"], finding["line"]) == ("ctypes", "import", 1)


def test_tool_endpoint_timeout_profile_is_enforced(server: LiveServer) -> None:
    response = server.client.post(TOOL, json={
        "python_script": "import time\ntime.sleep(3)\nprint('late')",
        "timeout_profile": "fast_1s",
    })
    assert response.status_code == 200
    body = response.json()
    assert (body["status"], body["exit_code"], body["simulated_stdout"]) == ("timeout", 124, "")


def test_tool_endpoint_demo_runs_the_builtin_script_and_says_so(server: LiveServer) -> None:
    response = server.client.post(TOOL, params={"demo": "true"})
    assert response.status_code == 200
    body = response.json()
    assert body["demo"] is True
    assert "primes" in body["demo_script"]
    assert body["exit_code"] == 0
    assert body["simulated_stdout"].startswith("25 primes below 100")


# -- errors --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("content", "content_type", "code", "hint"),
    [
        pytest.param(b'{"code": "print(1)"', "application/json", "invalid_json",
                     "not valid JSON", id="truncated"),
        pytest.param(b'{"code": "\xff"}', "application/json", "invalid_json",
                     "not valid JSON", id="not-utf8"),
        pytest.param(b"[" * 50_000 + b"]" * 50_000, "application/json", "invalid_json",
                     "not valid JSON", id="nested-too-deep"),
        pytest.param(b'{"code": "print(1)"}', "text/plain", "invalid_request",
                     "content-type: application/json", id="not-declared-json"),
    ],
)
def test_unparsable_bodies_are_400_with_a_json_body(
    server: LiveServer, content: bytes, content_type: str, code: str, hint: str
) -> None:
    response = server.client.post(
        SAFE_EXEC, content=content, headers={"content-type": content_type}
    )
    assert response.status_code == 400
    error = error_of(response)
    assert (error["code"], error["field"]) == (code, "body")
    assert hint in error["message"]


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        pytest.param(SAFE_EXEC, {"language": "python"}, "code", id="missing-code"),
        pytest.param(SAFE_EXEC, {"code": 42}, "code", id="code-not-a-string"),
        pytest.param(SAFE_EXEC, {"code": "print(1)\x00"}, "code", id="null-byte"),
        pytest.param(SAFE_EXEC, b'{"code": "print(\'\\ud800\')"}', "code",
                     id="lone-surrogate"),
        pytest.param(SAFE_EXEC, {"code": "1", "limits": {"timeout_ms": 1.5}},
                     "limits.timeout_ms", id="timeout-not-an-integer"),
        pytest.param(SAFE_EXEC, {"code": "1", "language": "cobol"}, "language", id="language"),
        pytest.param(SAFE_EXEC, {"code": "1", "limits": {"timeout_ms": 99_999}},
                     "limits.timeout_ms", id="timeout-over-max"),
        pytest.param(SAFE_EXEC, {"code": "1", "limits": {"max_memory_mb": 4}},
                     "limits.max_memory_mb", id="memory-under-min"),
        pytest.param(SAFE_EXEC, {"code": "1", "limits": {"memory": 64}},
                     "limits.memory", id="unknown-limit"),
        pytest.param(SAFE_EXEC, {"code": "1", "limits": {"memory_mb": 64, "max_memory_mb": 64}},
                     "limits", id="both-memory-names"),
        pytest.param(SAFE_EXEC, {"code": "1", "timeout": 5}, "timeout", id="unknown-field"),
        pytest.param(SAFE_EXEC, [1, 2], "body", id="not-an-object"),
        pytest.param(SAFE_EXEC_ASYNC, {"code": "1", "limits": {"max_stdout_bytes": -1}},
                     "limits.max_stdout_bytes", id="async-stdout-negative"),
        pytest.param(TOOL, {"python_script": "1", "timeout_profile": "slow"},
                     "timeout_profile", id="unknown-profile"),
        pytest.param(TOOL, {"timeout_profile": "fast_1s"}, "python_script", id="missing-script"),
        pytest.param(TOOL, None, "python_script", id="no-body"),
    ],
)
def test_invalid_fields_are_400_naming_the_field(
    server: LiveServer, path: str, body: object, field: str
) -> None:
    if isinstance(body, bytes):  # JSON that json= cannot produce
        response = server.client.post(
            path, content=body, headers={"content-type": "application/json"}
        )
    elif body is None:
        response = server.client.post(path)
    else:
        response = server.client.post(path, json=body)
    assert response.status_code == 400
    error = error_of(response)
    assert error["code"] == "invalid_request"
    assert error["field"] == field
    assert field in error["message"]


def test_invalid_query_parameter_is_400(server: LiveServer) -> None:
    response = server.client.post(TOOL, params={"demo": "perhaps"})
    assert response.status_code == 400
    assert error_of(response)["field"] == "demo"


def test_source_over_the_limit_is_413(server: LiveServer) -> None:
    code = "x = 1\n" * 6_000  # 36,000 bytes > 32 KiB
    for path, body, field in [
        (SAFE_EXEC, {"code": code}, "code"),
        (SAFE_EXEC_ASYNC, {"code": code}, "code"),
        (TOOL, {"python_script": code}, "python_script"),
    ]:
        response = server.client.post(path, json=body)
        assert response.status_code == 413, path
        error = error_of(response)
        assert (error["code"], error["field"]) == ("source_too_large", field)
        assert "32768" in error["message"]


def test_body_over_the_limit_is_413_before_parsing(server: LiveServer) -> None:
    # safe-exec takes input files, so its cap is the larger one (tests/server/test_server_files.py).
    body = b'{"code": "' + b"1" * (server.settings.max_files_body_bytes + 1) + b'"}'
    response = server.client.post(
        SAFE_EXEC, content=body, headers={"content-type": "application/json"}
    )
    assert response.status_code == 413
    assert error_of(response)["code"] == "payload_too_large"


def test_unknown_routes_and_methods_are_json_errors(server: LiveServer) -> None:
    missing = server.client.get("/v1/nothing-here")
    assert missing.status_code == 404
    assert error_of(missing)["code"] == "not_found"
    wrong_method = server.client.get(SAFE_EXEC)
    assert wrong_method.status_code == 405
    assert error_of(wrong_method)["code"] == "method_not_allowed"


def test_a_syntax_error_is_not_a_safety_finding(server: LiveServer) -> None:
    """It never runs (status syntax_error) and its verdict is not "blocked": the audit
    found nothing, it could not parse the source."""
    result = server.client.post(SAFE_EXEC, json={"code": "def broken(:\n    pass"}).json()
    assert (result["status"], result["exit_code"], result["syntax_valid"]) == (
        "syntax_error", 1, False)
    assert result["audit"]["safety_verdict"] == "safe"
    assert result["audit"]["flagged_calls"] == []
    assert result["error"]["type"] == "SyntaxError"
    tool = server.client.post(TOOL, json={"python_script": "print('unclosed'"}).json()
    assert tool["syntax_valid"] is False
    assert tool["ast_security_audit"] == {"flagged_calls": [], "safety_verdict": "safe"}


def test_a_keyless_loopback_gateway_does_not_rate_limit_by_default(
    gateway_sandbox: sw.Sandbox,
) -> None:
    """The dev server (loopback, no keys, rate_limit unset): 70 quick requests all run.
    With keys, or on another host, the default of 60 a minute per client holds."""
    for live in serve(gateway_sandbox, workers=2, queue=8):
        assert live.settings.effective_rate_limit == 0
        statuses = [live.client.post(SAFE_EXEC, json={"code": "print(1)"}).status_code
                    for _ in range(70)]
        assert statuses == [200] * 70
    from sandbox_wasm.server import GatewaySettings
    from sandbox_wasm.server.ops.auth import hash_key

    keyed = GatewaySettings(api_key_hashes=(f"alice:{hash_key('a-key-of-some-length')}",))
    assert keyed.effective_rate_limit == 60
    assert GatewaySettings(host="0.0.0.0", insecure_no_auth=True).effective_rate_limit == 60
    assert GatewaySettings(rate_limit=5).effective_rate_limit == 5


def test_rate_limit_is_429_with_retry_after(limited_server: LiveServer) -> None:
    client = limited_server.client
    for _ in range(3):
        assert client.post(TOOL, json={"python_script": "print(1)"}).status_code == 200
    refused = client.post(TOOL, json={"python_script": "print(1)"})
    assert refused.status_code == 429
    # A moving window: the next request is allowed when the oldest leaves it.
    assert 1 <= int(refused.headers["retry-after"]) <= 60
    assert error_of(refused)["code"] == "rate_limited"
    # The limit is on the tools only: health, metrics and jobs keep answering.
    assert client.get("/healthz").status_code == 200
    assert client.get("/v1/jobs/unknown").status_code == 404
    metrics = client.get("/metrics").text
    assert 'sandbox_rejected_requests_total{reason="rate_limited"} 1.0' in metrics


def test_full_pool_is_503_with_retry_after(tight_server: LiveServer) -> None:
    client = tight_server.client
    sleeper = in_background(lambda: client.post(SAFE_EXEC, json={
        "code": "import time\ntime.sleep(2)\nprint('done')", "limits": {"timeout_ms": 5000},
    }))
    assert tight_server.wait_until(lambda health: health["busy"] == 1)["busy"] == 1
    for path, body in [
        (SAFE_EXEC, {"code": "print(1)"}),
        (SAFE_EXEC_ASYNC, {"code": "print(1)"}),
        (TOOL, {"python_script": "print(1)"}),
    ]:
        refused = client.post(path, json=body)
        assert refused.status_code == 503, path
        assert int(refused.headers["retry-after"]) >= 1
        assert error_of(refused)["code"] == "overloaded"
    finished = sleeper.result(timeout=30)
    assert (finished.status_code, finished.json()["stdout"]) == (200, "done\n")
    assert client.post(SAFE_EXEC, json={"code": "print(1)"}).status_code == 200


# -- async jobs ----------------------------------------------------------------------------
def poll_job(server: LiveServer, job_id: str, timeout: float = 20) -> tuple[dict, set[str]]:
    seen: set[str] = set()
    deadline = time.monotonic() + timeout
    while True:
        response = server.client.get(f"/v1/jobs/{job_id}")
        assert response.status_code == 200
        job = response.json()
        seen.add(job["status"])
        if job["status"] == "done" or time.monotonic() > deadline:
            return job, seen
        time.sleep(0.05)


def test_async_job_lifecycle(server: LiveServer) -> None:
    response = server.client.post(SAFE_EXEC_ASYNC, json={
        "code": "import time\ntime.sleep(1)\nprint('finished')",
        "limits": {"timeout_ms": 5000},
    })
    assert response.status_code == 202
    accepted = response.json()
    assert accepted["status"] == "queued"
    assert response.headers["location"] == f"/v1/jobs/{accepted['job_id']}"
    job, seen = poll_job(server, accepted["job_id"])
    assert job["status"] == "done"
    assert "running" in seen
    assert job["result"]["status"] == "succeeded"
    assert job["result"]["stdout"] == "finished\n"
    assert job["error"] is None
    assert job["created_at"] <= job["started_at"] <= job["finished_at"]


def test_async_job_reports_a_blocked_script_as_a_result(server: LiveServer) -> None:
    accepted = server.client.post(SAFE_EXEC_ASYNC, json={"code": "import gc"}).json()
    job, _ = poll_job(server, accepted["job_id"])
    assert job["result"]["status"] == "blocked"


def test_unknown_job_is_404(server: LiveServer) -> None:
    response = server.client.get("/v1/jobs/0123456789abcdef")
    assert response.status_code == 404
    error = error_of(response)
    assert (error["code"], error["field"]) == ("job_not_found", "job_id")


def test_finished_jobs_beyond_max_jobs_are_evicted(tight_server: LiveServer) -> None:
    first = tight_server.client.post(SAFE_EXEC_ASYNC, json={"code": "print(1)"}).json()
    assert poll_job(tight_server, first["job_id"])[0]["status"] == "done"
    second = tight_server.client.post(SAFE_EXEC_ASYNC, json={"code": "print(2)"}).json()
    assert poll_job(tight_server, second["job_id"])[0]["result"]["stdout"] == "2\n"
    # max_jobs=1: the older finished job is gone.
    assert tight_server.client.get(f"/v1/jobs/{first['job_id']}").status_code == 404


# -- cancelling jobs ----------------------------------------------------------------------
def _submit(server: LiveServer, code: str, timeout_ms: int = 10_000) -> str:
    response = server.client.post(SAFE_EXEC_ASYNC, json={
        "code": code, "limits": {"timeout_ms": timeout_ms}})
    assert response.status_code == 202, response.text
    return str(response.json()["job_id"])


def _running(server: LiveServer, job_id: str) -> None:
    deadline = time.monotonic() + 20
    while server.client.get(f"/v1/jobs/{job_id}").json()["status"] != "running":
        assert time.monotonic() < deadline, "the job never started"
        time.sleep(0.02)


def test_cancel_interrupts_a_running_job(tight_server: LiveServer) -> None:
    job_id = _submit(tight_server, "print('started', flush=True)\nwhile True:\n    pass")
    _running(tight_server, job_id)
    time.sleep(0.2)  # into the loop
    started = time.monotonic()
    response = tight_server.client.post(f"/v1/jobs/{job_id}/cancel")
    elapsed = time.monotonic() - started
    assert response.status_code == 200, response.text
    job = response.json()
    assert job["job_id"] == job_id and job["status"] == "done"
    assert job["result"]["status"] == "interrupted"
    assert job["result"]["exit_code"] == 130
    assert job["result"]["stdout"] == "started\n"
    assert elapsed < 5  # not the 10 s deadline
    assert tight_server.client.get(f"/v1/jobs/{job_id}").json() == job
    # The worker is free again at once.
    assert tight_server.client.post(SAFE_EXEC, json={"code": "print(1)"}).json()["stdout"] == "1\n"


def test_cancel_of_a_queued_job_means_it_never_runs(server: LiveServer) -> None:
    """Two workers: two blockers hold them, the third job waits and is cancelled there."""
    blockers = [_submit(server, "import time\ntime.sleep(1.5)") for _ in range(2)]
    server.wait_until(lambda health: health["busy"] == 2)
    waiting = _submit(server, "print('should never run')")
    assert server.client.get(f"/v1/jobs/{waiting}").json()["status"] == "queued"
    response = server.client.post(f"/v1/jobs/{waiting}/cancel")
    assert response.status_code == 200, response.text
    job = response.json()
    assert job["status"] == "done" and job["result"] is None
    assert job["error"]["type"] == "Cancelled"
    assert job["started_at"] is None or job["finished_at"] >= job["started_at"]
    # Its place in the queue is free at once, and the blockers finish as they would have.
    assert server.client.get("/healthz").json()["queued"] == 0
    for blocker in blockers:
        assert poll_job(server, blocker)[0]["result"]["status"] == "succeeded"
    assert server.client.get(f"/v1/jobs/{waiting}").json()["error"]["type"] == "Cancelled"


def test_cancel_of_a_finished_job_is_a_clear_409(server: LiveServer) -> None:
    job_id = _submit(server, "print('done')")
    assert poll_job(server, job_id)[0]["result"]["stdout"] == "done\n"
    response = server.client.post(f"/v1/jobs/{job_id}/cancel")
    assert response.status_code == 409
    error = error_of(response)
    assert (error["code"], error["field"]) == ("job_finished", "job_id")
    assert "already finished" in error["message"]
    assert server.client.get(f"/v1/jobs/{job_id}").json()["result"]["status"] == "succeeded"


def test_cancel_of_an_unknown_job_is_404(server: LiveServer) -> None:
    response = server.client.post("/v1/jobs/0123456789abcdef/cancel")
    assert response.status_code == 404
    assert error_of(response)["code"] == "job_not_found"


def test_the_cancel_route_is_documented(server: LiveServer) -> None:
    operation = server.client.get("/openapi.json").json()["paths"]["/v1/jobs/{job_id}/cancel"]
    responses = operation["post"]["responses"]
    assert {"200", "202", "404", "409"} <= set(responses)
    assert "interrupted" in operation["post"]["description"]


@pytest.mark.anyio
async def test_job_store_evicts_by_age_and_count(gateway_sandbox: sw.Sandbox) -> None:
    now = [1_000.0]
    store = InMemoryJobStore(ttl_seconds=60, max_finished=2, clock=lambda: now[0])
    result = gateway_sandbox.execute("print(1)")
    for job_id in ("a", "b", "c"):
        await store.create(job_id)
    await store.mark_running("a")
    assert (await store.get("a")).status == "running"
    await store.finish("a", result=result)
    await store.finish("b", result=result)
    await store.finish("c", result=result)
    assert await store.get("a") is None  # over the count
    assert (await store.get("b")).result == result
    now[0] += 61
    assert await store.get("b") is None  # over the age
    assert await store.get("c") is None
    await store.create("d")
    now[0] += 3_600
    assert (await store.get("d")).status == "queued"  # unfinished jobs are never evicted
    assert len(store) == 1


def test_pool_gives_back_the_place_of_a_cancelled_waiting_execution() -> None:
    pool = WorkerPool(workers=1, queue=1)
    release = threading.Event()
    try:
        running = pool.submit(release.wait)
        waiting = pool.submit(lambda: "never")
        with pytest.raises(PoolSaturated):
            pool.submit(lambda: "refused")
        assert waiting.cancel()
        admitted = pool.submit(lambda: "admitted")
        release.set()
        assert running.result(timeout=10) is True
        assert admitted.result(timeout=10) == "admitted"
    finally:
        release.set()
        pool.shutdown()


# -- concurrency, health, metrics, docs ----------------------------------------------------
def test_healthz_answers_fast_while_a_hanging_script_runs(server: LiveServer) -> None:
    client = server.client
    hanging = in_background(lambda: client.post(
        SAFE_EXEC, json={"code": "while True:\n    pass", "limits": {"timeout_ms": 3000}}
    ))
    assert server.wait_until(lambda health: health["busy"] >= 1)["busy"] >= 1
    for _ in range(5):
        start = time.perf_counter()
        health = client.get("/healthz")
        assert time.perf_counter() - start < 1.0
        assert health.status_code == 200
    # The other worker keeps serving other requests meanwhile.
    with ThreadPoolExecutor(3) as pool:
        answers = list(pool.map(
            lambda n: client.post(SAFE_EXEC, json={"code": f"print({n} * 2)"}), range(3)
        ))
    assert [a.json()["stdout"] for a in answers] == ["0\n", "2\n", "4\n"]
    assert hanging.result(timeout=30).json()["status"] == "timeout"


def test_healthz_reports_the_pool(server: LiveServer) -> None:
    health = server.client.get("/healthz").json()
    assert health["status"] == "ok"
    assert (health["workers"], health["queue_capacity"]) == (2, 4)
    assert health["version"] == sw.__version__


def test_metrics_are_prometheus_text(server: LiveServer) -> None:
    server.client.post(SAFE_EXEC, json={"code": "print(1)"})
    server.client.post(SAFE_EXEC, json={"code": "import gc"})
    server.client.post(SAFE_EXEC, json={"nope": 1})
    response = server.client.get("/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    samples = {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(response.text)
        for sample in family.samples
    }
    assert samples[("sandbox_executions_total", (("status", "succeeded"),))] >= 1
    assert samples[("sandbox_executions_total", (("status", "blocked"),))] >= 1
    assert ("sandbox_executions_total", (("status", "memory_exceeded"),)) in samples
    assert samples[("sandbox_execution_duration_seconds_count", ())] >= 2
    assert samples[("sandbox_execution_duration_seconds_bucket", (("le", "+Inf"),))] >= 2
    assert samples[("sandbox_fuel_consumed_total", ())] > 0
    assert samples[("sandbox_rejected_requests_total", (("reason", "invalid_request"),))] >= 1
    assert samples[("sandbox_workers", ())] == 2


def test_openapi_documents_400_not_422(server: LiveServer) -> None:
    schema = server.client.get("/openapi.json").json()
    operation = schema["paths"][SAFE_EXEC]["post"]
    assert {"200", "400", "413", "429", "503"} <= set(operation["responses"])
    assert "422" not in json.dumps(schema["paths"])
    assert set(schema["paths"]) >= {
        SAFE_EXEC, SAFE_EXEC_ASYNC, TOOL, "/v1/jobs/{job_id}", "/healthz", "/metrics"
    }
    assert server.client.get("/docs").status_code == 200


# -- the command line ----------------------------------------------------------------------
def test_wasm_exec_serve_starts_from_flags_and_environment() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "SANDBOX_WASM_PORT": str(port), "SANDBOX_WASM_QUEUE": "3"}
    process = subprocess.Popen(
        [sys.executable, "-m", "sandbox_wasm", "serve", "--workers", "1",
         "--log-level", "warning"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
            deadline = time.monotonic() + 30
            while True:
                try:
                    health = client.get("/healthz").json()
                    break
                except httpx.TransportError:
                    assert process.poll() is None, process.stderr.read().decode()
                    assert time.monotonic() < deadline
                    time.sleep(0.1)
            assert (health["workers"], health["queue_capacity"]) == (1, 3)
            answer = client.post(TOOL, json={"python_script": "print('served')"}).json()
            assert answer["simulated_stdout"] == "served\n"
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_wasm_exec_serve_takes_a_policy() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen(
        [sys.executable, "-m", "sandbox_wasm", "serve", "--workers", "1", "--port", str(port),
         "--policy", "report", "--log-level", "warning"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
            deadline = time.monotonic() + 30
            while True:
                try:
                    client.get("/healthz")
                    break
                except httpx.TransportError:
                    assert process.poll() is None, process.stderr.read().decode()
                    assert time.monotonic() < deadline
                    time.sleep(0.1)
            # The balanced policy refuses `import gc`; the report policy runs it and says so.
            result = client.post(SAFE_EXEC, json={"code": "import gc\nprint('ran')"}).json()
            assert (result["status"], result["stdout"]) == ("succeeded", "ran\n")
            assert result["audit"]["policy"] == "report-only"
            assert result["audit"]["flagged_calls"]
    finally:
        process.terminate()
        process.wait(timeout=30)


@pytest.mark.parametrize(
    ("argv", "env", "message"),
    [
        pytest.param(["--workers", "0"], {}, "invalid workers", id="flag-out-of-range"),
        pytest.param([], {"SANDBOX_WASM_RATE_LIMIT": "lots"}, "SANDBOX_WASM_RATE_LIMIT",
                     id="env-not-a-number"),
        pytest.param(["--bogus"], {}, "unrecognized arguments", id="unknown-flag"),
    ],
)
def test_wasm_exec_serve_usage_errors_exit_2(
    argv: list[str], env: dict[str, str], message: str
) -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "sandbox_wasm", "serve", *argv],
        env={**os.environ, **env}, capture_output=True, text=True, timeout=60,
    )
    assert completed.returncode == 2
    assert message in completed.stderr
    assert len(completed.stderr.strip().splitlines()) == 1
