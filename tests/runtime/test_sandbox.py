"""execute(): every status of the spec's table, limits, result shape and isolation."""

from __future__ import annotations

import threading
import time

import pytest

import sandbox_wasm as sw
from sandbox_wasm._outcome import extract_result_json


def test_succeeded(sandbox: sw.Sandbox) -> None:
    result = sandbox.execute("print(sum(range(10)))")
    assert (result.status, result.exit_code, result.stdout) == ("succeeded", 0, "45\n")
    assert result.error is None and result.syntax_valid
    assert result.audit.safety_verdict == "safe" and result.audit.policy == "strict"
    assert result.metrics.fuel_consumed > 0 and result.metrics.peak_memory_bytes > 0
    assert result.runtime.version == sandbox.runtime_info.version
    assert result.runtime.version == "3.13.15" and len(result.runtime.sha256) == 64


def test_module_level_execute_and_audit() -> None:
    assert sw.execute("print('hi')").stdout == "hi\n"
    report = sw.audit("import gc")
    assert report.safety_verdict == "blocked" and report.flagged_calls[0].name == "gc"


@pytest.mark.parametrize(
    ("code", "exit_code", "error_type"),
    [
        pytest.param("1/0", 1, "ZeroDivisionError", id="exception"),
        pytest.param("raise SystemExit(3)", 3, "SystemExit", id="sys-exit-3"),
        pytest.param("raise SystemExit(-1)", 255, "SystemExit", id="sys-exit-minus-1"),
        pytest.param("raise SystemExit('bye')", 1, "SystemExit", id="sys-exit-message"),
        pytest.param("raise KeyboardInterrupt", 130, "KeyboardInterrupt", id="keyboard-interrupt"),
        pytest.param("x = 'a' * (10**9)", 1, "MemoryError", id="memory-error"),
        pytest.param("def f(n): return f(n + 1)\nf(0)", 1, "RecursionError", id="recursion"),
    ],
)
def test_failed(sandbox: sw.Sandbox, code: str, exit_code: int, error_type: str) -> None:
    result = sandbox.execute(code)
    assert result.status == "failed"
    assert result.exit_code == exit_code
    assert result.error is not None and result.error.type == error_type


def test_exception_traceback_points_at_user_code(sandbox: sw.Sandbox) -> None:
    result = sandbox.execute("x = 1\ny = {}\ny['missing']")
    assert result.status == "failed" and result.error is not None
    assert result.error.type == "KeyError" and result.error.message == "'missing'"
    assert 'File "<sandbox>", line 3' in result.stderr
    assert "_r" not in result.stderr  # the bootstrap's own frame is hidden


def test_sys_exit_zero_succeeds(open_sandbox: sw.Sandbox) -> None:
    result = open_sandbox.execute("import sys\nprint('x')\nsys.exit(0)")
    assert (result.status, result.exit_code, result.stdout) == ("succeeded", 0, "x\n")


def test_blocked_is_not_executed(sandbox: sw.Sandbox) -> None:
    result = sandbox.execute("print('ran')\nimport subprocess")
    assert (result.status, result.exit_code) == ("blocked", 1)
    assert result.stdout == "" and result.metrics.fuel_consumed == 0
    assert result.error is not None and "subprocess" in result.error.message
    assert result.audit.safety_verdict == "blocked"


def test_syntax_error(sandbox: sw.Sandbox) -> None:
    result = sandbox.execute("def f(:\n  pass")
    assert (result.status, result.exit_code, result.syntax_valid) == ("syntax_error", 1, False)
    assert result.error is not None and result.error.type == "SyntaxError"
    assert "line 1" in result.error.message


def test_timeout_busy_loop(sandbox: sw.Sandbox) -> None:
    started = time.monotonic()
    result = sandbox.execute("while True:\n    pass", timeout_ms=700)
    elapsed = time.monotonic() - started
    assert (result.status, result.exit_code) == ("timeout", 124)
    assert result.error is not None and "700 ms" in result.error.message
    assert result.metrics.execution_time_ms <= 700 * 1.1 + 100
    assert elapsed < 5


