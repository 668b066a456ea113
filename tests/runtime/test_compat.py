"""The drop-in layer for the products sandbox-wasm replaces: their usage examples, as their
notes write them (shared/seeds/001 and 002), run against `sandbox_wasm.compat` on the real
sandbox."""

from __future__ import annotations

import time

import pytest

import sandbox_wasm as sw
from sandbox_wasm.compat import (
    ASTSafetyValidator,
    SafeCodeExecutor,
    SecureToolRuntime,
    SecurityValidationError,
)


# -- seed 002: SafeCodeExecutor --------------------------------------------------------------
@pytest.fixture(scope="module")
def executor() -> SafeCodeExecutor:
    return SafeCodeExecutor()


def test_seed_002_python_usage(executor: SafeCodeExecutor) -> None:
    result = executor.execute(
        language="python",
        code="""
import json
data = {"a": 1, "b": 2}
print(json.dumps({"sum": data["a"] + data["b"]}))
""",
    )
    assert result["status"] == "succeeded"
    assert result["stdout"] == '{"sum": 3}\n'
    assert result["result_json"] == {"sum": 3}


def test_seed_002_javascript_usage(executor: SafeCodeExecutor) -> None:
    result = executor.execute(
        language="javascript",
        code="""
const data = {a: 1, b: 2};
console.log(JSON.stringify({sum: data.a + data.b}));
""",
    )
    assert result["status"] == "succeeded"
    assert result["result_json"] == {"sum": 3}


def test_seed_002_response_fields_and_limit_names(executor: SafeCodeExecutor) -> None:
    result = executor.execute(language="python", code="print('hello')",
                              limits={"timeout_ms": 3000, "max_memory_mb": 256})
    assert (result["status"], result["stdout"], result["stderr"]) == ("succeeded", "hello\n", "")
    assert result["result_json"] is None
    assert len(result["execution_id"]) == 32
    assert result["metrics"]["stdout_bytes"] == 6
    assert result["metrics"]["execution_time_ms"] > 0
    assert (result["limits"]["timeout_ms"], result["limits"]["memory_mb"]) == (3000, 256)


def test_seed_002_defaults_maxima_and_blocked_imports(executor: SafeCodeExecutor) -> None:
    limits = executor.execute(code="print(1)")["limits"]
    assert (limits["timeout_ms"], limits["memory_mb"]) == (5000, 256)
    assert (limits["max_stdout_bytes"], limits["max_stderr_bytes"]) == (65536, 8192)
    with pytest.raises(sw.InvalidRequestError):
        executor.execute(code="print(1)", limits={"timeout_ms": 31_000})
    with pytest.raises(sw.InvalidRequestError):
        executor.execute(code="print(1)", limits={"max_memory_mb": 2048})
    for banned in ("os", "sys", "subprocess", "socket", "pathlib", "pickle", "importlib"):
        assert executor.execute(code=f"import {banned}")["status"] == "blocked", banned
    assert executor.execute(code="while True: pass", limits={"timeout_ms": 300})["status"] == (
        "timeout"
    )


# -- seed 001: SecureToolRuntime ------------------------------------------------------------
@pytest.fixture(scope="module")
def runtime() -> SecureToolRuntime:
    return SecureToolRuntime()


def test_seed_001_safe_script_output_is_captured(runtime: SecureToolRuntime) -> None:
    result = runtime.execute("import math\nprint(math.sqrt(16))\nprint('to stderr', 1 / 1)")
    assert result.success and result.error is None
    assert result["stdout"] == "4.0\nto stderr 1.0\n" and result["stderr"] == ""


@pytest.mark.parametrize("code", [
    pytest.param("open('/etc/passwd').read()", id="open"),
    pytest.param("eval('1 + 1')", id="eval"),
    pytest.param("__import__('os').system('id')", id="covert-import"),
    pytest.param('getattr(sys.modules["__builtins__"], "op" + "en")("/etc/passwd")',
                 id="getattr-open"),
    pytest.param("import subprocess", id="import-subprocess"),
    pytest.param("from os import path", id="from-os"),
    pytest.param("def f(:\n    pass", id="invalid-ast"),
])
def test_seed_001_validation_raises_before_anything_runs(
    runtime: SecureToolRuntime, code: str
) -> None:
    with pytest.raises(SecurityValidationError) as caught:
        runtime.execute(code)
    assert str(caught.value)
    if "def f(:" not in code:
        assert caught.value.findings
    with pytest.raises(SecurityValidationError):
        ASTSafetyValidator().validate(code)


def test_seed_001_infinite_loop_is_stopped_at_the_default_two_seconds(
    runtime: SecureToolRuntime,
) -> None:
    assert runtime.timeout_seconds == 2.0
    started = time.monotonic()
    result = runtime.execute("while True:\n    pass")
    assert time.monotonic() - started < 2.0 + 3.0
    assert not result.success and result.status == "timeout"
    assert result.error is not None and result.error.startswith("TimeoutError")
    assert result.result.limits.timeout_ms == 2000


def test_seed_001_runtime_errors_are_an_error_status(runtime: SecureToolRuntime) -> None:
    result = runtime.run("print('before')\n1 / 0")
    assert not result.success and result.stdout == "before\n"
    assert result.error == "ZeroDivisionError: division by zero"
    assert "Traceback" in result.stderr


def test_validator_returns_the_report_for_safe_code() -> None:
    report = ASTSafetyValidator().validate("x = sum(range(10))\nprint(x)")
    assert report.safety_verdict == "safe" and report.syntax_valid
