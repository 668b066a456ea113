"""A guest's linear memory as its difference from a fresh instance: the pages it wrote.

A session's whole state at rest is its linear memory (the runtime's only mutable global,
the C stack pointer, is back at its initial value whenever the guest returns), and a fresh
instance of the same runtime starts from the module's memory image. So the state is the
memory size plus the pages that differ from that image, and putting those pages into a
fresh instance recreates the session. That one representation serves as a session's
checkpoint (rolled back to after a trap), its snapshot (moved to another process), and
what a restore writes.

The C stack is left out: the runtime's linker puts it first in memory, below the initial
stack pointer, and at rest nothing lives there (every frame has returned), so a fresh
instance's leftover stack bytes serve as well as the session's.

Finding the written pages: on Linux, wasmtime maps a module's memory image copy-on-write,
so a page the guest never wrote is either absent or still backed by the image file;
`/proc/self/pagemap` tells them apart from anonymous pages without reading the memory.
Anywhere else (or if pagemap is unreadable) memory is compared with a fresh instance's,
chunk by chunk: correct, slower.
"""

from __future__ import annotations

import bisect
import contextlib
import ctypes
import functools
import io
import itertools
import mmap
import operator
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import wasmtime

from .calls import memory_extent

try:
    import resource
except ImportError:  # pragma: no cover - not a Unix
    resource = None  # type: ignore[assignment]  # no module: its AttributeError is caught

WASM_PAGE = 65_536
OS_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
#: Chunk of the comparison fallback.
COMPARE_CHUNK = WASM_PAGE
#: Written ranges at most this far apart are put back as one copy.
COPY_GAP = OS_PAGE
#: Small runs in a row after which a big written set is dropped (`MemoryReset`).
SHRINK_AFTER = 3
#: madvise(2) advice (Linux): the page goes back to what the private mapping maps.
_MADV_DONTNEED = 4
_PAGEMAP_ENTRY = 8
# PAGEMAP_SCAN (Linux 6.7+, _IOWR('f', 16, struct pm_scan_arg)): the kernel walks the page
# tables and returns the ranges of matching pages, instead of an entry per page to read.
_PAGEMAP_SCAN = 0xC0606610
PAGE_IS_WRITTEN, PAGE_IS_FILE, PAGE_IS_PRESENT, PAGE_IS_SWAPPED = 1 << 1, 1 << 2, 1 << 3, 1 << 4
#: page_region entries per PAGEMAP_SCAN call (the scan stops early when they are full).
_SCAN_REGIONS = 256
# The top byte of a pagemap entry: bit 63 present, 62 swapped, 61 file-backed or shared.
_PRESENT, _SWAPPED, _FILE = 0x80, 0x40, 0x20
#: Byte -> 1 when the page may hold data the image does not: swapped, or present and not
#: file-backed (written; a read of never-written memory beyond the image maps the shared
#: zero page, which counts too: a harmless copy of zeros, never a missed write).
_WRITTEN = bytes(
    1 if flags & _SWAPPED or (flags & _PRESENT and not flags & _FILE) else 0
    for flags in range(256)
)


class MemoryStateError(ValueError):
    """A memory state that does not fit the instance it is put into."""


@dataclass(frozen=True)
class MemoryState:
    """Linear memory of `size` bytes: a fresh instance's, except for `runs`, the
    (offset, contents) of the ranges that may differ (sorted, disjoint). Contents are
    bytearrays where `update` overwrites them in place (a tracked session's checkpoint),
    read-only views of one bytes object in a checkpoint `capture` took."""

    size: int
    runs: tuple[tuple[int, bytes | bytearray | memoryview], ...]

    @functools.cached_property
    def stored_bytes(self) -> int:
        """Bytes held by the runs (what a checkpoint costs in host memory)."""
        return sum(map(len, map(operator.itemgetter(1), self.runs)))


