"""The session snapshot format: a session's whole state as bytes that can move between
processes and machines.

    MAGIC | version (u16) | flags (u16) | header length (u32) | header (JSON)
          | body length (u64) | body (zlib: memory runs, then files' bytes) | digest (32)

The header names the runtime (its SHA-256: a snapshot only restores into the very runtime
that made it), the session's limits and policy, its call count, the memory size and the
(offset, length) of each run, and the session's in-memory filesystem (each node's path,
kind, writability and length; the open descriptors). The digest is SHA-256 of everything
before it, or HMAC-SHA256 with a key when the snapshot is signed: unsigned, it catches
corruption; signed, also deliberate edits by whoever does not hold the key. Neither is
trusted for sizes: decoding checks every field, and holds what the snapshot carries to
every cap of the session that receives it (memory; the filesystem's paths, areas,
per-file and total bytes, node counts: `_fs.tree.check_layout`) on the header's word, before
a byte of the body is inflated; the body then inflates part by part, never past what the
header promised. Paths outside /input, /output and /tmp are refused, and so are writable
nodes under /input. A snapshot restores only into a fresh instance under the session's
memory cap, so even a crafted one stays inside the sandbox.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import struct
import zlib
from dataclasses import dataclass
from typing import Any

from .._errors import SnapshotError
from .._fs.tree import FileCaps, FsState, check_layout
from .._host.memory import WASM_PAGE, MemoryState

MAGIC = b"SWSESS\x00"
FORMAT_VERSION = 1
FLAG_SIGNED = 1
DIGEST_BYTES = 32
_PREFIX = struct.Struct("<HHI")
_BODY_LENGTH = struct.Struct("<Q")
#: The largest header a reader accepts (the run list of a 1 GiB memory fits many times).
MAX_HEADER_BYTES = 8 * 2**20
#: The most bytes a snapshot's files may hold (input and written caps at their maxima).
MAX_FILE_BYTES_IN_ALL = 512 * 2**20
#: Compression level: level 1 is ~10x faster than the default, and pages of a Python heap
#: compress almost as well with it.
COMPRESSION_LEVEL = 1


@dataclass(frozen=True)
class SessionState:
    """A session at rest: its linear memory and its filesystem."""

    memory: MemoryState
    fs: FsState

    @property
    def stored_bytes(self) -> int:
        return self.memory.stored_bytes + self.fs.stored_bytes


@dataclass(frozen=True)
class SessionImage:
    """What a snapshot holds."""

    runtime_sha256: str
    runtime_name: str
    limits: dict[str, Any]
    policy: dict[str, Any]
    session_id: str
    calls: int
    state: SessionState



def unverified_header(data: bytes) -> dict[str, object] | None:
    """A snapshot's JSON header as it stands, before anything is verified: only to size what
    restoring it will take (restore checks the whole snapshot, this header included, before
    anything runs). None when there is no readable header."""
    fixed = len(MAGIC) + _PREFIX.size
    if not data.startswith(MAGIC) or len(data) < fixed:
        return None
    _, _, header_length = _PREFIX.unpack_from(data, len(MAGIC))
    try:
        header = json.loads(data[fixed : fixed + header_length])
    except (ValueError, RecursionError):
        return None
    return header if isinstance(header, dict) else None


def encode(image: SessionImage, *, key: bytes | None = None) -> bytes:
    """`image` as snapshot bytes, signed with `key` (HMAC-SHA256) when one is given."""
    memory, fs = image.state.memory, image.state.fs
    header = json.dumps({
        "runtime_sha256": image.runtime_sha256,
        "runtime_name": image.runtime_name,
        "limits": image.limits,
        "policy": image.policy,
        "session_id": image.session_id,
        "calls": image.calls,
        "memory_bytes": memory.size,
        "runs": [[offset, len(data)] for offset, data in memory.runs],
        "fs_nodes": [[path, is_dir, writable, len(data)]
                     for path, is_dir, writable, data in fs.nodes],
        "fs_handles": [list(handle) for handle in fs.handles],
    }, separators=(",", ":"), sort_keys=True).encode()
    body = zlib.compress(
        b"".join([*(data for _, data in memory.runs), *(node[3] for node in fs.nodes)]),
        COMPRESSION_LEVEL,
    )
    flags = FLAG_SIGNED if key is not None else 0
    content = b"".join((
        MAGIC, _PREFIX.pack(FORMAT_VERSION, flags, len(header)), header,
        _BODY_LENGTH.pack(len(body)), body,
    ))
    return content + _digest(content, key)


@dataclass(frozen=True)
class OpenedSnapshot:
    """A snapshot whose framing, integrity and header were checked, its body not yet
    inflated: what the restoring side needs to choose the caps (`limits`) that `inflate`
    then holds the body to."""

    fields: dict[str, Any]
    body: bytes

    @property
    def limits(self) -> dict[str, Any]:
        """The limits the session had (to be validated by the restoring side)."""
        return self.fields["limits"]  # type: ignore[no-any-return]  # the header's word

    @property
    def policy(self) -> dict[str, Any]:
        """The session's audit policy, as data (to be validated by the restoring side)."""
        return self.fields["policy"]  # type: ignore[no-any-return]  # the header's word

    def inflate(self, *, max_memory_bytes: int, caps: FileCaps) -> SessionImage:
        """The image, held to the restoring session's caps: memory within
        `max_memory_bytes`, the filesystem within `caps` (paths, areas, sizes, counts:
        `_fs.tree.check_layout`). Every size is checked on the header's word before anything
        is inflated, and the body inflates part by part, never past what the header
        promised, so a crafted snapshot cannot make the host allocate more than the caps."""
        fields = self.fields
        size, runs = fields["memory_bytes"], fields["runs"]
        if size > max_memory_bytes:
            raise SnapshotError(
                f"session snapshot holds {size // 2**20} MiB of memory, over the memory cap "
                f"of {max_memory_bytes // 2**20} MiB"
            )
        nodes = fields["fs_nodes"]
        try:
            check_layout((tuple(node) for node in nodes), caps)
        except ValueError as error:
            raise SnapshotError(f"session snapshot holds an unusable filesystem ({error})") \
                from None
        if len(fields["fs_handles"]) > caps.max_open:
            raise SnapshotError("session snapshot holds more open descriptors than the "
                                f"cap of {caps.max_open}")
        lengths = [length for _, length in runs] + [node[3] for node in nodes]
        parts = _split(self.body, lengths)
        memory = MemoryState(size, tuple(
            (run[0], part) for run, part in zip(runs, parts, strict=False)))
        fs = FsState(
            tuple((path, is_dir, writable, part) for (path, is_dir, writable, _), part
                  in zip(nodes, parts[len(runs):], strict=True)),
            tuple(tuple(handle) for handle in fields["fs_handles"]),
        )
        return SessionImage(
            runtime_sha256=fields["runtime_sha256"],
            runtime_name=fields["runtime_name"],
            limits=fields["limits"],
            policy=fields["policy"],
            session_id=fields["session_id"],
            calls=fields["calls"],
            state=SessionState(memory, fs),
        )


