"""wasm-exec as a user runs it: real subprocesses, exit codes and messages."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


def wasm_exec(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sandbox_wasm", *args],
        input=stdin, capture_output=True, text=True, timeout=120, cwd=ROOT,
    )


def test_safe_example() -> None:
    done = wasm_exec(str(EXAMPLES / "safe_computation.py"))
    assert done.returncode == 0
    assert done.stdout == "25 primes below 100, summing to 1060\n"
    assert "panic" not in done.stderr


def test_blocked_example_exit_1() -> None:
    done = wasm_exec(str(EXAMPLES / "blocked_injection.py"))
    assert done.returncode == 1 and done.stdout == ""
    assert "blocked" in done.stderr and "subprocess" in done.stderr


def test_infinite_loop_example_times_out() -> None:
    done = wasm_exec("--profile", "fast_1s", str(EXAMPLES / "infinite_loop.py"))
    assert done.returncode == 124 and "timeout" in done.stderr


def test_json_output() -> None:
    done = wasm_exec("--json", str(EXAMPLES / "json_result.py"))
    assert done.returncode == 0
    result = json.loads(done.stdout)
    assert result["status"] == "succeeded" and set(result["result_json"]) == {"mean", "stdev"}


def test_code_flag_and_stdin() -> None:
    assert wasm_exec("-c", "print(6 * 7)").stdout == "42\n"
    assert wasm_exec("-", stdin="print('from stdin')").stdout == "from stdin\n"


def test_guest_exit_code_and_stderr_pass_through() -> None:
    done = wasm_exec("-c", "raise ValueError('bad value')")
    assert done.returncode == 1 and "ValueError: bad value" in done.stderr


def test_limit_flags() -> None:
    done = wasm_exec("--json", "--timeout-ms", "1234", "--memory-mb", "64", "-c", "pass")
    limits = json.loads(done.stdout)["limits"]
    assert (limits["timeout_ms"], limits["memory_mb"]) == (1234, 64)


def test_report_only_runs_flagged_code_in_the_sandbox() -> None:
    done = wasm_exec("--report-only", "-c", "import os\nprint(os.listdir('/etc'))")
    assert done.returncode == 1 and "FileNotFoundError" in done.stderr


def test_audit_subcommand(tmp_path: Path) -> None:
    script = tmp_path / "s.py"
    script.write_text("import socket\nprint(1)\n")
    done = wasm_exec("audit", str(script))
    assert done.returncode == 1 and "socket" in done.stdout and "blocked" in done.stdout
    script.write_text("print(1)\n")
    assert wasm_exec("audit", str(script)).returncode == 0
    report = json.loads(wasm_exec("audit", "--json", str(script)).stdout)
    assert report["safety_verdict"] == "safe"


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        pytest.param(["missing.py"], "no such file", id="missing-file"),
        pytest.param(["examples"], "is a directory", id="directory"),
        pytest.param(["--bogus", "x.py"], "unrecognized arguments", id="bad-flag"),
        pytest.param(["--timeout-ms", "abc", "x.py"], "invalid int value", id="bad-int"),
        pytest.param(["--timeout-ms", "0", "-c", "pass"], "timeout_ms", id="out-of-range"),
        pytest.param(["--profile", "slow", "-c", "pass"], "invalid choice", id="bad-profile"),
        pytest.param([], "no script given", id="nothing"),
        pytest.param(["-c", "pass", "x.py"], "not both", id="both"),
        pytest.param(["-c", "print(1)\x00"[:-1] + "\\x00", "--max-source-bytes", "3"],
                     "over the limit", id="too-large"),
    ],
)
def test_usage_errors_exit_2_with_one_line(args: list[str], fragment: str) -> None:
    done = wasm_exec(*args)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and fragment in lines[0], done.stderr
    assert "Traceback" not in done.stderr


def test_unreadable_and_invalid_files(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_bytes(b"print('\xff')")
    done = wasm_exec(str(bad))
    assert done.returncode == 2 and "UTF-8" in done.stderr
    nul = tmp_path / "nul.py"
    nul.write_bytes(b"print(1)\x00")
    done = wasm_exec(str(nul))
    assert done.returncode == 2 and "null byte" in done.stderr


def test_missing_runtime_exit_70(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "sandbox_wasm", "-c", "print(1)"],
        capture_output=True, text=True, timeout=60,
        env={"SANDBOX_WASM_RUNTIME_DIR": str(tmp_path), "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 70 and "scripts/setup.sh" in done.stderr
    assert "Traceback" not in done.stderr


def test_python_dash_m_sandbox_wasm_is_the_cli() -> None:
    done = subprocess.run([sys.executable, "-m", "sandbox_wasm", "-c", "print(6 * 7)"],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert (done.returncode, done.stdout) == (0, "42\n"), done.stderr
    helped = subprocess.run([sys.executable, "-m", "sandbox_wasm", "--help"],
                            capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert helped.returncode == 0 and "wasm-exec" in helped.stdout
