"""Interrupting runs (issue 32): a `cancel` Event set from another thread, `Session.interrupt()`
and a cancelled `execute_async` task stop the guest wherever it is (computing, sleeping,
waiting for a host tool), with status `interrupted`; a session keeps the state it had before
the call. Real wasmtime, real guests; the elapsed-time bounds are loose (the deadline is
10 s, an interrupt takes milliseconds: `benchmarks/bench_interrupt.py` measures it)."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator

import pytest

import sandbox_wasm as sw

#: Far beyond what an interrupt takes, far below the runs' 10 s deadline.
WELL_BEFORE_DEADLINE_S = 5.0
DEADLINE_MS = 10_000

_release_tool = threading.Event()


def wait_for_host() -> str:
    """A host tool that answers only when the test module ends."""
    _release_tool.wait(60)
    return "late"


@pytest.fixture(scope="module")
def box() -> Iterator[sw.Sandbox]:
    with sw.Sandbox(python_runtime="cpython313", tools=[wait_for_host]) as sandbox:
        sandbox.warm_up("python", "javascript")
        yield sandbox
    _release_tool.set()


def set_later(event: threading.Event, seconds: float = 0.5) -> None:
    threading.Timer(seconds, event.set).start()


@pytest.mark.parametrize(
    ("code", "language"),
    [
        pytest.param("while True: pass", "python", id="busy-loop"),
        pytest.param("import time\ntime.sleep(30)", "python", id="sleep"),
        pytest.param("import tools\ntools.wait_for_host()", "python", id="host-tool"),
        pytest.param("x = 0\nwhile True: x = (x + 1) % 7", "python", id="busy-loop-arith"),
        pytest.param("for (;;) {}", "javascript", id="javascript-loop"),
    ],
)
def test_interrupt_from_another_thread(box: sw.Sandbox, code: str, language: str) -> None:
    cancel = threading.Event()
    set_later(cancel)
    started = time.monotonic()
    result = box.execute(code, language=language, timeout_ms=DEADLINE_MS, cancel=cancel)
    assert time.monotonic() - started < WELL_BEFORE_DEADLINE_S
    assert result.status == "interrupted", result
    assert result.exit_code == 130
    assert result.error is not None and result.error.type == "Interrupted"
    assert "interrupted" in result.error.message
    # The instance is not left running: the next run works.
    assert box.execute("print(6 * 7)").stdout == "42\n"


def test_an_event_already_set_interrupts_the_run_as_it_starts(box: sw.Sandbox) -> None:
    cancel = threading.Event()
    cancel.set()
    result = box.execute("print('ran')\nwhile True: pass", timeout_ms=DEADLINE_MS,
                         cancel=cancel)
    assert result.status == "interrupted"


def test_an_event_set_after_the_run_changes_nothing(box: sw.Sandbox) -> None:
    cancel = threading.Event()
    result = box.execute("print('done')", cancel=cancel)
    cancel.set()
    assert result.status == "succeeded" and result.stdout == "done\n"


def test_output_before_the_interrupt_is_kept(box: sw.Sandbox) -> None:
    cancel = threading.Event()
    set_later(cancel)
    result = box.execute("print('before', flush=True)\nwhile True: pass",
                         timeout_ms=DEADLINE_MS, cancel=cancel)
    assert result.status == "interrupted" and result.stdout == "before\n"


def test_the_deadline_still_fires(box: sw.Sandbox) -> None:
    for code in ("while True: pass", "import time\ntime.sleep(30)"):
        result = box.execute(code, timeout_ms=300)
        assert result.status == "timeout" and result.exit_code == 124


@pytest.mark.parametrize(
    "code",
    [
        pytest.param("x = 2\nwhile True: pass", id="busy-loop"),
        pytest.param("x = 2\nimport time\ntime.sleep(30)", id="sleep"),
    ],
)
def test_an_interrupted_session_call_is_rolled_back(box: sw.Sandbox, code: str) -> None:
    with sw.Session(sandbox=box, timeout_ms=DEADLINE_MS) as session:
        assert session.interrupt() is False  # nothing running
        session.execute("x = 1")
        timer = threading.Timer(0.5, session.interrupt)
        timer.start()
        started = time.monotonic()
        result = session.execute(code)
        timer.join()
        assert time.monotonic() - started < WELL_BEFORE_DEADLINE_S
        assert result.status == "interrupted" and result.exit_code == 130
        assert result.session is not None
        assert result.session.rolled_back and not result.session.closed
        assert session.execute("print(x)").stdout == "1\n"


def test_session_interrupt_reports_a_running_call(box: sw.Sandbox) -> None:
    with sw.Session(sandbox=box, timeout_ms=DEADLINE_MS) as session:
        answers: list[bool] = []

        def interrupt_when_running() -> None:
            deadline = time.monotonic() + WELL_BEFORE_DEADLINE_S
            while time.monotonic() < deadline:
                if session.interrupt():
                    answers.append(True)
                    return
                time.sleep(0.01)

        thread = threading.Thread(target=interrupt_when_running)
        thread.start()
        result = session.execute("while True: pass")
        thread.join()
        assert answers == [True] and result.status == "interrupted"


def test_cancelling_execute_async_stops_the_run(box: sw.Sandbox) -> None:
    async def scenario() -> float:
        task = asyncio.create_task(box.execute_async("while True: pass",
                                                     timeout_ms=DEADLINE_MS))
        await asyncio.sleep(0.5)
        started = time.monotonic()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        return time.monotonic() - started

    assert asyncio.run(scenario()) < WELL_BEFORE_DEADLINE_S
    # The run stopped before the task ended: the next one works.
    assert box.execute("print('next')").stdout == "next\n"


def test_cancelling_session_execute_async_rolls_the_call_back(box: sw.Sandbox) -> None:
    with sw.Session(sandbox=box, timeout_ms=DEADLINE_MS) as session:
        async def scenario() -> sw.ExecutionResult:
            await session.execute_async("x = 1")
            task = asyncio.create_task(session.execute_async("x = 2\nwhile True: pass"))
            await asyncio.sleep(0.5)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            return await session.execute_async("print(x)")

        result = asyncio.run(scenario())
        assert result.status == "succeeded" and result.stdout == "1\n"
        assert result.session is not None and not result.session.closed


def test_a_sessions_interrupt_flag_behaves_as_an_event() -> None:
    from sandbox_wasm._host.hostcall import InterruptFlag

    flag = InterruptFlag()
    assert not flag.is_set()
    assert flag.wait(0) is False and flag.wait(-1) is False
    started = time.monotonic()
    assert flag.wait(0.05) is False and time.monotonic() - started >= 0.04
    threading.Timer(0.05, flag.set).start()
    assert flag.wait(5) is True and flag.is_set()
    flag.set()  # again: no error, still set
    assert flag.is_set() and flag.wait() is True and flag.wait(0) is True
    # Set again by another thread while a wait holds the lock: still set, no error.
    acquire = flag._unset.acquire

    def acquire_then_set_again(*args: object, **kwargs: object) -> bool:
        taken = acquire(*args, **kwargs)  # type: ignore[arg-type]
        flag.set()
        return taken

    flag._unset = type("Lock", (), {"acquire": staticmethod(acquire_then_set_again),
                                    "release": flag._unset.release,
                                    "locked": flag._unset.locked})()
    assert flag.wait(0) is True and flag.is_set()
