"""The host side of the guest protocol: the one module that knows its bytes (the guest's
side is `_guest/bootstrap.py`, whose constants are taken from there and nowhere else).

A request is left by the host in the snapshot's memory (`sandbox_request`, read by the resume
entry; `_host/program.py` REQUEST_AREA_BYTES at most), else read by the guest from stdin:

    <mode>[ rest][ tools]\\n[<tools manifest: one line of JSON>\\n]<policy line>\\n<source>

the mode `audit`, `exec` or `session`; `rest` asks the guest to come back to rest instead of
ending the process, `tools` that a manifest line follows; the policy line names a built-in
policy (`@balanced:enforce`, `@strict:report`, `+image` for an image's packages) or carries
the policy's tables as JSON. The guest answers on stdout: first, when asked to audit, a framed
answer (8-byte little-endian length, then JSON: the facts and the verdict); then the user's
output; at the end, on stderr, the marked error record (`ERROR_MARK` + JSON {type,
message}), the run-time guard's findings (`FINDINGS_MARK`), the value of a last statement
that is an expression (`VALUE_MARK`). A request that comes back to rest returns its exit
status from the resume entry. Host tools answer on their own descriptor (`TOOLS_FD`) with
frames of the same shape as the audit answer (where the runtime exports an answer area,
`ANSWER_AREA_EXPORT`, an answer that fits is left there instead during the request's write,
as a 4-byte little-endian length and the JSON, and the guest's stub takes it without a
read); so does the network channel (`NETWORK_FD`), whose requests and answers carry a JSON
head and raw body bytes (`decode_network_request`, `network_answer`).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from typing import Any, Literal, Protocol

from ._audit.policy import (
    BALANCED_POLICY,
    STRICT_POLICY,
    AuditPolicy,
    allowing_modules,
    policy_tables,
)
from ._guest.bootstrap import (
    ANSWER_LENGTH_BYTES,
    BUILTIN_POLICY_LINES,
    CODE_OPTION_PREFIX,
    ERROR_MARK,
    FINDINGS_MARK,
    KEEP_CODE_OPTION,
    KNOWN_ANSWER,
    KNOWN_OPTION,
    MAX_ANSWER_BYTES,
    MAX_ERROR_MESSAGE_CHARS,
    MAX_ERROR_RECORD_BYTES,
    MAX_ERROR_TYPE_CHARS,
    MAX_FACTS,
    MAX_KEPT_CODE_BYTES,
    MAX_RUNTIME_FINDINGS,
    MAX_VALUE_RECORD_BYTES,
    MAX_VALUE_REPR_CHARS,
    MODE_AUDIT,
    MODE_EXEC,
    MODE_SESSION,
    NETWORK_FD,
    NETWORK_META_LENGTH_BYTES,
    REST_OPTION,
    TOOLS_FD,
    TOOLS_OPTION,
    VALUE_MARK,
    answer_is_incomplete,
)

#: The runtime's export of the area a tool's answer is left in for the guest's stub, and the
#: most bytes it holds (sandbox_entry.c's SANDBOX_AREA_CAPACITY): a longer answer is read
#: from the tool channel, as every answer is in a runtime without the export.
ANSWER_AREA_EXPORT = "sandbox_answer"
ANSWER_AREA_BYTES = 64 * 1024

__all__ = [
    "ANSWER_AREA_BYTES", "ANSWER_AREA_EXPORT", "ANSWER_LENGTH_BYTES", "ERROR_MARK",
    "FINDINGS_MARK", "IMAGE_POLICY_SUFFIX", "KNOWN_ANSWER",
    "MAX_ANSWER_BYTES", "MAX_ERROR_MESSAGE_CHARS", "MAX_ERROR_RECORD_BYTES",
    "MAX_ERROR_TYPE_CHARS", "MAX_FACTS", "MAX_KEPT_CODE_BYTES", "MAX_RUNTIME_FINDINGS",
    "MAX_VALUE_RECORD_BYTES", "MAX_VALUE_REPR_CHARS", "MODE_AUDIT", "MODE_EXEC",
    "MODE_SESSION", "NETWORK_FD", "TOOLS_FD", "VALUE_MARK", "answer_is_incomplete",
    "decode_error_record", "decode_network_request", "decode_value_record", "frame",
    "image_policy_line", "manifest_line", "mode_line", "network_answer",
    "parse_audit_answer", "policy_line", "request_payload", "split_answer",
]


# -- requests ------------------------------------------------------------------------------
def mode_line(mode: bytes, *, rest: bool, tools: bool, known: bool = False,
              keep_code: bool = False, code_bytes: int = 0) -> bytes:
    """A request's first line: the mode and its options (`rest`: a one-shot request returns
    to rest instead of ending the process; `tools`: a tools manifest line follows; `known`:
    the host holds the source's audit answer, the guest only compiles it; `keep_code`: the
    answer brings the compiled code; `code_bytes`: that many bytes of marshalled code
    follow the mode line and the manifest, which the guest loads instead of compiling)."""
    return b" ".join((mode, *((REST_OPTION,) if rest else ()),
                      *((TOOLS_OPTION,) if tools else ()),
                      *((KNOWN_OPTION,) if known else ()),
                      *((KEEP_CODE_OPTION,) if keep_code else ()),
                      *((CODE_OPTION_PREFIX + str(code_bytes).encode(),) if code_bytes else ())))


class ToolLike(Protocol):
    """A host tool as a request describes it (`_tools.Tool`)."""

    def manifest(self) -> dict[str, Any]: ...


def manifest_line(tools: Mapping[str, ToolLike]) -> bytes:
    """The tools as the request's manifest line describes them (one line of JSON)."""
    return json.dumps([tool.manifest() for tool in tools.values()],
                      separators=(",", ":")).encode()


