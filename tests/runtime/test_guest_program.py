"""Instance reuse on the real runtime (our CPython 3.13): a run that came back to rest leaves
its instance, memory put back to the image, for the next run; anything else frees it. The
reused instance must be indistinguishable from a fresh one, byte for byte."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from instance_memory import memory_of

import sandbox_wasm as sw
from sandbox_wasm._wire import ANSWER_AREA_BYTES
from sandbox_wasm._host.memory import SHRINK_AFTER
from sandbox_wasm._host.program import (
    MAX_RESET_BYTES,
    REQUEST_AREA_BYTES,
    RESET_BUDGET_SHARE,
    GuestProgram,
    LiveInstance,
)

ENTRY_C = Path(__file__).resolve().parents[2] / "scripts" / "cpython_wasi" / "sandbox_entry.c"


@pytest.fixture
def box() -> Iterator[sw.Sandbox]:
    # A sandbox of its own per test: its program's idle instances are the test's alone.
    with sw.Sandbox(policy=sw.REPORT_ONLY_POLICY, python_runtime="cpython313") as sandbox:
        yield sandbox


def program_of(box: sw.Sandbox) -> GuestProgram:
    return box._program("python")


def idle_instances(box: sw.Sandbox) -> list[LiveInstance]:
    return [instance for instance, _ in program_of(box).idle_instances()]


def test_our_runtime_reuses_instances() -> None:
    with sw.Sandbox(python_runtime="cpython313") as box:
        assert program_of(box).reuses_instances
        assert program_of(box).stack_top > 0


def test_javascript_does_not() -> None:
    # QuickJS is a command module: its entry never returns to rest, so every run is fresh.
    with sw.Sandbox() as box:
        assert box.execute("console.log('hi')", language="javascript").stdout == "hi\n"
        assert not box._program("javascript").reuses_instances


def test_a_run_at_rest_leaves_its_instance_for_the_next(box: sw.Sandbox) -> None:
    assert box.execute("print('one')").stdout == "one\n"
    (first,) = idle_instances(box)
    assert box.execute("print('two')").stdout == "two\n"
    assert idle_instances(box) == [first]


@pytest.mark.parametrize("code", [
    "print('hi')",
    "import json, re\nprint(json.dumps([re.sub('a', 'b', 'abc')]))",
    "data = [bytes(1000) for _ in range(2000)]\nraise ValueError('after allocating')",
    "import sys\nsys.modules['json'] = None\nimport builtins\nbuiltins.left = 'behind'",
    "import sys\nsys.exit(3)",
])
def test_the_reused_memory_equals_a_fresh_instance(box: sw.Sandbox, code: str) -> None:
    box.execute(code)
    (instance,) = idle_instances(box)
    assert memory_of(instance) == program_of(box).fresh_image()


def test_each_run_reports_its_own_status_and_output(box: sw.Sandbox) -> None:
    failed = box.execute("print('partial')\nraise KeyError('k')")
    assert failed.status == "failed" and failed.exit_code == 1
    assert failed.error is not None and failed.error.type == "KeyError"
    exited = box.execute("raise SystemExit(7)")
    assert exited.exit_code == 7 and exited.stdout == ""
    blocked = box.execute("import socket", policy=sw.STRICT_POLICY)
    assert blocked.status == "blocked"
    fine = box.execute("print('fine')")
    assert fine.status == "succeeded" and fine.exit_code == 0 and fine.stdout == "fine\n"
    assert len(idle_instances(box)) == 1


@pytest.mark.parametrize(("code", "options"), [
    ("while True: pass", {"timeout_ms": 200}),
    ("x = 0\nwhile True: x += 1", {"limits": {"fuel": 50_000_000}}),
    ("import os\nos._exit(0)", {}),
    # A forged end-of-request record before os._exit: still not at rest.
    ("import os\nos.write(2, b'\\x00sandbox-wasm-status:0\\n')\nos._exit(0)", {}),
    ("data = bytearray(12 * 2**20)", {}),  # grows the memory, which cannot shrink
    (f"data = bytearray({MAX_RESET_BYTES + 2**20})\ndel data", {}),
])
def test_a_run_not_at_rest_or_too_dirty_frees_its_instance(
    box: sw.Sandbox, code: str, options: dict[str, object],
) -> None:
    box.execute("print('warm')")
    (warm,) = idle_instances(box)
    box.execute(code, **options)  # type: ignore[arg-type]
    assert warm not in idle_instances(box)
    assert box.execute("print('after')").stdout == "after\n"


def test_the_reset_budget_is_an_eighth_of_a_large_image(
    box: sw.Sandbox, data_box: sw.Sandbox,
) -> None:
    lean, data = program_of(box), data_box._program("python")
    assert lean.pristine_memory()[1] // RESET_BUDGET_SHARE < MAX_RESET_BYTES
    assert lean.reset_budget() == MAX_RESET_BYTES
    assert data.reset_budget() == data.pristine_memory()[1] // RESET_BUDGET_SHARE
    assert data.reset_budget() > 16 * 2**20


CHART = ("import io, matplotlib.pyplot as plt\nfig, ax = plt.subplots()\n"
         "ax.plot([1, 3, 2]); ax.set_title('t')\nfig.savefig(io.BytesIO(), format='png')\n"
         "plt.close(fig)\nprint('drawn')\n")


def test_a_data_run_writing_more_than_4_mib_leaves_its_instance(data_box: sw.Sandbox) -> None:
    # A chart writes ~10 MiB of a data-runtime instance: within that runtime's budget.
    program = data_box._program("python")
    assert data_box.execute(CHART).stdout == "drawn\n"
    ((instance, reset),) = program.idle_instances()
    assert MAX_RESET_BYTES < reset.written_bytes <= program.reset_budget()
    assert data_box.execute(CHART).stdout == "drawn\n"
    assert [idle for idle, _ in program.idle_instances()] == [instance]
    assert memory_of(instance) == program.fresh_image()


def test_small_runs_after_a_big_one_give_its_pages_back() -> None:
    # After a chart (~10 MiB written, ~500 M fuel), every run copied all of it back; after
    # SHRINK_AFTER small runs in a row the pages go back to the image's mapping instead.
    # A sandbox of its own: reading an instance's memory (`memory_of`) maps pages that the
    # next reset counts as written.
    with sw.Sandbox(runtime="python-data") as box:
        program = box._program("python")
        assert box.execute(CHART).stdout == "drawn\n"
        ((instance, reset),) = program.idle_instances()
        assert reset.written_bytes > MAX_RESET_BYTES
        for n in range(SHRINK_AFTER):
            assert box.execute(f"print({n})").stdout == f"{n}\n"
            assert [idle for idle, _ in program.idle_instances()] == [instance]
        assert reset.written_bytes == 0 and reset.shrink_above == MAX_RESET_BYTES
        # The next small run writes a small set again, put back by copying.
        assert box.execute("print('small')").stdout == "small\n"
        assert 0 < reset.written_bytes <= MAX_RESET_BYTES
        assert memory_of(instance) == program.fresh_image()
        assert box.execute(CHART).stdout == "drawn\n"
        assert memory_of(instance) == program.fresh_image()


def test_the_request_and_answer_areas_are_the_entry_s_own() -> None:
    # The host's idea of the areas' capacity is the C entry's.
    match = re.search(r"#define SANDBOX_AREA_CAPACITY \((\d+) \* (\d+)\)",
                      ENTRY_C.read_text())
    assert match is not None
    capacity = int(match.group(1)) * int(match.group(2))
    assert capacity == REQUEST_AREA_BYTES == ANSWER_AREA_BYTES


@pytest.mark.parametrize("runtime", ["cpython313", "python-data"])
def test_requests_are_left_in_memory_and_longer_ones_come_on_stdin(
    runtime: str, monkeypatch: pytest.MonkeyPatch,
) -> None:
    left: list[bool] = []
    leave = LiveInstance._leave_request

    def spy(instance: LiveInstance, payload: bytes) -> bool:
        left.append(leave(instance, payload))
        return left[-1]

    monkeypatch.setattr(LiveInstance, "_leave_request", spy)
    limits = sw.Limits(max_source_bytes=2 * REQUEST_AREA_BYTES)
    with sw.Sandbox(python_runtime=runtime) as box:
        assert program_of(box).entry_returns_status
        for size in (0, REQUEST_AREA_BYTES - 200, REQUEST_AREA_BYTES + 10):
            code = f"text = '{'a' * size}'\nimport sys\nprint(len(text), sys.stdin.read())"
            result = box.execute(code, stdin="the user's stdin", limits=limits)
            assert result.stdout == f"{size} the user's stdin\n", result.error
            # The status comes back with the entry's return, at rest: the instance stays.
            failed = box.execute("import sys\nsys.exit(5)")
            assert failed.exit_code == 5 and failed.status == "failed"
            assert len(idle_instances(box)) == 1
        assert program_of(box).request_address
        # The tool answer area: another address, past the request's area or before it.
        answer = program_of(box).answer_address
        request = program_of(box).request_address
        assert answer and abs(answer - request) >= 4 + REQUEST_AREA_BYTES
    assert left == [True, True, True, True, False, True]


def test_a_forged_rest_record_does_not_count(box: sw.Sandbox) -> None:
    result = box.execute("import os\nos.write(2, b'\\x00sandbox-wasm-status:9\\n')\nos._exit(4)")
    assert result.exit_code == 4


def test_concurrent_runs_each_get_an_instance(box: sw.Sandbox) -> None:
    failures: list[str] = []

    def worker(index: int) -> None:
        for call in range(25):
            token = f"{index}-{call}"
            result = box.execute(f"import builtins\nassert not hasattr(builtins, 'seen')\n"
                                 f"builtins.seen = 1\nprint({token!r})")
            if result.stdout != token + "\n":
                failures.append(f"{token}: {result.status} {result.stdout!r} {result.error}")

    threads = [threading.Thread(target=worker, args=(index,)) for index in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert 1 <= len(idle_instances(box)) <= 4


def test_closing_the_sandbox_frees_the_idle_instances() -> None:
    box = sw.Sandbox(python_runtime="cpython313")
    box.execute("print(1)")
    program = program_of(box)
    (instance,) = idle_instances(box)
    box.close()
    assert program.idle_instances() == []
    assert instance._closed
