"""Attacks on sessions, under an enforcing policy and with the audit in report-only mode (the
WebAssembly boundary and the limits alone): reaching another session's state, outliving a
call's limits, growing host memory through checkpoints and snapshots, crafted snapshots,
and a guest that tampers with its own interpreter."""

from __future__ import annotations

import hashlib
import json
import struct
import time
import zlib
from collections.abc import Iterator

import pytest

import sandbox_wasm as sw
from sandbox_wasm import _session_snapshot as snapshot_format

SECRET = "session-secret-4b1d-do-not-leak"
POLICIES = {"strict": sw.STRICT_POLICY, "report": sw.REPORT_ONLY_POLICY}


@pytest.fixture(scope="module")
def box() -> Iterator[sw.Sandbox]:
    with sw.Sandbox(python_runtime="cpython313") as sandbox:
        yield sandbox


@pytest.fixture(params=list(POLICIES))
def policy(request: pytest.FixtureRequest) -> sw.AuditPolicy:
    return POLICIES[str(request.param)]


def open_session(box: sw.Sandbox, policy: sw.AuditPolicy, **options: object) -> sw.Session:
    return sw.Session(sandbox=box, policy=policy, **options)  # type: ignore[arg-type]


# The report-only probe looks for the secret in every container the guest's Python can
# reach (the needle is joined at run time, so that no constant of the probe holds it).
_SCAN = (
    "import gc\n"
    "def scan():\n"
    "    needle = ''.join(['session-secret-', '4b1d-do-not-leak'])\n"
    "    for o in gc.get_objects():\n"
    "        values = o.values() if isinstance(o, dict) else o if isinstance(o, (list, tuple))"
    " else ()\n"
    "        if any(isinstance(v, str) and needle in v for v in values):\n"
    "            return 'FOUND'\n"
    "    return 'clean'\n"
    "print(scan())\n"
)


def test_another_session_cannot_reach_the_state(box: sw.Sandbox, policy: sw.AuditPolicy) -> None:
    with open_session(box, sw.BALANCED_POLICY) as holder, open_session(box, policy) as prober:
        holder.execute(f"kept = {SECRET!r}")
        if policy.mode == "report":
            assert prober.execute(_SCAN).stdout == "clean\n"
        probe = prober.execute("print(kept)")
        assert probe.status == "failed" and SECRET not in probe.stdout + probe.stderr
        one_shot = box.execute(_SCAN if policy.mode == "report" else "print(kept)",
                               policy=policy)
        assert SECRET not in one_shot.stdout + one_shot.stderr
        assert "FOUND" not in one_shot.stdout
        assert holder.execute("print(kept)").stdout == SECRET + "\n"


def test_a_call_cannot_outlive_its_deadline(box: sw.Sandbox, policy: sw.AuditPolicy) -> None:
    with open_session(box, policy, timeout_ms=300) as session:
        for code in ("while True: pass", "import time\ntime.sleep(60)",
                     "print('x' * 10**7, end='')\nwhile True: pass"):
            started = time.monotonic()
            result = session.execute(code)
            assert result.status == "timeout", (code, result.status, result.error)
            assert time.monotonic() - started < 3.0
            assert result.session is not None and result.session.rolled_back
        assert session.execute("print('alive')").stdout == "alive\n"


def test_output_is_capped_per_call(box: sw.Sandbox, policy: sw.AuditPolicy) -> None:
    with open_session(box, policy) as session:
        flood = session.execute("for _ in range(10_000): print('y' * 1000)")
        assert flood.stdout_truncated and len(flood.stdout.encode()) <= sw.Limits().max_stdout_bytes
        assert session.execute("print('next')").stdout == "next\n"


def test_a_call_reads_only_its_own_request(box: sw.Sandbox) -> None:
    with open_session(box, sw.REPORT_ONLY_POLICY) as session:
        session.execute(f"kept = {SECRET!r}")
        leftover = session.execute("import os\nprint(repr(os.read(0, 1 << 20)))")
        assert leftover.stdout == "b''\n"  # stdin holds this request only, and it was read


