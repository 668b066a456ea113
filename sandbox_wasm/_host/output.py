"""The captured output of one guest run, and what the run came to in host terms.

- `CappedOutput`: stdout or stderr as the guest writes it, kept within its cap; on stdout the
  bootstrap's framed audit answer, on stderr its error, findings and value records, are
  taken apart from the user's output.
- `GuestOutcome`: how a run ended (exit code or trap), its output, files, tool calls and
  measures; what `_outcome` turns into a result.
- `TrapKind`: the traps a run can end in.
- `text_relay`: streamed output, passed on as text while the guest writes it.
"""

from __future__ import annotations

import codecs
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from .._tools import ToolCallRecord
from .._wire import (
    ANSWER_LENGTH_BYTES,
    ERROR_MARK,
    FINDINGS_MARK,
    MAX_ANSWER_BYTES,
    MAX_ERROR_RECORD_BYTES,
    MAX_VALUE_RECORD_BYTES,
    VALUE_MARK,
)

if TYPE_CHECKING:
    from .._network.channel import NetworkCallRecord

TrapKind = Literal[
    "deadline", "fuel", "c_stack_overflow", "memory_out_of_bounds", "stack_overflow", "crash",
    "interrupted",
]


class CappedOutput:
    """Captured stdout or stderr of one run: keeps at most `cap` bytes, counts them all.

    Every write is reported to the guest as complete: a short count would surface as an
    OSError, and output beyond the cap is simply dropped (`truncated`). Bytes are decoded once
    at the end because writes can split a UTF-8 sequence.
    """

    def __init__(
        self, cap: int, *, error_channel: bool = False, audit_answer: bool = False,
        relay: Callable[[bytes], None] | None = None,
    ) -> None:
        self.cap = cap
        #: Called with each piece of user output as it is kept (within the cap).
        self.relay = relay
        self.chunks: list[bytes] = []
        self.kept = 0
        self.total = 0
        self.truncated = False
        self.error_record: bytes | None = None
        self.findings_record: bytes | None = None
        self.value_record: bytes | None = None
        self._error_channel = error_channel
        # The bootstrap's audit answer precedes user output: 8-byte length, then JSON.
        self._answer_pending = audit_answer
        self._answer_header = b""
        self._answer_left = 0
        self._answer_parts: list[bytes] = []
        self.audit_answer: bytes | None = None
        self.answer_too_large = False
        self.answer_at: float | None = None

    def wanted(self, length: int) -> int:
        """How many leading bytes of a `length`-byte write this capture needs to see; the
        rest need not even be copied out of the guest's memory."""
        if self._answer_pending:
            return min(length, ANSWER_LENGTH_BYTES + MAX_ANSWER_BYTES + len(ERROR_MARK)
                       + self.cap)
        room = max(self.cap - self.kept, 0)
        if self._error_channel:
            # The bootstrap's records may come after the cap is reached.
            room = max(room, len(VALUE_MARK) + MAX_VALUE_RECORD_BYTES + 1)
        return min(length, room)

    def _take_answer(self, chunk: bytes) -> bytes:
        """Consume audit-answer bytes from `chunk`; return what is left for user output."""
        if not self._answer_header and len(chunk) >= ANSWER_LENGTH_BYTES:
            # The whole answer in one write (as the bootstrap writes it): no parts to join.
            length = int.from_bytes(chunk[:ANSWER_LENGTH_BYTES], "little")
            end = ANSWER_LENGTH_BYTES + length
            if length <= MAX_ANSWER_BYTES and len(chunk) >= end:
                self._answer_header = chunk[:ANSWER_LENGTH_BYTES]
                self._answer_pending = False
                self.audit_answer = chunk[ANSWER_LENGTH_BYTES:end]
                self.answer_at = time.perf_counter()
                return chunk[end:]
        if len(self._answer_header) < ANSWER_LENGTH_BYTES:
            need = ANSWER_LENGTH_BYTES - len(self._answer_header)
            self._answer_header += chunk[:need]
            chunk = chunk[need:]
            if len(self._answer_header) < ANSWER_LENGTH_BYTES:
                return b""
            self._answer_left = int.from_bytes(self._answer_header, "little")
            self.answer_too_large = self._answer_left > MAX_ANSWER_BYTES
        part, chunk = chunk[: self._answer_left], chunk[self._answer_left :]
        self._answer_left -= len(part)
        if not self.answer_too_large:
            self._answer_parts.append(part)
        if self._answer_left == 0:
            self._answer_pending = False
            self.audit_answer = b"".join(self._answer_parts)
            self.answer_at = time.perf_counter()
        return chunk

    def write(self, chunk: bytes, length: int) -> None:
        """Record a write of `length` bytes whose first `len(chunk)` bytes are `chunk`."""
        if self._answer_pending:
            before = len(chunk)
            chunk = self._take_answer(chunk)
            length -= before - len(chunk)
            if not chunk:
                return
        if self._error_channel and chunk.startswith(FINDINGS_MARK):
            # The run-time guard's findings, written once after the user code ended.
            record = chunk[len(FINDINGS_MARK) :].strip()
            self.findings_record = record if len(record) <= MAX_ERROR_RECORD_BYTES else None
            return
        if self._error_channel and chunk.startswith(VALUE_MARK):
            # The value of the code's last statement, an expression (the last record counts).
            record = chunk[len(VALUE_MARK) :].strip()
            self.value_record = record if len(record) <= MAX_VALUE_RECORD_BYTES else None
            return
        if self._error_channel and chunk.startswith(ERROR_MARK):
            # The bootstrap reports the uncaught exception here after the user code ended.
            # Kept whole (it is bounded by MAX_ERROR_RECORD_BYTES) so that it parses; a
            # longer one is not the bootstrap's.
            record = chunk[len(ERROR_MARK) :].strip()
            self.error_record = record if len(record) <= MAX_ERROR_RECORD_BYTES else None
            return
        self.total += length
        room = self.cap - self.kept
        if length > room:
            self.truncated = True
        if room > 0:
            chunk = chunk[:room]
            self.chunks.append(chunk)
            self.kept += len(chunk)
            if self.relay is not None and chunk:
                self.relay(chunk)

    def data(self) -> bytes:
        return b"".join(self.chunks)

    def text(self) -> tuple[str, bool]:
        """The kept bytes as text of at most `cap` UTF-8 bytes, and whether anything was
        dropped. A cut never splits a character: a sequence the cap cut short is dropped
        instead of becoming U+FFFD, and invalid bytes (which decode to the 3-byte U+FFFD)
        are cut back to the cap too."""
        data = self.data()
        truncated = self.truncated
        if truncated:
            text = codecs.getincrementaldecoder("utf-8")("replace").decode(data, final=False)
        else:
            text = data.decode("utf-8", "replace")
        encoded = text.encode("utf-8", "surrogatepass")
        if len(encoded) > self.cap:
            text = encoded[: self.cap].decode("utf-8", "ignore")
            truncated = True
        return text, truncated