class WrittenPages:
    """The sorted (start, end) offsets of a memory's written pages, and the copy of their
    bytes: one C-level pass into one allocation (`operator.itemgetter` of the slices,
    `bytes.join`) instead of a Python loop and an allocation per range. A small session's
    checkpoint is ~70 ranges, ~400 KiB: 21 us with a bytearray each, 9 us joined."""

    __slots__ = ("_parts", "_starts", "_take", "end", "ranges", "total_bytes")

    def __init__(self, ranges: Sequence[tuple[int, int]]) -> None:
        self.ranges = tuple(ranges)
        self.end = self.ranges[-1][1] if self.ranges else 0
        #: The bytes a copy holds.
        self.total_bytes = sum(end - start for start, end in self.ranges)
        self._starts = tuple(start for start, _ in self.ranges)
        self._take = _slicer([slice(start, end) for start, end in self.ranges])
        offsets = list(itertools.accumulate((end - start for start, end in self.ranges),
                                            initial=0))
        self._parts = _slicer([slice(first, last) for first, last in itertools.pairwise(offsets)])

    def copy(self, view: memoryview) -> tuple[tuple[int, memoryview], ...]:
        """(start, a read-only copy of its bytes) of each range of `view` (views of one
        bytes object)."""
        joined = memoryview(b"".join(self._take(view)))
        return tuple(zip(self._starts, self._parts(joined), strict=True))


def _slicer(slices: list[slice]) -> Callable[[memoryview], tuple[memoryview, ...]]:
    """The slices of a view, as a tuple, in one call (`itemgetter` answers a single item
    for a single key, not a tuple)."""
    if len(slices) > 1:
        return operator.itemgetter(*slices)
    return lambda view: tuple(view[part] for part in slices)


def capture(
    memory: wasmtime.Memory, store: wasmtime.Store, fresh_image: Callable[[], bytes],
    *, stack_top: int = 0, written: WrittenPages | None = None,
    pagemap: bool = True,
) -> tuple[MemoryState, WrittenPages | None]:
    """The state of `memory` now, at rest, leaving out the C stack below `stack_top`, and
    the pages pagemap reports written (None where it cannot tell). `written`: those of an
    earlier capture of the same memory, still exact when the thread that ran the guest
    took no page fault since (`thread_faults`; see MemoryReset): pagemap is then not read
    again. `fresh_image` gives a fresh instance's memory, which is only needed (once per
    runtime) where pagemap is not available, or not to be asked (`pagemap=False`: the
    memory's pages are write-protected, `_host.write_tracking`)."""
    address, size = memory_extent(store, memory)
    pages = written if written is not None and written.end <= size else None
    if pages is None:
        base = stack_floor(stack_top, size)
        found = written_ranges(address + base, size - base) if pagemap else None
        if found is None:
            differing = _differing_ranges(address + base, size - base, fresh_image()[base:])
            return MemoryState(size, tuple(
                (base + start, ctypes.string_at(address + base + start, end - start))
                for start, end in differing
            )), None
        pages = WrittenPages([(base + start, base + end) for start, end in found])
    with _bytes_at(address, size) as memory_bytes:
        runs = pages.copy(memory_bytes)
    return MemoryState(size, runs), pages


def update(
    state: MemoryState, memory: wasmtime.Memory, store: wasmtime.Store,
    written: Sequence[tuple[int, int]], *, stack_top: int = 0,
) -> MemoryState:
    """The state of `memory` now, at rest, given `state`, taken of the same memory before,
    and `written`: the sorted (start, end) offsets of every page written since (the rest
    still holds what `state` says). When the runs of `state` hold every written range (a
    session rewriting its own pages), they are overwritten in place, so `state` is not to
    be used afterwards; otherwise (new pages written, or the memory grew) the runs become
    their union with the written ranges, copied afresh."""
    address, size = memory_extent(store, memory)
    if size < state.size:
        raise MemoryStateError("linear memory never shrinks: this state is of another one")
    base = stack_floor(stack_top, size)
    changed = [(max(start, base), min(end, size)) for start, end in written
               if end > base and start < size]
    runs = state.runs
    starts = [offset for offset, _ in runs]
    # [run index, start, end] of each copy: written ranges in the same run less than
    # COPY_GAP apart are copied as one (the pages between hold what the run holds).
    copies: list[list[int]] = []
    for start, end in changed:
        index = bisect.bisect_right(starts, start) - 1
        if size != state.size or index < 0 or end > starts[index] + len(runs[index][1]):
            union = _union([(offset, offset + len(data)) for offset, data in runs], changed)
            with _bytes_at(address, size) as guest:
                return MemoryState(size, tuple(
                    (first, bytearray(guest[first:last])) for first, last in union))
        if copies and copies[-1][0] == index and start - copies[-1][2] <= COPY_GAP:
            copies[-1][2] = end
        else:
            copies.append([index, start, end])
    if any(not isinstance(runs[index][1], bytearray) for index, _, _ in copies):
        runs = tuple((offset, data if isinstance(data, bytearray) else bytearray(data))
                     for offset, data in runs)
    with _bytes_at(address, size) as guest:
        for index, start, end in copies:
            offset, data = runs[index]
            assert isinstance(data, bytearray)
            data[start - offset : end - offset] = guest[start:end]
    return MemoryState(size, runs)


