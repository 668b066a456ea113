"""execute_many and `wasm-exec batch`: real worker processes, a real local Ray cluster and the
real sandbox; results compared with sequential `execute()`."""

from __future__ import annotations

import base64
import itertools
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import sandbox_wasm as sw
from sandbox_wasm.batch import LocalPool, connect_ray, prepare, shutdown_ray
from sandbox_wasm.batch._worker import worker_setup

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "examples" / "batch" / "sample.jsonl"

# One of each outcome, in an order where slow items precede fast ones (order must hold).
MIXED: list[Any] = [
    {"code": "import json\nprint(json.dumps({'n': sum(range(10))}))"},
    {"code": "while True:\n    pass", "limits": {"timeout_ms": 300}},
    {"code": "raise ValueError('bad value')"},
    {"code": "import ctypes"},
    {"code": "open('/etc/passwd')"},
    {"code": "def f(:\n    pass"},
    "print('a plain code string')",
    sw.ExecutionRequest(code="import sys\nsys.exit(3)"),
    {"code": "console.log(JSON.stringify({sum: 1 + 2}))", "language": "javascript"},
    {"code": "throw new TypeError('js boom')", "language": "javascript"},
    {"code": "x = (", "language": "javascript"},
    {"code": "print(1)", "limits": {"timeout_ms": 0}},
    {"code": "print(1)\x00"},
    {"code": "print(1)", "language": "cobol"},
    {"source": "print(1)"},
]

# Everything in a result that does not depend on timing or identity.
STABLE = ("language", "status", "exit_code", "syntax_valid", "stdout", "stderr", "result_json",
          "audit", "error", "limits", "runtime")


def stable(result: sw.ExecutionResult | sw.InvalidRequest) -> dict[str, Any]:
    if isinstance(result, sw.InvalidRequest):
        return {"status": result.status, "exit_code": result.exit_code}
    return result.model_dump(include=set(STABLE))


def sequential(sandbox: sw.Sandbox, items: list[Any]) -> list[dict[str, Any]]:
    """The reference: execute() one by one; an InvalidRequestError (or a request the model
    rejects) stands for an invalid_request item."""
    expected = []
    for item in items:
        try:
            request = (
                sw.ExecutionRequest(code=item) if isinstance(item, str)
                else sw.ExecutionRequest.model_validate(item)
            )
            result = sandbox.execute(request.code, language=request.language,
                                     limits=request.limits)
        except (sw.InvalidRequestError, ValueError):
            expected.append({"status": "invalid_request", "exit_code": 2})
            continue
        expected.append(stable(result))
    return expected


@pytest.fixture(scope="module")
def expected() -> list[dict[str, Any]]:
    # The runtime the batch workers pick by default, like this Sandbox.
    return sequential(sw.Sandbox(), MIXED)


def test_reference_covers_every_outcome(expected: list[dict[str, Any]]) -> None:
    statuses = {e["status"] for e in expected}
    assert statuses >= {"succeeded", "failed", "blocked", "syntax_error", "timeout",
                        "invalid_request"}


# -- local backend ------------------------------------------------------------------------------
def test_local_matches_sequential(expected: list[dict[str, Any]]) -> None:
    results = list(sw.execute_many(MIXED, workers=2))
    assert [stable(r) for r in results] == expected
    invalid = [r for r in results if isinstance(r, sw.InvalidRequest)]
    assert [r.index for r in invalid] == [11, 12, 13, 14]
    assert "timeout_ms" in invalid[0].error.message
    assert invalid[1].error.message == "source contains a null byte"
    assert "language" in invalid[2].error.message and "source" in invalid[3].error.message
    assert all(not r.ok and r.error.type == "InvalidRequestError" for r in invalid)


def test_batch_limits_are_defaults_that_requests_override() -> None:
    items = [{"code": "pass"}, {"code": "pass", "limits": {"timeout_ms": 2_000}}]
    results = list(sw.execute_many(items, workers=1, limits={"timeout_ms": 700,
                                                             "memory_mb": 64}))
    assert [(r.limits.timeout_ms, r.limits.memory_mb) for r in results] == [(700, 64),
                                                                           (2_000, 64)]


