"""The rules every host function the guest calls follows, and the per-run state they serve.

- `run_state`: this thread's run, as `program` sets it before entering the guest and the
  host functions read and update it.
- `wasi_shim`: the wrapper of every WASI shim: bounded work, the deadline checked when it
  returns, no Python exception into wasmtime (a `WasiError` becomes its errno).
- `bounded`, `read_records`, `io_vectors`: loops cut short at the deadline; guest records
  and iovec lists read within their limits and within the guest's memory.
- `run_time_left`, `run_interrupted`: the seconds the run has left (host tools are bounded
  by it) and whether it was interrupted (`stop_requested` marks either).
- `on_epoch`: what the Store's epoch callback decides every tick: trap (interrupted or past
  the deadline) or run one more tick (`CHECK_TICKS`).
- The WASI errnos the shims return and the limits of one call (`MAX_VECTORS`,
  `MAX_SUBSCRIPTIONS`, `SSIZE_MAX`).
"""

from __future__ import annotations

import contextlib
import functools
import struct
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Protocol, TypeVar

import wasmtime

from .view import GuestMemory

ERRNO_SUCCESS = 0
ERRNO_BADF = 8
ERRNO_FAULT = 21
ERRNO_INVAL = 28
#: The most iovec entries one fd_read/fd_write accepts: POSIX's IOV_MAX as on Linux and in
#: wasi-libc. A longer list fails with EINVAL (as `writev` does on Linux), so the host work
#: of one call is bounded whatever count the guest passes.
MAX_VECTORS = 1024
#: The largest byte count one write may report (ssize_t on wasm32).
SSIZE_MAX = 2**31 - 1
#: The most subscriptions one poll_oneoff accepts (the guest has three descriptors).
MAX_SUBSCRIPTIONS = 1024


# Host functions are shared by every thread's Store; ctypes calls them on the thread that
# entered wasm, so per-run state lives in a thread-local. Its fields (set by
# `program._reset_run_state` and `LiveInstance.call`): memory, answer_address (where a
# tool's answer is left for the guest, or None), stdin and stdin_offset
# (the request, then the user's stdin from request_end; request_end_due: the request's last
# read was full, so the next one must be empty),
# outputs (stdout's and stderr's `CappedOutput`), closed (the stdio descriptors closed),
# fs, tools and network (the run's tree, tool channel and network channel, or None),
# deadline and deadline_hit,
# interrupt (the run's cancel Event, or None) and interrupted (it was seen set),
# exit_code (proc_exit's), and the audit's phase: next_phase, first_phase_fuel,
# audit_fuel_used, fuel_metered (False only on a measurement engine without fuel).
run_state = threading.local()


class WasiError(Exception):
    """Ends a host call early with a WASI errno for the guest."""

    def __init__(self, errno: int) -> None:
        super().__init__(errno)
        self.errno = errno


class Interrupt(Protocol):
    """What interrupts a run: a `threading.Event`, or an `InterruptFlag`."""

    def set(self) -> None: ...
    def is_set(self) -> bool: ...
    def wait(self, timeout: float | None = None) -> bool: ...


class InterruptFlag:
    """A `threading.Event` for one run's interrupt, made in a fraction of the time (an
    Event builds a Condition, ~2 us on every session call): set means its lock is free.
    Only the thread running the guest waits on it."""

    __slots__ = ("_unset",)

    def __init__(self) -> None:
        self._unset = threading.Lock()
        self._unset.acquire()

    def set(self) -> None:
        with contextlib.suppress(RuntimeError):  # set already
            self._unset.release()

    def is_set(self) -> bool:
        return not self._unset.locked()

    def wait(self, timeout: float | None = None) -> bool:
        """Whether it is set, waiting up to `timeout` seconds (None: for ever) for it."""
        if self._unset.acquire(timeout=-1 if timeout is None else max(timeout, 0)):
            # Set again meanwhile by another thread (its release freed the lock): it is set.
            with contextlib.suppress(RuntimeError):
                self._unset.release()
            return True
        return False


#: Ticks between two looks of the epoch callback at the run (`on_epoch`): the latency of
#: an interrupt and the resolution of the deadline while the guest is in wasm code.
CHECK_TICKS = 1


