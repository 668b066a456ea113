"""Bounded access to a guest's linear memory from inside one host call.

wasmtime-py's `Memory.read`/`write` look the memory's address and size up again and build a
ctypes array type on every call; a host call (the memory cannot grow or move while it runs)
looks them up once and copies with `string_at`/`memmove`. Every access is checked against
the memory's size: outside it, `MemoryFault` (the shims answer EFAULT).
"""

from __future__ import annotations

import ctypes

import wasmtime

from .calls import memory_extent


class MemoryFault(Exception):
    """An access outside the guest's memory."""


class GuestMemory:
    """The guest's memory as one host call sees it."""

    __slots__ = ("base", "memory", "size")

    def __init__(self, caller: wasmtime.Caller, memory: wasmtime.Memory) -> None:
        self.memory = memory
        self.base, self.size = memory_extent(caller, memory)

    def read(self, address: int, length: int) -> bytes:
        if address < 0 or length < 0 or address + length > self.size:
            raise MemoryFault(address)
        return ctypes.string_at(self.base + address, length)

    def write(self, address: int, data: bytes) -> None:
        if address < 0 or address + len(data) > self.size:
            raise MemoryFault(address)
        ctypes.memmove(self.base + address, data, len(data))
