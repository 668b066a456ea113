"""Sessions on the real runtime (our CPython 3.13): state
across calls, each trap kind's outcome, limits, idle expiry, snapshots (round trip in a new
process, every way a snapshot is refused) and isolation."""

from __future__ import annotations

import ctypes
import hashlib
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import sandbox_wasm as sw
from sandbox_wasm._session.snapshot import DIGEST_BYTES, MAGIC

SESSION_RUNTIME = "cpython313"


@pytest.fixture(scope="module")
def balanced_sandbox() -> Iterator[sw.Sandbox]:
    with sw.Sandbox(python_runtime=SESSION_RUNTIME) as box:
        yield box


@pytest.fixture(scope="module")
def open_sandbox() -> Iterator[sw.Sandbox]:
    with sw.Sandbox(policy=sw.REPORT_ONLY_POLICY, python_runtime=SESSION_RUNTIME) as box:
        yield box


@pytest.fixture
def session(balanced_sandbox: sw.Sandbox) -> Iterator[sw.Session]:
    with sw.Session(sandbox=balanced_sandbox, timeout_ms=2_000) as live:
        yield live


@pytest.fixture
def open_session(open_sandbox: sw.Sandbox) -> Iterator[sw.Session]:
    with sw.Session(sandbox=open_sandbox, timeout_ms=2_000) as live:
        yield live


def run(session: sw.Session, code: str, **options: object) -> sw.ExecutionResult:
    result = session.execute(code, **options)  # type: ignore[arg-type]
    assert result.session is not None and result.session.id == session.id
    return result


# -- state ---------------------------------------------------------------------------------
def test_globals_imports_functions_and_classes_persist(session: sw.Session) -> None:
    first = run(session, "import json\nfrom collections import Counter\n"
                "data = [3, 1, 2]\ndef double(v):\n    return v * 2\n"
                "class Box:\n    def __init__(self, v): self.v = v\n")
    assert first.status == "succeeded", first.error
    second = run(session, "print(json.dumps(sorted(map(double, data))), Box(7).v,"
                 " Counter('aab')['a'])")
    assert second.stdout == "[2, 4, 6] 7 2\n"
    assert (first.session.call, second.session.call) == (1, 2)  # type: ignore[union-attr]
    assert session.calls == 2


def test_a_source_run_again_runs_its_kept_code_with_the_same_effect(
    session: sw.Session,
) -> None:
    # The session keeps the code of the sources it ran (the guest's `_session_code`): a
    # source run again is not compiled again, which its fuel shows, and does what a
    # compiled one does, whatever the calls between changed.
    run(session, "x = 0\nlog = []")
    step = "x += 1\nlog.append(x)\nx"
    # The first call is audited; the second's audit answer comes from the host's cache and
    # it is compiled; the third runs the code the second kept.
    calls = [run(session, step) for _ in range(3)]
    assert [call.value.json_value for call in calls] == [1, 2, 3]  # type: ignore[union-attr]
    assert calls[2].metrics.fuel_consumed < 0.8 * calls[1].metrics.fuel_consumed
    # A `from __future__` import of an earlier call does not reach a later source's code,
    # compiled or kept (each is compiled on its own, as the first time).
    annotated = "def f(a: undefined_name): pass\nf.__annotations__['a'] is None"
    assert run(session, annotated).error.type == "NameError"  # type: ignore[union-attr]
    run(session, "from __future__ import annotations")
    assert run(session, annotated).error.type == "NameError"  # type: ignore[union-attr]
    # More sources than the session keeps, and one too long to keep, all still run.
    for i in range(70):
        assert run(session, f"x += {i}").status == "succeeded"
    long = "x += 1\n" + "# padding\n" * 500
    assert run(session, long).status == "succeeded"
    assert run(session, long).status == "succeeded"
    assert run(session, step).value.json_value == 3 + sum(range(70)) + 3  # type: ignore[union-attr]
    assert run(session, "log[:3]").value.json_value == [1, 2, 3]  # type: ignore[union-attr]