def test_batch_takes_the_limit_keywords_of_execute() -> None:
    items = [{"code": "pass"}, {"code": "pass", "limits": {"memory_mb": 128}}]
    results = list(sw.execute_many(items, workers=1, limits={"memory_mb": 64},
                                   profile="fast_1s", memory_mb=96))
    assert [(r.limits.timeout_ms, r.limits.memory_mb) for r in results] == [(1_000, 96),
                                                                           (1_000, 128)]
    [result] = sw.execute_many(["pass"], workers=1, timeout_ms=1_500)
    assert result.limits.timeout_ms == 1_500
    with pytest.raises(sw.InvalidRequestError, match="memory_mb"):
        list(sw.execute_many(["pass"], workers=1, memory_mb=8))
    with pytest.raises(sw.InvalidRequestError, match="profile"):
        list(sw.execute_many(["pass"], workers=1, profile="forever"))


def test_policy_applies_to_the_whole_batch() -> None:
    [result] = sw.execute_many(["import os\nprint(os.listdir('/etc'))"], workers=1,
                               policy=sw.REPORT_ONLY_POLICY)
    assert result.status == "failed" and result.audit.safety_verdict == "flagged"
    assert result.error.type == "FileNotFoundError"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        pytest.param({"backend": "gpu"}, "unknown backend", id="backend"),
        pytest.param({"workers": 0}, "workers", id="workers"),
        pytest.param({"max_pending": 0}, "max_pending", id="max-pending"),
        pytest.param({"ray_address": "127.0.0.1:1"}, "ray_address", id="address-without-ray"),
        pytest.param({"limits": {"timeout_ms": 10**9}}, "timeout_ms", id="limits"),
    ],
)
def test_invalid_arguments_raise_at_once(options: dict[str, Any], message: str) -> None:
    with pytest.raises(sw.InvalidRequestError, match=message):
        sw.execute_many(["print(1)"], **options)


def test_input_streams_with_bounded_read_ahead() -> None:
    pulled = 0

    def endless() -> Iterator[str]:
        nonlocal pulled
        for i in itertools.count():
            pulled += 1
            yield f"print({i})"

    results = sw.execute_many(endless(), workers=2, max_pending=8)
    first = [r.stdout for r in itertools.islice(results, 5)]
    assert first == [f"{i}\n" for i in range(5)]
    assert pulled <= 5 + 8
    results.close()  # stops the workers
    assert _wait_for(lambda: not _worker_pids())


# -- files --------------------------------------------------------------------------------------
CSV = b"a,b\n1,2\n3,4\n"
COUNT_ROWS = (
    "rows = open('/input/data.csv').read().splitlines()\n"
    "open('/output/count.txt', 'w').write(str(len(rows)))\n"
    "open('/output/raw.bin', 'wb').write(bytes([0xfb, 0xff, 0xfe, 0x3e]))\n"
    "print(len(rows))"
)
COUNT_FILES = {"count.txt": b"3", "raw.bin": b"\xfb\xff\xfe>"}
FILE_ITEMS: list[Any] = [
    {"code": COUNT_ROWS, "files": {"data.csv": CSV}},
    {"code": COUNT_ROWS, "files": {"data.csv": base64.b64encode(CSV).decode()}},
    sw.ExecutionRequest(code=COUNT_ROWS, files={"data.csv": CSV}),
    {"code": COUNT_ROWS, "files": {"data.csv": "not base64!"}},
    {"code": COUNT_ROWS, "files": {"../data.csv": CSV}},
    {"code": "print(1)"},
]


def check_file_results(results: list[sw.ExecutionResult | sw.InvalidRequest]) -> None:
    for result in results[:3]:
        assert isinstance(result, sw.ExecutionResult)
        assert (result.status, result.stdout, result.files) == ("succeeded", "3\n", COUNT_FILES)
    bad_base64, bad_name = results[3], results[4]
    assert isinstance(bad_base64, sw.InvalidRequest) and isinstance(bad_name, sw.InvalidRequest)
    assert "files.data.csv" in bad_base64.error.message
    assert "not valid base64" in bad_base64.error.message
    assert "'../data.csv'" in bad_name.error.message
    assert results[5].status == "succeeded" and results[5].files == {}


def test_items_take_input_files_and_return_output_files() -> None:
    check_file_results(list(sw.execute_many(FILE_ITEMS, workers=2)))


def test_ray_items_take_input_files_and_return_output_files(ray_cluster: str) -> None:
    check_file_results(list(sw.execute_many(FILE_ITEMS, backend="ray")))


# -- crashes ------------------------------------------------------------------------------------
def _worker_pids() -> list[int]:
    """Our local batch workers: children of this process running the worker entry point."""
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
        except OSError:
            continue
        state, ppid = stat.rsplit(")", 1)[1].split()[:2]
        if int(ppid) == os.getpid() and state != "Z" and b"worker_main" in cmdline:
            pids.append(int(entry))
    return pids


def _wait_for(condition: Any, timeout: float = 30.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.02)
    return False


