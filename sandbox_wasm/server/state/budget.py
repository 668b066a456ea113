"""Byte budgets of the gateway process: what clients can make it hold is taken from a
budget before it is held, and given back when it is not any more.

One `ByteBudget` bounds the request bodies in flight (read, parsed, and for async jobs held
until the job has run); the job store keeps its own (`InMemoryJobStore.max_bytes`). Both
are reported in /metrics.
"""

from __future__ import annotations

import threading


class ByteBudget:
    """A number of bytes that reservations take and give back. Thread-safe."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._lock = threading.Lock()
        self.used = 0

    def reserve(self, size: int) -> Reservation | None:
        """A reservation of `size` bytes, or None when the budget cannot take it now."""
        with self._lock:
            if self.used + size > self.capacity:
                return None
            self.used += size
        return Reservation(self, size)

    def grow(self, reservation: Reservation, size: int) -> bool:
        """Add `size` bytes to `reservation`; False (and nothing taken) if they do not fit."""
        with self._lock:
            if self.used + size > self.capacity:
                return False
            self.used += size
            reservation.size += size
        return True

    def _give_back(self, size: int) -> None:
        with self._lock:
            self.used -= size


class Reservation:
    """Bytes taken from a `ByteBudget`; `release()` gives them back, once. Whoever holds
    the bytes the reservation stands for may `keep()` it, so that the one who took it does
    not release it when its own part is done (an async job's body outlives its request)."""

    def __init__(self, budget: ByteBudget, size: int) -> None:
        self._budget = budget
        self.size = size
        self.kept = False
        self._released = False
        self._lock = threading.Lock()

    def keep(self) -> Reservation:
        self.kept = True
        return self

    def release(self) -> None:
        with self._lock:
            if self._released:
                return
            self._released = True
        self._budget._give_back(self.size)
