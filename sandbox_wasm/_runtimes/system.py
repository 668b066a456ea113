"""Facts about the host machine that defaults are sized from."""

from __future__ import annotations

import os


def usable_cpus() -> int:
    """The number of cores this process may run on (its affinity mask where the platform has
    one, else the machine's count)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - macOS, Windows
        return os.cpu_count() or 1
