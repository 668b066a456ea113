"""Which pages of a range of host memory were written since a moment: the kernel's
asynchronous userfaultfd write protection, read with the PAGEMAP_SCAN ioctl (Linux 6.7+).

pagemap alone says which pages were ever written (they turned anonymous), not which since
a checkpoint, and the soft-dirty bits that would say it are not kept by every kernel (this
project's CI VMs' never set them). With UFFD_FEATURE_WP_ASYNC a range registered for write
protection is protected page by page, and a write to a protected page is resolved by the
kernel itself: no thread handles faults, the page just reads as written afterwards (~1.4 us
a page on a 2-core VM, against ~0.2 us to copy it). One scan returns the pages written
since the last one and protects them again, atomically (`WriteTracker.harvest`). An
unprivileged process gets such a descriptor with UFFD_USER_MODE_ONLY (what
vm.unprivileged_userfaultfd=0 still allows); asynchronous protection resolves the kernel's
own writes into the range as well, so nothing the kernel does there faults differently.

Once a range is protected, pagemap reports its untouched pages as swapped (the protection
markers are swap-like entries), so its ever-written set must then come from the harvests,
not from pagemap.

Where this is not available (another OS or architecture, an older kernel, a seccomp
filter, an emulated /proc), `WriteTracker.open` returns None and callers copy every
written page instead. $SANDBOX_WASM_WRITE_TRACKING=0 turns it off.
"""

from __future__ import annotations

import ctypes
import mmap
import os
import platform
import threading

import wasmtime

from .memory import (
    OS_PAGE,
    PAGE_IS_WRITTEN,
    MemoryState,
    _libc,
    memory_address,
    pagemap_fd,
    scan_pages,
    stack_floor,
    update,
    written_ranges,
)

#: userfaultfd(2)'s number by machine (absent: not tried).
_SYS_USERFAULTFD = {"x86_64": 323, "aarch64": 282}
_UFFD_USER_MODE_ONLY = 1
_UFFD_API = 0xAA
_UFFD_FEATURE_WP_UNPOPULATED = 1 << 13
_UFFD_FEATURE_WP_ASYNC = 1 << 15
_UFFDIO_REGISTER_MODE_WP = 1 << 1
# _IOWR(0xAA, 0x3F, struct uffdio_api), _IOWR(0xAA, 0x00, struct uffdio_register),
# _IOR(0xAA, 0x01, struct uffdio_range).
_UFFDIO_API = 0xC018AA3F
_UFFDIO_REGISTER = 0xC020AA00
_UFFDIO_UNREGISTER = 0x8010AA01
_PM_SCAN_WP_MATCHING = 1 << 0
_PM_SCAN_CHECK_WPASYNC = 1 << 1  # fail, rather than skip, a range not registered

ENABLED = os.environ.get("SANDBOX_WASM_WRITE_TRACKING") != "0"


class WriteTracker:
    """The pages written in [address, address + size) since the last `harvest()`; the range
    is registered with the process's userfaultfd until `close()`. Not thread-safe: one
    user at a time."""

    def __init__(self, address: int, size: int) -> None:
        self.address = address
        self.size = size

    @classmethod
    def open(cls, address: int, size: int) -> WriteTracker | None:
        """Track [address, address + size) from now on (page-aligned; None where the
        kernel cannot)."""
        uffd = _userfaultfd()
        if uffd is None or address % OS_PAGE or size % OS_PAGE or size <= 0:
            return None
        tracker = cls(address, size)
        if not _register(uffd, address, size) or tracker.harvest() is None:
            _unregister(uffd, address, size)
            return None
        return tracker

    def harvest(self) -> list[tuple[int, int]] | None:
        """(start, end) offsets of the pages written since the last harvest (since `open`
        for the first), which are protected again; None when the range is no longer
        tracked (unmapped or mapped anew): then nothing can be known from it."""
        fd = pagemap_fd()
        if fd is None or not self.size:  # closed
            return None
        return scan_pages(fd, self.address, self.size,
                          flags=_PM_SCAN_WP_MATCHING | _PM_SCAN_CHECK_WPASYNC,
                          mask=PAGE_IS_WRITTEN, returned=PAGE_IS_WRITTEN)

    def extend(self, size: int) -> bool:
        """Track up to `size` bytes from the address (the memory grew): the new part is
        protected now, so what was written there before must be found otherwise. False
        when it cannot be: the tracker is then closed."""
        uffd = _userfaultfd()
        if uffd is None or size % OS_PAGE or size < self.size:
            self.close()
            return False
        if size > self.size:
            tail = WriteTracker(self.address + self.size, size - self.size)
            if not _register(uffd, tail.address, tail.size) or tail.harvest() is None:
                _unregister(uffd, tail.address, tail.size)
                self.close()
                return False
            self.size = size
        return True

    def close(self) -> None:
        """Stop tracking (before the memory is unmapped or given to anything else)."""
        uffd = _userfaultfd()
        if uffd is not None and self.size:
            _unregister(uffd, self.address, self.size)
        self.size = 0


