"""Attacks on sessions, under an enforcing policy and with the audit in report-only mode (the
WebAssembly boundary and the limits alone): reaching another session's state, outliving a
call's limits, growing host memory through checkpoints and snapshots, crafted snapshots,
and a guest that tampers with its own interpreter."""

from __future__ import annotations

import copy
import hashlib
import hmac
import json
import random
import struct
import time
import tracemalloc
import zlib
from collections.abc import Iterator, Sequence

import pytest

import sandbox_wasm as sw
from sandbox_wasm._session import snapshot as snapshot_format

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


@pytest.mark.parametrize("trap", ["while True: pass", "import os\nos._exit(3)"])
def test_a_trapped_calls_writes_do_not_survive_a_tracked_checkpoint(
    box: sw.Sandbox, trap: str,
) -> None:
    """A session past 2 MiB has its checkpoints updated with only the pages each call
    wrote (where the kernel tracks them). A call that writes a secret everywhere it can
    (over the state's own pages, into new ones, into memory it grows, through a file read
    into a buffer) and then traps leaves none of it: the rebuilt instance's whole memory,
    read by the host, holds no copy, and the state is the one before the call."""
    from sandbox_wasm._host import write_tracking

    with open_session(box, sw.REPORT_ONLY_POLICY, timeout_ms=3_000) as session:
        session.execute("import hashlib\nblob = bytearray(range(256)) * (12 << 12)\n"
                        "table = {i: str(i) for i in range(20_000)}")
        session._settle()
        assert (session._tracker is not None) == write_tracking.available()
        for _ in range(3):
            assert session.execute("table[len(table)] = 'more'").ok
        before = session.execute("print(len(table), hashlib.sha256(blob).hexdigest())")
        secret = SECRET.encode()
        attack = (
            f"needle = {secret!r}\n"
            "blob[:] = needle * (len(blob) // len(needle)) + bytes(len(blob) % len(needle))\n"
            "table.clear()\ntable.update({i: needle.decode() for i in range(20_000)})\n"
            "grown = bytearray(needle * (24 << 20 // len(needle)))\n"
            "with open('/tmp/n', 'wb') as f: f.write(needle * 4096)\n"
            "with open('/tmp/n', 'rb') as f: f.readinto(memoryview(blob)[:4096 * 16])\n"
            + trap + "\n"
        )
        trapped = session.execute(attack)
        # Every write ran: the call ended in its trap, not in an exception before it.
        if "os._exit" in trap:
            assert trapped.status == "failed" and trapped.exit_code == 3, trapped.error
        else:
            assert trapped.status == "timeout", (trapped.status, trapped.error)
        assert trapped.session is not None and trapped.session.rolled_back
        session._settle()
        instance = session._instance
        assert instance.memory is not None
        from instance_memory import memory_of

        assert secret not in memory_of(instance)
        after = session.execute("import os\nprint(len(table), hashlib.sha256(blob).hexdigest())\n"
                                "print(os.path.exists('/tmp/n'))")
        assert after.stdout == before.stdout + "False\n"


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


# -- restores: every cap of the receiving session applies to what a snapshot carries -------
def _forge(data: bytes, *, nodes: Sequence[list[object]] = (),
           handles: Sequence[list[object]] = (),
           header_change: dict[str, object] | None = None, key: bytes | None = None) -> bytes:
    """`data` (an unsigned snapshot) with nodes (path, is_dir, writable, size: zero bytes)
    and descriptors added, consistent and digested or signed as an attacker with the key (or
    without one, unsigned) makes it; the body is compressed as it streams, never held."""
    fixed = len(snapshot_format.MAGIC) + 8
    (_, _, length) = struct.unpack_from("<HHI", data, len(snapshot_format.MAGIC))
    header = json.loads(data[fixed : fixed + length])
    (body_length,) = struct.unpack_from("<Q", data, fixed + length)
    raw = zlib.decompress(data[fixed + length + 8 : fixed + length + 8 + body_length])
    header["fs_nodes"] = [*header["fs_nodes"], *nodes]
    header["fs_handles"] = [*header["fs_handles"], *handles]
    header.update(header_change or {})
    packer = zlib.compressobj(1)
    body = [packer.compress(raw)]
    zeros = bytes(2**20)
    for node in nodes:
        size = int(node[3])  # type: ignore[call-overload]
        for start in range(0, size, len(zeros)):
            body.append(packer.compress(zeros[: min(len(zeros), size - start)]))
    body.append(packer.flush())
    packed = b"".join(body)
    encoded = json.dumps(header).encode()
    content = b"".join((snapshot_format.MAGIC,
                        struct.pack("<HHI", 1, 1 if key else 0, len(encoded)), encoded,
                        struct.pack("<Q", len(packed)), packed))
    digest = (hmac.new(key, content, hashlib.sha256).digest() if key
              else hashlib.sha256(content).digest())
    return content + digest


