"""The guest memory's difference from its image: putting it back (`MemoryReset`), the page
fault signal that lets a reset skip the pagemap scan, and the reading of the C stack
pointer that says whether memory is all of an instance's state."""

from __future__ import annotations

import ctypes
import mmap
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
import wasmtime
from instance_memory import memory_of

import sandbox_wasm as sw
from sandbox_wasm._host import memory as memory_module
from sandbox_wasm._host.memory import (
    OS_PAGE,
    SHRINK_AFTER,
    MemoryReset,
    MemoryState,
    MemoryStateError,
    _pagemap_tells_written_pages,
    _union,
    apply,
    capture,
    initial_stack_pointer,
    memory_address,
    pagemap_fd,
    thread_faults,
    update,
    written_ranges,
)
from sandbox_wasm._host.program import GuestProgram, LiveInstance
from sandbox_wasm._models import MIB


@pytest.fixture(scope="module")
def program() -> Iterator[GuestProgram]:
    with sw.Sandbox(python_runtime="cpython313") as box:
        yield box._program("python")


@pytest.fixture
def instance(program: GuestProgram) -> Iterator[LiveInstance]:
    live = LiveInstance(program, 64 * MIB, program.argv)
    live.start()
    yield live
    live.close()


def scribble(instance: LiveInstance, offsets: list[int]) -> None:
    assert instance.memory is not None
    base = memory_address(instance.memory, instance.store)
    for offset in offsets:
        ctypes.memmove(base + offset, b"\xa5" * 24, 24)