def stop_requested() -> bool:
    """Whether this thread's run must stop: its cancel Event is set (marked `interrupted`)
    or its wall-clock deadline has passed (marked `deadline_hit`). Called on the thread
    running the guest: by the epoch callback and after every host call."""
    if run_state.interrupted or run_state.deadline_hit:
        return True
    interrupt: Interrupt | None = run_state.interrupt
    if interrupt is not None and interrupt.is_set():
        run_state.interrupted = True
        return True
    if time.monotonic() > run_state.deadline:
        run_state.deadline_hit = True
        return True
    return False


def _past_deadline(caller: wasmtime.Caller) -> bool:
    """Whether this run must stop (`stop_requested`: interrupted or past its deadline). If
    so, its epoch deadline is moved to "now", so the guest traps as soon as it is back in
    wasm: epoch interruption cannot fire while the host is working."""
    if not stop_requested():
        return False
    # Caller exposes the store context that Store's method uses.
    wasmtime.Store.set_epoch_deadline(caller, 0)  # type: ignore[arg-type]
    return True


def on_epoch() -> int | None:
    """The epoch callback's decision for this thread's run, every `CHECK_TICKS` ticks while
    it is in wasm code: None to stop it (a trap), else the ticks until the next look.

    Every run's epoch deadline is a tick or two away and renewed here, rather than set once
    to the run's timeout: another thread cannot touch a running Store, but it can set the
    run's Event, which this sees at the next tick. The deadline is checked on the same
    wall clock as in host calls."""
    return None if stop_requested() else CHECK_TICKS


def run_interrupted() -> bool:
    """Whether this thread's run has been interrupted (its cancel Event set)."""
    interrupt: Interrupt | None = getattr(run_state, "interrupt", None)
    return interrupt is not None and interrupt.is_set()


_Shim = TypeVar("_Shim", bound=Callable[..., int])


def run_time_left() -> float:
    """Seconds before this thread's run reaches its deadline (host tools are bounded by it)."""
    return float(run_state.deadline - time.monotonic())


def wasi_shim(shim: _Shim) -> _Shim:
    """A host function the guest can call, with the rules every one of them follows: its
    work is bounded (loops go through `bounded`), the deadline is checked when it returns,
    and no Python exception crosses into wasmtime (a `WasiError` becomes its errno, any
    other failure EFAULT)."""

    @functools.wraps(shim)
    def call(caller: wasmtime.Caller, *args: int) -> int:
        try:
            errno = shim(caller, *args)
        except WasiError as error:
            errno = error.errno
        except Exception:
            errno = ERRNO_FAULT
        try:  # noqa: SIM105 - a suppress() context costs every host call ~0.7 us more
            _past_deadline(caller)
        except Exception:
            pass
        return errno

    return call  # type: ignore[return-value]  # wraps() keeps the shim's signature


def without_caller(function: Callable[..., int]) -> Callable[..., int]:
    """`function` called as every shim is, with the Caller first (which it does not use)."""

    def call(_caller: wasmtime.Caller, *args: int) -> int:
        return function(*args)

    return call


_Item = TypeVar("_Item")


def bounded(caller: wasmtime.Caller, items: Iterable[_Item]) -> Iterator[_Item]:
    """`items`, stopping early once the deadline has passed or the run is interrupted (a
    loop inside a host call must not outlive the run, whatever the guest asked of it)."""
    for item in items:
        if _past_deadline(caller):
            return
        yield item


def read_records(view: GuestMemory, address: int, count: int, size: int, limit: int) -> bytes:
    """`count` guest records of `size` bytes at `address`: EINVAL beyond `limit` records,
    EFAULT outside the guest's memory."""
    if count < 0 or count > limit:
        raise WasiError(ERRNO_INVAL)
    if address < 0 or address + count * size > view.size:
        raise WasiError(ERRNO_FAULT)
    return view.read(address, count * size)


def io_vectors(view: GuestMemory, iovs: int, count: int) -> list[tuple[int, int]]:
    """The (address, length) entries of a guest iovec list, each inside the guest's memory."""
    raw = read_records(view, iovs, count, 8, MAX_VECTORS)
    vectors = list(struct.iter_unpack("<II", raw))
    for address, length in vectors:
        if address + length > view.size:
            raise WasiError(ERRNO_FAULT)
    return vectors
