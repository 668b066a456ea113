"""The guest program: a runtime compiled and linked once, run in a fresh Store and
instance per execution, with WASI without capabilities, the limits, and the host functions
the guest may call (stdio served from host memory, output captured within its caps, clocks
and sleeps bounded by the deadline).

This is the only module that touches wasmtime objects during execution. Traps and exits are
translated here into a `GuestOutcome`; nothing above this layer inspects wasmtime types.
"""

from __future__ import annotations

import codecs
import contextlib
import ctypes
import functools
import os
import re
import struct
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

import wasmtime

from .._errors import InvalidRequestError
from .._fs.tree import MemoryFS
from .._guest.bootstrap import (
    ANSWER_LENGTH_BYTES,
    ERROR_MARK,
    FINDINGS_MARK,
    MAX_ANSWER_BYTES,
    MAX_ERROR_RECORD_BYTES,
    STATUS_MARK,
)
from .._models import MIB, Limits
from .._runtimes.artifacts import RuntimeFile
from .._tools import ToolCallRecord, ToolChannel
from .calls import call_entry, define_host_function
from .engine import EPOCH_TICK_SECONDS, EngineHost
from .memory import MemoryReset, memory_address, thread_faults
from .view import GuestMemory
from .wasi_fs import SIGNATURES as FS_SIGNATURES
from .wasi_fs import FsCalls

WASI = "wasi_snapshot_preview1"
ERRNO_SUCCESS = 0
ERRNO_BADF = 8
ERRNO_FAULT = 21
ERRNO_INVAL = 28
SUBSCRIPTION_SIZE = 48
EVENT_SIZE = 32
CLOCK_REALTIME = 0
SUBCLOCK_ABSTIME = 1
EVENTTYPE_CLOCK = 0
WASM_PAGE = 65_536
#: The most iovec entries one fd_read/fd_write accepts: POSIX's IOV_MAX as on Linux and in
#: wasi-libc. A longer list fails with EINVAL (as `writev` does on Linux), so the host work
#: of one call is bounded whatever count the guest passes.
MAX_VECTORS = 1024
#: The largest byte count one write may report (ssize_t on wasm32).
SSIZE_MAX = 2**31 - 1
#: The most subscriptions one poll_oneoff accepts (the guest has three descriptors).
MAX_SUBSCRIPTIONS = 1024
# A C stack that overflows the stock region at the bottom of linear memory wraps below
# address 0: its fault address lies in the top of the 32-bit address space.
_WRAPPED_STACK_FAULT = 0xFFF0_0000
_FAULT_ADDRESS = re.compile(r"memory fault at wasm address (0x[0-9a-fA-F]+)")

TrapKind = Literal[
    "deadline", "fuel", "c_stack_overflow", "memory_out_of_bounds", "stack_overflow", "crash"
]


