"""Measurements of the host process that runs the sandbox: memory, descriptors, threads.

Read from /proc (Linux, the platform CI runs on); every function returns None where the
information is not available so that callers can skip a check instead of guessing.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from pathlib import Path

MIB = 1024 * 1024
_STATUS = Path("/proc/self/status")
_CLEAR_REFS = Path("/proc/self/clear_refs")
_FDS = Path("/proc/self/fd")


def _status_field(name: str) -> int | None:
    try:
        for line in _STATUS.read_text().splitlines():
            if line.startswith(name + ":"):
                return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return None


def rss_bytes() -> int | None:
    """Resident set size of this process now."""
    kib = _status_field("VmRSS")
    return None if kib is None else kib * 1024


def peak_rss_bytes() -> int | None:
    """High-water mark of the resident set since start or the last `reset_peak_rss()`."""
    kib = _status_field("VmHWM")
    return None if kib is None else kib * 1024


def reset_peak_rss() -> bool:
    """Reset the RSS high-water mark (Linux: writing 5 to clear_refs); False if impossible."""
    try:
        _CLEAR_REFS.write_text("5")
    except OSError:
        return False
    return True


def open_fds() -> int | None:
    """Number of open file descriptors of this process."""
    try:
        return len(os.listdir(_FDS))
    except OSError:
        return None


def native_threads() -> int | None:
    """Number of OS threads of this process (wasmtime's own threads included)."""
    return _status_field("Threads")


@dataclass(frozen=True)
class HostSnapshot:
    """The host's resource use at one moment."""

    rss: int | None
    fds: int | None
    threads: int | None
    python_threads: int

    @classmethod
    def take(cls) -> HostSnapshot:
        return cls(rss_bytes(), open_fds(), native_threads(), threading.active_count())

    def describe(self) -> str:
        rss = "?" if self.rss is None else f"{self.rss / MIB:.1f} MiB"
        return f"rss={rss} fds={self.fds} threads={self.threads} py_threads={self.python_threads}"