@pytest.fixture(scope="module")
def plain_snapshot(box: sw.Sandbox) -> bytes:
    with open_session(box, sw.BALANCED_POLICY) as session:
        session.execute("x = 1\nopen('/tmp/kept.txt', 'w').write('kept')")
        return session.snapshot()


@pytest.mark.parametrize("key", [None, b"k" * 32], ids=["unsigned", "signed"])
@pytest.mark.parametrize("limits", [{"memory_mb": 64}, None], ids=["given", "snapshot-s"])
def test_a_restore_is_held_to_the_file_caps_before_inflating(
    box: sw.Sandbox, plain_snapshot: bytes, key: bytes | None, limits: dict | None,
) -> None:
    # The red team's restore: 24 x 16 MiB in /tmp (caps: 8 MiB a file, 32 MiB in all),
    # 384 MiB that compress to under 2 MB.
    forged = _forge(plain_snapshot, key=key,
                    nodes=[[f"/tmp/f{i}", False, True, 16 * 2**20] for i in range(24)])
    assert len(forged) < 4 * 2**20
    tracemalloc.start()
    try:
        with pytest.raises(sw.SnapshotError, match="per-file cap of 8388608"):
            sw.Session.restore(forged, key=key, limits=limits, sandbox=box)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 3 * len(forged) + 8 * 2**20  # nothing of the 384 MiB was inflated
    # Under the per-file cap, over the total one (5 x 7 MiB > 32 MiB).
    total = _forge(plain_snapshot, key=key,
                   nodes=[[f"/tmp/g{i}", False, True, 7 * 2**20] for i in range(5)])
    with pytest.raises(sw.SnapshotError, match="over the caps of 1000 and 33554432"):
        sw.Session.restore(total, key=key, limits=limits, sandbox=box)
    many = _forge(plain_snapshot, key=key,
                  nodes=[[f"/tmp/h{i}", False, True, 0] for i in range(1_001)])
    with pytest.raises(sw.SnapshotError, match=r"written files are 1001 nodes"):
        sw.Session.restore(many, key=key, limits=limits, sandbox=box)


def test_a_restore_within_the_caps_still_works(box: sw.Sandbox, plain_snapshot: bytes) -> None:
    fits = _forge(plain_snapshot, nodes=[["/output/r.bin", False, True, 8 * 2**20]])
    with sw.Session.restore(fits, limits={"memory_mb": 64}, sandbox=box) as restored:
        result = restored.execute(
            "import pathlib\nprint(pathlib.Path('/output/r.bin').stat().st_size, "
            "open('/tmp/kept.txt').read())")
        assert result.stdout == f"{8 * 2**20} kept\n", (result.stdout, result.stderr)
    with pytest.raises(sw.SnapshotError, match="per-file cap of 1048576"):
        sw.Session.restore(fits, limits={"memory_mb": 64, "max_file_bytes": 2**20},
                           sandbox=box)


@pytest.mark.parametrize(("nodes", "handles", "reason"), [
    pytest.param([["/etc", True, False, 0], ["/etc/passwd", False, False, 5]], [],
                 "outside /input, /output and /tmp", id="etc-passwd"),
    pytest.param([["/etc/passwd", False, True, 5]], [], "outside /input", id="etc-no-parent"),
    pytest.param([["/input/x", False, True, 4]], [], "writable under /input",
                 id="writable-input"),
    pytest.param([["/tmp/ro", False, False, 4]], [], "read-only under /tmp", id="read-only-tmp"),
    pytest.param([["/output", False, True, 4]], [], "not the root's directory",
                 id="root-dir-as-file"),
    pytest.param([["/tmp/a/../../etc", True, True, 0]], [], "invalid name", id="dot-dot"),
    pytest.param([["/tmp/" + "/".join(["d"] * 10), True, True, 0]], [], "has no parent",
                 id="no-parents"),
    pytest.param([["/tmp/d" * 48, True, True, 0]], [], "deeper than 48", id="too-deep"),
    pytest.param([["/tmp/kept.txt", False, True, 1]], [], "comes twice", id="duplicate"),
    pytest.param([["/input/x", False, False, 4]], [[9, "/input/x", True, True, False, 0]],
                 "would write the read-only", id="writable-fd-on-input"),
    pytest.param([], [[9 + i, "/tmp/kept.txt", True, False, False, 0] for i in range(65)],
                 "open descriptors", id="too-many-fds"),
])
def test_a_restore_refuses_a_tree_the_session_could_not_hold(
    box: sw.Sandbox, plain_snapshot: bytes, nodes: list, handles: list, reason: str,
) -> None:
    for key in (None, b"k" * 32):
        forged = _forge(plain_snapshot, nodes=nodes, handles=handles, key=key)
        with pytest.raises(sw.SnapshotError, match=reason):
            sw.Session.restore(forged, key=key, sandbox=box)