@contextlib.contextmanager
def _bytes_at(address: int, size: int) -> Iterator[memoryview]:
    """The `size` bytes at `address` as a memoryview, for copies by slice: a slice
    assignment costs ~0.5 us, a ctypes call per range (`memmove`, `string_at`) ~1 us more,
    and a slice cannot reach past the view (a bad range copies less, never out of it)."""
    view = memoryview((ctypes.c_char * size).from_address(address)).cast("B")
    try:
        yield view
    finally:
        view.release()


def stack_floor(stack_top: int, size: int) -> int:
    """Where the state of a memory of `size` bytes starts: the page of the initial stack
    pointer (the C stack below it holds nothing at rest), or 0 when it is not known."""
    return stack_top - stack_top % OS_PAGE if 0 < stack_top < size else 0


def apply(state: MemoryState, memory: wasmtime.Memory, store: wasmtime.Store) -> None:
    """Make the memory of a fresh instance equal to `state`. Raises MemoryStateError if
    the state does not fit (its size is below the instance's or above the memory cap)."""
    current = memory.data_len(store)
    if state.size % WASM_PAGE or state.size < current:
        raise MemoryStateError(
            f"memory of {state.size} bytes does not fit this runtime (it starts with "
            f"{current} bytes, in {WASM_PAGE}-byte pages)"
        )
    if state.size > current:
        try:
            memory.grow(store, (state.size - current) // WASM_PAGE)
        except wasmtime.WasmtimeError:
            raise MemoryStateError(
                f"memory of {state.size // 2**20} MiB is over this session's memory cap"
            ) from None
    end_of_last = 0
    with _bytes_at(memory_address(memory, store), state.size) as guest:
        for offset, data in state.runs:
            if offset < end_of_last or offset + len(data) > state.size:
                raise MemoryStateError("memory runs overlap or lie outside the memory")
            guest[offset : offset + len(data)] = data
            end_of_last = offset + len(data)


class MemoryReset:
    """Puts an instance's memory back to the runtime's image after a run, so that the next
    run in the same instance starts from exactly the state a fresh instance starts from
    (the memory is the whole state of an instance at rest: see the module docstring).

    What may differ from the image is the set of written pages (anonymous, as pagemap
    tells); put back, they stay anonymous, so the set only grows and all of it is copied
    back every time (~0.06 ms for the ~0.5 MB a `print('hi')` writes; a fresh instance
    takes ~0.5 ms of copy-on-write faults to write them). Finding the set asks pagemap
    (`written_ranges`: ~0.05 ms by PAGEMAP_SCAN, ~0.1-0.25 ms by reading its entries), which
    only a run with page faults needs: a page turns anonymous only through a
    fault of the thread writing it, and the guest, and every host call that writes its
    memory, run on the thread that entered it. So a run during which that thread took no
    fault wrote no page outside the set (`thread_faults`).

    `reset` refuses (False: the caller drops the instance) when the memory grew (it cannot
    shrink), pagemap cannot tell, or the set passed `max_bytes`.

    A set larger than `shrink_above` (a big run's: a chart writes ~10 MiB of the data
    runtime) is copied back after every later run, however small. After SHRINK_AFTER small
    runs in a row it is dropped instead: madvise(MADV_DONTNEED) gives each page back to the
    mapping, which maps the image copy-on-write (or zeros past it), so the pages hold the
    image again and the set starts empty, as in a fresh instance. Whether they do is
    checked against the image each time; where they do not (a mapping that is not
    copy-on-write), they are copied back as usual and the instance never drops again."""

    def __init__(self, image_address: int, image_size: int, max_bytes: int,
                 shrink_above: int = 0) -> None:
        # The image: a fresh instance's memory, only ever read (the caller keeps it alive).
        self._image_address = image_address
        self._image_size = image_size
        self.max_bytes = max_bytes
        #: A set of more bytes than this is dropped after SHRINK_AFTER small runs (0: never).
        self.shrink_above = shrink_above
        #: (start, end) offsets of the pages that may differ from the image.
        self.written: list[tuple[int, int]] | None = None
        #: Bytes copied back per reset (0 before the first).
        self.written_bytes = 0
        self._small_runs = 0

    def reset(self, memory: wasmtime.Memory, store: wasmtime.Store, *, faulted: bool,
              small: bool = False) -> bool:
        """Put the image back over every page that may differ from it; `faulted`: whether
        the thread that ran the guest took page faults since the last reset; `small`:
        whether the run was a small one (see the class)."""
        size = memory.data_len(store)
        if size != self._image_size:
            return False
        address = memory_address(memory, store)
        if faulted or self.written is None:
            ranges = written_ranges(address, size)
            if not ranges:  # None: pagemap cannot tell; []: no run writes nothing
                return False
            # Clean pages between two written ones are copied too (harmless: they hold the
            # image already), for fewer, longer copies.
            self.written = _union(self.written or [], ranges, gap=COPY_GAP)
            self.written_bytes = sum(end - start for start, end in self.written)
        if self.written_bytes > self.max_bytes:
            return False
        big_set = 0 < self.shrink_above < self.written_bytes
        self._small_runs = self._small_runs + 1 if small and big_set else 0
        if self._small_runs >= SHRINK_AFTER and self._drop(address):
            return True
        with _bytes_at(address, size) as guest, \
                _bytes_at(self._image_address, self._image_size) as image:
            for start, end in self.written:
                guest[start:end] = image[start:end]
        return True

    def _drop(self, address: int) -> bool:
        """Give the written pages back to the mapping and check that they hold the image;
        False (and never again) when they do not: the caller copies them back."""
        libc = _libc()
        assert self.written is not None
        if libc is None:
            self.shrink_above = 0
            return False
        source = self._image_address
        for start, end in self.written:
            if (libc.madvise(address + start, end - start, _MADV_DONTNEED) != 0
                    or libc.memcmp(address + start, source + start, end - start) != 0):
                self.shrink_above = 0
                return False
            # Reading them mapped the zero page where the image has none, which pagemap
            # cannot tell from a written page: given back again, they are not mapped.
            libc.madvise(address + start, end - start, _MADV_DONTNEED)
        self.written, self.written_bytes, self._small_runs = [], 0, 0
        return True


def _union(first: list[tuple[int, int]], second: list[tuple[int, int]], *,
           gap: int = 0) -> list[tuple[int, int]]:
    """The union of two lists of (start, end) ranges, sorted, with ranges less than `gap`
    apart merged."""
    merged: list[tuple[int, int]] = []
    for start, end in sorted(first + second):
        if merged and start <= merged[-1][1] + gap:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


_libc_handle: ctypes.CDLL | None = None


def _libc() -> ctypes.CDLL | None:
    """The C library with the calls on memory this folder makes typed for addresses:
    madvise and memcmp (here), ioctl and syscall (`write_tracking`); None where one of them
    is missing. (Untyped, ctypes passes an address as a C int: memcmp then segfaults.)"""
    global _libc_handle
    if _libc_handle is None:
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            madvise, memcmp, ioctl, syscall = libc.madvise, libc.memcmp, libc.ioctl, libc.syscall
        except (OSError, AttributeError):
            return None
        madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
        madvise.restype = ctypes.c_int
        memcmp.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t]
        memcmp.restype = ctypes.c_int
        ioctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_void_p]
        ioctl.restype = ctypes.c_int
        syscall.restype = ctypes.c_long
        _libc_handle = libc
    return _libc_handle


