"""Which gateway replica holds each session, in the Redis the replicas share (`--redis-url`).

A session lives in the memory of the replica that opened it and cannot move (its state is
a live WebAssembly instance). So that a request routed to another replica gets a useful
answer (421, naming the holder) instead of a bare 404, each replica records its sessions:

- `sandbox-wasm:session:<id>` -> the holder's replica id, with a TTL of the session's idle
  TTL, renewed after every call and deleted when the session is closed (or its replica
  shuts down). On a gateway with API keys the key is `sandbox-wasm:session:<owner>:<id>`,
  `<owner>` a tag of the opening key's name: another key finds no record, and gets the 404
  of an unknown session, never a 421 that would confirm the session exists.

A replica that dies leaves its records until their TTL passes: until then other replicas
answer 421 for sessions that are gone with it. Recording is best effort (a session works
on its replica while Redis is away); only a lookup that cannot reach Redis is an error, as
the answer (404 or 421) is then unknown.
"""

from __future__ import annotations

import logging
import re

from redis.asyncio import Redis
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import RedisError

from ..ops.auth import owner_tag
from .redis_jobs import REDIS_TIMEOUT_SECONDS, _ms
from .sessions import SessionDirectoryUnavailable

logger = logging.getLogger("sandbox_wasm.server")

# Session ids are ours (uuid4 hex); anything else is unknown without a lookup.
_SESSION_ID = re.compile(r"[0-9a-f]{32}")


class RedisSessionDirectory:
    """Session id -> holding replica, in Redis; every record expires."""

    def __init__(
        self, url: str, *, replica: str, ttl_seconds: float, namespace: str = "sandbox-wasm"
    ) -> None:
        self.replica = replica
        self.ttl_seconds = ttl_seconds
        self.namespace = namespace
        self._redis = Redis.from_url(
            url, socket_timeout=REDIS_TIMEOUT_SECONDS,
            socket_connect_timeout=REDIS_TIMEOUT_SECONDS,
            retry=Retry(ExponentialBackoff(cap=0.25, base=0.05), 2),
        )

    def key(self, session_id: str, owner: str | None = None) -> str:
        tag = owner_tag(owner)
        scope = "" if tag is None else f"{tag}:"
        return f"{self.namespace}:session:{scope}{session_id}"

    async def claim(self, session_id: str, owner: str | None = None) -> None:
        """Record this replica as the session's holder, or renew the record's TTL (best
        effort)."""
        try:
            await self._redis.set(self.key(session_id, owner), self.replica,
                                  px=_ms(self.ttl_seconds))
        except RedisError as exc:
            logger.warning("could not record session %s in Redis: %s", session_id, exc)

    async def forget(self, *sessions: tuple[str, str | None]) -> None:
        """Drop the records of sessions (id, owner) this replica closed (best effort)."""
        if not sessions:
            return
        try:
            await self._redis.delete(*(self.key(sid, owner) for sid, owner in sessions))
        except RedisError as exc:
            logger.warning("could not drop session records in Redis: %s", exc)

    async def holder(self, session_id: str, owner: str | None = None) -> str | None:
        """The replica holding `owner`'s session `session_id`, or None if no replica
        records it. Raises SessionDirectoryUnavailable when Redis cannot be reached."""
        if not _SESSION_ID.fullmatch(session_id):
            return None
        try:
            raw = await self._redis.get(self.key(session_id, owner))
        except RedisError as exc:
            logger.warning("Redis session directory unavailable: %s", exc)
            raise SessionDirectoryUnavailable(
                "the session directory (Redis) cannot be reached"
            ) from exc
        if raw is None or isinstance(raw, str):  # bytes: the client does not decode
            return raw
        return raw.decode("utf-8", "replace")

    async def ping(self) -> bool:
        """Whether the Redis answers (for /healthz)."""
        try:
            return bool(await self._redis.ping())
        except RedisError:
            return False

    async def close(self) -> None:
        await self._redis.aclose()