def test_snapshot_limits_out_of_range_are_a_snapshot_error(
    box: sw.Sandbox, plain_snapshot: bytes,
) -> None:
    for limits in ({"memory_mb": 10**6}, {"max_file_bytes": -1}, {"nonsense": 1}):
        forged = _forge(plain_snapshot, header_change={"limits": limits})
        with pytest.raises(sw.SnapshotError, match="invalid limits"):
            sw.Session.restore(forged, sandbox=box)


_FUZZ_VALUES: list[object] = [
    None, True, -1, 0, 1, 2**31, 2**40, 2**64, 1.5, float("inf"), "", "x", "/etc/passwd",
    "/tmp/../etc", "\udcff", [], {}, [[]], [0], [-1, 2**40], [["/tmp/x", False, True, 2**33]],
    [[1, "/tmp/kept.txt", True, True, True, 0]], {"memory_mb": 2**20}, "a" * 10_000,
]


def _mutate(header: dict[str, object], rng: random.Random) -> bytes:
    """One mutation of a header: a field replaced, dropped or added (at the top or inside
    its lists), or the JSON text's bytes flipped, cut or nested past the parser."""
    choice = rng.randrange(6)
    value = copy.deepcopy(header)
    if choice == 0:
        value[rng.choice(sorted(value))] = copy.deepcopy(rng.choice(_FUZZ_VALUES))
    elif choice == 1:
        del value[rng.choice(sorted(value))]
    elif choice == 2:
        listed = [k for k, v in value.items() if isinstance(v, list) and v]
        if listed:
            items = value[rng.choice(listed)]
            assert isinstance(items, list)
            index = rng.randrange(len(items))
            if isinstance(items[index], list) and items[index]:
                items[index][rng.randrange(len(items[index]))] = copy.deepcopy(
                    rng.choice(_FUZZ_VALUES))
            else:
                items[index] = copy.deepcopy(rng.choice(_FUZZ_VALUES))
    elif choice == 3:
        value[rng.choice(["extra", "limits", "policy"])] = copy.deepcopy(
            rng.choice(_FUZZ_VALUES))
    text = bytearray(json.dumps(value).encode())
    if choice == 4:
        for _ in range(rng.randrange(1, 8)):
            text[rng.randrange(len(text))] = rng.randrange(256)
    elif choice == 5:
        return rng.choice([bytes(text[: rng.randrange(len(text))]), b"[" * 100_000,
                           b'{"runs": ' + b"[" * 50_000 + b"]" * 50_000 + b"}"])
    return bytes(text)


def test_fuzzed_snapshot_headers_raise_only_snapshot_error(
    box: sw.Sandbox, plain_snapshot: bytes,
) -> None:
    fixed = len(snapshot_format.MAGIC) + 8
    (_, _, length) = struct.unpack_from("<HHI", plain_snapshot, len(snapshot_format.MAGIC))
    header = json.loads(plain_snapshot[fixed : fixed + length])
    rest = plain_snapshot[fixed + length : -snapshot_format.DIGEST_BYTES]
    outcomes: dict[str, int] = {}
    for seed in range(200):
        mutated = _mutate(header, random.Random(seed))
        content = b"".join((snapshot_format.MAGIC, struct.pack("<HHI", 1, 0, len(mutated)),
                            mutated, rest))
        forged = content + hashlib.sha256(content).digest()
        try:
            restored = sw.Session.restore(forged, sandbox=box, idle_timeout_s=None)
        except sw.SnapshotError:
            outcomes["refused"] = outcomes.get("refused", 0) + 1
            continue
        except Exception as error:  # the assertion: nothing but SnapshotError
            pytest.fail(f"seed {seed}: {type(error).__name__}: {error}")
        restored.close()
        outcomes["restored"] = outcomes.get("restored", 0) + 1
    assert outcomes.get("refused", 0) > 100, outcomes


