"""The user's stdin served from a host file descriptor as the guest reads it (`StdinStream`),
so that only code that reads stdin consumes any of it, as with a native interpreter: the
CLI passes its own stdin (a pipe or a file) this way, and a run whose code never reads
stdin leaves it untouched and never waits on it.

A read waits for data in short slices, looking at the run's deadline and interrupt between
them (a blocking read in a host call would otherwise outlive both); it takes at most what
the guest asked for, and at most `cap` bytes over the run: past that the guest's read fails
with EIO. Nothing is buffered on the host beyond one read."""

from __future__ import annotations

import os
import select

from .hostcall import WasiError, stop_requested

#: WASI's EIO: what a read past the cap fails with.
ERRNO_IO = 29
#: Seconds between two looks at the deadline and interrupt while waiting for input.
WAIT_SLICE_SECONDS = 0.05
#: The most one host read takes from the descriptor.
MAX_READ_BYTES = 1 << 16


class StdinStream:
    """A host descriptor the guest's stdin reads come from, at most `cap` bytes in all."""

    def __init__(self, fd: int, cap: int) -> None:
        self.fd = fd
        self.cap = cap
        #: Bytes the guest has read so far.
        self.taken = 0

    def read(self, size: int) -> bytes:
        """Up to `size` bytes, waiting for them until the run must stop (then b"", and the
        guest traps on its way back into wasm); b"" at the end of input; WasiError(EIO)
        for input past the cap (the guest has had `cap` bytes and there is more)."""
        if size <= 0:
            return b""
        room = self.cap - self.taken
        while True:
            if not self._wait():
                return b""
            try:
                data = os.read(self.fd, min(size, MAX_READ_BYTES, room) if room else 1)
                break
            except BlockingIOError:  # another reader took it first: wait again
                continue
            except OSError as error:
                raise WasiError(ERRNO_IO) from error
        if not room and data:
            raise WasiError(ERRNO_IO)
        self.taken += len(data)
        return data

    def _wait(self) -> bool:
        """Wait until the descriptor can be read: False if the run must stop first."""
        while not stop_requested():
            try:
                ready, _, _ = select.select([self.fd], [], [], WAIT_SLICE_SECONDS)
            except (OSError, ValueError):
                return True  # not selectable: let the read say what it is
            if ready:
                return True
        return False