needs_proc = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")


@needs_proc
def test_worker_killed_mid_batch_loses_nothing() -> None:
    items = [{"code": f"import time\ntime.sleep(0.4)\nprint({i})"} for i in range(8)]
    killed = []
    outputs = []
    for result in sw.execute_many(items, workers=2):
        outputs.append((result.status, result.stdout))
        if not killed:
            killed = _worker_pids()
            for pid in killed:
                os.kill(pid, signal.SIGKILL)
    assert killed, "no worker process found to kill"
    assert outputs == [("succeeded", f"{i}\n") for i in range(8)]


def test_request_whose_worker_dies_twice_is_an_internal_error() -> None:
    pool = LocalPool(1, worker_setup(sw.STRICT_POLICY, None))
    slow = prepare(0, {"code": "import time\ntime.sleep(20)", "limits": {"timeout_ms": 30_000}},
                   {})
    after = prepare(1, "print('next')", {})
    killed: list[int] = []

    def kill_twice() -> None:
        while len(killed) < 2:
            pids = [pid for pid in pool.busy_worker_pids() if pid not in killed]
            if pids:
                os.kill(pids[0], signal.SIGKILL)
                killed.append(pids[0])
            time.sleep(0.02)

    killer = threading.Thread(target=kill_twice, daemon=True)
    killer.start()
    try:
        pool.submit(slow)  # type: ignore[arg-type]
        [(index, result)] = pool.wait()
        killer.join(timeout=5)
        assert index == 0 and result.status == "internal_error" and result.exit_code == 70
        assert result.error.type == "WorkerCrashed"
        assert "twice" in result.error.message and "signal 9" in result.error.message
        assert result.runtime.name.startswith("cpython313-wasi")
        pool.submit(after)  # type: ignore[arg-type]
        [(index, result)] = pool.wait()
        assert (index, result.status, result.stdout) == (1, "succeeded", "next\n")
    finally:
        pool.close(abort=True)
    assert len(set(killed)) == 2


# -- Ray backend --------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def ray_cluster() -> Iterator[str]:
    """A real two-CPU Ray cluster on this machine, connected the way execute_many connects;
    yields its address."""
    # Single node, bound to loopback only (Ray otherwise binds the machine's address). Ray
    # reads this when it is imported.
    os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"
    pytest.importorskip("ray")
    try:
        ray = connect_ray(None, num_cpus=2, include_dashboard=False, log_to_driver=False)
        address = ray.get_runtime_context().gcs_address
        assert address.startswith("127.0.0.1:"), address
        yield address
    finally:
        shutdown_ray()
        os.environ.pop("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", None)
    # Disconnecting must leave this process able to take a guest's memory trap too.
    guest_faults_are_survived()


def test_ray_matches_sequential(ray_cluster: str, expected: list[dict[str, Any]]) -> None:
    results = list(sw.execute_many(MIXED, backend="ray"))
    assert [stable(r) for r in results] == expected


def guest_faults_are_survived() -> None:
    """wasmtime turns guest faults into signals; a crash handler of Ray's in their way would
    abort this process here."""
    box = sw.Sandbox(limits=sw.Limits(max_source_bytes=1 << 20))
    assert box.execute("while True:\n    pass", timeout_ms=200).status == "timeout"
    # Too little memory to audit a large source: the guest dies at its memory cap (a trap).
    assert box.execute("x = 1\n" * 20_000, memory_mb=32).status == "memory_exceeded"
    assert box.execute("print(1)").stdout == "1\n"


def test_in_process_execution_survives_the_ray_connection(ray_cluster: str) -> None:
    guest_faults_are_survived()


def _ray_task_pids() -> list[int]:
    pids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
            except OSError:
                continue
            if cmdline.startswith(b"ray::_ray_execute"):
                pids.append(int(entry))
    return pids


@needs_proc
def test_ray_worker_killed_mid_batch_loses_nothing(ray_cluster: str) -> None:
    items = [{"code": f"import time\ntime.sleep(0.5)\nprint({i})"} for i in range(6)]
    killed = []
    outputs = []
    for result in sw.execute_many(items, backend="ray", workers=2):
        outputs.append((result.status, result.stdout))
        if not killed:
            # The next tasks may not have started yet: wait for one that runs.
            _wait_for(lambda: bool(_ray_task_pids()), timeout=10)
            killed = _ray_task_pids()[:1]
            for pid in killed:
                os.kill(pid, signal.SIGKILL)
    assert killed, "no Ray worker process found to kill"
    assert outputs == [("succeeded", f"{i}\n") for i in range(6)]