class _CappedOutput:
    """Captured stdout or stderr of one run: keeps at most `cap` bytes, counts them all.

    Every write is reported to the guest as complete: a short count would surface as an
    OSError, and output beyond the cap is simply dropped (`truncated`). Bytes are decoded once
    at the end because writes can split a UTF-8 sequence.
    """

    def __init__(
        self, cap: int, *, error_channel: bool = False, audit_answer: bool = False
    ) -> None:
        self.cap = cap
        self.chunks: list[bytes] = []
        self.kept = 0
        self.total = 0
        self.truncated = False
        self.error_record: bytes | None = None
        self.findings_record: bytes | None = None
        self.status_record: int | None = None
        self._error_channel = error_channel
        # The bootstrap's audit answer precedes user output: 8-byte length, then JSON.
        self._answer_pending = audit_answer
        self._answer_header = b""
        self._answer_left = 0
        self._answer_parts: list[bytes] = []
        self.audit_answer: bytes | None = None
        self.answer_too_large = False
        self.answer_at: float | None = None

    def wanted(self, length: int) -> int:
        """How many leading bytes of a `length`-byte write this capture needs to see; the
        rest need not even be copied out of the guest's memory."""
        if self._answer_pending:
            return min(length, ANSWER_LENGTH_BYTES + MAX_ANSWER_BYTES + len(ERROR_MARK)
                       + self.cap)
        room = max(self.cap - self.kept, 0)
        if self._error_channel:
            # The bootstrap's error record may come after the cap is reached.
            room = max(room, len(ERROR_MARK) + MAX_ERROR_RECORD_BYTES + 1)
        return min(length, room)

    def _take_answer(self, chunk: bytes) -> bytes:
        """Consume audit-answer bytes from `chunk`; return what is left for user output."""
        if len(self._answer_header) < ANSWER_LENGTH_BYTES:
            need = ANSWER_LENGTH_BYTES - len(self._answer_header)
            self._answer_header += chunk[:need]
            chunk = chunk[need:]
            if len(self._answer_header) < ANSWER_LENGTH_BYTES:
                return b""
            self._answer_left = int.from_bytes(self._answer_header, "little")
            self.answer_too_large = self._answer_left > MAX_ANSWER_BYTES
        part, chunk = chunk[: self._answer_left], chunk[self._answer_left :]
        self._answer_left -= len(part)
        if not self.answer_too_large:
            self._answer_parts.append(part)
        if self._answer_left == 0:
            self._answer_pending = False
            self.audit_answer = b"".join(self._answer_parts)
            self.answer_at = time.perf_counter()
        return chunk

    def write(self, chunk: bytes, length: int) -> None:
        """Record a write of `length` bytes whose first `len(chunk)` bytes are `chunk`."""
        if self._answer_pending:
            before = len(chunk)
            chunk = self._take_answer(chunk)
            length -= before - len(chunk)
            if not chunk:
                return
        if self._error_channel and chunk.startswith(STATUS_MARK):
            # A session request's end: its code's exit status (the last record counts).
            status = chunk[len(STATUS_MARK) :].strip()
            self.status_record = int(status) if status.isdigit() and len(status) <= 3 else None
            return
        if self._error_channel and chunk.startswith(FINDINGS_MARK):
            # The run-time guard's findings, written once after the user code ended.
            record = chunk[len(FINDINGS_MARK) :].strip()
            self.findings_record = record if len(record) <= MAX_ERROR_RECORD_BYTES else None
            return
        if self._error_channel and chunk.startswith(ERROR_MARK):
            # The bootstrap reports the uncaught exception here after the user code ended.
            # Kept whole (it is bounded by MAX_ERROR_RECORD_BYTES) so that it parses; a
            # longer one is not the bootstrap's.
            record = chunk[len(ERROR_MARK) :].strip()
            self.error_record = record if len(record) <= MAX_ERROR_RECORD_BYTES else None
            return
        self.total += length
        room = self.cap - self.kept
        if length > room:
            self.truncated = True
        if room > 0:
            chunk = chunk[:room]
            self.chunks.append(chunk)
            self.kept += len(chunk)

    def data(self) -> bytes:
        return b"".join(self.chunks)

    def text(self) -> tuple[str, bool]:
        """The kept bytes as text of at most `cap` UTF-8 bytes, and whether anything was
        dropped. A cut never splits a character: a sequence the cap cut short is dropped
        instead of becoming U+FFFD, and invalid bytes (which decode to the 3-byte U+FFFD)
        are cut back to the cap too."""
        data = self.data()
        truncated = self.truncated
        if truncated:
            text = codecs.getincrementaldecoder("utf-8")("replace").decode(data, final=False)
        else:
            text = data.decode("utf-8", "replace")
        encoded = text.encode("utf-8", "surrogatepass")
        if len(encoded) > self.cap:
            text = encoded[: self.cap].decode("utf-8", "ignore")
            truncated = True
        return text, truncated


@dataclass
class GuestOutcome:
    """What happened in one guest run, in host terms."""

    exit_code: int | None = None
    trap: TrapKind | None = None
    trap_detail: str = ""
    stdout: bytes = b""
    stderr: bytes = b""
    #: The captured output as text within its cap, cut on a character boundary.
    stdout_text: str = ""
    stderr_text: str = ""
    stdout_truncated: bool = False
    stderr_truncated: bool = False
    stdout_bytes: int = 0
    stderr_bytes: int = 0
    error_record: bytes | None = None
    #: The run-time guard's findings (JSON list), if it made any.
    findings_record: bytes | None = None
    #: The exit status a request that returns reported when it came back to rest (None:
    #: it did not, e.g. it trapped).
    status_record: int | None = None
    #: Whether the entry point returned: the guest came back to rest (every frame of the
    #: call returned). Only wasmtime can say so; nothing the guest writes can fake it.
    at_rest: bool = False
    #: The guest's framed audit answer (JSON), when the run was asked for one.
    audit_answer: bytes | None = None
    answer_too_large: bool = False
    #: Milliseconds from entering the guest to its audit answer (the audit's cost).
    audit_answer_ms: float | None = None
    fuel_consumed: int = 0
    #: Linear memory when the instance started, and at the end (memory never shrinks).
    initial_memory_bytes: int = 0
    peak_memory_bytes: int = 0
    #: Milliseconds of the whole run (instance start-up and audit included).
    elapsed_ms: float = 0.0
    #: Files under /output created or changed by this call (name relative to /output).
    files: dict[str, bytes] = field(default_factory=dict)
    #: Writes the filesystem's caps refused in this call.
    files_dropped: list[str] = field(default_factory=list)
    #: The host tools this call called, in order.
    tool_calls: list[ToolCallRecord] = field(default_factory=list)
    host_error: str | None = None

    @property
    def user_code_ms(self) -> float:
        """Milliseconds after the audit's answer (the whole run when there was none): the
        time the user's deadline bounds."""
        if self.audit_answer_ms is None:
            return self.elapsed_ms
        return max(0.0, self.elapsed_ms - self.audit_answer_ms)


# Host functions are shared by every thread's Store; ctypes calls them on the thread that
# entered wasm, so per-run state lives in a thread-local.
_run_state = threading.local()


class _WasiError(Exception):
    """Ends a host call early with a WASI errno for the guest."""

    def __init__(self, errno: int) -> None:
        super().__init__(errno)
        self.errno = errno