def test_timeout_applies_to_sleep(sandbox: sw.Sandbox) -> None:
    result = sandbox.execute("import time\ntime.sleep(100)", timeout_ms=600)
    assert (result.status, result.exit_code) == ("timeout", 124)
    assert 600 * 0.9 <= result.metrics.execution_time_ms <= 600 * 1.1 + 100


def test_short_sleep_still_works(sandbox: sw.Sandbox) -> None:
    code = "import time\nt = time.monotonic()\ntime.sleep(0.2)\nprint(time.monotonic() - t >= 0.19)"
    result = sandbox.execute(code)
    assert (result.status, result.stdout) == ("succeeded", "True\n")


def test_output_before_timeout_is_kept(sandbox: sw.Sandbox) -> None:
    result = sandbox.execute("print('before', flush=False)\nwhile True:\n    pass", timeout_ms=500)
    assert result.status == "timeout" and result.stdout == "before\n"


def test_fuel_exhausted(sandbox: sw.Sandbox) -> None:
    result = sandbox.execute("i = 0\nwhile True:\n    i += 1", limits={"fuel": 600_000_000})
    assert (result.status, result.exit_code) == ("fuel_exhausted", 124)
    assert result.limits.fuel == 600_000_000


def test_memory_cap_is_enforced(sandbox: sw.Sandbox) -> None:
    code = "chunks = []\nwhile True:\n    chunks.append(bytearray(1 << 20))"
    result = sandbox.execute(code, memory_mb=48)
    assert result.status == "failed" and result.error is not None
    assert result.error.type == "MemoryError"
    assert result.metrics.peak_memory_bytes <= 48 * 1024 * 1024


def test_internal_error_when_engine_released(python_runtime: str) -> None:
    box = sw.Sandbox(python_runtime=python_runtime)
    box.warm_up()
    box._program("python").release()
    result = box.execute("print(1)")
    assert (result.status, result.exit_code) == ("internal_error", 70)
    assert result.error is not None and result.error.type == "InternalError"


def test_stdout_cap_truncates(sandbox: sw.Sandbox) -> None:
    result = sandbox.execute("print('x' * 5000)", limits={"max_stdout_bytes": 1000})
    assert result.status == "succeeded"
    assert result.stdout == "x" * 1000 and result.stdout_truncated
    assert result.metrics.stdout_bytes == 5001


def test_stderr_cap_truncates(open_sandbox: sw.Sandbox) -> None:
    code = "import sys\nfor _ in range(100):\n    sys.stderr.write('e' * 100)"
    result = open_sandbox.execute(code, limits={"max_stderr_bytes": 512})
    assert result.status == "succeeded"
    assert result.stderr == "e" * 512 and result.stderr_truncated
    assert result.metrics.stderr_bytes == 10_000


def test_split_utf8_is_decoded_whole(open_sandbox: sw.Sandbox) -> None:
    code = "import os\nb = 'é€😀'.encode()\nfor i in range(len(b)):\n    os.write(1, b[i:i+1])"
    result = open_sandbox.execute(code)
    assert result.stdout == "é€😀"


def test_untruncated_output_is_not_flagged(sandbox: sw.Sandbox) -> None:
    result = sandbox.execute("print('ok')")
    assert not result.stdout_truncated and not result.stderr_truncated


@pytest.mark.parametrize(
    ("stdout", "expected"),
    [
        pytest.param('{"a": 1}\n', {"a": 1}, id="whole-object"),
        pytest.param("[1, 2]", [1, 2], id="whole-array"),
        pytest.param("42\n", 42, id="whole-number"),
        pytest.param('working...\n{"done": true}\n\n', {"done": True}, id="last-line"),
        pytest.param("working...\n42\n", None, id="last-line-scalar"),
        pytest.param("plain text\n", None, id="text"),
        pytest.param("", None, id="empty"),
        pytest.param('{"a": 1}\nmore text', None, id="json-not-last"),
    ],
)
def test_result_json_rule(stdout: str, expected: object) -> None:
    assert extract_result_json(stdout) == expected