# -- the CLI ------------------------------------------------------------------------------------
def wasm_exec(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sandbox_wasm", *args],
        capture_output=True, text=True, timeout=300, cwd=ROOT, stdin=subprocess.DEVNULL,
    )


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


SAMPLE_STATUSES = {
    "sum-squares": "succeeded", "json-result": "succeeded", "exception": "failed",
    "blocked-import": "blocked", "blocked-eval": "blocked", "syntax-error": "syntax_error",
    "infinite-loop": "timeout", "javascript": "succeeded", "python-312-syntax": "succeeded",
    "small-memory": "succeeded",
}


def test_cli_runs_the_sample(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    done = wasm_exec("batch", str(SAMPLE), "-o", str(out), "--workers", "2")
    assert done.returncode == 0, done.stderr
    records = read_jsonl(out)
    assert {r["id"]: r["status"] for r in records} == SAMPLE_STATUSES
    assert [r["id"] for r in records] == [json.loads(line)["id"] for line in
                                          SAMPLE.read_text().splitlines()]
    assert records[1]["result_json"] == {"mean": 3.875, "max": 9}
    assert "ran 10 requests" in done.stderr and "executions/s" in done.stderr
    assert "succeeded: 5" in done.stderr and "blocked: 2" in done.stderr
    assert "panic" not in done.stderr


def test_cli_reports_bad_lines_and_goes_on(tmp_path: Path) -> None:
    lines = [
        b'{"id": 1, "code": "print(6 * 7)"}',
        b'{"code": "print(1)"',
        b"[1, 2]",
        b'{"code": "print(1)", "timeout": 5}',
        b'{"code": "print(1)", "limits": {"memory_mb": 4096}}',
        b"",
        b'{"code": "print(\'\xff\')"}',
        b'{"id": "js", "code": "console.log(1)", "language": "javascript"}',
        b'{"code": "print(1)\\u0000"}',
        b'{"id": "last", "code": "print(\'still running\')"}',
    ]
    source = tmp_path / "in.jsonl"
    source.write_bytes(b"\n".join(lines) + b"\n")
    out = tmp_path / "out.jsonl"
    done = wasm_exec("batch", str(source), "-o", str(out), "--workers", "2")
    assert done.returncode == 0, done.stderr
    records = read_jsonl(out)
    assert len(records) == len(lines)
    assert [r["status"] for r in records] == [
        "succeeded", "invalid_request", "invalid_request", "invalid_request",
        "invalid_request", "invalid_request", "invalid_request", "succeeded",
        "invalid_request", "succeeded",
    ]
    assert records[0]["id"] == 1 and records[0]["stdout"] == "42\n"
    bad = {r["line"]: r["error"]["message"] for r in records if r["status"] == "invalid_request"}
    assert list(bad) == [2, 3, 4, 5, 6, 7, 9]
    assert bad[2].startswith("invalid JSON")
    assert "JSON object" in bad[3]
    assert "timeout" in bad[4] and "memory_mb" in bad[5]
    assert "empty line" in bad[6] and "UTF-8" in bad[7] and "null byte" in bad[9]
    assert records[7]["id"] == "js" and records[9]["stdout"] == "still running\n"
    assert "invalid_request: 7" in done.stderr and "line 2: invalid JSON" in done.stderr


def _strict_loads(line: str) -> Any:
    def refuse(name: str) -> Any:
        raise AssertionError(f"non-strict JSON constant {name} in output: {line[:200]}")

    return json.loads(line, parse_constant=refuse)


def test_cli_turns_lines_it_cannot_parse_or_encode_into_invalid_requests(tmp_path: Path) -> None:
    deep = "[" * 100_000 + "]" * 100_000
    lines = [
        b'{"id": 1, "code": "print(1)", "extra": ' + deep.encode() + b"}",
        b'{"id": ' + ("[" * 5_000 + "]" * 5_000).encode() + b', "code": "print(2)"}',
        b'{"id": "\\ud800", "code": "print(3)"}',
        b'{"id": NaN, "code": "print(4)"}',
        b'{"id": Infinity, "code": "print(5)"}',
        b'{"id": "deep-stdout", "code": "print(\'[\' * 300 + \']\' * 300)"}',
        b'{"id": "last", "code": "print(\'still running\')"}',
    ]
    source = tmp_path / "in.jsonl"
    source.write_bytes(b"\n".join(lines) + b"\n")
    out = tmp_path / "out.jsonl"
    done = wasm_exec("batch", str(source), "-o", str(out), "--workers", "2")
    assert done.returncode == 0, done.stderr
    records = [_strict_loads(line) for line in out.read_text("utf-8").splitlines()]
    assert [r["status"] for r in records] == [
        "invalid_request", "invalid_request", "invalid_request", "invalid_request",
        "invalid_request", "succeeded", "succeeded",
    ], records
    assert [r.get("line") for r in records[:5]] == [1, 2, 3, 4, 5]
    messages = [r["error"]["message"] for r in records[:5]]
    assert "nested too deeply" in messages[0] and "nested too deeply" in messages[1]
    assert "invalid id" in messages[2] and "surrogate" in messages[2]
    assert "NaN is not JSON" in messages[3] and "Infinity is not JSON" in messages[4]
    assert records[5]["result_json"] is None and records[5]["result_json_error"]
    assert records[6]["id"] == "last" and records[6]["stdout"] == "still running\n"
    assert "Traceback" not in done.stderr


def test_cli_writes_stdout_by_default_and_applies_default_limits() -> None:
    done = wasm_exec("batch", str(SAMPLE), "--timeout-ms", "1500", "--workers", "1")
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in done.stdout.splitlines()]
    timeouts = {r["id"]: r["limits"]["timeout_ms"] for r in records}
    assert timeouts["sum-squares"] == 1500 and timeouts["infinite-loop"] == 500


