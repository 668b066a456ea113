"""Per-client rate limiting with the `limits` library: at most `per_minute` requests in any
60 s (a moving window) per client, a client being an API key's name, or the address when
the gateway has no keys.

The counts live in this process by default, or in the Redis of `--redis-url`: every
replica (or uvicorn worker) given the same Redis then draws on one budget per client.
A Redis that cannot be reached lets requests through (logged): the limit protects fairness,
not the host, and the gateway keeps serving synchronous runs without Redis.
"""

from __future__ import annotations

import logging
import math
import time

from limits import RateLimitItemPerMinute
from limits.aio.storage import MemoryStorage, RedisStorage, Storage
from limits.aio.strategies import MovingWindowRateLimiter

logger = logging.getLogger("sandbox_wasm.server")

#: Seconds one Redis command of the limiter may take before it counts as unreachable.
REDIS_TIMEOUT_SECONDS = 2.0
#: Prefix of the limiter's keys in Redis.
KEY_PREFIX = "sandbox-wasm:ratelimit"


def _storage(redis_url: str | None) -> Storage:
    if redis_url is None:
        return MemoryStorage()
    # `limits` names its async Redis URLs async+redis://, async+rediss://,
    # async+redis+unix://; the client is redis-py, as for the job store.
    url = redis_url.replace("unix://", "redis+unix://", 1)
    return RedisStorage(
        "async+" + url, implementation="redispy", key_prefix=KEY_PREFIX,
        wrap_exceptions=True, socket_timeout=REDIS_TIMEOUT_SECONDS,
        socket_connect_timeout=REDIS_TIMEOUT_SECONDS,
    )


class RateLimiter:
    """A moving window of `per_minute` requests a minute per client."""

    def __init__(self, per_minute: int, *, redis_url: str | None = None) -> None:
        self.per_minute = per_minute
        self.shared = redis_url is not None
        self._item = RateLimitItemPerMinute(per_minute)
        self._limiter = MovingWindowRateLimiter(_storage(redis_url))

    async def check(self, client: str) -> int | None:
        """Count one request of `client`: None if allowed, else the whole seconds until
        the oldest request in its window leaves it (the Retry-After value)."""
        try:
            if await self._limiter.hit(self._item, client):
                return None
            stats = await self._limiter.get_window_stats(self._item, client)
        except Exception as exc:  # limits' StorageError, whatever the backend's error was
            logger.warning("rate limiter storage unreachable, request let through: %s", exc)
            return None
        return max(1, math.ceil(stats.reset_time - time.time()))
