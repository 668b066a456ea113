"""What the host does on every path of a request, tried with hostile guests: results always
serialise (hypothesis fuzzes guest stdout into `result_json`), the audit's limit is one rule
on both sides, every instance a request starts runs under its memory cap, traps are reported
as the kind they are, and the gateways serve what the guest printed."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import wasmtime
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sandbox_wasm as sw
from sandbox_wasm._guest.bootstrap import MAX_FACTS
from sandbox_wasm._host.output import GuestOutcome
from sandbox_wasm._host.program import classify_trap
from sandbox_wasm._outcome import classify, extract_result_json_checked

ROOT = Path(__file__).resolve().parents[2]
MODES = ("strict", "report-only")


@pytest.fixture(scope="module")
def boxes(sandbox: sw.Sandbox, open_sandbox: sw.Sandbox) -> dict[str, sw.Sandbox]:
    return {"strict": sandbox, "report-only": open_sandbox}


# -- results always serialise ------------------------------------------------------------------
_SCALARS = st.one_of(
    st.integers(min_value=-(10**400), max_value=10**400).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.sampled_from(["1e400", "-1e999", "NaN", "Infinity", "-Infinity", "true", "null",
                     '"\\ud800"', '"\\udfff\\ud800"', '"\\u0000"', '"\u00e9\U0001f600"']),
    st.text(max_size=20).map(json.dumps),
)


@st.composite
def guest_json(draw: st.DrawFn) -> str:
    """JSON-looking text as a guest might print it: nested up to far past any parser's
    limit, around numbers and strings that are not representable everywhere."""
    depth = draw(st.one_of(st.integers(0, 20), st.integers(180, 320), st.integers(900, 1100)))
    openers = draw(st.lists(st.sampled_from(["[", '{"k":']), min_size=depth, max_size=depth))
    closers = "".join("]" if opener == "[" else "}" for opener in reversed(openers))
    text = "".join(openers) + draw(_SCALARS) + closers
    if draw(st.booleans()):
        text = draw(st.sampled_from(["", "log line\n", "{}\n"])) + text
    return text


@pytest.mark.slow  # ~25 s
@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(stdout=guest_json(), mode=st.sampled_from(MODES))
def test_every_result_serialises_whatever_the_guest_prints(
    boxes: dict[str, sw.Sandbox], stdout: str, mode: str
) -> None:
    result = boxes[mode].execute(f"print({stdout!r})", limits={"max_stdout_bytes": 1 << 20})
    assert result.status == "succeeded", result.error
    dumped = result.model_dump_json()
    assert sw.ExecutionResult.model_validate_json(dumped) == result
    json.dumps(result.model_dump(mode="json"), allow_nan=False)
    if result.result_json_error is not None:
        assert result.result_json is None


@pytest.mark.slow  # ~35-55 s
@settings(max_examples=500, deadline=None)
@given(stdout=guest_json())
def test_result_json_is_kept_only_when_it_round_trips(stdout: str) -> None:
    value, why = extract_result_json_checked(stdout)
    assert value is None or why is None
    if value is not None:
        probe = json.dumps({"result_json": value}, allow_nan=False)
        assert json.loads(probe)["result_json"] == value


# -- the audit's limit is one rule on both sides ----------------------------------------------
def _facts_source(facts: int) -> str:
    return "=".join(f"v{i}" for i in range(facts - 1)) + "=0\nprint('RAN')\n"


@pytest.mark.parametrize(("facts", "verdict"), [
    pytest.param(MAX_FACTS - 1, "safe", id="just-under"),
    pytest.param(MAX_FACTS, "blocked", id="at-the-limit"),
    pytest.param(MAX_FACTS + 5, "blocked", id="over"),
])
def test_audit_and_execution_agree_at_the_fact_limit(facts: int, verdict: str) -> None:
    box = sw.Sandbox(limits=sw.Limits(max_source_bytes=256 * 1024))
    source = _facts_source(facts)
    assert box.audit(source).safety_verdict == verdict
    result = box.execute(source)
    assert result.status != "internal_error", result.error
    if verdict == "blocked":
        assert (result.status, result.stdout) == ("blocked", "")
        assert result.metrics.fuel_consumed == 0
    else:
        assert (result.status, result.stdout) == ("succeeded", "RAN\n")


# -- every instance a request starts runs under its memory cap ---------------------------------
def test_a_standalone_audit_runs_under_the_sandboxs_memory_cap() -> None:
    # Parsing this source needs more than 32 MiB; under a 256 MiB cap it is audited.
    source = "x = [" + "(1, 2.5, 'a')," * 25_000 + "]\n"
    small = sw.Sandbox(limits=sw.Limits(memory_mb=32, max_source_bytes=1 << 20))
    large = sw.Sandbox(limits=sw.Limits(memory_mb=256, max_source_bytes=1 << 20))
    assert large.audit(source).safety_verdict == "safe"
    report = small.audit(source)
    assert report.safety_verdict == "blocked"
    assert any("ran out of memory" in finding.reason for finding in report.flagged_calls)


# -- traps are reported as what they are -------------------------------------------------------
def _real_trap(address: int) -> wasmtime.Trap:
    engine = wasmtime.Engine()
    store = wasmtime.Store(engine)
    module = wasmtime.Module(engine, f"""(module (memory 1)
        (func (export "f") (i32.store (i32.const {address}) (i32.const 1))))""")
    instance = wasmtime.Instance(store, module, [])
    entry = instance.exports(store)["f"]
    assert isinstance(entry, wasmtime.Func)
    with pytest.raises(wasmtime.Trap) as caught:
        entry(store)
    return caught.value


@pytest.mark.parametrize(("address", "kind"), [
    pytest.param(-16, "c_stack_overflow", id="wrapped-below-zero"),
    pytest.param(70_000, "memory_out_of_bounds", id="past-the-end"),
    pytest.param(0x7FFF_0000, "memory_out_of_bounds", id="wild-pointer"),
])
def test_out_of_bounds_traps_are_told_apart(address: int, kind: str) -> None:
    outcome = GuestOutcome()
    classify_trap(outcome, _real_trap(address))
    assert outcome.trap == kind
    limits = sw.EffectiveLimits.of(sw.Limits())
    status, _, error = classify(outcome, limits)
    assert status == "failed" and error is not None
    expected = "RecursionError" if kind == "c_stack_overflow" else "GuestCrash"
    assert error.type == expected


# -- the gateways serve what the guest printed --------------------------------------------------
@pytest.fixture(scope="module")
def http_server(sandbox: sw.Sandbox) -> Iterator[object]:
    from live_server import LiveServer

    from sandbox_wasm.server.settings import GatewaySettings

    server = LiveServer(GatewaySettings(workers=1, queue=2, rate_limit=10_000), sandbox)
    try:
        yield server
    finally:
        server.stop()


def test_http_serves_json_nested_too_deeply_for_the_result(http_server: object) -> None:
    client = http_server.client  # type: ignore[attr-defined]
    response = client.post("/v1/tools/safe-exec", json={"code": "print('[' * 300 + ']' * 300)"})
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "succeeded" and body["result_json"] is None
    assert body["result_json_error"]
    accepted = client.post("/v1/tools/safe-exec/async",
                           json={"code": "print('[' * 300 + ']' * 300)"}).json()
    deadline = time.monotonic() + 30
    while True:  # every poll of the job answers 200, before and after it is done
        job = client.get(f"/v1/jobs/{accepted['job_id']}")
        assert job.status_code == 200, job.text
        if job.json()["status"] == "done" or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert job.json()["result"]["status"] == "succeeded"
    assert client.get(f"/v1/jobs/{accepted['job_id']}").status_code == 200


def test_cli_json_output_of_deep_json_stdout() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "sandbox_wasm", "--json", "-c",
         "print('[' * 300 + ']' * 300)"],
        capture_output=True, text=True, timeout=120, cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["status"] == "succeeded" and result["result_json"] is None
    assert "Traceback" not in done.stderr