@pytest.mark.parametrize(
    ("args", "message"),
    [
        pytest.param(["missing.jsonl"], "no such file", id="missing-input"),
        pytest.param([str(SAMPLE), "--workers", "0"], "positive integer", id="workers"),
        pytest.param([str(SAMPLE), "--backend", "gpu"], "invalid choice", id="backend"),
        pytest.param([str(SAMPLE), "--ray-address", "127.0.0.1:1"], "--backend ray",
                     id="address-without-ray"),
        pytest.param([str(SAMPLE), "--timeout-ms", "0"], "timeout_ms", id="limit"),
        pytest.param([str(SAMPLE), "-o", str(SAMPLE)], "overwrite", id="output-is-input"),
        pytest.param([str(SAMPLE), "-o", "/nonexistent/dir/out.jsonl"], "cannot write",
                     id="unwritable-output"),
        pytest.param([], "required", id="no-input"),
    ],
)
def test_cli_usage_errors(args: list[str], message: str) -> None:
    done = wasm_exec("batch", *args)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and message in done.stderr
    assert done.stdout == ""


def test_cli_reads_and_writes_files_in_base64(tmp_path: Path) -> None:
    requests = tmp_path / "in.jsonl"
    requests.write_text("\n".join(json.dumps(line) for line in [
        {"id": "csv", "code": COUNT_ROWS,
         "files": {"data.csv": base64.b64encode(CSV).decode()}},
        {"id": "bad", "code": COUNT_ROWS, "files": {"data.csv": "YWJ"}},
    ]) + "\n")
    out = tmp_path / "out.jsonl"
    done = wasm_exec("batch", str(requests), "-o", str(out), "--workers", "1")
    assert done.returncode == 0, done.stderr
    good, bad = read_jsonl(out)
    assert (good["id"], good["status"], good["stdout"]) == ("csv", "succeeded", "3\n")
    assert {name: base64.b64decode(text, validate=True)
            for name, text in good["files"].items()} == COUNT_FILES
    assert (bad["id"], bad["status"], bad["line"]) == ("bad", "invalid_request", 2)
    assert "files.data.csv" in bad["error"]["message"]
    assert "padding" in bad["error"]["message"]


def test_cli_on_ray_cluster_by_address(ray_cluster: str, tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    done = wasm_exec("batch", str(SAMPLE), "-o", str(out), "--backend", "ray",
                     "--ray-address", ray_cluster)
    assert done.returncode == 0, done.stderr
    assert {r["id"]: r["status"] for r in read_jsonl(out)} == SAMPLE_STATUSES


def test_a_worker_puts_the_package_s_parent_on_its_path_not_the_package() -> None:
    """With the package's own directory on sys.path, its _json.py shadowed the standard
    library's C accelerator `_json` in every worker (json fell back to pure Python)."""
    from sandbox_wasm.batch._local import _WORKER_BOOT, package_parent_dir

    parent = package_parent_dir()
    assert (parent / "sandbox_wasm" / "__init__.py").is_file()
    probe = _WORKER_BOOT.split("from sandbox_wasm")[0].format(path=str(parent)) + (
        "import json.scanner, sandbox_wasm; print(json.scanner.c_make_scanner is not None)")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=True, timeout=60)
    assert done.stdout == "True\n"