def _past_deadline(caller: wasmtime.Caller) -> bool:
    """Whether this run's wall-clock deadline has passed. If it has, the run is marked as
    timed out and its epoch deadline moved to "now", so the guest traps (INTERRUPT) as soon
    as it is back in wasm: epoch interruption cannot fire while the host is working."""
    if time.monotonic() <= _run_state.deadline:
        return False
    if _run_state.deadline_hit:
        return True
    _run_state.deadline_hit = True
    # Caller exposes the store context that Store's method uses.
    wasmtime.Store.set_epoch_deadline(caller, 0)  # type: ignore[arg-type]
    return True


_Shim = TypeVar("_Shim", bound=Callable[..., int])


def run_time_left() -> float:
    """Seconds before this thread's run reaches its deadline (host tools are bounded by it)."""
    return float(_run_state.deadline - time.monotonic())


def _wasi_shim(shim: _Shim) -> _Shim:
    """A host function the guest can call, with the rules every one of them follows: its
    work is bounded (loops go through `_bounded`), the deadline is checked when it returns,
    and no Python exception crosses into wasmtime (a `_WasiError` becomes its errno, any
    other failure EFAULT)."""

    @functools.wraps(shim)
    def call(caller: wasmtime.Caller, *args: int) -> int:
        try:
            errno = shim(caller, *args)
        except _WasiError as error:
            errno = error.errno
        except Exception:
            errno = ERRNO_FAULT
        with contextlib.suppress(Exception):
            if time.monotonic() > _run_state.deadline:
                _past_deadline(caller)
        return errno

    return call  # type: ignore[return-value]  # wraps() keeps the shim's signature


def _without_caller(function: Callable[..., int]) -> Callable[..., int]:
    def call(_caller: wasmtime.Caller, *args: int) -> int:
        return function(*args)

    return call


_Item = TypeVar("_Item")


def _bounded(caller: wasmtime.Caller, items: Iterable[_Item]) -> Iterator[_Item]:
    """`items`, stopping early once the deadline has passed (a loop inside a host call must
    not outlive the run's deadline, whatever the guest asked of it)."""
    deadline: float = _run_state.deadline
    for item in items:
        if time.monotonic() > deadline and _past_deadline(caller):
            return
        yield item


def _read_records(view: GuestMemory, address: int, count: int, size: int, limit: int) -> bytes:
    """`count` guest records of `size` bytes at `address`: EINVAL beyond `limit` records,
    EFAULT outside the guest's memory."""
    if count < 0 or count > limit:
        raise _WasiError(ERRNO_INVAL)
    if address < 0 or address + count * size > view.size:
        raise _WasiError(ERRNO_FAULT)
    return view.read(address, count * size)


def _io_vectors(view: GuestMemory, iovs: int, count: int) -> list[tuple[int, int]]:
    """The (address, length) entries of a guest iovec list, each inside the guest's memory."""
    raw = _read_records(view, iovs, count, 8, MAX_VECTORS)
    vectors = list(struct.iter_unpack("<II", raw))
    for address, length in vectors:
        if address + length > view.size:
            raise _WasiError(ERRNO_FAULT)
    return vectors


def _proc_exit(code: int) -> None:
    # Recording the status and returning (instead of raising) keeps wasmtime-py's global,
    # thread-unsafe "last exception" slot out of the picture: wasi-libc follows proc_exit
    # with `unreachable`, so the guest stops with an UNREACHABLE trap right after this.
    _run_state.exit_code = code


def _clock_now_ns(clock_id: int) -> int | None:
    if clock_id == CLOCK_REALTIME:
        return time.time_ns()
    if clock_id in (1, 2, 3):  # monotonic, process and thread CPU time
        return time.monotonic_ns()
    return None


@_wasi_shim
def _clock_time_get(caller: wasmtime.Caller, clock_id: int, _precision: int, out: int) -> int:
    # Shadowed so that absolute sleeps (CPython's time.sleep uses TIMER_ABSTIME) are
    # expressed in a clock this module can compare with its own deadline.
    now = _clock_now_ns(clock_id)
    if now is None:
        return ERRNO_INVAL
    GuestMemory(caller, _run_state.memory).write(out, struct.pack("<Q", now))
    return ERRNO_SUCCESS