def request_payload(mode: bytes, tools: Mapping[str, ToolLike], policy: bytes, source: str,
                    *, rest: bool = False, known: bool = False, keep_code: bool = False,
                    code: bytes = b"") -> bytes:
    """An exec or session request: the mode line (with the tools' manifest line when there
    are tools), the policy line and the source; `code` (a known source's, marshalled by
    an earlier run: see `mode_line`) comes before the policy line."""
    head = [mode_line(mode, rest=rest, tools=bool(tools), known=known, keep_code=keep_code,
                      code_bytes=len(code))]
    if tools:
        head.append(manifest_line(tools))
    return b"\n".join((*head, code + policy, source.encode("utf-8")))


@functools.lru_cache(maxsize=32)
def policy_line(policy: AuditPolicy) -> bytes:
    """The policy as the guest reads it in an exec request. The strict tables are built into
    the guest: naming them saves the guest parsing them on every run."""
    tables = policy_tables(policy)
    for line, (name, enforce) in BUILTIN_POLICY_LINES.items():
        builtin = STRICT_POLICY if name == "strict" else BALANCED_POLICY
        if enforce == (policy.mode == "enforce") and policy_tables(
            builtin.with_mode(policy.mode)
        ) == tables:
            return line
    return json.dumps(tables, separators=(",", ":")).encode()


#: What an image's bootstrap adds to a built-in policy line to name that policy with the
#: image's packages allowed (it keeps those tables ready, as the built-in ones).
IMAGE_POLICY_SUFFIX = b"+image"


@functools.lru_cache(maxsize=64)
def image_policy_line(policy: AuditPolicy, packages: frozenset[str]) -> bytes:
    """The policy line for an image whose packages are `packages`: a built-in policy with
    them allowed is named (`@balanced+image:enforce`), so that the guest need not parse its
    tables in every run; any other policy is sent as `policy_line` sends it."""
    tables = policy_tables(policy)
    for line, (name, enforce) in BUILTIN_POLICY_LINES.items():
        builtin = STRICT_POLICY if name == "strict" else BALANCED_POLICY
        mode: Literal["enforce", "report"] = "enforce" if enforce else "report"
        if policy_tables(allowing_modules(builtin.with_mode(mode), packages)) == tables:
            return line.replace(b":", IMAGE_POLICY_SUFFIX + b":", 1)
    return policy_line(policy)


# -- answers -------------------------------------------------------------------------------
def frame(body: bytes) -> bytes:
    """`body` framed as the guest reads a host tool's answer: its length, then itself."""
    return len(body).to_bytes(ANSWER_LENGTH_BYTES, "little") + body


def split_answer(answer: bytes | None) -> tuple[bytes | None, bytes]:
    """The audit answer's JSON (compact: no newline in it) and the marshalled code after
    it (KEEP_CODE_OPTION; b"" when there is none)."""
    if answer is None:
        return None, b""
    head, _, code = answer.partition(b"\n")
    return head, code


def parse_audit_answer(answer: bytes | None) -> dict[str, object] | None:
    """The guest's audit answer as a dict, or None when there is none or it is unusable."""
    if answer is None:
        return None
    try:
        parsed = json.loads(answer)
    except ValueError:
        return None
    return parsed if isinstance(parsed, dict) else None


def decode_error_record(record: bytes) -> tuple[str, str] | None:
    """The (type, message) of the guest's error record, or None when it is unusable. The
    text is the guest's: the caller cleans it and holds it to MAX_ERROR_TYPE_CHARS and
    MAX_ERROR_MESSAGE_CHARS."""
    try:
        parsed = json.loads(record)
        return str(parsed["type"]), str(parsed["message"])
    except (ValueError, KeyError, TypeError, RecursionError):
        return None


def decode_value_record(record: bytes) -> dict[str, Any] | None:
    """The guest's value record as {type, repr, repr_truncated[, json][, json_error]}, or
    None when it is unusable. The text is the guest's (user code can write such a record
    too): the caller cleans it."""
    try:
        parsed = json.loads(record)
    except (ValueError, RecursionError):
        return None
    if not (isinstance(parsed, dict) and isinstance(parsed.get("type"), str)
            and isinstance(parsed.get("repr"), str)):
        return None
    return parsed


# -- the network channel -------------------------------------------------------------------
def decode_network_request(request: bytes, max_meta_bytes: int) -> tuple[object, bytes]:
    """A guest's network request: its JSON head (parsed, unchecked) and its body. Raises
    ValueError when it is not one."""
    if len(request) < NETWORK_META_LENGTH_BYTES:
        raise ValueError("too short")
    length = int.from_bytes(request[:NETWORK_META_LENGTH_BYTES], "little")
    end = NETWORK_META_LENGTH_BYTES + length
    if length > max_meta_bytes or end > len(request):
        raise ValueError("the head's length is wrong")
    try:
        meta = json.loads(request[NETWORK_META_LENGTH_BYTES:end])
    except RecursionError:
        raise ValueError("nested too deeply") from None
    return meta, request[end:]


def network_answer(meta: Mapping[str, object], body: bytes) -> bytes:
    """The framed answer to a network request: its JSON head, then the body."""
    head = json.dumps(meta, separators=(",", ":")).encode()
    return frame(len(head).to_bytes(NETWORK_META_LENGTH_BYTES, "little") + head + body)
