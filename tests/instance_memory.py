"""The host's view of a live instance's linear memory, for the tests that compare it with a
fresh instance's or search it for a secret."""

from __future__ import annotations

import ctypes

from sandbox_wasm._host.memory import memory_address
from sandbox_wasm._host.program import LiveInstance


def memory_of(instance: LiveInstance) -> bytes:
    """A copy of every byte of the instance's linear memory (reading it maps every page)."""
    assert instance.memory is not None
    size = instance.memory.data_len(instance.store)
    return ctypes.string_at(memory_address(instance.memory, instance.store), size)