def test_result_json_from_guest(sandbox: sw.Sandbox) -> None:
    result = sandbox.execute("import json\nprint('log')\nprint(json.dumps({'answer': 42}))")
    assert result.result_json == {"answer": 42}
    assert sw.ExecutionResult.model_validate_json(result.model_dump_json()) == result


def test_python_312_syntax_runs(sandbox: sw.Sandbox, open_sandbox: sw.Sandbox) -> None:
    code = (
        "type Pair = tuple[int, int]\n"
        "def first[T](items: list[T]) -> T:\n"
        "    return items[0]\n"
        "names = ['a', 'b']\n"
        'print(f"{"-".join(names)}", first([7]), Pair.__value__)\n'
    )
    report = sandbox.audit(code)
    assert report.syntax_valid, report.syntax_error
    result = open_sandbox.execute(code)
    assert (result.status, result.stdout) == ("succeeded", "a-b 7 tuple[int, int]\n")


def test_isolation_between_executions(open_sandbox: sw.Sandbox) -> None:
    first = open_sandbox.execute(
        "import builtins, json, sys\n"
        "LEAK = 1\n"
        "builtins.LEAK_B = 2\n"
        "json.LEAK_M = 3\n"
        "sys.modules['leaky'] = json\n"
        "print('set')"
    )
    assert first.stdout == "set\n"
    second = open_sandbox.execute(
        "import builtins, json, sys\n"
        "print('LEAK' in globals(), hasattr(builtins, 'LEAK_B'), hasattr(json, 'LEAK_M'),"
        " 'leaky' in sys.modules)"
    )
    assert second.stdout == "False False False False\n"


def test_random_differs_between_executions(sandbox: sw.Sandbox) -> None:
    outputs = {sandbox.execute("import random\nprint(random.random())").stdout for _ in range(3)}
    assert len(outputs) == 3


@pytest.mark.parametrize("code", [
    pytest.param("from random import randint\nprint(randint(0, 2**60))", id="imported-name"),
    pytest.param("import random\nprint(random.getrandbits(64), random.random())", id="two-calls"),
    pytest.param("import random\nprint(random._inst.random())", id="shared-instance"),
    pytest.param("import random\nprint(random.getstate()[1][:4])", id="state"),
    pytest.param("import random\nx = [1, 2, 3, 4, 5, 6, 7, 8]\nrandom.shuffle(x)\nprint(x)",
                 id="shuffle"),
])
def test_every_way_to_the_shared_generator_is_reseeded_per_run(
    open_sandbox: sw.Sandbox, code: str
) -> None:
    # The snapshot reseeds `random` on its first use in a run, whichever way it is reached.
    outputs = [open_sandbox.execute(code) for _ in range(3)]
    assert all(r.status == "succeeded" for r in outputs), outputs[0].error
    assert len({r.stdout for r in outputs}) == 3


def test_an_explicit_seed_is_deterministic_as_in_cpython(open_sandbox: sw.Sandbox) -> None:
    code = "import random\nrandom.seed(7)\nprint(random.random())\nprint(random.seed.__name__)"
    outputs = {open_sandbox.execute(code).stdout for _ in range(2)}
    assert outputs == {"0.32383276483316237\nseed\n"}


def test_concurrent_threads_get_separate_results(sandbox: sw.Sandbox) -> None:
    results: dict[int, sw.ExecutionResult] = {}

    def work(n: int) -> None:
        results[n] = sandbox.execute(f"x = {n}\nprint(x * x)")

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert {n: r.stdout for n, r in results.items()} == {n: f"{n * n}\n" for n in range(8)}
    assert all(r.status == "succeeded" for r in results.values())


async def _run_async(box: sw.Sandbox) -> sw.ExecutionResult:
    return await box.execute_async("print('async')")