def thread_faults() -> int | None:
    """Page faults the calling thread has taken so far (None where the OS does not say)."""
    try:
        usage = resource.getrusage(resource.RUSAGE_THREAD)
    except (AttributeError, OSError):  # no resource module, or no RUSAGE_THREAD (Linux's)
        return None
    return usage.ru_minflt + usage.ru_majflt


def memory_address(memory: wasmtime.Memory, store: wasmtime.Store) -> int:
    """Where the memory's bytes start in the host process."""
    return memory_extent(store, memory)[0]


_pagemap_lock = threading.Lock()
_pagemap_fd: int | None = None
_pagemap_unavailable = False
#: Whether PAGEMAP_SCAN answers as pagemap's entries do (set by the probe of `pagemap_fd`).
_scan_finds_written_pages = False


def _forget_pagemap() -> None:
    # A descriptor of /proc/self/pagemap reads the page tables of the process that opened
    # it: a child made by fork must open its own.
    global _pagemap_fd, _pagemap_unavailable, _scan_finds_written_pages
    if _pagemap_fd is not None:
        os.close(_pagemap_fd)
    _pagemap_fd, _pagemap_unavailable, _scan_finds_written_pages = None, False, False


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pagemap)


class _ScanArg(ctypes.Structure):
    _fields_ = [(name, ctypes.c_uint64) for name in (
        "size", "flags", "start", "end", "walk_end", "vec", "vec_len", "max_pages",
        "category_inverted", "category_mask", "category_anyof_mask", "return_mask")]