def test_an_exception_reports_and_keeps_the_state(session: sw.Session) -> None:
    run(session, "total = 10")
    failed = run(session, "total += 5\nraise ValueError('boom')")
    assert failed.status == "failed" and failed.error == sw.ErrorInfo(type="ValueError",
                                                                       message="boom")
    assert "ValueError: boom" in failed.stderr
    assert not failed.session.rolled_back  # type: ignore[union-attr]
    assert run(session, "print(total)").stdout == "15\n"  # the call's effect before the raise


def test_sys_exit_reports_its_status_and_keeps_the_state(session: sw.Session) -> None:
    run(session, "kept = 'yes'")
    exited = run(session, "import sys\nsys.exit(3)")
    assert (exited.status, exited.exit_code) == ("failed", 3)
    assert run(session, "print(kept)").stdout == "yes\n"


def test_blocked_code_does_not_run_and_changes_nothing(session: sw.Session) -> None:
    run(session, "value = 1")
    blocked = run(session, "value = 2\nimport gc")
    assert blocked.status == "blocked"
    assert run(session, "print(value)").stdout == "1\n"


def test_each_call_has_its_own_output_and_caps(session: sw.Session) -> None:
    assert run(session, "print('a')").stdout == "a\n"
    assert run(session, "print('b')").stdout == "b\n"
    capped = run(session, "print('x' * 100)", limits={"max_stdout_bytes": 10})
    assert capped.stdout == "x" * 10 and capped.stdout_truncated


def test_result_json_and_metrics_are_per_call(session: sw.Session) -> None:
    result = run(session, "import json\nprint(json.dumps({'n': 2}))")
    assert result.result_json == {"n": 2}
    assert result.metrics.fuel_consumed > 0
    assert result.session.memory_bytes == session.memory_bytes > 0  # type: ignore[union-attr]