def test_execute_async(sandbox: sw.Sandbox) -> None:
    import asyncio

    assert asyncio.run(_run_async(sandbox)).stdout == "async\n"


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [
        pytest.param({"timeout_ms": 0}, "timeout_ms", id="timeout-zero"),
        pytest.param({"timeout_ms": 30_001}, "timeout_ms", id="timeout-over-max"),
        pytest.param({"memory_mb": 8}, "memory_mb", id="memory-too-small"),
        pytest.param({"memory_mb": 4096}, "memory_mb", id="memory-too-large"),
        pytest.param({"limits": {"max_stdout_bytes": -1}}, "max_stdout_bytes", id="stdout-neg"),
        pytest.param({"limits": {"bogus": 1}}, "bogus", id="unknown-limit"),
        pytest.param({"profile": "slow_99s"}, "profile", id="unknown-profile"),
        pytest.param({"language": "ruby"}, "language", id="unknown-language"),
    ],
)
def test_invalid_requests_raise(sandbox: sw.Sandbox, kwargs: dict, fragment: str) -> None:
    with pytest.raises(sw.InvalidRequestError, match=fragment):
        sandbox.execute("print(1)", **kwargs)


@pytest.mark.parametrize(
    ("code", "error", "fragment"),
    [
        pytest.param("print(1)\x00", sw.InvalidRequestError, "null byte", id="null-byte"),
        pytest.param(b"print('\xff')", sw.InvalidRequestError, "UTF-8", id="invalid-utf8"),
        pytest.param("x='\ud800'", sw.InvalidRequestError, "surrogate", id="lone-surrogate"),
        pytest.param("#" * 40_000, sw.SourceTooLargeError, "over the limit", id="too-large"),
        pytest.param(b"#" * (5 << 20), sw.SourceTooLargeError, "over the limit", id="5mib"),
    ],
)
def test_invalid_sources_raise(
    sandbox: sw.Sandbox, code: str | bytes, error: type[Exception], fragment: str
) -> None:
    with pytest.raises(error, match=fragment):
        sandbox.execute(code)


def test_profiles_and_explicit_timeout(sandbox: sw.Sandbox) -> None:
    assert sandbox.execute("pass", profile="fast_1s").limits.timeout_ms == 1_000
    assert sandbox.execute("pass", profile="extended_30s").limits.timeout_ms == 30_000
    assert sandbox.execute("pass").limits.timeout_ms == 5_000
    assert sandbox.execute("pass", profile="fast_1s", timeout_ms=1_500).limits.timeout_ms == 1_500


def test_bytes_source_accepted(sandbox: sw.Sandbox) -> None:
    assert sandbox.execute("print('é')".encode()).stdout == "é\n"


def test_in_memory_filesystem_keeps_nothing(open_sandbox: sw.Sandbox) -> None:
    paths = ["/tmp/leak.txt", "/usr/local/lib/python3.12/leak.txt",
             "/usr/local/lib/python3.13/leak.txt", "leak.txt"]
    first = open_sandbox.execute(
        "written = 0\n"
        f"for path in {paths!r}:\n"
        "    try:\n"
        "        with open(path, 'w') as handle:\n"
        "            handle.write('leak')\n"
        "        written += 1\n"
        "    except OSError:\n"
        "        pass\n"
        "print(written)\n"
    )
    assert first.status == "succeeded"
    second = open_sandbox.execute(f"import os\nprint([os.path.exists(p) for p in {paths!r}])")
    assert second.stdout == "[False, False, False, False]\n"


def test_sandbox_closes_deterministically() -> None:
    with sw.Sandbox() as box:
        assert box.execute("print('inside')").stdout == "inside\n"
        program = box._program("python")
    assert box.closed
    with pytest.raises(sw.SandboxClosedError):
        box.execute("print(1)")
    with pytest.raises(sw.SandboxClosedError):
        box.audit("x = 1")
    box.close()  # idempotent
    # What the closed sandbox held is released: a run on it is a host error, not a hang.
    assert program.run(b"", sw.Limits()).host_error is not None
    # The process-wide sandbox behind sw.execute() is not affected.
    assert sw.execute("print('still here')").stdout == "still here\n"