class _PageRegion(ctypes.Structure):
    _fields_ = [("start", ctypes.c_uint64), ("end", ctypes.c_uint64),
                ("categories", ctypes.c_uint64)]


def scan_pages(fd: int, address: int, size: int, *, flags: int = 0, mask: int = 0,
               inverted: int = 0, anyof: int = 0,
               returned: int = PAGE_IS_FILE) -> list[tuple[int, int]] | None:
    """(start, end) offsets from `address` of the pages of [address, address + size) whose
    categories (PAGE_IS_*, with `inverted` ones negated) hold all of `mask` and, when
    given, one of `anyof`, by PAGEMAP_SCAN on pagemap descriptor `fd`; adjacent ranges are
    merged. None when the ioctl fails (an older kernel: ENOTTY; a range not registered for
    write protection under PM_SCAN_CHECK_WPASYNC)."""
    libc = _libc()
    if libc is None:
        return None
    arg, regions = _ScanArg(), (_PageRegion * _SCAN_REGIONS)()
    start, end = address, address + size
    found: list[tuple[int, int]] = []
    while start < end:
        arg.size, arg.flags = ctypes.sizeof(_ScanArg), flags
        arg.start, arg.end, arg.walk_end = start, end, 0
        arg.vec, arg.vec_len = ctypes.addressof(regions), _SCAN_REGIONS
        arg.category_inverted, arg.category_mask = inverted, mask
        arg.category_anyof_mask, arg.return_mask = anyof, returned
        count = libc.ioctl(fd, _PAGEMAP_SCAN, ctypes.byref(arg))
        if count < 0 or not start < arg.walk_end <= end:
            return None
        for region in regions[:count]:
            first, last = region.start - address, region.end - address
            if found and found[-1][1] == first:
                found[-1] = (found[-1][0], last)
            else:
                found.append((first, last))
        start = arg.walk_end
    return found