def test_calls_on_one_session_from_two_threads_run_one_at_a_time(
    session: sw.Session,
) -> None:
    run(session, "count = 0")
    errors: list[str] = []

    def add() -> None:
        for _ in range(20):
            result = session.execute("count += 1")
            if result.status != "succeeded":
                errors.append(result.status)

    threads = [threading.Thread(target=add) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert run(session, "print(count)").stdout == "40\n"


# -- traps -----------------------------------------------------------------------------
def test_a_deadline_rolls_back_to_the_state_before_the_call(session: sw.Session) -> None:
    run(session, "x = 41\nitems = list(range(100_000))")
    timed_out = run(session, "x = 99\nitems.clear()\nwhile True: pass", timeout_ms=200)
    assert timed_out.status == "timeout"
    assert timed_out.session.rolled_back and not timed_out.session.closed  # type: ignore[union-attr]
    after = run(session, "print(x, len(items))")
    assert after.stdout == "41 100000\n" and not after.session.rolled_back  # type: ignore[union-attr]


def test_checkpoints_without_new_pages_skip_pagemap_and_still_roll_back_exactly(
    session: sw.Session, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A call that writes only pages already written takes no page fault: its checkpoint
    copies the last one's pages without reading pagemap again. Whatever the mix of such
    calls, calls that reach new pages, and traps, a rollback gives the state before the
    trapping call, byte for byte as the program sees it."""
    from sandbox_wasm._host import memory

    reads: list[int] = []
    real = memory.written_ranges

    def counted(address: int, size: int) -> list[tuple[int, int]] | None:
        reads.append(size)
        return real(address, size)

    monkeypatch.setattr(memory, "written_ranges", counted)
    run(session, "x = 0\nblob = b''")
    for _ in range(30):
        run(session, "x += 1")
    session._settle()  # type: ignore[attr-defined]
    assert len(reads) < 30  # most of the 30 checkpoints reused the pages they knew
    grown = run(session, "blob = bytes(range(256)) * 20_000\nx += 1")  # 5 MB of new pages
    assert grown.status == "succeeded"
    trapped = run(session, "x = -1\nblob = b'gone'\nwhile True: pass", timeout_ms=200)
    assert trapped.status == "timeout" and trapped.session.rolled_back  # type: ignore[union-attr]
    after = run(session, "import hashlib\nprint(x, len(blob), hashlib.sha256(blob).hexdigest())")
    expected = hashlib.sha256(bytes(range(256)) * 20_000).hexdigest()
    assert after.stdout == f"31 5120000 {expected}\n"
    for _ in range(5):
        run(session, "x += 1")
    trapped = run(session, "x = -1\nwhile True: pass", timeout_ms=200)
    assert trapped.session.rolled_back  # type: ignore[union-attr]
    assert run(session, "print(x, len(blob))").stdout == "36 5120000\n"


def _assert_checkpoint_is_the_memory(session: sw.Session) -> None:
    """The session's checkpoint, and a full comparison of its memory with the image, both
    describe the memory as it is (above the C stack)."""
    from sandbox_wasm._host.memory import OS_PAGE, capture, memory_address

    program, instance = session._program, session._instance  # type: ignore[attr-defined]
    checkpoint = session._checkpoint  # type: ignore[attr-defined]
    assert instance.memory is not None and checkpoint is not None
    image = program.fresh_image()
    floor = program.stack_top - program.stack_top % OS_PAGE
    full, _ = capture(instance.memory, instance.store, program.fresh_image,
                      stack_top=program.stack_top, pagemap=False)
    size = instance.memory.data_len(instance.store)
    now = ctypes.string_at(memory_address(instance.memory, instance.store), size)
    for state in (checkpoint.memory, full):
        memory = bytearray(image) + bytes(state.size - len(image))
        for offset, data in state.runs:
            memory[offset : offset + len(data)] = data
        assert state.size == size and memory[floor:] == now[floor:]


def test_a_small_sessions_checkpoints_are_exact(session: sw.Session) -> None:
    """Whatever the mix of calls that write only pages already written (their checkpoint
    copies the last one's pages again, without pagemap) and calls that reach new pages, a
    small session's checkpoint is the memory, and a trap rolls back to it."""
    run(session, "x = 0\nnames = []")
    for step in ["x += 1", "x += 1", "names.append('a' * 100_000)", "x += 1",
                 "names[0] = 'b' * 100_000", "x += 1", "names.clear()", "x += 1"]:
        assert run(session, step).status == "succeeded", step
        session._settle()  # type: ignore[attr-defined]
        _assert_checkpoint_is_the_memory(session)
    trapped = run(session, "x = -1\nnames.append(1)\nwhile True: pass", timeout_ms=200)
    assert trapped.session.rolled_back  # type: ignore[union-attr]
    assert run(session, "print(x, names)").stdout == "5 []\n"


@pytest.mark.parametrize("tracking", ["tracked", "copied"])
def test_a_big_sessions_checkpoints_hold_exactly_its_state(
    balanced_sandbox: sw.Sandbox, tracking: str, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A session whose state passes TRACK_WRITES_ABOVE has each checkpoint copy only the
    pages its call wrote (where the kernel can track them; "copied": as where it cannot).
    Whatever the calls write (pages of the state, new pages, memory that grows, a file read
    into a buffer), the checkpoint is the memory as a full comparison with the image finds
    it, and a trap rolls back to the state before the trapping call."""
    from sandbox_wasm._host import write_tracking
    from sandbox_wasm._host.memory import MemoryState, update

    if tracking == "copied":
        monkeypatch.setattr(write_tracking.WriteTracker, "open",
                            classmethod(lambda cls, address, size: None))
    in_place: list[bool] = []  # per tracked checkpoint: whether its runs were overwritten
    def recorded(state: MemoryState, *args: Any, **options: Any) -> MemoryState:
        new = update(state, *args, **options)
        in_place.append(len(new.runs) == len(state.runs) and all(
            isinstance(old, bytearray) and old is data
            for (_, old), (_, data) in zip(state.runs, new.runs, strict=True)))
        return new

    monkeypatch.setattr(write_tracking, "update", recorded)
    with sw.Session(sandbox=balanced_sandbox, timeout_ms=5_000) as big:

        def checkpoint_is_the_memory() -> None:
            big._settle()
            if tracking == "tracked" and write_tracking.available():  # never given up
                assert big._tracker is not None
            _assert_checkpoint_is_the_memory(big)

        run(big, "import random, hashlib\nrng = random.Random(5)\n"
                 "blob = bytearray(rng.randbytes(3 << 20))\ntable = {}\nx = 0")
        big._settle()  # the checkpoint that starts tracking
        tracked = big._tracker is not None
        assert tracked == (tracking == "tracked" and write_tracking.available())
        checkpoint_is_the_memory()
        steps = [
            "x += 1",
            "for i in range(0, len(blob), 40_000): blob[i] = (blob[i] + 1) % 256",
            "table.update({i: str(i) * 3 for i in range(x, x + 5_000)})\nx += 1",
            "more = bytearray(12 << 20)\nmore[::4096] = b'\\x07' * (len(more) // 4096)",
            "with open('/tmp/f', 'wb') as f: f.write(bytes(range(256)) * 4096)\n"
            "with open('/tmp/f', 'rb') as f: f.readinto(memoryview(blob)[:1 << 20])",
            "del more\nx += 1",
            "x += 1", "x += 1", "blob[100_000] ^= 1\nx += 1", "x += 1",
        ]
        for step in steps:
            assert run(big, step).status == "succeeded", step
            checkpoint_is_the_memory()
        # Both ways of updating a checkpoint were taken (none when nothing is tracked).
        assert (True in in_place and False in in_place) == tracked
        expected = run(big, "print(x, len(table), hashlib.sha256(blob).hexdigest())").stdout
        trapped = run(big, "x = -1\nblob[:] = bytes(len(blob))\ntable.clear()\n"
                           "import time\nwhile True: pass", timeout_ms=300)
        assert trapped.status == "timeout" and trapped.session.rolled_back  # type: ignore[union-attr]
        assert big._tracker is None  # a new instance
        after = run(big, "print(x, len(table), hashlib.sha256(blob).hexdigest())")
        assert after.stdout == expected
        big._settle()
        assert (big._tracker is not None) == tracked
        checkpoint_is_the_memory()
        restored = sw.Session.restore(big.snapshot(), sandbox=balanced_sandbox)
        with restored:
            again = run(restored, "print(x, len(table), hashlib.sha256(blob).hexdigest())")
            assert again.stdout == expected


def test_calls_back_to_back_take_their_checkpoints_themselves(
    session: sw.Session, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A call that comes right after the last leaves its checkpoint to the next use of the
    session instead of the checkpoint thread; a call after a pause has it taken in the
    background. Either way a trap rolls back to the state after the last call."""
    from sandbox_wasm._session import session as session_module

    submitted: list[object] = []
    real_submit = session_module._checkpointer.submit

    def counted(task: Any, *args: Any) -> Any:
        submitted.append(task)
        return real_submit(task, *args)

    monkeypatch.setattr(session_module._checkpointer, "submit", counted)
    monkeypatch.setattr(session_module, "BACK_TO_BACK_S", 0.5)  # a slow CI machine
    run(session, "x = 0")
    for _ in range(20):
        run(session, "x += 1")
    assert len(submitted) <= 2  # the first calls only (nothing came before them)
    # The last call's checkpoint is left to the next call, on the caller's thread.
    assert session._deferred is not None and session._pending is None
    time.sleep(0.6)
    run(session, "x += 1")
    assert len(submitted) >= 1 and session._pending is not None
    deadline = time.monotonic() + 5
    while not session._pending._done.is_set() and time.monotonic() < deadline:
        time.sleep(0.01)  # taken by the checkpoint thread, with nobody waiting for it
    assert session._pending._done.is_set()
    trapped = run(session, "x = -1\nwhile True: pass", timeout_ms=200)
    assert trapped.session is not None and trapped.session.rolled_back
    assert run(session, "print(x)").stdout == "21\n"
    for _ in range(3):
        run(session, "x += 1")
    trapped = run(session, "x = -1\nwhile True: pass", timeout_ms=200)
    assert trapped.session is not None and trapped.session.rolled_back
    assert run(session, "print(x)").stdout == "24\n"


def test_fuel_exhaustion_rolls_back(session: sw.Session) -> None:
    run(session, "x = 1")
    result = run(session, "x = 2\nwhile True: x += 1", limits={"fuel": 5_000_000,
                                                               "timeout_ms": 5_000})
    assert result.status == "fuel_exhausted" and result.session.rolled_back  # type: ignore[union-attr]
    assert run(session, "print(x)").stdout == "1\n"


def test_a_crash_rolls_back(open_session: sw.Session) -> None:
    run(open_session, "x = 'before'")
    # abort() ends in a wasm trap (unreachable) in the middle of the interpreter.
    result = run(open_session, "x = 'changed'\nimport os\nos.abort()")
    assert result.status == "failed" and result.error is not None
    assert result.error.type == "GuestCrash"
    assert result.session.rolled_back  # type: ignore[union-attr]
    assert run(open_session, "print(x)").stdout == "before\n"


def test_os_exit_mid_call_rolls_back(open_session: sw.Session) -> None:
    run(open_session, "x = 'before'")
    result = run(open_session, "x = 'changed'\nimport os\nos._exit(4)")
    assert (result.status, result.exit_code) == ("failed", 4)
    assert result.session.rolled_back  # type: ignore[union-attr]
    assert run(open_session, "print(x)").stdout == "before\n"


def test_memory_exhaustion_is_a_memory_error_and_the_session_survives(
    balanced_sandbox: sw.Sandbox,
) -> None:
    with sw.Session(sandbox=balanced_sandbox, memory_mb=64) as capped:
        run(capped, "keep = 'still here'")
        hog = run(capped, "blob = bytearray(200 * 1024 * 1024)")
        assert hog.status in ("failed", "memory_exceeded")
        if hog.status == "failed":
            assert hog.error is not None and hog.error.type == "MemoryError"
        assert run(capped, "print(keep)").stdout == "still here\n"
        assert capped.memory_bytes <= 64 * 2**20


def test_the_memory_cap_covers_the_whole_life(balanced_sandbox: sw.Sandbox) -> None:
    with sw.Session(sandbox=balanced_sandbox, memory_mb=48) as capped:
        statuses = [run(capped, f"b{i} = bytes(10 * 1024 * 1024)").status for i in range(6)]
        assert statuses[0] == "succeeded"
        assert statuses[-1] != "succeeded"  # 6 x 10 MiB never fit in 48 MiB over the life
        assert capped.memory_bytes <= 48 * 2**20


def test_on_trap_close_closes_the_session(balanced_sandbox: sw.Sandbox) -> None:
    with sw.Session(sandbox=balanced_sandbox, on_trap="close") as fragile:
        run(fragile, "x = 1")
        result = run(fragile, "while True: pass", timeout_ms=100)
        assert result.status == "timeout"
        assert result.session.closed and not result.session.rolled_back  # type: ignore[union-attr]
        assert fragile.closed
        with pytest.raises(sw.SessionClosedError):
            fragile.execute("print(x)")


# -- limits and lifetime ---------------------------------------------------------------
def test_a_call_cannot_change_the_memory_cap(session: sw.Session) -> None:
    with pytest.raises(sw.InvalidRequestError) as error:
        session.execute("x = 1", limits={"memory_mb": 512})
    assert error.value.field == "limits.memory_mb"


def test_bad_session_arguments_are_refused(balanced_sandbox: sw.Sandbox) -> None:
    with pytest.raises(sw.InvalidRequestError, match="Python only"):
        sw.Session(sandbox=balanced_sandbox, language="javascript")
    with pytest.raises(sw.InvalidRequestError, match="on_trap"):
        sw.Session(sandbox=balanced_sandbox, on_trap="ignore")  # type: ignore[arg-type]
    with pytest.raises(sw.InvalidRequestError, match="idle_timeout_s"):
        sw.Session(sandbox=balanced_sandbox, idle_timeout_s=0)
    with pytest.raises(sw.InvalidRequestError) as error:
        sw.Session(sandbox=balanced_sandbox, timeout_ms=-5)
    assert error.value.field == "limits.timeout_ms"
    with pytest.raises(sw.InvalidRequestError):
        sw.Session(sandbox=balanced_sandbox, policy="lenient")  # type: ignore[arg-type]


def test_a_closed_session_refuses_calls_and_snapshots(balanced_sandbox: sw.Sandbox) -> None:
    live = sw.Session(sandbox=balanced_sandbox)
    live.close()
    live.close()  # idempotent
    with pytest.raises(sw.SessionClosedError):
        live.execute("x = 1")
    with pytest.raises(sw.SessionClosedError):
        live.snapshot()


def test_an_idle_session_is_closed_after_its_timeout(balanced_sandbox: sw.Sandbox) -> None:
    idle = sw.Session(sandbox=balanced_sandbox, idle_timeout_s=0.3)
    run(idle, "x = 1")
    deadline = time.monotonic() + 10
    while not idle.closed and time.monotonic() < deadline:
        time.sleep(0.1)
    assert idle.closed
    with pytest.raises(sw.SessionClosedError):
        idle.execute("print(x)")


def test_a_used_session_is_not_idle(balanced_sandbox: sw.Sandbox) -> None:
    with sw.Session(sandbox=balanced_sandbox, idle_timeout_s=1.0) as busy:
        for _ in range(6):
            run(busy, "x = 1")
            time.sleep(0.3)
        assert not busy.closed


# -- snapshots -------------------------------------------------------------------------
def test_snapshot_round_trip_in_this_process(session: sw.Session) -> None:
    run(session, "import statistics\nrows = [{'v': i} for i in range(5000)]\n"
        "def mean(): return statistics.mean(r['v'] for r in rows)")
    data = session.snapshot()
    assert data.startswith(MAGIC)
    with sw.Session.restore(data, sandbox=session._sandbox) as copy:
        assert copy.id != session.id and copy.calls == session.calls
        assert run(copy, "print(mean(), len(rows))").stdout == "2499.5 5000\n"
        run(copy, "rows.clear()")
    assert run(session, "print(len(rows))").stdout == "5000\n"  # the original is untouched


def test_snapshot_round_trip_in_a_new_process(session: sw.Session, tmp_path: Path) -> None:
    run(session, "secret_sauce = {'k': [1, 2, 3]}\ndef total(): return sum(secret_sauce['k'])")
    saved = tmp_path / "session.snap"
    saved.write_bytes(session.snapshot(key=b"k" * 32))
    script = (
        "import sys, sandbox_wasm as sw\n"
        f"box = sw.Sandbox(python_runtime={SESSION_RUNTIME!r})\n"
        "s = sw.Session.restore(open(sys.argv[1], 'rb').read(), key=b'k' * 32, sandbox=box)\n"
        "print(s.execute('print(total(), secret_sauce)').stdout, end='')\n"
    )
    done = subprocess.run([sys.executable, "-c", script, str(saved)], capture_output=True,
                          text=True, timeout=120, env={**os.environ})
    assert done.returncode == 0, done.stderr
    assert done.stdout == "6 {'k': [1, 2, 3]}\n"


def _refused(data: bytes, box: sw.Sandbox, match: str, **options: object) -> None:
    with pytest.raises(sw.SnapshotError, match=match) as error:
        sw.Session.restore(data, sandbox=box, **options)  # type: ignore[arg-type]
    assert error.value.field == "snapshot"


def test_a_tampered_snapshot_is_refused(session: sw.Session) -> None:
    run(session, "x = 1")
    data = bytearray(session.snapshot())
    box = session._sandbox
    for position in (len(MAGIC) + 20, len(data) // 2, len(data) - DIGEST_BYTES - 1,
                     len(data) - 1):
        tampered = bytearray(data)
        tampered[position] ^= 0x01
        _refused(bytes(tampered), box, "integrity check")


def test_malformed_snapshots_are_refused(session: sw.Session) -> None:
    data = session.snapshot()
    box = session._sandbox
    _refused(b"", box, "not a sandbox-wasm session snapshot")
    _refused(b"PK\x03\x04 a zip file", box, "not a sandbox-wasm session snapshot")
    _refused(data[: len(MAGIC) + 10], box, "truncated")
    _refused(data[:-100], box, "integrity check")
    future = bytearray(data)
    future[len(MAGIC)] = 99
    _refused(bytes(future), box, "format 99")
    with pytest.raises(sw.SnapshotError, match="bytes"):
        sw.Session.restore("text", sandbox=box)  # type: ignore[arg-type]


def test_keys_must_match(session: sw.Session) -> None:
    box = session._sandbox
    signed = session.snapshot(key=b"right key")
    _refused(signed, box, "signed: restoring it needs its key")
    _refused(signed, box, "integrity check", key=b"wrong key")
    _refused(session.snapshot(), box, "not signed", key=b"right key")
    with sw.Session.restore(signed, key=b"right key", sandbox=box) as restored:
        assert run(restored, "print(1)").status == "succeeded"


def test_a_snapshot_of_another_runtime_is_refused(session: sw.Session) -> None:
    # A snapshot made by another build of the runtime names that build's SHA-256 (here
    # rewritten, and the digest recomputed, as a consistent foreign snapshot would be).
    runtime_sha256 = session._program.runtime.sha256
    data = bytearray(session.snapshot())
    at = data.index(runtime_sha256.encode())
    data[at : at + 64] = hashlib.sha256(b"another build").hexdigest().encode()
    data[-DIGEST_BYTES:] = hashlib.sha256(bytes(data[:-DIGEST_BYTES])).digest()
    _refused(bytes(data), session._sandbox, "another runtime")


def test_a_snapshot_larger_than_the_cap_is_refused(balanced_sandbox: sw.Sandbox) -> None:
    with sw.Session(sandbox=balanced_sandbox, memory_mb=128) as big:
        run(big, "blob = bytearray(b'x' * (60 * 1024 * 1024))")
        data = big.snapshot()
    _refused(data, balanced_sandbox, "over the memory cap", limits={"memory_mb": 48})


def test_restore_keeps_limits_and_policy_unless_overridden(
    balanced_sandbox: sw.Sandbox,
) -> None:
    with sw.Session(sandbox=balanced_sandbox, policy="strict", timeout_ms=1_234) as strict:
        data = strict.snapshot()
    with sw.Session.restore(data, sandbox=balanced_sandbox) as restored:
        assert restored.policy == sw.STRICT_POLICY and restored.limits.timeout_ms == 1_234
        assert run(restored, "import sys").status == "blocked"
    with sw.Session.restore(data, sandbox=balanced_sandbox, policy="balanced") as relaxed:
        assert run(relaxed, "import sys\nprint(sys.version_info[0])").stdout == "3\n"


# -- isolation ---------------------------------------------------------------------------
def test_sessions_do_not_see_each_other(balanced_sandbox: sw.Sandbox) -> None:
    with sw.Session(sandbox=balanced_sandbox) as one, sw.Session(sandbox=balanced_sandbox) as two:
        run(one, "only_in_one = 1")
        assert run(two, "print('only_in_one' in dir())").stdout == "False\n"
        assert run(two, "print(only_in_one)").error.type == "NameError"  # type: ignore[union-attr]
        fresh = balanced_sandbox.execute("print('only_in_one' in dir())")
        assert fresh.stdout == "False\n" and fresh.session is None
        assert run(one, "print(only_in_one)").stdout == "1\n"


def test_a_one_shot_run_after_a_session_call_starts_fresh(session: sw.Session) -> None:
    run(session, "import json\njson.leak = 'session'")
    fresh = session._sandbox.execute("import json\nprint(hasattr(json, 'leak'))")
    assert fresh.stdout == "False\n"


def test_a_sessions_inputs_stay_within_the_input_cap(balanced_sandbox: sw.Sandbox) -> None:
    with sw.Session(sandbox=balanced_sandbox, limits={"max_input_bytes": 1_000}) as capped:
        run(capped, "pass", files={"a.bin": b"x" * 600})
        run(capped, "pass", files={"a.bin": b"y" * 900})  # replacing counts once
        with pytest.raises(sw.InvalidRequestError, match="over the limit") as error:
            capped.execute("pass", files={"b.bin": b"z" * 200})
        assert error.value.field == "files"
        assert run(capped, "print(len(open('/input/a.bin').read()))").stdout == "900\n"