@pytest.mark.parametrize(("call", "field"), [
    pytest.param(lambda: sw.execute("print(1)", limits={"timeout_ms": 0}), "limits.timeout_ms",
                 id="limit"),
    pytest.param(lambda: sw.execute("print(1)", memory_mb=4), "limits.memory_mb", id="memory"),
    pytest.param(lambda: sw.execute("print(1)", language="ruby"), "language", id="language"),
    pytest.param(lambda: sw.execute("print(1)\x00"), "source", id="null-byte"),
    pytest.param(lambda: sw.execute("#" * 40_000), "source", id="too-large"),
    pytest.param(lambda: sw.execute("print(1)", profile="slow"), "profile", id="profile"),
    pytest.param(lambda: sw.execute("print(1)", policy="lenient"), "policy", id="policy"),
])
def test_invalid_requests_name_their_field(call: object, field: str) -> None:
    with pytest.raises(sw.InvalidRequestError) as caught:
        call()  # type: ignore[operator]
    assert caught.value.field == field


def test_objects_alive_at_exit_are_finalised_after_atexit(balanced_sandbox: sw.Sandbox) -> None:
    code = (
        "import atexit\n"
        "class Resource:\n"
        "    def __init__(self, name):\n"
        "        self.name = name\n"
        "    def __del__(self):\n"
        "        print('closed', self.name)\n"
        "kept = Resource('kept')\n"
        "cycle = [Resource('in a cycle')]\n"
        "cycle.append(cycle)\n"
        "atexit.register(lambda: print('atexit'))\n"
        "print('end of script')\n"
    )
    result = balanced_sandbox.execute(code)
    assert result.status == "succeeded", result.error
    assert result.stdout.splitlines() == [
        "end of script", "atexit", "closed kept", "closed in a cycle"
    ]


def test_a_finaliser_that_never_returns_times_out(sandbox: sw.Sandbox) -> None:
    code = "class Spin:\n    def __del__(self):\n        while True:\n            pass\n" \
        "x = Spin()\n"
    result = sandbox.execute(code, timeout_ms=500)
    assert (result.status, result.exit_code) == ("timeout", 124)


def test_sandbox_takes_the_limit_keywords_of_execute() -> None:
    box = sw.Sandbox(limits={"max_stdout_bytes": 1_000}, timeout_ms=1_500, memory_mb=64)
    assert (box.limits.timeout_ms, box.limits.memory_mb, box.limits.max_stdout_bytes) == (
        1_500, 64, 1_000)
    assert sw.Sandbox(profile="fast_1s").limits.timeout_ms == 1_000
    assert sw.Sandbox(limits=sw.Limits(timeout_ms=700)).limits.timeout_ms == 700
    with pytest.raises(sw.InvalidRequestError, match="timeout_ms"):
        sw.Sandbox(timeout_ms=0)
    assert box.execute("print(len('x' * 5_000))").stdout == "5000\n"


def test_policies_by_preset_name() -> None:
    assert sw.execute("import sys\nsys.exit(0)", policy="strict").status == "blocked"
    assert sw.execute("import sys\nsys.exit(0)", policy="balanced").status == "succeeded"
    assert sw.execute("import os\nprint('ran')", policy="report").stdout == "ran\n"
    assert sw.Sandbox(policy="strict").policy == sw.STRICT_POLICY
    assert sw.audit("import sys", policy="report").safety_verdict == "flagged"
    assert [r.status for r in sw.execute_many(["import sys"], policy="strict", workers=1)] == [
        "blocked"
    ]


# -- stdin -------------------------------------------------------------------------------------
READ_STDIN = "import sys\nprint(repr(sys.stdin.read()))"


