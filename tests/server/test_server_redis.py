"""Gateway replicas sharing async jobs through Redis.

Nothing is mocked: a real `redis-server` (the Debian package; scripts/setup.sh installs it)
runs on a loopback port, and real gateways (uvicorn in threads, and `wasm-exec serve` in a
subprocess where a replica must die) serve real executions in the sandbox.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
import redis
from live_redis import RedisServer, free_port
from live_server import LiveServer, error_of

import sandbox_wasm as sw
from sandbox_wasm.cli.serve import main as serve_main
from sandbox_wasm.server import GatewaySettings, InMemoryJobStore, create_app, settings_from_env
from sandbox_wasm.server.ops.auth import hash_key
from sandbox_wasm.server.state.redis_jobs import RedisJobStore

SAFE_EXEC = "/v1/tools/safe-exec"
SAFE_EXEC_ASYNC = "/v1/tools/safe-exec/async"
#: Short enough to watch jobs expire and leases lapse within the test run.
JOB_TTL_SECONDS = 2.0
LEASE_SECONDS = 1.0


def replica(sandbox: sw.Sandbox, redis_url: str, **settings: object) -> LiveServer:
    return LiveServer(GatewaySettings(**{  # type: ignore[arg-type]
        "workers": 1, "queue": 4, "rate_limit": 10_000, "redis_url": redis_url,
        "job_ttl_seconds": JOB_TTL_SECONDS, "job_lease_seconds": LEASE_SECONDS,
        **settings,
    }), sandbox)


def wait_for(predicate: Callable[[], object], timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def poll_job(client: httpx.Client, job_id: str, timeout: float = 20) -> tuple[dict, list[str]]:
    """Poll until done; the job and the statuses seen, in order, without repeats."""
    seen: list[str] = []
    deadline = time.monotonic() + timeout
    while True:
        response = client.get(f"/v1/jobs/{job_id}")
        assert response.status_code == 200, response.text
        job = response.json()
        if not seen or seen[-1] != job["status"]:
            seen.append(job["status"])
        if job["status"] == "done":
            return job, seen
        assert time.monotonic() < deadline, f"job {job_id} still {job['status']}"
        time.sleep(0.03)


def submit(client: httpx.Client, code: str, timeout_ms: int = 5000) -> str:
    response = client.post(
        SAFE_EXEC_ASYNC, json={"code": code, "limits": {"timeout_ms": timeout_ms}}
    )
    assert response.status_code == 202, response.text
    return str(response.json()["job_id"])


@pytest.fixture(scope="module")
def replicas(
    gateway_sandbox: sw.Sandbox, redis_server: RedisServer
) -> Iterator[tuple[LiveServer, LiveServer]]:
    """Two gateways sharing one Redis, one worker each."""
    a = replica(gateway_sandbox, redis_server.url)
    try:
        b = replica(gateway_sandbox, redis_server.url)
        try:
            yield a, b
        finally:
            b.stop()
    finally:
        a.stop()


# -- replicas serve each other's jobs ---------------------------------------------------
def test_a_job_runs_where_it_was_submitted_and_is_read_anywhere(
    replicas: tuple[LiveServer, LiveServer],
) -> None:
    a, b = replicas
    blocker = submit(a.client, "import time\ntime.sleep(2)")
    wait_for(lambda: a.client.get("/healthz").json()["busy"] == 1)
    job_id = submit(a.client, "import time\ntime.sleep(0.6)\nprint('ran on A')")
    # It waits for A's only worker, not B's idle one, and B sees it waiting.
    assert b.client.get(f"/v1/jobs/{job_id}").json()["status"] == "queued"
    assert {k: a.client.get("/healthz").json()[k] for k in ("busy", "queued")} == {
        "busy": 1, "queued": 1,
    }
    assert {k: b.client.get("/healthz").json()[k] for k in ("busy", "queued")} == {
        "busy": 0, "queued": 0,
    }
    job, seen = poll_job(b.client, job_id)
    assert seen == ["queued", "running", "done"]
    assert job["result"]["status"] == "succeeded"
    assert job["result"]["stdout"] == "ran on A\n"
    assert job["error"] is None
    assert job["created_at"] <= job["started_at"] <= job["finished_at"]
    assert a.client.get(f"/v1/jobs/{job_id}").json() == job
    assert poll_job(b.client, blocker)[0]["result"]["status"] == "succeeded"

    # And the other way round, with an outcome that is not a success.
    other = submit(b.client, "import gc")
    job, _ = poll_job(a.client, other)
    assert job["result"]["status"] == "blocked"
    assert b.client.get(f"/v1/jobs/{other}").json() == job


def test_a_job_is_cancelled_from_another_replica(
    replicas: tuple[LiveServer, LiveServer], redis_server: RedisServer,
) -> None:
    """B does not hold A's jobs: it leaves a cancel flag in Redis, A sees it within
    CANCEL_POLL_SECONDS and interrupts the running job, and drops the waiting one."""
    a, b = replicas
    running = submit(a.client, "print('on A', flush=True)\nwhile True:\n    pass", 10_000)
    wait_for(lambda: a.client.get(f"/v1/jobs/{running}").json()["status"] == "running")
    waiting = submit(a.client, "print('never')")
    assert b.client.get(f"/v1/jobs/{waiting}").json()["status"] == "queued"

    response = b.client.post(f"/v1/jobs/{waiting}/cancel")
    assert response.status_code == 200, response.text
    assert response.json()["error"]["type"] == "Cancelled"
    assert response.json()["result"] is None

    started = time.monotonic()
    response = b.client.post(f"/v1/jobs/{running}/cancel")
    assert response.status_code == 200, response.text
    assert time.monotonic() - started < 3  # not the 10 s deadline
    job = response.json()
    assert job["result"]["status"] == "interrupted"
    assert job["result"]["stdout"] == "on A\n"
    assert a.client.get(f"/v1/jobs/{running}").json() == job
    # The flags are gone with the jobs' end; a finished job is a 409 on either replica.
    assert list(redis_server.client.scan_iter("sandbox-wasm:cancel:*")) == []
    for client in (a.client, b.client):
        refused = client.post(f"/v1/jobs/{running}/cancel")
        assert (refused.status_code, error_of(refused)["code"]) == (409, "job_finished")
    assert poll_job(b.client, submit(a.client, "print(2)"))[0]["result"]["stdout"] == "2\n"


@pytest.mark.parametrize(
    "job_id",
    [
        pytest.param(uuid.uuid4().hex, id="well-formed"),
        pytest.param("not-a-job", id="short"),
        pytest.param("x" * 300, id="too-long"),
        pytest.param("a:b", id="key-separator"),
    ],
)
def test_unknown_job_is_404_on_every_replica(
    replicas: tuple[LiveServer, LiveServer], job_id: str
) -> None:
    for server in replicas:
        response = server.client.get(f"/v1/jobs/{job_id}")
        assert response.status_code == 404
        error = error_of(response)
        assert (error["code"], error["field"]) == ("job_not_found", "job_id")


def test_records_are_namespaced_json_with_ttls_and_finished_jobs_expire(
    replicas: tuple[LiveServer, LiveServer], redis_server: RedisServer
) -> None:
    a, b = replicas
    store = redis_server.client
    job_id = submit(a.client, "import time\ntime.sleep(0.5)\nprint('short-lived')")
    job_key, lease_key = f"sandbox-wasm:job:{job_id}", f"sandbox-wasm:lease:{job_id}"
    # Unfinished: the record outlives the lease by the TTL, both expire.
    assert 0 < store.pttl(job_key) <= (LEASE_SECONDS + JOB_TTL_SECONDS) * 1000
    assert 0 < store.pttl(lease_key) <= LEASE_SECONDS * 1000
    assert json.loads(store.get(job_key))["status"] in ("queued", "running")

    job, _ = poll_job(b.client, job_id)
    assert job["result"]["stdout"] == "short-lived\n"
    record = json.loads(store.get(job_key))
    assert (record["job_id"], record["status"]) == (job_id, "done")
    assert 0 < store.pttl(job_key) <= JOB_TTL_SECONDS * 1000
    assert not store.exists(lease_key)

    wait_for(lambda: not store.exists(job_key), timeout=JOB_TTL_SECONDS + 3)
    for server in (a, b):
        response = server.client.get(f"/v1/jobs/{job_id}")
        assert response.status_code == 404
        assert error_of(response)["code"] == "job_not_found"


# -- replicas that go away ----------------------------------------------------------------
def test_job_of_a_killed_replica_is_reported_lost_after_the_lease(
    replicas: tuple[LiveServer, LiveServer], redis_server: RedisServer
) -> None:
    _, reader = replicas
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "sandbox_wasm", "serve", "--port", str(port),
         "--workers", "1", "--redis-url", redis_server.url,
         "--job-lease-seconds", str(LEASE_SECONDS), "--log-level", "warning"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as doomed:
            def up() -> bool:
                assert process.poll() is None, process.stderr.read().decode()
                try:
                    return doomed.get("/healthz").status_code == 200
                except httpx.TransportError:
                    return False

            wait_for(up, timeout=30)
            job_id = submit(doomed, "import time\ntime.sleep(20)", timeout_ms=30_000)
        wait_for(lambda: reader.client.get(f"/v1/jobs/{job_id}").json()["status"] == "running")
        # The replica renews its lease: the job stays running well past one lease.
        until = time.monotonic() + 2.5 * LEASE_SECONDS
        while time.monotonic() < until:
            assert reader.client.get(f"/v1/jobs/{job_id}").json()["status"] == "running"
            time.sleep(0.1)
        process.kill()
        process.wait(timeout=10)
        killed_at = time.monotonic()
        job, _ = poll_job(reader.client, job_id, timeout=LEASE_SECONDS + 5)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=10)
        process.stderr.close()
    assert time.monotonic() - killed_at <= LEASE_SECONDS + 2
    assert job["result"] is None
    assert job["error"]["type"] == "JobLost"
    assert job["started_at"] is not None


def test_replica_shutting_down_reports_its_jobs_lost_at_once(
    gateway_sandbox: sw.Sandbox, replicas: tuple[LiveServer, LiveServer], redis_server: RedisServer
) -> None:
    _, reader = replicas
    leaving = replica(gateway_sandbox, redis_server.url)
    pool = leaving.app.state.gateway.pool
    try:
        # Long enough to be still running while the replica stops, whatever the load.
        job_id = submit(leaving.client, "import time\ntime.sleep(3)")
        wait_for(lambda: reader.client.get(f"/v1/jobs/{job_id}").json()["status"] == "running")
    finally:
        leaving.stop()
    try:
        assert pool.busy == 1, "the job finished before the replica stopped"
        job = reader.client.get(f"/v1/jobs/{job_id}").json()
        assert (job["status"], job["result"]) == ("done", None), job
        assert job["error"] == {
            "type": "JobLost", "message": "the gateway replica running this job shut down",
        }
    finally:
        # The worker thread finishes the run unrecorded. Let it, before the session ends:
        # pytest's faulthandler hands the signal handlers back at exit, and wasm still
        # running in a thread after that dies of SIGILL.
        wait_for(lambda: pool.busy == 0, timeout=10)


# -- Redis going away -----------------------------------------------------------------------
def test_redis_outage_is_503_with_retry_after_and_recovers(
    gateway_sandbox: sw.Sandbox, tmp_path: Path
) -> None:
    flaky = RedisServer(tmp_path)
    server = replica(gateway_sandbox, flaky.url)
    try:
        client = server.client
        assert {k: client.get("/healthz").json()[k] for k in ("status", "redis")} == {
            "status": "ok", "redis": "ok"}
        job_id = submit(client, "print('before')")
        assert poll_job(client, job_id)[0]["result"]["stdout"] == "before\n"
        flaky.client.close()
        flaky.stop()
        assert {k: client.get("/healthz").json()[k] for k in ("status", "redis")} == {
            "status": "degraded", "redis": "unreachable"}

        for response in (
            client.get(f"/v1/jobs/{job_id}"),
            client.post(SAFE_EXEC_ASYNC, json={"code": "print(1)"}),
        ):
            assert response.status_code == 503
            assert response.headers["retry-after"] == "2"
            error = error_of(response)
            assert error["code"] == "job_store_unavailable"
            assert "Redis" in error["message"]
            assert str(flaky.port) not in error["message"]
        # Everything that does not need the job store goes on (the rate limit, whose
        # counts are in the Redis too, lets requests through meanwhile).
        assert client.post(SAFE_EXEC, json={"code": "print(2)"}).json()["stdout"] == "2\n"
        assert client.get("/healthz").status_code == 200
        metrics = client.get("/metrics").text
        assert 'sandbox_rejected_requests_total{reason="job_store_unavailable"} 2.0' in metrics

        flaky.start()  # an empty Redis, on the same port
        assert client.get(f"/v1/jobs/{job_id}").status_code == 404
        assert poll_job(client, submit(client, "print('after')"))[0]["result"]["stdout"] == (
            "after\n"
        )
    finally:
        server.stop()
        flaky.stop()


# -- the store itself -------------------------------------------------------------------
class Interloper:
    """A clock for the store that, once armed, lets another Redis client write between the
    store's read and its write (the store reads the clock in between), as another task or
    replica could."""

    def __init__(self, client: redis.Redis) -> None:
        self.client = client
        self.pending: list[Callable[[redis.Redis], object]] = []

    def __call__(self) -> float:
        while self.pending:
            self.pending.pop()(self.client)
        return time.time()


@pytest.mark.anyio
async def test_state_changes_are_check_and_set(
    gateway_sandbox: sw.Sandbox, redis_server: RedisServer
) -> None:
    result = gateway_sandbox.execute("print(1)")
    interloper = Interloper(redis_server.client)
    store = RedisJobStore(
        redis_server.url, ttl_seconds=60, lease_seconds=30,
        namespace=f"test-{uuid.uuid4().hex}", clock=interloper,
    )
    await store.start()
    try:
        # The job finishes while "running" is being written: "done" stays.
        queued = await store.create("a")
        done = queued.model_copy(update={"status": "done", "result": result})
        interloper.pending.append(
            lambda other: other.set(store.job_key("a"), done.model_dump_json(), keepttl=True)
        )
        await store.mark_running("a")
        assert not interloper.pending
        assert await store.get("a") == done
        await store.mark_running("a")  # and a late "running" changes nothing
        assert await store.get("a") == done

        # The job is dropped while its result is being written: it stays gone.
        await store.create("b")
        interloper.pending.append(lambda other: other.delete(store.job_key("b")))
        await store.finish("b", result=result)
        assert not interloper.pending
        assert await store.get("b") is None

        await store.create("c")
        await store.discard("c")
        assert await store.get("c") is None
        assert not redis_server.client.exists(
            store.job_key("b"), store.lease_key("b"), store.job_key("c"), store.lease_key("c")
        )
    finally:
        await store.close()


# -- configuration ------------------------------------------------------------------------
def test_in_process_store_stays_the_default(gateway_sandbox: sw.Sandbox) -> None:
    assert GatewaySettings().redis_url is None
    default = create_app(GatewaySettings(), sandbox=gateway_sandbox).state.gateway.jobs
    assert isinstance(default, InMemoryJobStore)
    settings = settings_from_env({
        "SANDBOX_WASM_REDIS_URL": "redis://127.0.0.1:1/0",
        "SANDBOX_WASM_JOB_LEASE_SECONDS": "5",
    })
    shared = create_app(settings, sandbox=gateway_sandbox).state.gateway.jobs
    assert isinstance(shared, RedisJobStore)
    assert (shared.lease_seconds, shared.ttl_seconds) == (5.0, 600.0)


def test_invalid_redis_url_is_a_usage_error_that_hides_the_password(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SANDBOX_WASM_REDIS_URL", raising=False)
    assert serve_main(["--redis-url", "http://user:s3cret@cache:6379"]) == 2
    stderr = capsys.readouterr().err
    assert "invalid redis_url (SANDBOX_WASM_REDIS_URL)" in stderr
    assert "s3cret" not in stderr
    assert len(stderr.strip().splitlines()) == 1



# -- sessions: which replica holds each ---------------------------------------------------
SESSIONS = "/v1/sessions"


def test_a_session_on_another_replica_is_421_naming_it(
    replicas: tuple[LiveServer, LiveServer], redis_server: RedisServer
) -> None:
    a, b = replicas
    holder = a.client.get("/healthz").json()["replica"]
    assert holder != b.client.get("/healthz").json()["replica"]
    opened = a.client.post(SESSIONS, json={"memory_mb": 64})
    assert opened.status_code == 201
    session_id = opened.json()["id"]
    key = f"sandbox-wasm:session:{session_id}"
    assert redis_server.client.get(key) == holder
    assert 0 < redis_server.client.pttl(key) <= 600_000

    a.client.post(f"{SESSIONS}/{session_id}/execute", json={"code": "here = 'A'"})
    for response in (
        b.client.post(f"{SESSIONS}/{session_id}/execute", json={"code": "print(here)"}),
        b.client.get(f"{SESSIONS}/{session_id}"),
        b.client.get(f"{SESSIONS}/{session_id}/snapshot"),
        b.client.delete(f"{SESSIONS}/{session_id}"),
    ):
        assert response.status_code == 421
        assert response.headers["sandbox-session-replica"] == holder
        error = error_of(response)
        assert (error["code"], error["field"]) == ("session_on_other_replica", "session_id")
        assert holder in error["message"] and "another gateway replica" in error["message"]
    # B's refusals changed nothing on A.
    answer = a.client.post(f"{SESSIONS}/{session_id}/execute", json={"code": "print(here)"})
    assert answer.json()["stdout"] == "A\n"

    assert a.client.delete(f"{SESSIONS}/{session_id}").status_code == 204
    assert not redis_server.client.exists(key)
    for server in (a, b):
        gone = server.client.get(f"{SESSIONS}/{session_id}")
        assert (gone.status_code, error_of(gone)["code"]) == (404, "session_not_found")


def test_snapshots_move_between_replicas_that_share_the_session_key(
    gateway_sandbox: sw.Sandbox, replicas: tuple[LiveServer, LiveServer], redis_server: RedisServer
) -> None:
    a, b = replicas
    session_id = a.client.post(SESSIONS, json={}).json()["id"]
    a.client.post(f"{SESSIONS}/{session_id}/execute", json={"code": "moved = 7"})
    snapshot = a.client.get(f"{SESSIONS}/{session_id}/snapshot").content
    # Without a configured key each replica signs with its own: B cannot restore A's.
    refused = b.client.post(f"{SESSIONS}/restore", content=snapshot)
    assert refused.status_code == 400
    assert "signed with another key" in error_of(refused)["message"]
    a.client.delete(f"{SESSIONS}/{session_id}")

    key = uuid.uuid4().hex
    first = replica(gateway_sandbox, redis_server.url, session_key=key)
    try:
        second = replica(gateway_sandbox, redis_server.url, session_key=key)
        try:
            session_id = first.client.post(SESSIONS, json={}).json()["id"]
            first.client.post(f"{SESSIONS}/{session_id}/execute", json={"code": "moved = 7"})
            snapshot = first.client.get(f"{SESSIONS}/{session_id}/snapshot").content
            restored = second.client.post(f"{SESSIONS}/restore", content=snapshot)
            assert restored.status_code == 201, restored.text
            new_id = restored.json()["id"]
            assert redis_server.client.get(f"sandbox-wasm:session:{new_id}") == (
                second.client.get("/healthz").json()["replica"]
            )
            result = second.client.post(
                f"{SESSIONS}/{new_id}/execute", json={"code": "print(moved * 6)"}
            ).json()
            assert result["stdout"] == "42\n"
        finally:
            second.stop()
        # A replica that shuts down drops its records: its sessions are 404, not 421.
        assert not redis_server.client.exists(f"sandbox-wasm:session:{new_id}")
        assert first.client.get(f"{SESSIONS}/{new_id}").status_code == 404
    finally:
        first.stop()


def test_a_session_lookup_without_redis_is_503(gateway_sandbox: sw.Sandbox, tmp_path: Path) -> None:
    flaky = RedisServer(tmp_path)
    server = replica(gateway_sandbox, flaky.url)
    try:
        session_id = server.client.post(SESSIONS, json={}).json()["id"]
        flaky.client.close()
        flaky.stop()
        # The session itself lives here and needs no Redis.
        answer = server.client.post(f"{SESSIONS}/{session_id}/execute", json={"code": "print(1)"})
        assert answer.json()["stdout"] == "1\n"
        # Whether an unknown one lives elsewhere cannot be told.
        unknown = server.client.get(f"{SESSIONS}/{uuid.uuid4().hex}")
        assert unknown.status_code == 503
        assert unknown.headers["retry-after"] == "2"
        assert error_of(unknown)["code"] == "session_directory_unavailable"
        assert str(flaky.port) not in error_of(unknown)["message"]
    finally:
        server.stop()
        flaky.stop()


# -- API keys and shared rate limits ------------------------------------------------------
def _keyed(name: str) -> tuple[str, dict[str, str]]:
    """A fresh key (so that no other test's counts or records are in its way): its
    api_key_hashes entry and its Authorization header."""
    key = f"{name}-{uuid.uuid4().hex}"
    return f"{name}-{key[-8:]}:{hash_key(key)}", {"Authorization": f"Bearer {key}"}


def test_two_replicas_on_one_redis_share_one_rate_limit(
    gateway_sandbox: sw.Sandbox, redis_server: RedisServer
) -> None:
    (alice, as_alice), (bob, as_bob) = _keyed("alice"), _keyed("bob")
    limit = 4
    a = replica(gateway_sandbox, redis_server.url, rate_limit=limit, api_key_hashes=(alice, bob))
    try:
        b = replica(gateway_sandbox, redis_server.url, rate_limit=limit,
                    api_key_hashes=(alice, bob))
        try:
            statuses: dict[str, list[int]] = {"a": [], "b": []}
            for i in range(3 * limit):
                name, server = ("a", a) if i % 2 == 0 else ("b", b)
                statuses[name].append(server.client.post(
                    SAFE_EXEC, json={"code": "1"}, headers=as_alice).status_code)
            allowed = sum(s.count(200) for s in statuses.values())
            assert allowed == limit, statuses
            assert all(s.count(200) > 0 for s in statuses.values())  # both served some
            assert sum(s.count(429) for s in statuses.values()) == 2 * limit
            # Another key has its own budget, on either replica.
            assert b.client.post(SAFE_EXEC, json={"code": "1"}, headers=as_bob).status_code == 200
            refused = a.client.post(SAFE_EXEC, json={"code": "1"}, headers=as_alice)
            assert refused.status_code == 429 and 1 <= int(refused.headers["retry-after"]) <= 60
            assert redis_server.client.keys("sandbox-wasm:ratelimit*")
        finally:
            b.stop()
    finally:
        a.stop()


def test_another_keys_job_and_session_are_404_on_every_replica(
    gateway_sandbox: sw.Sandbox, redis_server: RedisServer
) -> None:
    (alice, as_alice), (bob, as_bob) = _keyed("alice"), _keyed("bob")
    a = replica(gateway_sandbox, redis_server.url, api_key_hashes=(alice, bob))
    try:
        b = replica(gateway_sandbox, redis_server.url, api_key_hashes=(alice, bob))
        try:
            accepted = a.client.post(SAFE_EXEC_ASYNC, json={"code": "print('mine')"},
                                     headers=as_alice)
            job_id = accepted.json()["job_id"]
            wait_for(lambda: b.client.get(f"/v1/jobs/{job_id}", headers=as_alice).json()
                     .get("status") == "done")
            assert b.client.get(f"/v1/jobs/{job_id}", headers=as_alice).json()["result"][
                "stdout"] == "mine\n"
            for server in (a, b):
                other = server.client.get(f"/v1/jobs/{job_id}", headers=as_bob)
                assert other.status_code == 404 and error_of(other)["code"] == "job_not_found"
            # The store holds the job under its owner, never under the bare id.
            assert not redis_server.client.exists(f"sandbox-wasm:job:{job_id}")

            opened = a.client.post(SESSIONS, json={"memory_mb": 64}, headers=as_alice)
            session_id = opened.json()["id"]
            path = f"{SESSIONS}/{session_id}"
            # The owner, on the other replica, is told where the session lives ...
            assert b.client.get(path, headers=as_alice).status_code == 421
            # ... another key is told nothing, on either replica.
            for server in (a, b):
                response = server.client.get(path, headers=as_bob)
                assert response.status_code == 404, response.text
                assert error_of(response)["code"] == "session_not_found"
                assert "sandbox-session-replica" not in response.headers
            assert a.client.delete(path, headers=as_alice).status_code == 204
            assert b.client.get(path, headers=as_alice).status_code == 404
        finally:
            b.stop()
    finally:
        a.stop()