def test_host_memory_for_checkpoints_is_bounded_by_the_memory_cap(
    box: sw.Sandbox, policy: sw.AuditPolicy
) -> None:
    cap_mb = 64
    with open_session(box, policy, memory_mb=cap_mb) as session:
        # Write as many distinct pages as the cap allows, in several calls.
        for _ in range(8):
            session.execute("import random\nchunks = globals().setdefault('chunks', [])\n"
                            "chunks.append(random.randbytes(8 * 1024 * 1024))"
                            if policy.mode == "report" else
                            "import random\ntry:\n    chunks.append(random.randbytes(8 << 20))\n"
                            "except NameError:\n    chunks = [random.randbytes(8 << 20)]")
        assert session.memory_bytes <= cap_mb * 2**20
        checkpoint = session._checkpoint
        assert checkpoint is not None and checkpoint.stored_bytes <= cap_mb * 2**20
        data = session.snapshot()
        assert len(data) <= cap_mb * 2**20 + 2**20


def _resign(data: bytes, header: dict[str, object] | None = None,
            body: bytes | None = None) -> bytes:
    """A consistent unsigned snapshot with another header or body (as an attacker who
    controls the bytes can make)."""
    fixed = len(snapshot_format.MAGIC) + 8
    version, flags, header_length = struct.unpack_from("<HHI", data, len(snapshot_format.MAGIC))
    old_header = json.loads(data[fixed : fixed + header_length])
    body_at = fixed + header_length
    (body_length,) = struct.unpack_from("<Q", data, body_at)
    old_body = data[body_at + 8 : body_at + 8 + body_length]
    new_header = json.dumps(header if header is not None else old_header).encode()
    new_body = body if body is not None else old_body
    content = b"".join((snapshot_format.MAGIC, struct.pack("<HHI", version, flags,
                                                           len(new_header)),
                        new_header, struct.pack("<Q", len(new_body)), new_body))
    return content + hashlib.sha256(content).digest()


def _header(data: bytes) -> dict[str, object]:
    fixed = len(snapshot_format.MAGIC) + 8
    (_, _, length) = struct.unpack_from("<HHI", data, len(snapshot_format.MAGIC))
    return json.loads(data[fixed : fixed + length])  # type: ignore[no-any-return]


def test_crafted_snapshot_headers_are_refused(box: sw.Sandbox) -> None:
    with open_session(box, sw.BALANCED_POLICY) as session:
        session.execute("x = 1")
        data = session.snapshot()
    header = _header(data)
    runs = header["runs"]
    assert isinstance(runs, list) and runs
    size = header["memory_bytes"]
    assert isinstance(size, int)
    crafted = [
        {**header, "runs": [[size - 10, 4096]]},                      # past the end
        {**header, "runs": [[0, 8192], [4096, 8192]]},                 # overlapping
        {**header, "runs": [[-4096, 4096]]},                           # negative
        {**header, "memory_bytes": size + 1},                          # not whole pages
        {**header, "memory_bytes": 2**45},                             # absurd
        {**header, "calls": "many"},
        {**header, "limits": ["not", "an", "object"]},
        {key: value for key, value in header.items() if key != "runs"},
    ]
    for bad in crafted:
        with pytest.raises(sw.SnapshotError):
            sw.Session.restore(_resign(data, header=bad), sandbox=box)


def test_a_decompression_bomb_is_refused_without_inflating_it(box: sw.Sandbox) -> None:
    with open_session(box, sw.BALANCED_POLICY) as session:
        session.execute("x = 1")
        data = session.snapshot()
    bomb = zlib.compress(bytes(512 * 2**20), 9)  # 512 MiB of zeros in ~500 KiB
    started = time.monotonic()
    with pytest.raises(sw.SnapshotError, match="does not match its header"):
        sw.Session.restore(_resign(data, body=bomb), sandbox=box)
    assert time.monotonic() - started < 5.0