def test_stdin_is_what_the_code_reads(balanced_sandbox: sw.Sandbox) -> None:
    assert balanced_sandbox.execute(READ_STDIN, stdin="hi\n").stdout == "'hi\\n'\n"
    binary = balanced_sandbox.execute(
        "import sys\nprint(sys.stdin.buffer.read().hex())", stdin=b"\x00\xff")
    assert binary.stdout == "00ff\n"
    assert balanced_sandbox.execute(READ_STDIN).stdout == "''\n"
    lines = balanced_sandbox.execute("print([input(), input()])", stdin="a\nb\n")
    assert lines.stdout == "['a', 'b']\n"


def test_stdin_follows_a_request_whatever_its_length(balanced_sandbox: sw.Sandbox) -> None:
    """The guest reads its request until a short or empty read: requests that fill its
    reads exactly (16 KiB, then 16 + 32 KiB) must end there, not run on into stdin."""
    from sandbox_wasm._wire import MODE_EXEC, request_payload

    tried = 0
    with sw.Sandbox(policy=sw.BALANCED_POLICY, python_runtime=balanced_sandbox.python_variant,
                    limits=sw.Limits(max_source_bytes=1 << 20)) as box:
        _, line = box.request_policy(None)
        rest = box._program("python").runtime.returns_to_rest
        for boundary in (1 << 14, (1 << 14) + (1 << 15)):
            for pad in range(boundary - 200, boundary):
                code = "#" + "a" * pad + "\n" + READ_STDIN
                if len(request_payload(MODE_EXEC, {}, line, code, rest=rest)) != boundary:
                    continue
                tried += 1
                assert box.execute(code, stdin="Z").stdout == "'Z'\n"
                assert box.execute(code).stdout == "''\n"
    assert tried == 2


def test_stdin_counts_against_max_input_bytes(balanced_sandbox: sw.Sandbox) -> None:
    limits = sw.Limits(max_input_bytes=10)
    assert balanced_sandbox.execute(READ_STDIN, stdin="x" * 10, limits=limits).stdout == (
        "'xxxxxxxxxx'\n")
    with pytest.raises(sw.InvalidRequestError) as refused:
        balanced_sandbox.execute(READ_STDIN, stdin="x" * 6, files={"f": b"12345"},
                                 limits=limits)
    assert refused.value.field == "stdin" and "max_input_bytes" in str(refused.value)
    with pytest.raises(sw.InvalidRequestError) as wrong:
        balanced_sandbox.execute(READ_STDIN, stdin=42)  # type: ignore[arg-type]
    assert wrong.value.field == "stdin"


def test_stdin_from_a_descriptor_is_read_as_the_code_asks(
    balanced_sandbox: sw.Sandbox,
) -> None:
    import os

    read_end, write_end = os.pipe()
    try:
        os.write(write_end, b"first line\nsecond")
        os.close(write_end)
        write_end = -1
        result = balanced_sandbox.execute(
            "import sys\nprint(repr(sys.stdin.readline()), repr(sys.stdin.read()))",
            stdin=read_end)
        assert result.stdout == "'first line\\n' 'second'\n"
    finally:
        os.close(read_end)
        if write_end >= 0:
            os.close(write_end)


def test_a_read_waiting_on_a_descriptor_keeps_to_the_deadline_and_interrupts(
    balanced_sandbox: sw.Sandbox,
) -> None:
    import os

    read_end, write_end = os.pipe()  # nobody writes
    try:
        started = time.monotonic()
        result = balanced_sandbox.execute("import sys\nsys.stdin.read()", stdin=read_end,
                                          timeout_ms=500)
        assert result.status == "timeout" and time.monotonic() - started < 5
        cancel = threading.Event()
        threading.Timer(0.3, cancel.set).start()
        result = balanced_sandbox.execute("import sys\nsys.stdin.read()", stdin=read_end,
                                          timeout_ms=20_000, cancel=cancel)
        assert result.status == "interrupted"
    finally:
        os.close(read_end)
        os.close(write_end)
    with pytest.raises(sw.InvalidRequestError) as closed:
        balanced_sandbox.execute("pass", stdin=read_end)
    assert closed.value.field == "stdin"
