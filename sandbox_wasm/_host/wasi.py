"""The WASI host functions the guest calls, shadowing wasmtime's own, and
`define_host_functions(linker)`, which defines them on a linker.

- Stdio served from host memory: stdin from the run's payload, stdout and stderr captured
  within their caps (`output.CappedOutput`); descriptors beyond stdio are the filesystem
  shims' (`wasi_fs`), wired in here too.
- Clocks, and a poll_oneoff whose sleeps never outlive the deadline and end when the run is
  interrupted; proc_exit recorded, not raised.
- The audit's end: the write that completes the audit answer starts the user's phase
  (`_start_user_phase`), with its deadline in epoch ticks (`epoch_deadline`).

Every shim that takes guest memory follows the rules of `hostcall` (`wasi_shim`); fd_close
and proc_exit do constant work. All read the run from `hostcall.run_state`.
"""

from __future__ import annotations

import struct
import time

import wasmtime

from .calls import EPOCH_CALLBACKS, define_host_function, refuel
from .engine import EPOCH_TICK_SECONDS
from .hostcall import (
    CHECK_TICKS,
    ERRNO_BADF,
    ERRNO_FAULT,
    ERRNO_INVAL,
    ERRNO_SUCCESS,
    MAX_SUBSCRIPTIONS,
    SSIZE_MAX,
    Interrupt,
    bounded,
    io_vectors,
    read_records,
    run_state,
    wasi_shim,
    without_caller,
)
from .output import CappedOutput
from .stdin import StdinStream
from .view import GuestMemory
from .wasi_fs import SIGNATURES as FS_SIGNATURES
from .wasi_fs import FsCalls

WASI = "wasi_snapshot_preview1"
SUBSCRIPTION_SIZE = 48
EVENT_SIZE = 32
CLOCK_REALTIME = 0
SUBCLOCK_ABSTIME = 1
EVENTTYPE_CLOCK = 0


def _proc_exit(code: int) -> None:
    # Recording the status and returning (instead of raising) keeps wasmtime-py's global,
    # thread-unsafe "last exception" slot out of the picture: wasi-libc follows proc_exit
    # with `unreachable`, so the guest stops with an UNREACHABLE trap right after this.
    run_state.exit_code = code


def _clock_now_ns(clock_id: int) -> int | None:
    if clock_id == CLOCK_REALTIME:
        return time.time_ns()
    if clock_id in (1, 2, 3):  # monotonic, process and thread CPU time
        return time.monotonic_ns()
    return None


@wasi_shim
def _clock_time_get(caller: wasmtime.Caller, clock_id: int, _precision: int, out: int) -> int:
    # Shadowed so that absolute sleeps (CPython's time.sleep uses TIMER_ABSTIME) are
    # expressed in a clock this module can compare with its own deadline.
    now = _clock_now_ns(clock_id)
    if now is None:
        return ERRNO_INVAL
    GuestMemory(caller, run_state.memory).write(out, struct.pack("<Q", now))
    return ERRNO_SUCCESS