def test_a_checkpoint_that_cannot_be_rebuilt_closes_the_session_cleanly(
    box: sw.Sandbox, monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The tree's rules make every checkpoint restorable (test_file_attacks); should one
    # still fail, the session must end closed and say so, never half-open ("already
    # closed" from wasmtime on the next call).
    from sandbox_wasm._session import session as _session

    with open_session(box, sw.BALANCED_POLICY, timeout_ms=300) as session:
        session.execute("x = 1")

        def unusable(*_args: object) -> None:
            raise ValueError("unusable tree")

        monkeypatch.setattr(_session, "thaw", unusable)
        spun = session.execute("while True: pass")
        assert spun.status == "timeout" and spun.session is not None
        assert spun.session.closed and not spun.session.rolled_back
        assert session.closed
        with pytest.raises(sw.SessionClosedError):
            session.execute("print(x)")


# A source with a construct every policy flags (never reached, so only the audit sees it),
# and a session call that makes its own interpreter's audit answer nothing from then on
# (report mode lets it reach the bootstrap).
FLAGGED_SOURCE = "if False:\n    import socket\nprint('ran')\n"
FORGE_ANSWERS = (
    "import sys\n"
    "boot = sys._getframe(1).f_globals\n"
    "compile_only = boot['_code_to_run']\n"
    "boot['_facts'] = lambda source: ({'facts': []}, compile_only(source))\n"
)


def test_a_session_cannot_forge_the_audit_other_runs_get(box: sw.Sandbox) -> None:
    # Audit answers are cached for the whole process; those a session's interpreter gives
    # after its own code ran stay the session's (`_audit/cache.py`).
    with open_session(box, sw.REPORT_ONLY_POLICY) as session:
        assert session.execute(FORGE_ANSWERS).status == "succeeded"
        forged = session.execute(FLAGGED_SOURCE)
        assert forged.stdout == "ran\n" and forged.audit.flagged_calls == []
        again = session.execute(FLAGGED_SOURCE)
        assert again.audit.flagged_calls == []  # the session's own answer, from the cache
    for run in (box.execute(FLAGGED_SOURCE, policy=sw.REPORT_ONLY_POLICY),
                sw.Session(sandbox=box, policy=sw.REPORT_ONLY_POLICY).execute(FLAGGED_SOURCE)):
        assert run.stdout == "ran\n"
        assert [finding.name for finding in run.audit.flagged_calls] == ["socket"], run.audit


# A session keeps the code of the sources it ran (the guest's `_session_code`); this call
# swaps the code kept for STEP for code of its own.
STEP = "print('step', 6 * 7)"
SWAP_KEPT_CODE = (
    "import sys\nkept = sys._getframe(1).f_globals['_session_code'].__defaults__[-1]\n"
    "for source, (answer, code, blocked) in list(kept.items()):\n"
    "    kept[source] = (answer, compile(\"print('swapped')\", '<x>', 'exec'), blocked)\n"
    "print(len(kept))\n"
)


def test_kept_code_swapped_by_a_session_stays_in_that_session(box: sw.Sandbox) -> None:
    with open_session(box, sw.REPORT_ONLY_POLICY) as session:
        for _ in range(3):  # audited, compiled, then run from the kept code
            assert session.execute(STEP).stdout == "step 42\n"
        assert session.execute(SWAP_KEPT_CODE).status == "succeeded"
        # The session's own interpreter, which its code already runs as it likes.
        assert session.execute(STEP).stdout == "swapped\n"
    with open_session(box, sw.REPORT_ONLY_POLICY) as other:
        for _ in range(3):
            assert other.execute(STEP).stdout == "step 42\n"
    assert box.execute(STEP).stdout == "step 42\n"


@pytest.mark.parametrize("enforcing", [sw.STRICT_POLICY, sw.BALANCED_POLICY],
                         ids=["strict", "balanced"])
def test_an_enforcing_policy_refuses_the_swap(box: sw.Sandbox,
                                              enforcing: sw.AuditPolicy) -> None:
    with open_session(box, enforcing) as session:
        for _ in range(3):
            assert session.execute(STEP).stdout == "step 42\n"
        swap = session.execute(SWAP_KEPT_CODE)
        assert swap.status == "blocked" and swap.stdout == ""
        assert session.execute(STEP).stdout == "step 42\n"