def open_snapshot(data: bytes, *, key: bytes | None = None, runtime_sha256: str
                  ) -> OpenedSnapshot:
    """`data` checked up to its body: the framing, the digest (HMAC with `key`), the
    header's fields and types, the runtime (`runtime_sha256` is the one that would run it).
    Raises SnapshotError saying why it cannot be used here, and nothing else."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise SnapshotError(f"a snapshot is bytes, not {type(data).__name__}")
    data = bytes(data)
    if not data.startswith(MAGIC):
        raise SnapshotError("not a sandbox-wasm session snapshot")
    fixed = len(MAGIC) + _PREFIX.size
    if len(data) < fixed + _BODY_LENGTH.size + DIGEST_BYTES:
        raise SnapshotError("session snapshot is truncated")
    version, flags, header_length = _PREFIX.unpack_from(data, len(MAGIC))
    if version != FORMAT_VERSION:
        raise SnapshotError(
            f"session snapshot format {version}; this version of sandbox-wasm reads "
            f"format {FORMAT_VERSION}"
        )
    content, digest = data[:-DIGEST_BYTES], data[-DIGEST_BYTES:]
    signed = bool(flags & FLAG_SIGNED)
    if signed and key is None:
        raise SnapshotError("session snapshot is signed: restoring it needs its key")
    if not signed and key is not None:
        raise SnapshotError("session snapshot is not signed, but a key was given: refusing "
                            "an unsigned snapshot where signed ones are expected")
    if not hmac.compare_digest(digest, _digest(content, key)):
        raise SnapshotError(
            "session snapshot failed its integrity check (corrupted or tampered with"
            + (", or signed with another key)" if signed else ")")
        )
    body_at = fixed + header_length
    if header_length > MAX_HEADER_BYTES or body_at + _BODY_LENGTH.size > len(content):
        raise SnapshotError("session snapshot header is malformed")
    try:
        header = json.loads(content[fixed:body_at])
        fields = _header_fields(header)
    # RecursionError: JSON nested deeper than the parser goes (a few KiB of brackets).
    except (ValueError, KeyError, TypeError, RecursionError) as error:
        raise SnapshotError(f"session snapshot header is malformed ({error})") from None
    if fields["runtime_sha256"] != runtime_sha256:
        raise SnapshotError(
            f"session snapshot was made with another runtime ({fields['runtime_name'][:80]}, "
            f"sha256 {fields['runtime_sha256'][:12]}…); this sandbox runs "
            f"sha256 {runtime_sha256[:12]}…"
        )
    (body_length,) = _BODY_LENGTH.unpack_from(content, body_at)
    body = content[body_at + _BODY_LENGTH.size :]
    if body_length != len(body):
        raise SnapshotError("session snapshot body is truncated")
    return OpenedSnapshot(fields, body)


def decode(
    data: bytes, *, key: bytes | None = None, runtime_sha256: str, max_memory_bytes: int,
    caps: FileCaps | None = None,
) -> SessionImage:
    """The image in `data` (`open_snapshot`, then `inflate` under `max_memory_bytes` and
    `caps`), or SnapshotError saying why it cannot be used here."""
    opened = open_snapshot(data, key=key, runtime_sha256=runtime_sha256)
    return opened.inflate(max_memory_bytes=max_memory_bytes, caps=caps or FileCaps())


def _digest(content: bytes, key: bytes | None) -> bytes:
    if key is None:
        return hashlib.sha256(content).digest()
    return hmac.new(key, content, hashlib.sha256).digest()


def _header_fields(header: Any) -> dict[str, Any]:
    """The header's fields, type-checked; runs sorted, disjoint and inside the memory."""
    if not isinstance(header, dict):
        raise TypeError("header is not an object")
    fields = {name: header[name] for name in (
        "runtime_sha256", "runtime_name", "limits", "policy", "session_id", "calls",
        "memory_bytes", "runs", "fs_nodes", "fs_handles")}
    for name in ("runtime_sha256", "runtime_name", "session_id"):
        if not isinstance(fields[name], str):
            raise TypeError(f"{name} is not a string")
    for name in ("limits", "policy"):
        if not isinstance(fields[name], dict):
            raise TypeError(f"{name} is not an object")
    size = fields["memory_bytes"]
    if not _is_count(fields["calls"]) or not _is_count(size) or size % WASM_PAGE:
        raise ValueError("calls or memory_bytes out of range")
    end_of_last = 0
    for run in fields["runs"]:
        if (not isinstance(run, list) or len(run) != 2 or not all(map(_is_count, run))
                or run[0] < end_of_last or run[0] + run[1] > size):
            raise ValueError("memory runs overlap or lie outside the memory")
        end_of_last = run[0] + run[1]
    file_bytes = 0
    for node in fields["fs_nodes"]:
        if (not isinstance(node, list) or len(node) != 4 or not isinstance(node[0], str)
                or not node[0].startswith("/") or not isinstance(node[1], bool)
                or not isinstance(node[2], bool) or not _is_count(node[3])
                or (node[1] and node[3])):
            raise ValueError("a filesystem node is malformed")
        file_bytes += node[3]
    if file_bytes > MAX_FILE_BYTES_IN_ALL:
        raise ValueError("the filesystem holds too many bytes")
    for handle in fields["fs_handles"]:
        if (not isinstance(handle, list) or len(handle) != 6 or not _is_count(handle[0])
                or not isinstance(handle[1], str)
                or not all(isinstance(flag, bool) for flag in handle[2:5])
                or not _is_count(handle[5])):
            raise ValueError("a filesystem descriptor is malformed")
    return fields


def _is_count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**40


def _split(body: bytes, lengths: list[int]) -> list[bytes]:
    """The body's parts of `lengths` bytes, each inflated on its own with its length as the
    bound (a body that inflates to more, or less, is refused: no decompression bomb reaches
    memory, and no part is held twice)."""
    inflater = zlib.decompressobj()
    pending = body
    parts: list[bytes] = []
    try:
        for length in lengths:
            pieces: list[bytes] = []
            wanted = length
            while wanted:
                piece = inflater.decompress(pending, wanted)
                pending = inflater.unconsumed_tail
                if not piece:
                    raise SnapshotError("session snapshot body does not match its header")
                pieces.append(piece)
                wanted -= len(piece)
            parts.append(pieces[0] if len(pieces) == 1 else b"".join(pieces))
        if inflater.decompress(pending, 1) or inflater.unconsumed_tail or not inflater.eof:
            raise SnapshotError("session snapshot body does not match its header")
    except zlib.error:
        raise SnapshotError("session snapshot body is not valid compressed data") from None
    return parts