@_wasi_shim
def _poll_oneoff(
    caller: wasmtime.Caller, subs_ptr: int, events_ptr: int, count: int, nevents_ptr: int
) -> int:
    # Epoch deadlines are only checked in wasm code, so a guest blocked here (time.sleep,
    # select) would outlive its deadline. This version never sleeps past the deadline; the
    # epoch trap then fires as soon as the guest is back in wasm.
    if count <= 0:
        return ERRNO_INVAL
    view = GuestMemory(caller, _run_state.memory)
    raw = _read_records(view, subs_ptr, count, SUBSCRIPTION_SIZE, MAX_SUBSCRIPTIONS)
    if events_ptr < 0 or events_ptr + count * EVENT_SIZE > view.size:
        return ERRNO_FAULT
    now_mono = time.monotonic()
    ready: list[tuple[int, int]] = []  # (userdata, event type) of fd subscriptions
    clocks: list[tuple[float, int]] = []  # (wake time on time.monotonic, userdata)
    for index in range(count):
        base = index * SUBSCRIPTION_SIZE
        userdata, tag = struct.unpack_from("<QB", raw, base)
        if tag != EVENTTYPE_CLOCK:
            ready.append((userdata, tag))  # stdin is in memory, stdout/stderr never block
            continue
        (clock_id,) = struct.unpack_from("<I", raw, base + 16)
        (timeout,) = struct.unpack_from("<Q", raw, base + 24)
        (flags,) = struct.unpack_from("<H", raw, base + 40)
        if flags & SUBCLOCK_ABSTIME:
            now_ns = _clock_now_ns(clock_id)
            if now_ns is None:
                return ERRNO_INVAL
            wake = now_mono + (timeout - now_ns) / 1e9
        else:
            wake = now_mono + timeout / 1e9
        clocks.append((wake, userdata))
    events = bytearray()
    if ready:
        for userdata, tag in ready:
            events += struct.pack("<QHBxxxxxQHxxxxxx", userdata, 0, tag, 0, 0)
    else:
        wake = min(wake for wake, _ in clocks)
        deadline = _run_state.deadline
        until = min(wake, deadline)
        if until > now_mono:
            time.sleep(until - now_mono)
        # Woken by the deadline rather than the guest's clock: `_wasi_shim` marks the run
        # as timed out on return, and the guest traps before it can act on the event.
        after = time.monotonic()
        fired = [u for w, u in clocks if w <= after] or [min(clocks)[1]]
        for userdata in fired:
            events += struct.pack("<QHBxxxxxQHxxxxxx", userdata, 0, EVENTTYPE_CLOCK, 0, 0)
    view.write(events_ptr, bytes(events))
    view.write(nevents_ptr, struct.pack("<I", len(events) // EVENT_SIZE))
    return ERRNO_SUCCESS


@_wasi_shim
def _fd_read(caller: wasmtime.Caller, fd: int, iovs: int, iovs_len: int, nread_ptr: int) -> int:
    # Stdin is served from this run's payload in host memory: no host file, memfd or
    # blocking-I/O thread hop per read. The embedded standard library is read inside the
    # module (wasi-vfs) and never reaches this import; the guest has no other real fds.
    if fd > 2:
        return _fs_calls.read_file_errno(caller, fd, iovs, iovs_len, nread_ptr)
    if fd != 0 or fd in _run_state.closed:
        return ERRNO_BADF
    view = GuestMemory(caller, _run_state.memory)
    payload: memoryview = _run_state.stdin
    offset: int = _run_state.stdin_offset
    total = 0
    for address, length in _bounded(caller, _io_vectors(view, iovs, iovs_len)):
        chunk = payload[offset : offset + length]
        if not chunk:
            break
        view.write(address, bytes(chunk))
        offset += len(chunk)
        total += len(chunk)
    _run_state.stdin_offset = offset
    view.write(nread_ptr, struct.pack("<I", total))
    return ERRNO_SUCCESS


def _fd_close(fd: int) -> int:
    # Stdio is served here, every other descriptor by the run's in-memory tree (the
    # embedded stdlib's descriptors never leave the module).
    if fd > 2:
        return _fs_calls.fd_close(fd)
    if fd < 0 or fd in _run_state.closed:
        return ERRNO_BADF
    _run_state.closed.add(fd)
    return ERRNO_SUCCESS


@_wasi_shim
def _fd_write(
    caller: wasmtime.Caller, fd: int, iovs: int, iovs_len: int, nwritten_ptr: int
) -> int:
    # Stdout and stderr are captured here, on the thread running the guest: no copy of what
    # lies beyond the cap and no hop through wasmtime's I/O threads. At most MAX_VECTORS
    # entries, at most the cap's worth of bytes copied, and the deadline checked per entry:
    # a write cut short by the deadline reports what it took (the guest then traps).
    if fd > 2:
        return _fs_calls.write_file_errno(caller, fd, iovs, iovs_len, nwritten_ptr)
    if fd not in (1, 2) or fd in _run_state.closed:
        return ERRNO_BADF
    output: _CappedOutput = _run_state.outputs[fd - 1]
    view = GuestMemory(caller, _run_state.memory)
    vectors = _io_vectors(view, iovs, iovs_len)
    if len(vectors) > 1 and sum(length for _, length in vectors) > SSIZE_MAX:
        return ERRNO_INVAL  # as POSIX writev: the count would not fit the return value
    total = 0
    for address, length in vectors if len(vectors) == 1 else _bounded(caller, vectors):
        if length:
            take = output.wanted(length)
            chunk = view.read(address, take) if take else b""
            output.write(chunk, length)
        total += length
    view.write(nwritten_ptr, struct.pack("<I", total))
    if _run_state.next_phase is not None and output.answer_at is not None:
        _start_user_phase(caller)
    return ERRNO_SUCCESS


def _ticks(timeout_ms: int) -> int:
    return -(-timeout_ms // int(EPOCH_TICK_SECONDS * 1000)) + 1


def _start_user_phase(caller: wasmtime.Caller) -> None:
    """The audit has answered: from now on the user's own deadline and fuel apply. Store's
    methods work on the Caller, which exposes the same store context."""
    fuel, timeout_ms = _run_state.next_phase
    _run_state.next_phase = None
    store: Any = caller
    _run_state.audit_fuel_used = _run_state.first_phase_fuel - wasmtime.Store.get_fuel(store)
    wasmtime.Store.set_fuel(store, fuel)
    wasmtime.Store.set_epoch_deadline(store, _ticks(timeout_ms))
    _run_state.deadline = time.monotonic() + timeout_ms / 1000


_fs_calls = FsCalls(lambda: _run_state, lambda *args: _io_vectors(*args))


def _define_host_functions(linker: wasmtime.Linker) -> None:
    i32, i64 = wasmtime.ValType.i32(), wasmtime.ValType.i64()
    linker.allow_shadowing = True
    # Every filesystem call wasmtime's WASI would answer: the run's tree answers instead.
    for name, (params, takes_caller) in FS_SIGNATURES.items():
        method = getattr(_fs_calls, name)
        shim = _wasi_shim(method if takes_caller else _without_caller(method))
        define_host_function(linker, WASI, name, [i64 if p == "I" else i32 for p in params],
                             [i32], shim, access_caller=True)
    define_host_function(linker, WASI, "proc_exit", [i32], [], _proc_exit)
    define_host_function(linker, WASI, "clock_time_get", [i32, i64, i32], [i32],
                         _clock_time_get, access_caller=True)
    define_host_function(linker, WASI, "fd_close", [i32], [i32], _fd_close)
    for name, shim in (("fd_write", _fd_write), ("fd_read", _fd_read),
                       ("poll_oneoff", _poll_oneoff)):
        define_host_function(linker, WASI, name, [i32, i32, i32, i32], [i32], shim,
                             access_caller=True)


#: Idle instances a program keeps for reuse, and the most memory one may have written to
#: be reused (copying it back must stay cheaper than a fresh instance's page faults).
MAX_IDLE_INSTANCES = 8
MAX_RESET_BYTES = 4 * MIB
#: $SANDBOX_WASM_REUSE_INSTANCES=0 gives every one-shot run an instance of its own.
REUSE_INSTANCES = os.environ.get("SANDBOX_WASM_REUSE_INSTANCES") != "0"


class GuestProgram:
    """A runtime compiled and linked, ready to instantiate many times (one InstancePre).

    A runtime whose entry returns to rest (`RuntimeFile.returns_to_rest`) has its one-shot
    runs served by reused instances: after a run that came back to rest, the instance's
    memory is put back to the image (`MemoryReset`), which makes it indistinguishable from
    a fresh one, and it waits for the next run. A run that trapped, exited, grew its memory
    or wrote more than MAX_RESET_BYTES leaves its instance to be freed;
    $SANDBOX_WASM_REUSE_INSTANCES=0 turns reuse off.

    `release()` drops the compiled module (later runs report a host error); the engine host
    calls it at interpreter exit, a `Sandbox` when it is closed."""

    def __init__(self, host: EngineHost, runtime: RuntimeFile, argv: list[str]) -> None:
        self.host = host
        self.runtime = runtime
        self.argv = argv
        # The module and its stack pointer both come from the bytes that hashed to
        # `runtime.sha256` (never from the file again: it may have changed since).
        module, _, stack_top = host.load(runtime.path, runtime.sha256)
        linker = wasmtime.Linker(host.engine)
        linker.define_wasi()
        _define_host_functions(linker)
        self._pre: wasmtime.InstancePre | None = linker.instantiate_pre(module)
        self._entry = "_start" if runtime.kind == "command" else "sandbox_resume"
        #: Whether runs get the in-memory filesystem (`RuntimeFile.has_filesystem`).
        self.has_filesystem = runtime.has_filesystem
        #: Where the C stack ends (it grows down from here); 0 when unknown.
        self.stack_top = stack_top
        #: Whether one-shot runs reuse instances: the entry returns to rest, and the C stack
        #: pointer is the module's only mutable global (so memory is all the state).
        self.reuses_instances = (REUSE_INSTANCES and runtime.returns_to_rest
                                 and self.stack_top > 0)
        self._idle_instances: list[tuple[LiveInstance, MemoryReset]] = []
        # Guards the idle instances, the pristine instance and the resets reading it.
        self._idle = threading.Condition()
        self._pristine: tuple[wasmtime.Store, wasmtime.Memory] | None = None
        self._resets = 0
        self._image_copy: bytes | None = None
        memory_type = next((e.type for e in module.exports if e.name == "memory"), None)
        #: The linear memory the runtime starts with (its snapshot's heap): a smaller memory
        #: cap cannot even instantiate it.
        self.memory_floor_bytes = (memory_type.limits.min * WASM_PAGE
                                   if isinstance(memory_type, wasmtime.MemoryType) else 0)
        # The entry is called unchecked (`_wasm_calls.call_entry`): its type must be () -> ().
        entry_type = next((e.type for e in module.exports if e.name == self._entry), None)
        if not (isinstance(entry_type, wasmtime.FuncType)
                and not entry_type.params and not entry_type.results):
            raise wasmtime.WasmtimeError(f"the runtime exports no {self._entry}() -> ()")
        host.register(self)

    def check_memory_cap(self, memory_cap_bytes: int) -> None:
        """Raise InvalidRequestError for a memory cap under what the runtime starts with."""
        if memory_cap_bytes < self.memory_floor_bytes:
            floor_mb = -(-self.memory_floor_bytes // MIB)
            raise InvalidRequestError(
                f"the {self.runtime.name} runtime needs at least {floor_mb} MiB of memory to "
                f"start; memory_mb={memory_cap_bytes // MIB} is below that",
                field="limits.memory_mb")

    def release(self) -> None:
        """Drop the compiled module and the idle instances; later runs report a host
        error."""
        with self._idle:
            self._pre = None
            idle, self._idle_instances = self._idle_instances, []
            # A reset still reading the pristine memory finishes first (it is quick).
            self._idle.wait_for(lambda: self._resets == 0, timeout=10)
            pristine, self._pristine = self._pristine, None
        for instance, _ in idle:
            instance.close()
        if pristine is not None:
            pristine[0].close()

    def run(
        self,
        payload: bytes,
        limits: Limits,
        *,
        argv: list[str] | None = None,
        audit_budget: Limits | None = None,
        fs: MemoryFS | None = None,
        tools: ToolChannel | None = None,
    ) -> GuestOutcome:
        """Run the guest once with `payload` as its stdin, under `limits` (memory cap,
        output caps, deadline, fuel), with this program's argv unless another is given: in
        a brand-new Store, or in an idle instance put back to the image (see the class).

        With `audit_budget`, stdout starts with the guest's framed audit answer (returned
        apart, not counted against the cap): the guest runs under the budget's deadline and
        fuel until it has answered and under `limits` after it, so the user's limits apply
        to the user's code whatever the audit cost."""
        if not self.reuses_instances or argv not in (None, self.argv):
            instance = LiveInstance(self, limits.memory_mb * MIB, argv or self.argv, fs=fs)
            try:
                return instance.call(payload, limits, audit_budget=audit_budget, tools=tools)
            finally:
                instance.close()
        self.check_memory_cap(limits.memory_mb * MIB)
        instance, reset = self._take_idle(limits.memory_mb * MIB)
        instance.fs = fs
        kept = False
        try:
            faults = thread_faults()
            outcome = instance.call(payload, limits, audit_budget=audit_budget, tools=tools)
            faulted = faults is None or thread_faults() != faults
            if outcome.at_rest and outcome.host_error is None:
                kept = self._keep(instance, reset, faulted=faulted)
            return outcome
        finally:
            if not kept:
                instance.close()

    def _take_idle(self, memory_cap_bytes: int) -> tuple[LiveInstance, MemoryReset | None]:
        """An idle instance and its reset, or a new instance (its reset is made when it
        first comes back), under this memory cap."""
        with self._idle:
            idle = self._idle_instances.pop() if self._idle_instances else None
        if idle is None:
            return LiveInstance(self, memory_cap_bytes, self.argv), None
        idle[0].set_memory_cap(memory_cap_bytes)
        return idle

    def _keep(self, instance: LiveInstance, reset: MemoryReset | None, *, faulted: bool) -> bool:
        """Put the memory of an instance at rest back to the image and make it idle;
        False when it cannot be reused (see `MemoryReset.reset`) or is not wanted."""
        if instance.memory is None:
            return False
        with self._idle:
            if self._pre is None:
                return False
            self._resets += 1  # release() waits: the pristine memory is read below
        try:
            if reset is None:
                reset = MemoryReset(*self.pristine_memory(), MAX_RESET_BYTES)
            if not reset.reset(instance.memory, instance.store, faulted=faulted):
                return False
        except wasmtime.WasmtimeError:  # released meanwhile
            return False
        finally:
            with self._idle:
                self._resets -= 1
                self._idle.notify_all()
        instance.fs = None
        with self._idle:
            if self._pre is None or len(self._idle_instances) >= MAX_IDLE_INSTANCES:
                return False
            self._idle_instances.append((instance, reset))
        return True

    def idle_instances(self) -> list[tuple[LiveInstance, MemoryReset]]:
        """The instances waiting for a run, with their resets (a copy of the list)."""
        with self._idle:
            return list(self._idle_instances)

    def pristine_memory(self) -> tuple[int, int]:
        """(address, size) of the linear memory of an instance that is never entered: the
        runtime's image as every fresh instance starts with it, read (never written) by
        every reset. Created on first use; freed by `release()`."""
        with self._idle:
            if self._pristine is None:
                store = wasmtime.Store(self.host.engine)
                try:
                    memory, _ = self.instantiate(store)
                except BaseException:
                    store.close()
                    raise
                if memory is None:
                    store.close()
                    raise wasmtime.WasmtimeError("the runtime exports no memory")
                self._pristine = (store, memory)
            store, memory = self._pristine
            return memory_address(memory, store), memory.data_len(store)

    def fresh_image(self) -> bytes:
        """A copy of the linear memory of a fresh instance (made once; only the
        memory-state comparison fallback needs it)."""
        if self._image_copy is None:
            self._image_copy = ctypes.string_at(*self.pristine_memory())
        return self._image_copy

    def instantiate(self, store: wasmtime.Store) -> tuple[wasmtime.Memory | None, wasmtime.Func]:
        """A new instance of the runtime in `store`: its memory and entry point."""
        if self._pre is None:
            raise wasmtime.WasmtimeError("the runtime was released (sandbox closed or "
                                         "interpreter exiting)")
        exports = self._pre.instantiate(store).exports(store)
        exported_memory = exports["memory"]
        memory = exported_memory if isinstance(exported_memory, wasmtime.Memory) else None
        entry = exports[self._entry]
        assert isinstance(entry, wasmtime.Func)
        return memory, entry


class LiveInstance:
    """One instance of a guest program in a Store of its own, entered once (a one-shot
    run) or many times (a session: the guest returns to rest after each request, and its
    linear memory carries the state to the next).

    The memory cap covers the instance's whole life; fuel, deadline and output caps are
    each call's. Instantiation failures surface on the first call, as a host error."""

    def __init__(
        self, program: GuestProgram, memory_cap_bytes: int, argv: list[str],
        *, fs: MemoryFS | None = None,
    ) -> None:
        program.check_memory_cap(memory_cap_bytes)
        self.program = program
        #: The guest's filesystem (None: no descriptor beyond stdio).
        self.fs = fs
        self.store = wasmtime.Store(program.host.engine)
        wasi = wasmtime.WasiConfig()
        # No preopened directories and no environment: the guest sees no host state.
        wasi.argv = argv
        self.store.set_wasi(wasi)
        self.set_memory_cap(memory_cap_bytes)
        self.memory: wasmtime.Memory | None = None
        self._entry: wasmtime.Func | None = None
        self._closed = False

    def set_memory_cap(self, memory_cap_bytes: int) -> None:
        """The most linear memory the instance may grow to from now on."""
        self.store.set_limits(memory_size=memory_cap_bytes)

    def start(self) -> None:
        """Instantiate now (a call does it when needed); raises WasmtimeError."""
        if self._entry is None:
            self.memory, self._entry = self.program.instantiate(self.store)

    def call(
        self, payload: bytes, limits: Limits, *, audit_budget: Limits | None = None,
        tools: ToolChannel | None = None,
    ) -> GuestOutcome:
        """Enter the guest with `payload` as its stdin under `limits` (and `audit_budget`
        until its audit answer, as `GuestProgram.run` describes), with `tools` answering
        its tool calls; never raises for what the guest does."""
        stdout = _CappedOutput(limits.max_stdout_bytes, audit_answer=audit_budget is not None)
        stderr = _CappedOutput(limits.max_stderr_bytes, error_channel=True)
        outcome = GuestOutcome()
        phases = _Phases(limits, audit_budget)
        started = time.perf_counter()
        fs = self.fs
        outputs_before = fs.mark() if fs is not None else None
        if fs is not None:
            fs.dropped.clear()  # each call reports its own
        try:
            if self._closed:
                raise wasmtime.WasmtimeError("the instance was closed")
            self.store.set_fuel(phases.first_fuel)
            self.store.set_epoch_deadline(_ticks(phases.first_timeout_ms))
            _reset_run_state(payload, phases, (stdout, stderr), self.fs, tools)
            self.start()
            # Host functions use this handle with their Caller (same store) instead of
            # looking the export up on every call.
            _run_state.memory = self.memory
            if self.memory is not None:
                outcome.initial_memory_bytes = self.memory.size(self.store) * WASM_PAGE
            assert self._entry is not None
            _enter(self._entry, self.store, outcome)
        except wasmtime.WasmtimeError as error:
            outcome.host_error = str(error).splitlines()[0][:300]
        finally:
            outcome.elapsed_ms = (time.perf_counter() - started) * 1000
            _measure(self.store, self.memory, phases, outcome)
            _run_state.fs = _run_state.tools = None
        _collect_output(outcome, stdout, stderr, started)
        if fs is not None:
            outcome.files = fs.outputs(since=outputs_before)
            outcome.files_dropped = list(fs.dropped)
        if tools is not None:
            outcome.tool_calls = list(tools.calls)
        return outcome

    def close(self) -> None:
        """Free the Store (the instance and its memory). Idempotent."""
        if not self._closed:
            self._closed = True
            self.memory = self._entry = None
            self.store.close()


@dataclass(frozen=True)
class _Phases:
    """The limits of a run's two phases: the audit's budget until its answer, then the
    user's limits (one phase, the user's, when there is no audit answer to wait for)."""

    user: Limits
    audit: Limits | None

    @property
    def first_fuel(self) -> int:
        return (self.audit or self.user).effective_fuel

    @property
    def first_timeout_ms(self) -> int:
        return (self.audit or self.user).timeout_ms


def _reset_run_state(
    payload: bytes, phases: _Phases, outputs: tuple[_CappedOutput, _CappedOutput],
    fs: MemoryFS | None = None,
    tools: ToolChannel | None = None,
) -> None:
    """This thread's run state, as the host functions read it during the run."""
    _run_state.fs = fs
    _run_state.tools = tools
    user = phases.user
    _run_state.next_phase = (
        (user.effective_fuel, user.timeout_ms) if phases.audit is not None else None
    )
    _run_state.first_phase_fuel = phases.first_fuel
    _run_state.audit_fuel_used = None
    _run_state.exit_code = None
    _run_state.deadline_hit = False
    _run_state.stdin = memoryview(payload)
    _run_state.stdin_offset = 0
    _run_state.deadline = time.monotonic() + phases.first_timeout_ms / 1000
    _run_state.outputs = outputs
    _run_state.closed = set()


def _enter(entry: wasmtime.Func, store: wasmtime.Store, outcome: GuestOutcome) -> None:
    """Run the guest's entry point and record how it ended."""
    try:
        call_entry(entry, store)
        outcome.exit_code = 0
        outcome.at_rest = True
    except wasmtime.Trap as trap:
        classify_trap(outcome, trap)
    except wasmtime.WasmtimeError as error:
        outcome.trap = "crash"
        outcome.trap_detail = str(error).splitlines()[0][:300]
    if outcome.trap is None or outcome.trap == "crash":
        recorded = getattr(_run_state, "exit_code", None)
        if recorded is not None:
            outcome.trap, outcome.trap_detail = None, ""
            outcome.exit_code = recorded
    if _run_state.deadline_hit:
        # A host call cut short by the deadline (a sleep, a huge write): the guest may have
        # ended before the epoch trap caught up; it still timed out.
        outcome.trap, outcome.exit_code = "deadline", None


def _measure(
    store: wasmtime.Store, memory: wasmtime.Memory | None, phases: _Phases,
    outcome: GuestOutcome,
) -> None:
    """Fuel used (both phases) and the final memory size, read before the Store closes."""
    try:
        audit_used = getattr(_run_state, "audit_fuel_used", None)
        if audit_used is None:  # still in the first phase
            outcome.fuel_consumed = phases.first_fuel - store.get_fuel()
        else:
            outcome.fuel_consumed = audit_used + phases.user.effective_fuel - store.get_fuel()
        if memory is not None:
            outcome.peak_memory_bytes = memory.size(store) * WASM_PAGE
    except wasmtime.WasmtimeError:
        pass


def _collect_output(
    outcome: GuestOutcome, stdout: _CappedOutput, stderr: _CappedOutput, started: float
) -> None:
    outcome.stdout, outcome.stderr = stdout.data(), stderr.data()
    outcome.stdout_text, outcome.stdout_truncated = stdout.text()
    outcome.stderr_text, outcome.stderr_truncated = stderr.text()
    outcome.stdout_bytes, outcome.stderr_bytes = stdout.total, stderr.total
    outcome.error_record = stderr.error_record
    outcome.findings_record = stderr.findings_record
    outcome.status_record = stderr.status_record
    if outcome.at_rest and outcome.trap is None and stderr.status_record is not None:
        outcome.exit_code = stderr.status_record
    outcome.audit_answer = stdout.audit_answer
    outcome.answer_too_large = stdout.answer_too_large
    if stdout.answer_at is not None:
        outcome.audit_answer_ms = (stdout.answer_at - started) * 1000


def classify_trap(outcome: GuestOutcome, trap: wasmtime.Trap) -> None:
    code = trap.trap_code
    if code == wasmtime.TrapCode.INTERRUPT:
        outcome.trap = "deadline"
    elif code == wasmtime.TrapCode.OUT_OF_FUEL:
        outcome.trap = "fuel"
    elif code == wasmtime.TrapCode.MEMORY_OUT_OF_BOUNDS:
        outcome.trap, outcome.trap_detail = _out_of_bounds_kind(str(trap))
    elif code == wasmtime.TrapCode.STACK_OVERFLOW:
        outcome.trap = "stack_overflow"  # wasm call stack (deeply nested C iterators)
    else:
        outcome.trap = "crash"
        outcome.trap_detail = code.name if code is not None else "unknown trap"


def _out_of_bounds_kind(message: str) -> tuple[TrapKind, str]:
    """An out-of-bounds access is a C stack overflow only when it wrapped below address 0
    (the stock C stack sits at the bottom of memory); any other address is a wild access."""
    match = _FAULT_ADDRESS.search(message)
    if match is None:
        return "memory_out_of_bounds", "at an unknown address"
    address = int(match.group(1), 16)
    if address >= _WRAPPED_STACK_FAULT:
        return "c_stack_overflow", f"at {match.group(1)}"
    return "memory_out_of_bounds", f"at {match.group(1)}"