@wasi_shim
def _poll_oneoff(
    caller: wasmtime.Caller, subs_ptr: int, events_ptr: int, count: int, nevents_ptr: int
) -> int:
    # Epoch deadlines are only checked in wasm code, so a guest blocked here (time.sleep,
    # select) would outlive its deadline. This version never sleeps past the deadline and
    # wakes when the run is interrupted; the guest then traps as soon as it is back in wasm.
    if count <= 0:
        return ERRNO_INVAL
    view = GuestMemory(caller, run_state.memory)
    raw = read_records(view, subs_ptr, count, SUBSCRIPTION_SIZE, MAX_SUBSCRIPTIONS)
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
        deadline = run_state.deadline
        until = min(wake, deadline)
        if until > now_mono:
            interrupt: Interrupt | None = run_state.interrupt
            if interrupt is None:
                time.sleep(until - now_mono)
            else:
                interrupt.wait(until - now_mono)
        # Woken by the deadline rather than the guest's clock: `wasi_shim` marks the run
        # as timed out on return, and the guest traps before it can act on the event.
        after = time.monotonic()
        fired = [u for w, u in clocks if w <= after] or [min(clocks)[1]]
        for userdata in fired:
            events += struct.pack("<QHBxxxxxQHxxxxxx", userdata, 0, EVENTTYPE_CLOCK, 0, 0)
    view.write(events_ptr, bytes(events))
    view.write(nevents_ptr, struct.pack("<I", len(events) // EVENT_SIZE))
    return ERRNO_SUCCESS


@wasi_shim
def _fd_read(caller: wasmtime.Caller, fd: int, iovs: int, iovs_len: int, nread_ptr: int) -> int:
    # Stdin is served from this run's payload in host memory: no host file, memfd or
    # blocking-I/O thread hop per read. The embedded standard library is read inside the
    # module (wasi-vfs) and never reaches this import; the guest has no other real fds.
    if fd > 2:
        return _fs_calls.read_file_errno(caller, fd, iovs, iovs_len, nread_ptr)
    if fd != 0 or fd in run_state.closed:
        return ERRNO_BADF
    view = GuestMemory(caller, run_state.memory)
    payload: memoryview = run_state.stdin
    offset: int = run_state.stdin_offset
    request_end: int = run_state.request_end
    total = asked = 0
    if offset == request_end and run_state.request_end_due:
        # The request's last read was a full one: this empty read ends it for the guest,
        # and the user's stdin (if any) follows from the next read.
        run_state.request_end_due = False
        view.write(nread_ptr, struct.pack("<I", 0))
        return ERRNO_SUCCESS
    # A read never crosses from the request into the user's stdin: the guest takes a short
    # read as the request's end.
    end = request_end if offset < request_end else len(payload)
    vectors = list(bounded(caller, io_vectors(view, iovs, iovs_len)))
    stream: StdinStream | None = run_state.stdin_stream
    if stream is not None and offset >= len(payload):
        # The user's stdin from a host descriptor, read as the guest asks for it.
        data = stream.read(sum(length for _, length in vectors))
        for address, length in vectors:
            if not data:
                break
            view.write(address, data[:length])
            total += min(length, len(data))
            data = data[length:]
        view.write(nread_ptr, struct.pack("<I", total))
        return ERRNO_SUCCESS
    for address, length in vectors:
        asked += length
        chunk = payload[offset : min(offset + length, end)]
        if not chunk:
            break
        view.write(address, bytes(chunk))
        offset += len(chunk)
        total += len(chunk)
    if offset == request_end and total and total == asked:
        run_state.request_end_due = True
    run_state.stdin_offset = offset
    view.write(nread_ptr, struct.pack("<I", total))
    return ERRNO_SUCCESS


def _fd_close(fd: int) -> int:
    # Stdio is served here, every other descriptor by the run's in-memory tree (the
    # embedded stdlib's descriptors never leave the module).
    if fd > 2:
        return _fs_calls.fd_close(fd)
    if fd < 0 or fd in run_state.closed:
        return ERRNO_BADF
    run_state.closed.add(fd)
    return ERRNO_SUCCESS


@wasi_shim
def _fd_write(
    caller: wasmtime.Caller, fd: int, iovs: int, iovs_len: int, nwritten_ptr: int
) -> int:
    # Stdout and stderr are captured here, on the thread running the guest: no copy of what
    # lies beyond the cap and no hop through wasmtime's I/O threads. At most MAX_VECTORS
    # entries, at most the cap's worth of bytes copied, and the deadline checked per entry:
    # a write cut short by the deadline reports what it took (the guest then traps).
    if fd > 2:
        return _fs_calls.write_file_errno(caller, fd, iovs, iovs_len, nwritten_ptr)
    if fd not in (1, 2) or fd in run_state.closed:
        return ERRNO_BADF
    output: CappedOutput = run_state.outputs[fd - 1]
    view = GuestMemory(caller, run_state.memory)
    vectors = io_vectors(view, iovs, iovs_len)
    if len(vectors) > 1 and sum(length for _, length in vectors) > SSIZE_MAX:
        return ERRNO_INVAL  # as POSIX writev: the count would not fit the return value
    total = 0
    for address, length in vectors if len(vectors) == 1 else bounded(caller, vectors):
        if length:
            take = output.wanted(length)
            chunk = view.read(address, take) if take else b""
            output.write(chunk, length)
        total += length
    view.write(nwritten_ptr, struct.pack("<I", total))
    if run_state.next_phase is not None and output.answer_at is not None:
        _start_user_phase(caller)
    return ERRNO_SUCCESS


def epoch_ticks(timeout_ms: int) -> int:
    """A store's epoch deadline for `timeout_ms`: whole ticks, rounded up, and one more
    (the tick in progress may be about to end)."""
    return -(-timeout_ms // int(EPOCH_TICK_SECONDS * 1000)) + 1


def epoch_deadline(timeout_ms: int) -> int:
    """The epoch deadline a run of `timeout_ms` starts with: the next look of its epoch
    callback (`hostcall.on_epoch`, which enforces the deadline and interrupts), or without
    callbacks the whole timeout in ticks."""
    return CHECK_TICKS if EPOCH_CALLBACKS else epoch_ticks(timeout_ms)


def _start_user_phase(caller: wasmtime.Caller) -> None:
    """The audit has answered: from now on the user's own deadline and fuel apply. Store's
    methods work on the Caller, which exposes the same store context."""
    fuel, timeout_ms = run_state.next_phase
    run_state.next_phase = None
    left = refuel(caller, fuel if run_state.fuel_metered else None, epoch_deadline(timeout_ms))
    run_state.audit_fuel_used = 0 if left is None else run_state.first_phase_fuel - left
    run_state.deadline = time.monotonic() + timeout_ms / 1000


_fs_calls = FsCalls()


def define_host_functions(linker: wasmtime.Linker) -> None:
    """Define on `linker` (after its `define_wasi()`) the host functions above and the
    filesystem shims, in place of wasmtime's own."""
    i32, i64 = wasmtime.ValType.i32(), wasmtime.ValType.i64()
    linker.allow_shadowing = True
    # Every filesystem call wasmtime's WASI would answer: the run's tree answers instead.
    for name, (params, takes_caller) in FS_SIGNATURES.items():
        method = getattr(_fs_calls, name)
        shim = wasi_shim(method if takes_caller else without_caller(method))
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
