"""The kernel's record of the pages written since a moment (`_host.write_tracking`): exact on
private mappings like the guest's memory (anonymous, and copy-on-write of a file as
wasmtime maps the memory image), whoever writes (the process, the kernel), across a range
that grows, and not at all once the range is closed or mapped anew. Where the kernel has
no asynchronous write protection the tests that need it are skipped, and callers copy
every written page instead (the session tests cover both)."""

from __future__ import annotations

import ctypes
import mmap
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from sandbox_wasm._host import write_tracking
from sandbox_wasm._host.memory import OS_PAGE, written_ranges
from sandbox_wasm._host.write_tracking import WriteTracker

needs_tracking = pytest.mark.skipif(
    not write_tracking.available(),
    reason="no asynchronous userfaultfd write protection here (Linux 6.7+, not seccomp'd)")

PAGES = 64


@contextmanager
def private_mapping(pages: int = PAGES, image: Path | None = None) -> Iterator[mmap.mmap]:
    """A private mapping: anonymous, or copy-on-write of `image` (as wasmtime maps a
    module's memory image)."""
    if image is None:
        region = mmap.mmap(-1, pages * OS_PAGE, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    else:
        with image.open("rb") as file:
            region = mmap.mmap(file.fileno(), pages * OS_PAGE, flags=mmap.MAP_PRIVATE,
                               prot=mmap.PROT_READ | mmap.PROT_WRITE)
    try:
        yield region
    finally:
        region.close()


def address_of(region: mmap.mmap) -> int:
    return ctypes.addressof(ctypes.c_char.from_buffer(region))


def pages(*numbers: int) -> list[tuple[int, int]]:
    """The (start, end) offsets of these page numbers, adjacent ones merged."""
    ranges: list[tuple[int, int]] = []
    for number in sorted(numbers):
        if ranges and ranges[-1][1] == number * OS_PAGE:
            ranges[-1] = (ranges[-1][0], (number + 1) * OS_PAGE)
        else:
            ranges.append((number * OS_PAGE, (number + 1) * OS_PAGE))
    return ranges


@needs_tracking
@pytest.mark.parametrize("backing", ["anonymous", "file"])
def test_a_harvest_is_exactly_the_pages_written_since_the_last(
    backing: str, tmp_path: Path,
) -> None:
    image = None
    if backing == "file":
        image = tmp_path / "image"
        image.write_bytes(os.urandom(PAGES * OS_PAGE))
    with private_mapping(image=image) as region:
        region[3 * OS_PAGE] = 1  # before tracking: never reported
        tracker = WriteTracker.open(address_of(region), PAGES * OS_PAGE)
        assert tracker is not None
        try:
            assert tracker.harvest() == []
            for number in (0, 1, 2, 17, 40, PAGES - 1):
                region[number * OS_PAGE + 100] = 7
            region[5 * OS_PAGE : 7 * OS_PAGE] = bytes(2 * OS_PAGE)  # two pages, one write
            _ = region[20 * OS_PAGE]  # a read is not a write
            assert tracker.harvest() == pages(0, 1, 2, 5, 6, 17, 40, PAGES - 1)
            assert tracker.harvest() == []  # protected again
            region[17 * OS_PAGE] = 8  # written again after a harvest: reported again
            assert tracker.harvest() == pages(17)
        finally:
            tracker.close()


@needs_tracking
def test_writes_by_the_kernel_count(tmp_path: Path) -> None:
    """A read(2) into the range is the kernel writing it: reported like any write."""
    source = tmp_path / "source"
    source.write_bytes(b"k" * (2 * OS_PAGE))
    with private_mapping() as region:
        tracker = WriteTracker.open(address_of(region), PAGES * OS_PAGE)
        assert tracker is not None
        try:
            with source.open("rb") as file:
                read = file.readinto(memoryview(region)[9 * OS_PAGE : 11 * OS_PAGE])
            assert read == 2 * OS_PAGE and region[9 * OS_PAGE] == ord("k")
            assert tracker.harvest() == pages(9, 10)
        finally:
            tracker.close()


@needs_tracking
def test_a_range_that_grows_is_tracked_whole() -> None:
    with private_mapping() as region:
        tracker = WriteTracker.open(address_of(region), 16 * OS_PAGE)
        assert tracker is not None
        try:
            region[20 * OS_PAGE] = 1  # outside the range: not reported
            region[2 * OS_PAGE] = 1
            assert tracker.harvest() == pages(2)
            assert tracker.extend(32 * OS_PAGE) and tracker.size == 32 * OS_PAGE
            assert tracker.harvest() == []  # the part added is protected when added
            region[20 * OS_PAGE] = 2
            region[31 * OS_PAGE] = 2
            assert tracker.harvest() == pages(20, 31)
            assert not tracker.extend(8 * OS_PAGE)  # shrinking is not growing: closed
            assert tracker.size == 0
        finally:
            tracker.close()


@needs_tracking
def test_a_closed_or_remapped_range_tells_nothing() -> None:
    """After close, or once the memory is unmapped and mapped anew (a freed instance), a
    harvest says it cannot know (None), never an empty list."""
    with private_mapping() as region:
        tracker = WriteTracker.open(address_of(region), PAGES * OS_PAGE)
        assert tracker is not None
        tracker.close()
        region[0] = 1
        assert tracker.harvest() is None
    with private_mapping() as region:
        address = address_of(region)
        tracker = WriteTracker.open(address, PAGES * OS_PAGE)
        assert tracker is not None
        libc = ctypes.CDLL(None, use_errno=True)
        libc.mmap.restype = ctypes.c_void_p
        libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int,
                              ctypes.c_int, ctypes.c_long]
        fixed_anonymous_private = 0x10 | 0x20 | 0x02
        remapped = libc.mmap(address, PAGES * OS_PAGE, mmap.PROT_READ | mmap.PROT_WRITE,
                             fixed_anonymous_private, -1, 0)
        assert remapped == address
        region[0] = 1
        try:
            assert tracker.harvest() is None
        finally:
            tracker.close()