def written_ranges(address: int, size: int) -> list[tuple[int, int]] | None:
    """(start, end) offsets of the pages in [address, address + size) that may differ
    from the memory image they were mapped from, or None when pagemap cannot tell."""
    fd = pagemap_fd()
    if fd is None or address % OS_PAGE:
        return None
    if _scan_finds_written_pages:
        # As the entries below are sifted: swapped, or present and not file-backed.
        found = scan_pages(fd, address, size, mask=PAGE_IS_FILE, inverted=PAGE_IS_FILE,
                           anyof=PAGE_IS_PRESENT | PAGE_IS_SWAPPED)
        if found is not None:
            return [(start, min(end, size)) for start, end in found]
    pages = -(-size // OS_PAGE)
    try:
        raw = os.pread(fd, pages * _PAGEMAP_ENTRY, address // OS_PAGE * _PAGEMAP_ENTRY)
    except OSError:
        return None
    if len(raw) != pages * _PAGEMAP_ENTRY:
        return None
    marks = raw[_PAGEMAP_ENTRY - 1 :: _PAGEMAP_ENTRY].translate(_WRITTEN)
    ranges = []
    position = marks.find(1)
    while position >= 0:
        end = marks.find(0, position)
        if end < 0:
            end = pages
        ranges.append((position * OS_PAGE, min(end * OS_PAGE, size)))
        position = marks.find(1, end)
    return ranges


def pagemap_fd() -> int | None:
    """The process's /proc/self/pagemap, opened once (None where it cannot tell written
    pages from others)."""
    global _pagemap_fd, _pagemap_unavailable, _scan_finds_written_pages
    if _pagemap_fd is not None or _pagemap_unavailable:
        return _pagemap_fd
    with _pagemap_lock:
        if _pagemap_fd is None and not _pagemap_unavailable:
            try:
                fd = os.open("/proc/self/pagemap", os.O_RDONLY | os.O_CLOEXEC)
            except OSError:
                _pagemap_unavailable = True
            else:
                if _pagemap_tells_written_pages(fd):
                    _scan_finds_written_pages = _scan_tells_written_pages(fd)
                    _pagemap_fd = fd
                else:  # an emulated /proc (gVisor, say) may answer, but not truthfully
                    os.close(fd)
                    _pagemap_unavailable = True
    return _pagemap_fd


def _pagemap_tells_written_pages(fd: int) -> bool:
    """Whether pagemap reports a page written here as written and an untouched one as not:
    what a reset trusts to find every byte a guest changed."""
    # Private, as wasmtime maps linear memory (a shared one counts as file-backed).
    with mmap.mmap(-1, 2 * OS_PAGE, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS) as probe:
        probe[0] = 1  # the first page written, the second never touched
        address = ctypes.addressof(ctypes.c_char.from_buffer(probe))
        try:
            raw = os.pread(fd, 2 * _PAGEMAP_ENTRY, address // OS_PAGE * _PAGEMAP_ENTRY)
        finally:
            del address  # no export of the buffer may outlive the mapping
        if len(raw) != 2 * _PAGEMAP_ENTRY:
            return False
        marks = raw[_PAGEMAP_ENTRY - 1 :: _PAGEMAP_ENTRY].translate(_WRITTEN)
        return marks == b"\x01\x00"


def _scan_tells_written_pages(fd: int) -> bool:
    """Whether PAGEMAP_SCAN finds exactly a page written here, as pagemap's entries do:
    the kernel's own scan (~0.05 ms for a 29 MiB memory, against ~0.08-0.12 ms to read and
    sift its entries) is then used instead."""
    with mmap.mmap(-1, 2 * OS_PAGE, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS) as probe:
        probe[0] = 1
        address = ctypes.addressof(ctypes.c_char.from_buffer(probe))
        try:
            found = scan_pages(fd, address, 2 * OS_PAGE, mask=PAGE_IS_FILE,
                               inverted=PAGE_IS_FILE, anyof=PAGE_IS_PRESENT | PAGE_IS_SWAPPED)
        finally:
            del address
        return found == [(0, OS_PAGE)]


def _differing_ranges(address: int, size: int, image: bytes) -> list[tuple[int, int]]:
    """The chunks of memory that differ from `image` (memory beyond it: nonzero chunks)."""
    zero = bytes(COMPARE_CHUNK)
    ranges: list[tuple[int, int]] = []
    for start in range(0, size, COMPARE_CHUNK):
        end = min(start + COMPARE_CHUNK, size)
        reference = image[start:end] if start < len(image) else zero[: end - start]
        if len(reference) < end - start:
            reference += bytes(end - start - len(reference))
        if ctypes.string_at(address + start, end - start) != reference:
            if ranges and ranges[-1][1] == start:
                ranges[-1] = (ranges[-1][0], end)
            else:
                ranges.append((start, end))
    return ranges


def initial_stack_pointer(wasm: str | os.PathLike[str] | bytes) -> int:
    """The initial value of the module's C stack pointer (its only mutable i32 global, as
    wasm-ld emits it), read from the global section of the module (a file, or its bytes);
    0 when the module does not have exactly one such global set by a constant."""
    try:
        with (io.BytesIO(wasm) if isinstance(wasm, bytes) else open(wasm, "rb")) as module:
            if module.read(8) != b"\0asm\x01\0\0\0":
                return 0
            while section_id := module.read(1):
                # A section's size is a LEB128 of at most 5 bytes.
                header = module.read(5)
                size, used = _leb128(header, 0)
                module.seek(used - len(header), os.SEEK_CUR)
                if section_id == b"\x06":
                    return _only_mutable_i32(module.read(size))
                module.seek(size, os.SEEK_CUR)
    except (OSError, ValueError, IndexError):
        pass
    return 0


def _only_mutable_i32(payload: bytes) -> int:
    count, position = _leb128(payload, 0)
    found: list[tuple[int, int]] = []  # (value type, initial value) of mutable globals
    for _ in range(count):
        value_type, mutable, opcode = payload[position : position + 3]
        if opcode not in (0x41, 0x42):  # i32.const, i64.const
            raise ValueError("a global initialised otherwise than by a constant")
        value, position = _leb128(payload, position + 3, signed=True)
        if payload[position] != 0x0B:  # end
            raise ValueError("a global initialiser of more than one instruction")
        position += 1
        if mutable:
            found.append((value_type, value))
    # Any other mutable global would be state outside linear memory: then 0 (unknown).
    if len(found) == 1 and found[0][0] == 0x7F and found[0][1] > 0:
        return found[0][1]
    return 0


def _leb128(data: bytes, position: int, *, signed: bool = False) -> tuple[int, int]:
    """The LEB128 number at `position`, and the position after it."""
    value = shift = 0
    while True:
        byte = data[position]
        position += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            if signed and byte & 0x40:
                value -= 1 << shift
            return value, position
