"""Result models read as mappings of their public fields (for code written against dict
results), with attribute access unchanged and JSON round trips intact."""

from __future__ import annotations

import json
import os
import uuid

import pytest
from pydantic import BaseModel

import sandbox_wasm as sw
from sandbox_wasm._models import construct


@pytest.fixture(scope="module")
def result() -> sw.ExecutionResult:
    return sw.execute("import json\nprint(json.dumps({'answer': 6 * 7}))")


def test_fields_read_by_key(result: sw.ExecutionResult) -> None:
    assert result["status"] == result.status == "succeeded"
    assert result["stdout"] == '{"answer": 42}\n'
    assert result["result_json"] == {"answer": 42}
    assert result["metrics"]["stdout_bytes"] == 15
    assert result["audit"]["safety_verdict"] == "safe"
    assert result["runtime"]["name"] == result.runtime.name == "cpython313-wasi-snapshot"


def test_membership_keys_and_dict(result: sw.ExecutionResult) -> None:
    assert "stdout" in result and "nope" not in result and "ok" not in result
    assert list(result.keys()) == list(sw.ExecutionResult.model_fields)
    as_dict = dict(result)
    assert set(as_dict) == set(sw.ExecutionResult.model_fields)
    assert as_dict["status"] == "succeeded" and as_dict["metrics"] is result.metrics
    assert result.get("status") == "succeeded" and result.get("nope", 7) == 7
    assert dict(result.items()) == as_dict and len(result.values()) == len(as_dict)


def test_unknown_key_and_non_field_attribute(result: sw.ExecutionResult) -> None:
    with pytest.raises(KeyError):
        result["nope"]
    with pytest.raises(KeyError):
        result["model_dump"]  # methods are not fields


def test_to_dict_is_plain_json_data(result: sw.ExecutionResult) -> None:
    data = result.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert data["metrics"]["stdout_bytes"] == 15 and data["error"] is None
    assert sw.ExecutionResult.model_validate(data) == result


def test_errors_and_findings_read_by_key() -> None:
    blocked = sw.execute("import gc")
    assert blocked["error"]["type"] == "SecurityViolation"
    assert blocked["audit"]["flagged_calls"][0]["name"] == "gc"
    report = sw.audit("eval('1')", policy="strict")
    assert report["safety_verdict"] == "blocked" and report["flagged_calls"][0]["kind"] == "call"


_CONSTRUCTED = [
    (sw.ExecutionResult, {"execution_id": "e", "language": "python", "status": "succeeded",
                          "exit_code": 0, "syntax_valid": True, "stdout": "hi\n"}),
    (sw.Metrics, {}),
    (sw.AuditSummary, {"safety_verdict": "safe", "policy": "balanced"}),
    (sw.ErrorInfo, {"type": "ValueError", "message": "m"}),
    (sw.AuditReport, {"syntax_valid": True, "safety_verdict": "safe", "policy": "strict"}),
    (sw.ToolCall, {"name": "t", "duration_ms": 1.0, "ok": True}),
    (sw.OutputChunk, {"stream": "stdout", "text": "x"}),
]


@pytest.mark.parametrize(("model", "values"), _CONSTRUCTED,
                         ids=[m.__name__ for m, _ in _CONSTRUCTED])
def test_construct_is_model_construct(model: type[BaseModel], values: dict[str, object]) -> None:
    """The host's fast construction gives what pydantic's model_construct gives: fields in
    order, defaults, the set of given fields, equality, dump and repr; mutable defaults are
    each instance's own."""
    if model is sw.ExecutionResult:  # its required nested models, from a real result
        real = sw.execute("print('hi')")
        values = {**values, "audit": real.audit, "limits": real.limits,
                  "metrics": real.metrics, "runtime": real.runtime}
    ours, theirs = construct(model, **values), model.model_construct(**values)
    assert ours == theirs and repr(ours) == repr(theirs)
    assert list(ours.__dict__) == list(theirs.__dict__) == list(model.model_fields)
    assert ours.model_fields_set == theirs.model_fields_set == set(values)
    assert ours.model_dump() == theirs.model_dump()
    assert ours.model_dump_json() == theirs.model_dump_json()
    again = construct(model, **values)
    for name, value in ours.__dict__.items():
        if isinstance(value, (list, dict, BaseModel)) and name not in values:
            assert getattr(again, name) is not value, name  # a fresh default each time


def test_construct_refuses_unknown_and_missing_fields() -> None:
    with pytest.raises(TypeError, match="no field named"):
        construct(sw.ErrorInfo, type="T", message="m", extra=1)
    with pytest.raises(TypeError, match="required field 'message'"):
        construct(sw.ErrorInfo, type="T")


def test_each_result_has_its_own_id_limits_and_runtime() -> None:
    # The host keeps one EffectiveLimits and RuntimeInfo per Limits object and runtime,
    # and hands each result a copy: a caller changing one result changes no other.
    limits = sw.Limits(timeout_ms=1_234)
    first, second = (sw.execute("pass", limits=limits) for _ in range(2))
    assert first.limits == second.limits and first.limits is not second.limits
    assert first.runtime == second.runtime and first.runtime is not second.runtime
    first.limits.timeout_ms = 1
    first.runtime.name = "changed"
    first.limits.model_fields_set.add("not a field")
    third = sw.execute("pass", limits=limits)
    assert third.limits.timeout_ms == second.limits.timeout_ms == 1_234
    assert third.runtime.name == second.runtime.name == "cpython313-wasi-snapshot"
    assert "not a field" not in third.limits.model_fields_set
    assert third.limits.model_dump() == sw.EffectiveLimits.model_validate(
        third.limits.model_dump()).model_dump()
    # Ids are random version-4 UUIDs, as `uuid.uuid4().hex` makes them.
    ids = {first.execution_id, second.execution_id, third.execution_id}
    assert len(ids) == 3
    for execution_id in ids:
        parsed = uuid.UUID(hex=execution_id)
        assert parsed.version == 4 and parsed.variant == uuid.RFC_4122
        assert parsed.hex == execution_id


def test_a_forked_child_makes_ids_of_its_own() -> None:
    from sandbox_wasm._outcome import new_execution_id

    new_execution_id()  # the pool of random bytes is filled in the parent
    read, write = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - the child reports through the pipe
        os.write(write, "".join(new_execution_id() for _ in range(4)).encode())
        os._exit(0)
    os.close(write)
    os.waitpid(child, 0)
    with os.fdopen(read, "rb") as pipe:
        theirs = pipe.read().decode()
    ours = "".join(new_execution_id() for _ in range(4))
    assert len(theirs) == len(ours) == 128 and theirs != ours
