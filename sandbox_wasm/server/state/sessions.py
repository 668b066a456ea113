"""Live sessions of a gateway: `Session` objects by id, closed after an idle TTL, with caps
on how many there are and on the host memory they may hold together.

Both gateways (HTTP and MCP) keep one registry each. Every blocking step (opening,
calling, snapshotting, restoring) runs through the gateway's worker runner, never on the
event loop. A session's id (uuid4 hex, 122 random bits) is its only credential: the
gateways have no notion of a client, so whoever holds the id may use the session.

Memory: each session reserves, when it opens, the most host memory it can ever hold: its
memory cap and its files (its in-memory tree lives on the host: the input it may be given
and what it may write, `max_input_bytes + max_written_bytes`), twice over with
`on_trap="rollback"` (its checkpoint, a host copy of every page it wrote and of its tree,
can grow as large as both). Summing what sessions use now would not do:
one call can grow a session from its 20 MiB start to its cap, so a budget of current use
admits sessions that later overrun it together. Reserving the worst case keeps the sum of
what sessions can hold under `SessionCaps.memory_mb` whatever their code does.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..._audit.policy import PRESETS, AuditPolicy
from ..._errors import InvalidRequestError, SessionClosedError
from ..._models import MIB, ExecutionResult, Limits
from ..._network.policy import NetworkPolicy
from ..._request import resolve_limits
from ..._sandbox import Sandbox
from ..._session.session import OnTrap, Session
from ..._session.snapshot import unverified_header
from ..._tools import ToolsLike

T = TypeVar("T")
#: Runs a blocking function on the gateway's workers and awaits its result.
Runner = Callable[[Callable[[], Any]], Awaitable[Any]]
PolicyName = Literal["balanced", "strict", "report"]

DEFAULT_MAX_SESSIONS = 32
DEFAULT_SESSION_MEMORY_MB = 4_096
DEFAULT_SESSION_IDLE_SECONDS = 600.0
#: The largest limits a session can have: what a restore whose snapshot header cannot be
#: read reserves (that restore then fails with the reason).
_MAXIMA = Limits.model_json_schema()["properties"]
LARGEST_LIMITS = Limits(**{name: _MAXIMA[name]["maximum"] for name in (
    "memory_mb", "max_input_bytes", "max_written_bytes")})
# Presets by how much they refuse: a client may tighten the server's policy, never loosen it.
_STRICTNESS: dict[str, int] = {"report": 0, "balanced": 1, "strict": 2}


class SessionCaps(BaseModel):
    """How many sessions a gateway keeps, how much host memory they may hold together,
    and how long an unused one lives."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    max_sessions: int = Field(
        DEFAULT_MAX_SESSIONS, ge=0, le=100_000,
        description="Live sessions at most; 0 turns sessions off.",
    )
    memory_mb: int = Field(
        DEFAULT_SESSION_MEMORY_MB, ge=32, le=1_048_576,
        description="Host memory (MiB) live sessions may hold together. Each reserves its "
        "memory cap when it opens, twice over with on_trap=rollback (its checkpoint).",
    )
    idle_seconds: float = Field(
        DEFAULT_SESSION_IDLE_SECONDS, gt=0, le=7 * 24 * 3600,
        description="A session without a call for this long is closed and forgotten.",
    )


class SessionNotFound(Exception):
    """No live session has this id: it never existed, was closed, or stayed idle past the
    TTL. Its message is the one every gateway gives (each adds what to do next)."""

    def __init__(self, session_id: str, idle_seconds: float) -> None:
        super().__init__(f"no session {session_id!r} (unknown, closed, or closed after "
                         f"{idle_seconds:g} s without a call)")
        self.session_id = session_id


class SessionBusy(Exception):
    """A call (or a snapshot) on the session is in progress; calls on one session run one
    at a time. Its message is the one every gateway gives."""

    def __init__(self, session_id: str) -> None:
        super().__init__(f"session {session_id} is running another call; calls on one "
                         "session run one at a time")
        self.session_id = session_id


