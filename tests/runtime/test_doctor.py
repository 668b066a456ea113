"""`wasm-exec doctor` as a user runs it: a real subprocess on this host, every check real."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHECKS = {
    "runtime", "hello", "latency", "deadline-busy-loop", "deadline-sleep", "fuel",
    "fuel-per-second", "memory-cap", "stdout-cap", "stderr-cap", "no-preopens",
    "no-environment", "no-network", "isolation", "audit-policy",
}


def doctor(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sandbox_wasm", "doctor", *args],
        capture_output=True, text=True, timeout=300, cwd=ROOT, env=env,
    )


@pytest.fixture(scope="module")
def report() -> dict[str, object]:
    done = doctor("--json", "--samples", "5")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "panic" not in done.stderr and "Traceback" not in done.stderr
    return json.loads(done.stdout)


def test_every_check_holds_on_this_host(report: dict[str, object]) -> None:
    checks = {c["name"]: c for c in report["checks"]}  # type: ignore[union-attr, index]
    assert set(checks) == CHECKS
    failed = {name: c["detail"] for name, c in checks.items() if not c["ok"]}
    assert report["ok"] is True and not failed, failed


def test_reports_runtime_hash_latency_and_fuel_rate(report: dict[str, object]) -> None:
    checks = {c["name"]: c for c in report["checks"]}  # type: ignore[union-attr, index]
    runtime = checks["runtime"]["data"]
    # Our own build: its manifest's recipe and determinism are reported.
    assert runtime["name"] == "cpython313-wasi-snapshot" and runtime["version"] == "3.13.15"
    assert len(str(runtime["recipe_hash"])) == 64 and runtime["deterministic_build"] is True
    assert len(runtime["sha256"]) == 64 and runtime["wasmtime"] == "50.0.1"
    latency = checks["latency"]["data"]
    assert latency["samples"] == 5 and 0 < latency["median_ms"] <= latency["p95_ms"]
    rate = checks["fuel-per-second"]["data"]
    assert rate["fuel_per_second"] > 10**8 and rate["budget_headroom"] > 1
    for name in ("deadline-busy-loop", "deadline-sleep"):
        assert 0 < checks[name]["data"]["stopped_ms"] < 1_000


def test_text_output_one_line_per_check() -> None:
    done = doctor("--samples", "2")
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.strip().splitlines()
    assert len(lines) == len(CHECKS) + 1  # one per check, then the summary
    for line in lines:
        name, status, *_ = line.split()
        assert status == "ok", line
        assert name in CHECKS | {"doctor"}
    assert "panic" not in done.stderr


def test_exits_non_zero_when_a_check_fails(tmp_path: Path) -> None:
    """Without a usable runtime the doctor says so, in one FAIL line, and exits 1."""
    env = {"SANDBOX_WASM_RUNTIME_DIR": str(tmp_path), "PATH": "/usr/bin:/bin"}
    done = doctor("--json", env=env)
    assert done.returncode == 1, done.stdout + done.stderr
    result = json.loads(done.stdout)
    assert result["ok"] is False
    runtime = result["checks"][0]
    assert runtime["name"] == "runtime" and not runtime["ok"]
    assert "`wasm-exec runtime install" in runtime["detail"]
    assert "cpython313" in runtime["detail"]
    assert "Traceback" not in done.stderr


def test_usage_error_is_one_line_exit_2() -> None:
    done = doctor("--bogus")
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "unrecognized arguments" in lines[0]
