"""language="javascript": QuickJS-ng for WASI under the same limits and result model."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

import sandbox_wasm as sw

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def js() -> sw.Sandbox:
    box = sw.Sandbox()
    box.warm_up("javascript")
    return box


def test_console_log_and_result_json(js: sw.Sandbox) -> None:
    result = js.execute("console.log(JSON.stringify({sum: [1, 2, 3].reduce((a, b) => a + b)}))",
                        language="javascript")
    assert (result.status, result.exit_code) == ("succeeded", 0)
    assert result.result_json == {"sum": 6}
    assert result.language == "javascript" and result.runtime.name == "quickjs-ng-wasi"


def test_audit_section_says_not_applicable(js: sw.Sandbox) -> None:
    result = js.execute("console.log(1)", language="javascript")
    assert result.audit.policy == "none" and result.audit.safety_verdict == "safe"
    assert result.audit.flagged_calls == []


def test_syntax_error(js: sw.Sandbox) -> None:
    result = js.execute("let x = ;", language="javascript")
    assert (result.status, result.exit_code, result.syntax_valid) == ("syntax_error", 1, False)
    assert result.error is not None and result.error.type == "SyntaxError"
    assert result.metrics.fuel_consumed == 0  # nothing ran


def test_runtime_syntax_error_is_a_failure_not_a_syntax_error(js: sw.Sandbox) -> None:
    result = js.execute('JSON.parse("{")', language="javascript")
    assert result.status == "failed" and result.syntax_valid
    assert result.error is not None and result.error.type == "SyntaxError"


def test_uncaught_exception(js: sw.Sandbox) -> None:
    result = js.execute("throw new TypeError('bad thing')", language="javascript")
    assert (result.status, result.exit_code) == ("failed", 1)
    assert result.error == sw.ErrorInfo(type="TypeError", message="bad thing")
    assert "bad thing" in result.stderr


@pytest.mark.parametrize(
    "code",
    [
        pytest.param("console.log(std.loadFile('/etc/passwd'))", id="std-global"),
        pytest.param("import * as std from 'std'; console.log(std.loadFile('/etc/passwd'))",
                     id="std-import"),
        pytest.param("import * as os from 'os'; os.exec(['/bin/sh', '-c', 'id'])", id="os-exec"),
        pytest.param("import * as std from 'std'; console.log(std.getenv('HOME'))", id="env"),
        pytest.param("console.log(typeof require, typeof process, typeof fetch)", id="no-node"),
    ],
)
def test_host_is_out_of_reach(js: sw.Sandbox, code: str) -> None:
    result = js.execute(code, language="javascript")
    assert "root:" not in result.stdout
    if result.status == "succeeded":
        assert result.stdout == "undefined undefined undefined\n"
    else:
        assert result.status == "failed"


def test_infinite_loop_times_out(js: sw.Sandbox) -> None:
    started = time.monotonic()
    result = js.execute("while (true) {}", language="javascript", timeout_ms=500)
    assert (result.status, result.exit_code) == ("timeout", 124)
    assert time.monotonic() - started < 3


def test_memory_growth_is_capped(js: sw.Sandbox) -> None:
    code = "const a = []; while (true) a.push(new Array(100000).fill(1));"
    result = js.execute(code, language="javascript", memory_mb=32, timeout_ms=5000)
    assert result.status in ("failed", "memory_exceeded")
    assert result.metrics.peak_memory_bytes <= 32 * 1024 * 1024


def test_output_flood_is_capped(js: sw.Sandbox) -> None:
    code = "for (let i = 0; i < 100000; i++) console.log('flood line ' + i);"
    result = js.execute(code, language="javascript", limits={"max_stdout_bytes": 4096})
    assert result.status == "succeeded"
    assert len(result.stdout.encode()) == 4096 and result.stdout_truncated
    assert result.metrics.stdout_bytes > 1_000_000


def test_isolation_between_runs(js: sw.Sandbox) -> None:
    js.execute("globalThis.leak = 42; Object.prototype.polluted = 1;", language="javascript")
    result = js.execute("console.log(typeof leak, ({}).polluted)", language="javascript")
    assert result.stdout == "undefined undefined\n"


def test_cli_runs_js_file() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "sandbox_wasm", str(ROOT / "examples" / "fizzbuzz.js")],
        capture_output=True, text=True, timeout=60, cwd=ROOT,
    )
    assert done.returncode == 0
    assert done.stdout.splitlines()[0].endswith("13 14 FizzBuzz")