def test_a_reset_puts_every_written_page_back(program: GuestProgram,
                                              instance: LiveInstance) -> None:
    image = program.fresh_image()
    assert memory_of(instance) == image
    rng = random.Random(7)
    offsets = sorted(rng.randrange(0, len(image) - 24) for _ in range(200))
    scribble(instance, offsets)
    assert memory_of(instance) != image
    reset = MemoryReset(*program.pristine_memory(), max_bytes=len(image))
    assert instance.memory is not None
    assert reset.reset(instance.memory, instance.store, faulted=True)
    assert memory_of(instance) == image
    assert reset.written_bytes >= OS_PAGE * len({offset // OS_PAGE for offset in offsets})


def test_the_known_pages_are_put_back_without_a_new_scan(program: GuestProgram,
                                                        instance: LiveInstance) -> None:
    image = program.fresh_image()
    reset = MemoryReset(*program.pristine_memory(), max_bytes=len(image))
    scribble(instance, [OS_PAGE * 40, OS_PAGE * 300])
    assert instance.memory is not None
    assert reset.reset(instance.memory, instance.store, faulted=True)
    scribble(instance, [OS_PAGE * 40 + 100, OS_PAGE * 300 + 8])  # the same pages again
    assert reset.reset(instance.memory, instance.store, faulted=False)
    assert memory_of(instance) == image


def test_a_reset_refuses_grown_memory_and_too_many_pages(program: GuestProgram,
                                                         instance: LiveInstance) -> None:
    image = program.fresh_image()
    assert instance.memory is not None
    scribble(instance, list(range(0, 64 * OS_PAGE, OS_PAGE)))
    assert not MemoryReset(*program.pristine_memory(), max_bytes=16 * OS_PAGE).reset(
        instance.memory, instance.store, faulted=True)
    instance.memory.grow(instance.store, 1)
    assert not MemoryReset(*program.pristine_memory(), max_bytes=len(image)).reset(
        instance.memory, instance.store, faulted=True)


def test_small_runs_drop_a_big_set_back_to_the_image(program: GuestProgram,
                                                    instance: LiveInstance) -> None:
    image = program.fresh_image()
    assert instance.memory is not None
    reset = MemoryReset(*program.pristine_memory(), max_bytes=len(image),
                        shrink_above=8 * OS_PAGE)
    scribble(instance, list(range(0, 64 * OS_PAGE, OS_PAGE)))
    assert reset.reset(instance.memory, instance.store, faulted=True)  # a big run: copied
    assert reset.written_bytes >= 64 * OS_PAGE
    for _ in range(SHRINK_AFTER):
        scribble(instance, [OS_PAGE * 3, OS_PAGE * 50])  # small runs within the set
        assert reset.reset(instance.memory, instance.store, faulted=False, small=True)
    assert reset.written == [] and reset.written_bytes == 0
    assert written_ranges(memory_address(instance.memory, instance.store), len(image)) == []
    assert memory_of(instance) == image


def test_a_big_run_between_small_ones_keeps_the_set(program: GuestProgram,
                                                   instance: LiveInstance) -> None:
    assert instance.memory is not None
    reset = MemoryReset(*program.pristine_memory(), max_bytes=len(program.fresh_image()),
                        shrink_above=8 * OS_PAGE)
    scribble(instance, list(range(0, 64 * OS_PAGE, OS_PAGE)))
    assert reset.reset(instance.memory, instance.store, faulted=True)
    for small in [True] * (SHRINK_AFTER - 1) + [False] + [True] * (SHRINK_AFTER - 1):
        assert reset.reset(instance.memory, instance.store, faulted=False, small=small)
    assert reset.written_bytes >= 64 * OS_PAGE


class _NoDropLibc:
    """madvise that does nothing, as on a mapping that is not copy-on-write; the real
    memcmp and ioctl (typed for addresses)."""

    def __init__(self) -> None:
        libc = memory_module._libc()
        assert libc is not None
        self.memcmp, self.ioctl = libc.memcmp, libc.ioctl

    @staticmethod
    def madvise(address: int, length: int, advice: int) -> int:
        return 0


def test_pages_that_do_not_go_back_to_the_image_are_copied(
    program: GuestProgram, instance: LiveInstance, monkeypatch: pytest.MonkeyPatch,
) -> None:
    image = program.fresh_image()
    assert instance.memory is not None
    no_drop = _NoDropLibc()
    monkeypatch.setattr(memory_module, "_libc", lambda: no_drop)
    reset = MemoryReset(*program.pristine_memory(), max_bytes=len(image),
                        shrink_above=8 * OS_PAGE)
    scribble(instance, list(range(0, 64 * OS_PAGE, OS_PAGE)))
    assert reset.reset(instance.memory, instance.store, faulted=True)
    for _ in range(SHRINK_AFTER):
        scribble(instance, [OS_PAGE * 3, OS_PAGE * 50])
        assert reset.reset(instance.memory, instance.store, faulted=False, small=True)
    # The check saw the pages still written: copied back, and no drop is tried again.
    assert reset.shrink_above == 0 and reset.written_bytes >= 64 * OS_PAGE
    assert memory_of(instance) == image


def materialised(state: MemoryState, image: bytes) -> bytes:
    """The whole memory `state` describes, over a fresh instance's `image`."""
    memory = bytearray(image) + bytes(state.size - len(image))
    for offset, data in state.runs:
        memory[offset : offset + len(data)] = data
    return bytes(memory)


def test_an_update_from_the_pages_written_equals_a_new_capture(
    program: GuestProgram, instance: LiveInstance,
) -> None:
    """`update`, given the pages written since a capture, gives what a new capture gives:
    in place while they lie in the captured runs, as their union when new pages were
    written or the memory grew; and a state put into a fresh instance recreates it."""
    image = program.fresh_image()
    assert instance.memory is not None
    memory, store = instance.memory, instance.store
    stack_floor = program.stack_top - program.stack_top % OS_PAGE
    rng = random.Random(11)
    known = sorted(rng.sample(range(stack_floor // OS_PAGE, len(image) // OS_PAGE), 40))
    scribble(instance, [page * OS_PAGE for page in known])
    state, _ = capture(memory, store, program.fresh_image, stack_top=program.stack_top)
    runs_before = [id(data) for _, data in state.runs]

    # Pages already in the runs (and one in the C stack, which a state leaves out).
    again = rng.sample(known, 10)
    scribble(instance, [page * OS_PAGE + 200 for page in again] + [OS_PAGE])
    written = [(page * OS_PAGE, (page + 1) * OS_PAGE) for page in sorted(again)]
    state = update(state, memory, store, [(0, 2 * OS_PAGE), *written],
                   stack_top=program.stack_top)
    assert materialised(state, image)[stack_floor:] == memory_of(instance)[stack_floor:]
    assert len(state.runs) == len(runs_before)  # the same runs, overwritten in place

    # New pages, then memory that grew.
    fresh_pages = [page for page in range(stack_floor // OS_PAGE, len(image) // OS_PAGE)
                   if page not in known][:5]
    scribble(instance, [page * OS_PAGE for page in fresh_pages])
    state = update(state, memory, store, sorted(
        (page * OS_PAGE, (page + 1) * OS_PAGE) for page in fresh_pages),
        stack_top=program.stack_top)
    memory.grow(store, 1)
    ctypes.memmove(memory_address(memory, store) + len(image) + 8, b"grown", 5)
    state = update(state, memory, store, [(len(image), len(image) + OS_PAGE)],
                   stack_top=program.stack_top)
    assert state.size == len(image) + 65_536
    assert materialised(state, image)[stack_floor:] == memory_of(instance)[stack_floor:]

    other = LiveInstance(program, 64 * MIB, program.argv)
    try:
        other.start()
        assert other.memory is not None
        with pytest.raises(MemoryStateError):
            update(state, other.memory, other.store, [])  # smaller than the state: refused
        apply(state, other.memory, other.store)  # bytearray runs go in like bytes
        assert memory_of(other)[stack_floor:] == memory_of(instance)[stack_floor:]
    finally:
        other.close()


def test_a_capture_told_not_to_ask_pagemap_compares_with_the_image(
    program: GuestProgram, instance: LiveInstance,
) -> None:
    """What a session falls back to once its pages are write-protected (pagemap then reads
    every untouched page as written)."""
    image = program.fresh_image()
    assert instance.memory is not None
    scribble(instance, [OS_PAGE * 2100, OS_PAGE * 2500])
    state, pages = capture(instance.memory, instance.store, program.fresh_image,
                           stack_top=program.stack_top, pagemap=False)
    assert pages is None and 0 < state.stored_bytes <= 4 * 65_536
    assert materialised(state, image) == memory_of(instance)


def test_writing_a_new_page_is_a_fault_of_this_thread() -> None:
    before = thread_faults()
    assert before is not None  # Linux: the reuse of instances depends on it
    with mmap.mmap(-1, 16 * OS_PAGE) as region:
        for page in range(16):
            region[page * OS_PAGE] = 1
    after = thread_faults()
    assert after is not None and after - before >= 16


def test_ranges_merge() -> None:
    assert _union([], [(0, 4)]) == [(0, 4)]
    assert _union([(0, 4), (8, 12)], [(4, 8), (20, 24)]) == [(0, 12), (20, 24)]
    assert _union([(0, 10)], [(2, 3)]) == [(0, 10)]


@pytest.mark.parametrize(("globals_text", "expected"), [
    ("(global (mut i32) (i32.const 8388608))", 8388608),
    ("(global (mut i32) (i32.const 8388608)) (global i32 (i32.const 5))", 8388608),
    # Any second mutable global is state outside memory: unknown, so no reuse and no
    # session state that leaves it out.
    ("(global (mut i32) (i32.const 8388608)) (global (mut i64) (i64.const 0))", 0),
    ("(global (mut i32) (i32.const 8388608)) (global (mut i32) (i32.const 4))", 0),
    ("(global (mut i64) (i64.const 8388608))", 0),
    ("", 0),
])
def test_the_stack_pointer_is_known_only_when_it_is_the_only_mutable_global(
    tmp_path: Path, globals_text: str, expected: int,
) -> None:
    module = tmp_path / "m.wasm"
    module.write_bytes(wasmtime.wat2wasm(f"(module (memory 1) {globals_text})"))
    assert initial_stack_pointer(module) == expected


def test_our_runtime_has_exactly_one_mutable_global(program: GuestProgram) -> None:
    assert program.stack_top == initial_stack_pointer(program.runtime.path) > 0


def test_close_ranges_merge_into_one_copy() -> None:
    assert _union([(0, 4096)], [(3 * 4096, 4 * 4096)], gap=2 * 4096) == [(0, 4 * 4096)]
    assert _union([(0, 4096)], [(4 * 4096, 5 * 4096)], gap=2 * 4096) == [
        (0, 4096), (4 * 4096, 5 * 4096)]


def test_pagemap_is_trusted_only_when_it_tells_a_written_page() -> None:
    assert pagemap_fd() is not None  # Linux with a real /proc: instances are reused here
    # An emulated /proc that answers "nothing present" for every page is not believed (a
    # reset would otherwise copy nothing back).
    with open("/dev/zero", "rb") as zeros:
        assert not _pagemap_tells_written_pages(zeros.fileno())


def test_the_kernels_scan_finds_the_pages_pagemaps_entries_do(
    instance: LiveInstance, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """PAGEMAP_SCAN (used where it answers the probe as pagemap's entries do) finds the same
    written pages of an instance's memory as reading and sifting the entries."""
    assert instance.memory is not None and pagemap_fd() is not None
    if not memory_module._scan_finds_written_pages:
        pytest.skip("PAGEMAP_SCAN needs Linux 6.7+")
    size = instance.memory.data_len(instance.store)
    scribble(instance, [5 * OS_PAGE, 6 * OS_PAGE, 300 * OS_PAGE, size - OS_PAGE])
    address = memory_address(instance.memory, instance.store)
    scanned = written_ranges(address, size)
    monkeypatch.setattr(memory_module, "_scan_finds_written_pages", False)
    sifted = written_ranges(address, size)
    assert scanned == sifted
    assert scanned is not None
    for page in (5, 6, 300, size // OS_PAGE - 1):
        assert any(start <= page * OS_PAGE < end for start, end in scanned), page


def test_a_scan_that_finds_no_written_page_is_not_believed(
    program: GuestProgram, instance: LiveInstance, monkeypatch: pytest.MonkeyPatch,
) -> None:
    import sandbox_wasm._host.memory as guest_memory

    monkeypatch.setattr(guest_memory, "written_ranges", lambda address, size: [])
    reset = MemoryReset(*program.pristine_memory(), max_bytes=1 << 30)
    assert instance.memory is not None
    assert not reset.reset(instance.memory, instance.store, faulted=True)