def test_a_snapshot_over_the_memory_cap_is_refused(box: sw.Sandbox) -> None:
    with open_session(box, sw.BALANCED_POLICY) as session:
        session.execute("x = 1")
        data = session.snapshot()
    header = _header(data)
    grown = {**header, "memory_bytes": 2048 * 2**20}
    with pytest.raises(sw.SnapshotError, match="over the memory cap"):
        sw.Session.restore(_resign(data, header=grown), sandbox=box)


def test_garbage_memory_in_a_snapshot_stays_inside_the_sandbox(box: sw.Sandbox) -> None:
    with open_session(box, sw.BALANCED_POLICY, timeout_ms=1_000) as session:
        session.execute("x = 1")
        data = session.snapshot()
    header = _header(data)
    runs = header["runs"]
    assert isinstance(runs, list)
    total = sum(length for _, length in runs)
    noise = hashlib.shake_256(b"noise").digest(total)
    crafted = _resign(data, body=zlib.compress(noise))
    try:
        restored = sw.Session.restore(crafted, sandbox=box)
    except sw.SandboxError:
        return  # refused: fine
    with restored:
        result = restored.execute("print('hello')")
        assert isinstance(result, sw.ExecutionResult)
        assert result.status != "succeeded" or result.stdout == "hello\n"
    assert box.execute("print(6 * 7)").stdout == "42\n"  # the host and other runs are fine


def test_a_guest_that_breaks_its_own_bootstrap_only_breaks_its_session(
    box: sw.Sandbox,
) -> None:
    with open_session(box, sw.REPORT_ONLY_POLICY) as session:
        broken = session.execute(
            "import sys\nboot = sys._getframe(1).f_globals\n"
            "boot['_judge'] = None\nboot['serve'] = None\nprint('patched')"
        )
        assert broken.stdout == "patched\n"
        for _ in range(3):
            after = session.execute("print('still')")
            assert after.status in ("internal_error", "failed")
            assert after.session is not None
        assert not session.closed
    with open_session(box, sw.REPORT_ONLY_POLICY) as other:
        assert other.execute("print('fine')").stdout == "fine\n"
    assert box.execute("print('fine')").stdout == "fine\n"


def test_a_session_cannot_lie_its_way_past_an_enforcing_policy(box: sw.Sandbox) -> None:
    # Tampering with the guest's judge needs code the enforcing policy blocks; a session
    # restored from a report-only one with tampering keeps being cross-checked by the host.
    with open_session(box, sw.REPORT_ONLY_POLICY) as session:
        session.execute(
            "import sys\nboot = sys._getframe(1).f_globals\n"
            "boot['judge_fact'] = lambda *args: []\nprint('patched')"
        )
        data = session.snapshot()
    with sw.Session.restore(data, sandbox=box, policy=sw.STRICT_POLICY) as strict:
        result = strict.execute("import os\nprint(os.getcwd())")
        assert result.status in ("blocked", "internal_error")
        assert result.stdout == ""


def test_a_forged_end_of_request_before_os_exit_is_rolled_back(
    box: sw.Sandbox, policy: sw.AuditPolicy,
) -> None:
    # The guest's own "status" record on stderr looks like a request that came to rest, but
    # only the entry returning counts: the call is rolled back and its state is gone.
    with open_session(box, policy) as session:
        assert session.execute("kept = 'before'").status == "succeeded"
        forged = session.execute(
            "kept = 'changed'\nimport os\n"
            "os.write(2, b'\\x00sandbox-wasm-status:0\\n')\nos._exit(0)")
        assert forged.session is not None
        if policy.mode == "enforce":
            assert forged.status == "blocked" and not forged.session.rolled_back
        else:
            assert forged.session.rolled_back
        assert session.execute("print(kept)").stdout == "before\n"