class SessionsFull(Exception):
    """Opening one more session would pass the count or memory cap; `retry_after` is the
    whole seconds until the soonest idle session expires."""

    def __init__(self, message: str, *, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class SessionDirectoryUnavailable(Exception):
    """The shared record of which replica holds which session cannot be reached; the
    gateway answers 503."""


@dataclass
class SessionEntry:
    """A live session and what the registry knows of it without taking its lock (a call
    in progress holds that lock, and the event loop must never wait for it)."""

    session: Session
    reserved_bytes: int
    created_at: float
    last_used: float
    memory_bytes: int
    busy: bool = False
    #: Closed (forgotten) while busy: the call in progress closes it when it ends.
    closing: bool = False
    #: The name of the API key that opened it (None on a gateway without keys).
    owner: str | None = None

    @property
    def id(self) -> str:
        return self.session.id


def reservation_bytes(limits: Limits, on_trap: OnTrap) -> int:
    """Host memory a session with these limits can hold at most (the module docstring)."""
    return _copies(on_trap) * (limits.memory_mb * MIB + _tree_bytes(limits))


def _tree_bytes(limits: Limits) -> int:
    return limits.max_input_bytes + limits.max_written_bytes


def _copies(on_trap: OnTrap) -> int:
    return 2 if on_trap == "rollback" else 1


def session_policy(requested: PolicyName | None, server: AuditPolicy,
                   what: str = "a session") -> AuditPolicy:
    """The policy a new session (or a request: `what`) runs under: the server's, or a preset
    at least as strict (an operator's choice is never loosened by a client)."""
    if requested is None:
        return server
    preset = PRESETS[requested]
    if preset == server:
        return preset
    server_rank = next(
        (rank for name, rank in _STRICTNESS.items() if PRESETS[name] == server), None
    )
    if server_rank is None or _STRICTNESS[requested] < server_rank:
        stricter = [name for name, rank in _STRICTNESS.items()
                    if server_rank is not None and rank > server_rank]
        allowed = " or ".join([f"omit it ({server.name!r})", *map(repr, stricter)])
        raise InvalidRequestError(
            f"this server runs the {server.name!r} policy; {what} may not loosen it "
            f"to {requested!r} ({allowed})", field="policy",
        )
    return preset


def snapshot_limits(data: bytes) -> Limits | None:
    """The limits a snapshot's header names, read before the snapshot is verified and only
    to size its reservation (restore checks the whole snapshot, this header included,
    before anything runs). None when the header cannot be read: restore then says why."""
    header = unverified_header(data)
    if header is None or "limits" not in header:
        return None
    try:
        return Limits.model_validate(header["limits"])
    except (ValidationError, RecursionError):
        return None


class SessionRegistry:
    """Live sessions by id. Thread-safe; the blocking work runs through `run`.

    `on_call(result, seconds)` is called on the worker after every call (for metrics)."""

    def __init__(
        self, caps: SessionCaps, sandbox: Sandbox, run: Runner, *,
        on_call: Callable[[ExecutionResult, float], None] | None = None,
    ) -> None:
        self.caps = caps
        self.sandbox = sandbox
        self._run = run
        self._on_call = on_call
        self._lock = threading.Lock()
        self._entries: dict[str, SessionEntry] = {}
        # Bytes reserved by live sessions and by those being opened or restored.
        self._reserved = 0
        self._opening = 0

    # -- bookkeeping ---------------------------------------------------------------------
    @property
    def live(self) -> int:
        """Sessions open now."""
        with self._lock:
            self._sweep()
            return len(self._entries)

    @property
    def reserved_bytes(self) -> int:
        """Host memory reserved by live sessions (and ones being opened)."""
        with self._lock:
            self._sweep()
            return self._reserved

    def expires_at(self, entry: SessionEntry) -> float:
        return entry.last_used + self.caps.idle_seconds

    def get(self, session_id: str, *, owner: str | None) -> SessionEntry:
        """`owner`'s live session `session_id`, or SessionNotFound."""
        with self._lock:
            return self._lookup(session_id, owner)

    def _lookup(self, session_id: str, owner: str | None) -> SessionEntry:
        """The one ownership check of every transport (HTTP, MCP stdio and MCP HTTP): a
        session belongs to the API key that opened it (None: a server without keys), and
        another key's session is as unknown as one that never was (under the lock)."""
        self._sweep()
        entry = self._entries.get(session_id)
        if entry is None or entry.owner != owner:
            raise SessionNotFound(session_id, self.caps.idle_seconds)
        return entry

    def _sweep(self) -> None:
        """Forget sessions that are closed or idle past the TTL (under the lock). The
        library's own reaper closes idle sessions too; this also frees their place."""
        now = time.time()
        gone = [
            entry for entry in self._entries.values()
            if not entry.busy and (
                entry.session.closed or now - entry.last_used >= self.caps.idle_seconds
            )
        ]
        for entry in gone:
            self._entries.pop(entry.id)
            self._release(entry)

    def _release(self, entry: SessionEntry) -> None:
        """Close a session that is no longer registered and give back its reservation, or,
        while a call is in it, leave both to the end of that call (under the lock)."""
        if entry.busy:
            entry.closing = True
            return
        # Not busy, so no call holds the session's lock: closing frees it at once.
        entry.session.close()
        self._reserved -= entry.reserved_bytes

    def _reserve(self, limits: Limits, on_trap: OnTrap) -> int:
        memory_mb = limits.memory_mb
        size = reservation_bytes(limits, on_trap)
        budget = self.caps.memory_mb * MIB
        if self.caps.max_sessions == 0:
            raise SessionsFull("sessions are turned off on this server (max_sessions is 0)",
                               retry_after=3600)
        if size > budget:
            most = (budget // _copies(on_trap) - _tree_bytes(limits)) // MIB
            raise InvalidRequestError(
                f"a session of {memory_mb} MiB with on_trap={on_trap!r} reserves "
                f"{size // MIB} MiB (its memory and its files), over this server's whole "
                f"session budget of {self.caps.memory_mb} MiB; ask for at most "
                f"{max(most, 0)} MiB", field="memory_mb",
            )
        with self._lock:
            self._sweep()
            count = len(self._entries) + self._opening
            if count >= self.caps.max_sessions:
                reason = f"all {self.caps.max_sessions} sessions are in use"
            elif self._reserved + size > budget:
                reason = (f"the {memory_mb} MiB session would pass the {self.caps.memory_mb} "
                          f"MiB that live sessions may hold together "
                          f"({self._reserved // MIB} MiB reserved)")
            else:
                self._reserved += size
                self._opening += 1
                return size
            retry_after = self._retry_after()
        raise SessionsFull(f"{reason}; close one or retry in {retry_after} s",
                           retry_after=retry_after)

    def _retry_after(self) -> int:
        """Whole seconds until the soonest idle session expires (under the lock)."""
        now = time.time()
        soonest = min((self.expires_at(entry) for entry in self._entries.values()
                       if not entry.busy), default=now + self.caps.idle_seconds)
        return max(1, math.ceil(soonest - now))

    def _admit(self, session: Session, reserved: int, owner: str | None) -> SessionEntry:
        now = time.time()
        entry = SessionEntry(session, reserved, created_at=now, last_used=now,
                             memory_bytes=session.memory_bytes, owner=owner)
        with self._lock:
            self._opening -= 1
            self._entries[entry.id] = entry
        return entry

    def _cancel(self, reserved: int) -> None:
        with self._lock:
            self._opening -= 1
            self._reserved -= reserved

    def _checkout(self, session_id: str, owner: str | None) -> SessionEntry:
        with self._lock:
            entry = self._lookup(session_id, owner)
            if entry.busy:
                raise SessionBusy(session_id)
            entry.busy = True
            return entry

    def _checkin(self, entry: SessionEntry, *, used: bool) -> None:
        with self._lock:
            entry.busy = False
            if used:
                entry.last_used = time.time()
            if entry.closing:
                self._release(entry)
            elif entry.session.closed:
                self._entries.pop(entry.id, None)
                self._release(entry)

    # -- the work ------------------------------------------------------------------------
    async def open(
        self, *, limits: dict[str, int], policy: AuditPolicy, on_trap: OnTrap,
        owner: str | None = None, sandbox: Sandbox | None = None,
    ) -> SessionEntry:
        """A new session under `limits` and `policy`, on `sandbox`'s runtime (default: the
        registry's). Raises SessionsFull over a cap, InvalidRequestError for a session that
        could never fit, and whatever the runner raises (e.g. a full worker pool)."""
        reserved = self._reserve(resolve_limits(limits), on_trap)

        def create() -> Session:
            return Session(limits=limits, policy=policy, sandbox=sandbox or self.sandbox,
                           on_trap=on_trap, idle_timeout_s=self.caps.idle_seconds)

        return await self._opened(create, reserved, owner)

    async def restore(
        self, data: bytes, *, key: bytes, on_trap: OnTrap, owner: str | None = None,
        check_limits: Callable[[Limits], None] | None = None,
    ) -> SessionEntry:
        """A new session holding the state of snapshot `data` (signed with `key`), under
        the snapshot's limits and policy. `check_limits` holds those limits to this
        server's caps (it raises InvalidRequestError, as for a session opened here with
        them): a snapshot carries the limits of the server that made it. Raises
        SnapshotError for one that cannot be restored, and what `open` raises."""
        header_limits = snapshot_limits(data) or LARGEST_LIMITS
        reserved = self._reserve(header_limits, on_trap)

        def create() -> Session:
            session = Session.restore(data, key=key, sandbox=self.sandbox, on_trap=on_trap,
                                      idle_timeout_s=self.caps.idle_seconds)
            try:
                if reservation_bytes(session.limits, on_trap) > reserved:
                    # The header read above lied about what it needs: refuse.
                    raise InvalidRequestError("session snapshot header is inconsistent",
                                              field="snapshot")
                if check_limits is not None:
                    check_limits(session.limits)
            except BaseException:
                session.close()
                raise
            return session

        return await self._opened(create, reserved, owner)

    async def _opened(
        self, create: Callable[[], Session], reserved: int, owner: str | None
    ) -> SessionEntry:
        try:
            session = await self._run(create)
        except BaseException:
            self._cancel(reserved)
            raise
        return self._admit(session, reserved, owner)

    async def execute(
        self, session_id: str, code: str, *, owner: str | None,
        overrides: dict[str, int] | None = None, files: Mapping[str, bytes] | None = None,
        tools: ToolsLike | None = None, cancel: threading.Event | None = None,
        network: NetworkPolicy | None = None,
    ) -> ExecutionResult:
        """Run `code` in the session; `overrides` (timeout_ms, max_stdout_bytes, ...)
        change the session's limits for this call only; `files` are added to its /input;
        `tools`, when given, are the host tools this call offers instead of the session's;
        setting `cancel` interrupts the call (rolled back, as after a timeout);
        `network`, the call's network policy (None: the session's, which the gateway
        leaves without network).
        Raises SessionNotFound, SessionBusy, InvalidRequestError, and what the runner
        raises."""
        entry = self._checkout(session_id, owner)
        session = entry.session
        # Session.execute takes whole limits, not changes: merge onto the session's own.
        limits = {**session.limits.model_dump(), **(overrides or {})}

        def call() -> ExecutionResult:
            start = time.perf_counter()
            result = session.execute(code, limits=limits, files=files or None, tools=tools,
                                     cancel=cancel, network=network)
            if self._on_call is not None:
                self._on_call(result, time.perf_counter() - start)
            return result

        used = False
        try:
            result: ExecutionResult = await self._run(call)
            used = True
        except SessionClosedError:
            # Its idle timeout closed it while the call waited for a worker.
            raise SessionNotFound(session_id, self.caps.idle_seconds) from None
        finally:
            self._checkin(entry, used=used)
        if result.session is not None:
            entry.memory_bytes = result.session.memory_bytes
        return result

    async def snapshot(self, session_id: str, *, key: bytes, owner: str | None) -> bytes:
        """The session's state as snapshot bytes signed with `key`."""
        entry = self._checkout(session_id, owner)
        try:
            data: bytes = await self._run(lambda: entry.session.snapshot(key=key))
        except SessionClosedError:
            raise SessionNotFound(session_id, self.caps.idle_seconds) from None
        finally:
            self._checkin(entry, used=False)
        return data

    async def close(self, session_id: str, *, owner: str | None) -> None:
        """Close and forget the session; SessionNotFound if there is none. The id is
        unknown from now on; a call in progress ends first (within its deadline), and the
        session's memory is freed then."""
        with self._lock:
            entry = self._lookup(session_id, owner)
            del self._entries[session_id]
            self._release(entry)

    def close_all(self) -> list[tuple[str, str | None]]:
        """Close and forget every session (on shutdown); their ids and owners."""
        with self._lock:
            entries, self._entries = list(self._entries.values()), {}
            for entry in entries:
                self._release(entry)
        return [(entry.id, entry.owner) for entry in entries]