def track(memory: wasmtime.Memory, store: wasmtime.Store, *,
          stack_top: int = 0) -> WriteTracker | None:
    """A tracker of the writes to `memory` from now on, above the C stack (which a memory
    state leaves out: see `memory.capture`); None where the kernel cannot track."""
    size = memory.data_len(store)
    base = stack_floor(stack_top, size)
    return WriteTracker.open(memory_address(memory, store) + base, size - base)


def tracked_update(
    tracker: WriteTracker, state: MemoryState, memory: wasmtime.Memory,
    store: wasmtime.Store, *, stack_top: int = 0,
) -> MemoryState | None:
    """`state`, taken when `tracker` was opened or last harvested, brought up to date with
    the pages written since (`memory.update`; memory that grew meanwhile is read from
    pagemap, which still tells its pages, and tracked from then on). None when the record
    cannot be read: the tracker is then closed, and pagemap cannot tell either."""
    address, size = memory_address(memory, store), memory.data_len(store)
    start = tracker.address - address  # the tracked range's offset in the memory
    written = tracker.harvest()
    if written is not None:
        written = [(start + first, start + last) for first, last in written]
        end = start + tracker.size
        if end < size:
            grown = written_ranges(address + end, size - end)
            written = None if grown is None or not tracker.extend(size - start) else [
                *written, *((end + first, end + last) for first, last in grown)]
    if written is None:
        tracker.close()
        return None
    return update(state, memory, store, written, stack_top=stack_top)


def _register(uffd: int, address: int, size: int) -> bool:
    request = (ctypes.c_uint64 * 4)(address, size, _UFFDIO_REGISTER_MODE_WP, 0)
    return _ioctl(uffd, _UFFDIO_REGISTER, request) == 0


def _unregister(uffd: int, address: int, size: int) -> None:
    _ioctl(uffd, _UFFDIO_UNREGISTER, (ctypes.c_uint64 * 2)(address, size))


def _ioctl(fd: int, request: int, argument: object) -> int:
    libc = _libc()
    assert libc is not None  # a descriptor was opened through it
    return int(libc.ioctl(fd, request, argument))


_lock = threading.Lock()
#: (descriptor,) once tried: (None,) where there is none.
_uffd: tuple[int | None] | None = None
def available() -> bool:
    """Whether write tracking works in this process (checked once, on a probe mapping)."""
    return _userfaultfd() is not None


def _userfaultfd() -> int | None:
    """The process's userfaultfd with asynchronous write protection (None: not here)."""
    global _uffd
    if _uffd is not None:
        return _uffd[0]
    with _lock:
        if _uffd is None:
            _uffd = (_open_userfaultfd() if ENABLED else None,)
        return _uffd[0]


def _forget_userfaultfd() -> None:
    # A child made by fork keeps the descriptor but not the registrations: it opens its own.
    global _uffd
    if _uffd is not None and _uffd[0] is not None:
        os.close(_uffd[0])
    _uffd = None


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_userfaultfd)


def _open_userfaultfd() -> int | None:
    number = _SYS_USERFAULTFD.get(platform.machine())
    if number is None or pagemap_fd() is None:
        return None
    libc = _libc()
    if libc is None:
        return None
    fd = int(libc.syscall(number, os.O_CLOEXEC | os.O_NONBLOCK | _UFFD_USER_MODE_ONLY))
    if fd < 0:
        return None
    wanted = _UFFD_FEATURE_WP_ASYNC | _UFFD_FEATURE_WP_UNPOPULATED
    api = (ctypes.c_uint64 * 3)(_UFFD_API, wanted, 0)
    if _ioctl(fd, _UFFDIO_API, api) != 0 or api[1] & wanted != wanted \
            or not _tracks_writes(fd):
        os.close(fd)
        return None
    return fd


def _tracks_writes(uffd: int) -> bool:
    """Whether a harvest reports exactly the pages written since the last one, on a
    private mapping like the guest's memory: one written by the process, one by the
    kernel (a read(2) into it), two untouched."""
    with mmap.mmap(-1, 4 * OS_PAGE, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS) as probe:
        address = ctypes.addressof(ctypes.c_char.from_buffer(probe))
        try:
            tracker = WriteTracker(address, 4 * OS_PAGE)
            if not _register(uffd, address, 4 * OS_PAGE):
                return False
            try:
                probe[0] = 1  # written before: must not count
                if tracker.harvest() is None:
                    return False
                probe[OS_PAGE] = 1
                read_end, write_end = os.pipe()
                try:
                    os.write(write_end, b"x")
                    os.readv(read_end, [memoryview(probe)[3 * OS_PAGE : 3 * OS_PAGE + 1]])
                finally:
                    os.close(read_end)
                    os.close(write_end)
                return tracker.harvest() == [(OS_PAGE, 2 * OS_PAGE), (3 * OS_PAGE, 4 * OS_PAGE)]
            finally:
                _unregister(uffd, address, 4 * OS_PAGE)
        finally:
            del address  # no export of the buffer may outlive the mapping