@needs_tracking
def test_pagemap_cannot_be_asked_once_pages_are_protected() -> None:
    """Why a tracked instance's written set comes from the harvests: pagemap reports the
    protection markers of untouched pages as swapped, which it reads as written."""
    with private_mapping() as region:
        address = address_of(region)
        region[0] = 1
        assert written_ranges(address, PAGES * OS_PAGE) == pages(0)
        tracker = WriteTracker.open(address, PAGES * OS_PAGE)
        assert tracker is not None
        try:
            found = written_ranges(address, PAGES * OS_PAGE)
            assert found is not None and sum(end - start for start, end in found) > OS_PAGE
        finally:
            tracker.close()


@needs_tracking
@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork")
def test_a_forked_child_tracks_its_own_memory() -> None:
    """A child made by fork keeps the parent's descriptors of userfaultfd and pagemap,
    which speak of the parent's memory: it opens its own."""
    assert write_tracking.available()
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: report, and leave without running the parent's teardown
        verdict = b"no"
        try:
            with private_mapping() as region:
                address = address_of(region)
                region[4 * OS_PAGE] = 1
                pagemap_says = written_ranges(address, 8 * OS_PAGE)
                tracker = WriteTracker.open(address, PAGES * OS_PAGE)
                if tracker is not None:
                    region[6 * OS_PAGE] = 1
                    harvested = tracker.harvest()
                    tracker.close()
                    if pagemap_says == pages(4) and harvested == pages(6):
                        verdict = b"ok"
        except BaseException as error:  # noqa: BLE001 - reported to the parent
            verdict = repr(error).encode()
        os.write(write_end, verdict)
        os._exit(0)
    os.close(write_end)
    try:
        answer = os.read(read_end, 4096)
    finally:
        os.close(read_end)
        os.waitpid(pid, 0)
    assert answer == b"ok"


def test_turned_off_by_the_environment() -> None:
    """$SANDBOX_WASM_WRITE_TRACKING=0: no tracker, callers copy every written page."""
    import subprocess

    probe = ("from sandbox_wasm._host import write_tracking as w\n"
             "print(w.available(), w.WriteTracker.open(1 << 20, 1 << 16))")
    output = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True,
        env={**os.environ, "SANDBOX_WASM_WRITE_TRACKING": "0"},
    ).stdout
    assert output == "False None\n"
