"""The HTTP gateway's error table (server/http/errors.py): every refusal names a code of it,
and the OpenAPI document's error responses are generated from it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from sandbox_wasm.server.http import errors
from sandbox_wasm.server.ops.metrics import REJECTION_REASONS

HTTP = Path(errors.__file__).resolve().parent


def _codes_raised() -> set[str]:
    """The error codes written as ApiError's first argument anywhere in server/http/."""
    found = set()
    for path in HTTP.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id == "ApiError" and node.args):
                first = node.args[0]
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    found.add(first.value)
                elif isinstance(first, ast.IfExp):  # "a" if ... else "b"
                    found |= {n.value for n in (first.body, first.orelse)
                              if isinstance(n, ast.Constant)}
    return found


def test_every_code_raised_is_in_the_table() -> None:
    raised = _codes_raised()
    assert len(raised) >= 15
    assert raised <= set(errors.ERROR_CODES), raised - set(errors.ERROR_CODES)


def test_an_api_error_takes_its_status_and_reason_from_the_table() -> None:
    error = errors.ApiError("session_busy", "busy", field="session_id")
    assert (error.status, error.reason) == (409, "session_busy")
    assert error.body.error.code == "session_busy"
    assert errors.ApiError("http_error", "teapot", status=418).status == 418
    assert errors.ApiError("invalid_request", "x", status=418).status == 400
    with pytest.raises(KeyError):
        errors.ApiError("no_such_code", "x")


def test_the_documented_responses_come_from_the_table() -> None:
    responses = errors.error_responses("invalid_request", "invalid_json", "rate_limited")
    assert set(responses) == {400, 429}
    assert responses[400]["description"].startswith("`invalid_request`: ")
    assert "`invalid_json`: " in responses[400]["description"]
    assert {409, 421, 404} <= set(errors.SESSION_ERROR_RESPONSES)
    assert 503 in errors.JOB_ERROR_RESPONSES


def test_the_metrics_reasons_are_reasons_of_the_table() -> None:
    reasons = {code.reason for code in errors.ERROR_CODES.values()}
    assert set(REJECTION_REASONS) <= reasons
