"""The audit cache: the answers of sources already audited, so that a source run again (a
retried snippet, a batch of one script, a session's `x += 1`) is not listed and judged again.

A run's audit answer depends on nothing but the source, the policy's tables and the runtime
that parsed it, so an answer is kept under (runtime SHA-256, policy line, policy name,
source, scope). The scope is empty for answers given by an interpreter no user code has run
in (a one-shot run's, a new session's first call's), which serve every run; a session's
later calls give theirs in an interpreter its own code has run in, which code a policy lets
reach the bootstrap could make lie, so theirs are kept under the session's id and serve that
session alone. Only answers that let the code run are kept: the guest and the host both judged
the facts and agreed, the source compiled, and every construct was listed. On a hit the
host sends the request with the `known` option: the guest parses and compiles the source
without listing its facts again, and the host reports the audit it already holds. Nothing
else changes: the run-time guard is armed with the same tables, and the WebAssembly
boundary and the limits stay the guarantee.

Budget: at most MAX_ENTRIES answers holding at most MAX_BYTES (the source's bytes plus an
estimate of the parsed answer's, ANSWER_WEIGHT per byte of its JSON) in the process; an
answer larger than MAX_ANSWER_BYTES is never kept; the least recently used go first.

The code: a one-shot run (whose interpreter starts from the runtime's image, and writes its
answer before any user code runs) is asked to follow its answer with the code it compiled,
marshalled; it is kept with the answer (its bytes count in MAX_BYTES) and sent with the
requests that run the same source again, whose guest loads it instead of compiling the
source. Sessions neither bring nor get code (a session keeps its own: `_session_code`).
$SANDBOX_WASM_AUDIT_CACHE=0 turns the cache off.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from dataclasses import dataclass

from .._models import AuditReport

#: Most answers kept, and most bytes they may hold (sources plus parsed answers).
MAX_ENTRIES = 4096
MAX_BYTES = 32 * 2**20
#: Largest audit answer (its JSON) worth keeping: a few thousand facts.
MAX_ANSWER_BYTES = 64 * 2**10
#: Largest marshalled code kept with an answer (the guest sends none larger).
MAX_CODE_BYTES = 256 * 2**10
#: Bytes of Python objects per byte of answer JSON, to bound what the parsed answers hold.
ANSWER_WEIGHT = 8
ENABLED = os.environ.get("SANDBOX_WASM_AUDIT_CACHE") != "0"

#: (runtime SHA-256, policy line, policy name, source, scope: "" or a session's id)
AuditKey = tuple[str, bytes, str, str, str]


@dataclass(frozen=True)
class KnownAudit:
    """A source's audit that allowed it to run: the guest's answer and the host's report,
    and the code the guest compiled, marshalled (b"" until a one-shot run brought it)."""

    answer: dict[str, object]
    report: AuditReport
    cost: int
    code: bytes = b""


class AuditCache:
    """Audit answers by `AuditKey`, least recently used first out, within the budget."""

    def __init__(self, max_entries: int = MAX_ENTRIES, max_bytes: int = MAX_BYTES) -> None:
        self.max_entries = max_entries
        self.max_bytes = max_bytes
        self._entries: OrderedDict[AuditKey, KnownAudit] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def __len__(self) -> int:
        return len(self._entries)

    @property
    def stored_bytes(self) -> int:
        return self._bytes

    def lookup(self, key: AuditKey) -> KnownAudit | None:
        """The audit kept for `key`, or None."""
        with self._lock:
            known = self._entries.get(key)
            if known is None:
                self.misses += 1
                return None
            self._entries.move_to_end(key)
            self.hits += 1
            return known

    def remember(self, key: AuditKey, answer: dict[str, object], report: AuditReport,
                 answer_bytes: int, code: bytes = b"") -> None:
        """Keep the audit of a source that was allowed to run (see the module docstring for
        which ones qualify; the caller checked), with its marshalled `code` if given (by a
        one-shot run that was asked for it, and at most MAX_CODE_BYTES)."""
        if answer_bytes > MAX_ANSWER_BYTES:
            return
        if len(code) > MAX_CODE_BYTES:
            code = b""
        cost = len(key[3]) + len(key[1]) + ANSWER_WEIGHT * answer_bytes + len(code)
        if cost > self.max_bytes:
            return
        self._put(key, KnownAudit(answer, report, cost, code))

    def keep_code(self, key: AuditKey, code: bytes) -> None:
        """Add the marshalled code a one-shot run was asked for to the audit kept under
        `key` (if it is still kept, and has none)."""
        if not code or len(code) > MAX_CODE_BYTES:
            return
        with self._lock:
            known = self._entries.get(key)
        if known is not None and not known.code:
            self._put(key, KnownAudit(known.answer, known.report, known.cost + len(code),
                                      code))

    def _put(self, key: AuditKey, known: KnownAudit) -> None:
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self._bytes -= old.cost
            self._entries[key] = known
            self._bytes += known.cost
            while len(self._entries) > self.max_entries or self._bytes > self.max_bytes:
                _, dropped = self._entries.popitem(last=False)
                self._bytes -= dropped.cost

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._bytes = 0


#: The process's audit cache, shared by every sandbox and session.
AUDIT_CACHE = AuditCache()


def look_up(runtime_sha256: str, policy_line: bytes, policy_name: str, source: str,
            scope: str = "") -> tuple[AuditKey | None, KnownAudit | None]:
    """A run's cache key (None when the cache is off) and the audit kept under it (None: not
    kept; the run's answer is then judged and, if it qualifies, kept under the key). With a
    `scope` (a session whose own code has run), the answers of pristine interpreters are
    looked at first; the key is the scoped one unless one of those is found."""
    if not ENABLED:
        return None, None
    key = (runtime_sha256, policy_line, policy_name, source, "")
    known = AUDIT_CACHE.lookup(key)
    if known is None and scope:
        key = (*key[:4], scope)
        known = AUDIT_CACHE.lookup(key)
    return key, known
