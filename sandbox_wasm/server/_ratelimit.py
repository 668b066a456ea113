"""Per-client rate limiting: a token bucket per client address.

A client may burst up to `per_minute` requests and then gets one more every
60/`per_minute` seconds. Buckets of idle clients are dropped, and the table never holds
more than `max_clients` entries, so a flood of addresses cannot grow memory without bound.
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Callable


class RateLimiter:
    """Token buckets keyed by client."""

    def __init__(
        self, per_minute: int, *, max_clients: int = 100_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.per_minute = per_minute
        self.max_clients = max_clients
        self._rate = per_minute / 60.0
        self._clock = clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._buckets)

    def check(self, client: str) -> int | None:
        """Take one request from `client`'s bucket: None if allowed, else the whole
        seconds to wait before the next request would be (the Retry-After value)."""
        now = self._clock()
        tokens, last = self._buckets.pop(client, (float(self.per_minute), now))
        tokens = min(float(self.per_minute), tokens + (now - last) * self._rate)
        allowed = tokens >= 1.0
        if allowed:
            tokens -= 1.0
        self._buckets[client] = (tokens, now)
        if len(self._buckets) > self.max_clients:
            self._prune(now)
        if allowed:
            return None
        return max(1, math.ceil((1.0 - tokens) / self._rate))

    def _prune(self, now: float) -> None:
        # Least recently seen first; a bucket idle for a minute is full again, so
        # forgetting it changes nothing for its client.
        while self._buckets:
            client, (_, last) = next(iter(self._buckets.items()))
            if now - last < 60.0 and len(self._buckets) <= self.max_clients:
                break
            del self._buckets[client]