#: Where streamed output goes: (stream name, text) as the guest writes it.
OutputCallback = Callable[[Literal["stdout", "stderr"], str], None]


def text_relay(name: Literal["stdout", "stderr"], callback: OutputCallback
               ) -> Callable[[bytes], None]:
    """A `CappedOutput.relay` that passes the kept bytes of stream `name` on as text,
    decoded incrementally (a character split across writes comes out whole)."""
    decoder = codecs.getincrementaldecoder("utf-8")("replace")

    def relay(chunk: bytes) -> None:
        text = decoder.decode(chunk)
        if text:
            callback(name, text)

    return relay


@dataclass
class GuestOutcome:
    """What happened in one guest run, in host terms."""

    exit_code: int | None = None
    trap: TrapKind | None = None
    trap_detail: str = ""
    stdout: bytes = b""
    stderr: bytes = b""
    #: The captured output as text within its cap, cut on a character boundary.
    stdout_text: str = ""
    stderr_text: str = ""
    stdout_truncated: bool = False
    stderr_truncated: bool = False
    stdout_bytes: int = 0
    stderr_bytes: int = 0
    error_record: bytes | None = None
    #: The run-time guard's findings (JSON list), if it made any.
    findings_record: bytes | None = None
    #: The value record of the code's last statement, when it was an expression.
    value_record: bytes | None = None
    #: The exit status the resume entry returned when the request came back to rest (None:
    #: it did not, e.g. it trapped, or the entry returns none).
    status_record: int | None = None
    #: Whether the entry point returned: the guest came back to rest (every frame of the
    #: call returned). Only wasmtime can say so; nothing the guest writes can fake it.
    at_rest: bool = False
    #: The guest's framed audit answer (JSON), when the run was asked for one.
    audit_answer: bytes | None = None
    answer_too_large: bool = False
    #: Milliseconds from entering the guest to its audit answer (the audit's cost).
    audit_answer_ms: float | None = None
    fuel_consumed: int = 0
    #: Linear memory when the instance started, and at the end (memory never shrinks).
    initial_memory_bytes: int = 0
    peak_memory_bytes: int = 0
    #: Milliseconds of the whole run (instance start-up and audit included).
    elapsed_ms: float = 0.0
    #: Files under /output created or changed by this call (name relative to /output).
    files: dict[str, bytes] = field(default_factory=dict)
    #: Writes the filesystem's caps refused in this call.
    files_dropped: list[str] = field(default_factory=list)
    #: The host tools this call called, in order.
    tool_calls: list[ToolCallRecord] = field(default_factory=list)
    #: The network requests this call made, in order (`network=`).
    network_calls: list[NetworkCallRecord] = field(default_factory=list)
    host_error: str | None = None

    @property
    def user_code_ms(self) -> float:
        """Milliseconds after the audit's answer (the whole run when there was none): the
        time the user's deadline bounds."""
        if self.audit_answer_ms is None:
            return self.elapsed_ms
        return max(0.0, self.elapsed_ms - self.audit_answer_ms)
