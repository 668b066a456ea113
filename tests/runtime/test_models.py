"""Result models read as mappings of their public fields (for code written against dict
results), with attribute access unchanged and JSON round trips intact."""

from __future__ import annotations

import json

import pytest

import sandbox_wasm as sw


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
