"""The rules every host function the guest calls follows, and the per-run state they serve.

- `run_state`: this thread's run, as `program` sets it before entering the guest and the
  host functions read and update it.
- `wasi_shim`: the wrapper of every WASI shim: bounded work, the deadline checked when it
  returns, no Python exception into wasmtime (a `WasiError` becomes its errno).
- `bounded`, `read_records`, `io_vectors`: loops cut short at the deadline; guest records
  and iovec lists read within their limits and within the guest's memory.
- `run_time_left`: the seconds the run has left (host tools are bounded by it).
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
from typing import TypeVar

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
# `program._reset_run_state` and `LiveInstance.call`): memory, stdin and stdin_offset,
# outputs (stdout's and stderr's `CappedOutput`), closed (the stdio descriptors closed),
# fs and tools (the run's tree and tool channel, or None), deadline and deadline_hit,
# exit_code (proc_exit's), and the audit's phase: next_phase, first_phase_fuel,
# audit_fuel_used.
run_state = threading.local()


class WasiError(Exception):
    """Ends a host call early with a WASI errno for the guest."""

    def __init__(self, errno: int) -> None:
        super().__init__(errno)
        self.errno = errno


def _past_deadline(caller: wasmtime.Caller) -> bool:
    """Whether this run's wall-clock deadline has passed. If it has, the run is marked as
    timed out and its epoch deadline moved to "now", so the guest traps (INTERRUPT) as soon
    as it is back in wasm: epoch interruption cannot fire while the host is working."""
    if time.monotonic() <= run_state.deadline:
        return False
    if run_state.deadline_hit:
        return True
    run_state.deadline_hit = True
    # Caller exposes the store context that Store's method uses.
    wasmtime.Store.set_epoch_deadline(caller, 0)  # type: ignore[arg-type]
    return True


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
        with contextlib.suppress(Exception):
            if time.monotonic() > run_state.deadline:
                _past_deadline(caller)
        return errno

    return call  # type: ignore[return-value]  # wraps() keeps the shim's signature


def without_caller(function: Callable[..., int]) -> Callable[..., int]:
    """`function` called as every shim is, with the Caller first (which it does not use)."""

    def call(_caller: wasmtime.Caller, *args: int) -> int:
        return function(*args)

    return call


_Item = TypeVar("_Item")


def bounded(caller: wasmtime.Caller, items: Iterable[_Item]) -> Iterator[_Item]:
    """`items`, stopping early once the deadline has passed (a loop inside a host call must
    not outlive the run's deadline, whatever the guest asked of it)."""
    deadline: float = run_state.deadline
    for item in items:
        if time.monotonic() > deadline and _past_deadline(caller):
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
