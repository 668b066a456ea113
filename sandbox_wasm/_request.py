"""Request validation: the source, the language and the limits of one execution, checked
before anything runs. Every refusal is an `InvalidRequestError` naming its field."""

from __future__ import annotations

import functools
import os
from collections.abc import Mapping
from typing import IO, TypeAlias

from pydantic import ValidationError

from ._errors import InvalidRequestError, SourceTooLargeError
from ._fs.tree import MAX_PATH_BYTES
from ._models import MIB, TIMEOUT_PROFILES, Language, Limits, TimeoutProfile

LANGUAGES: tuple[Language, ...] = ("python", "javascript")
#: The defaults, without a validation: a process whose calls give no limits never builds the
#: Limits validator (start-up is part of a new process's latency).
_DEFAULT_LIMITS = Limits.model_construct()

# The audit parses hostile source; it gets its own fixed budget (deadline and fuel, within
# the same instance as the run) so that a parser-stressing input is cut off like any other
# guest, and the caller's limits apply to the caller's code only. Its memory cap is always
# the request's: no phase of a request may use more memory than the request allows.
AUDIT_TIMEOUT_MS = 10_000


@functools.lru_cache(maxsize=64)
def audit_budget(memory_mb: int) -> Limits:
    """The audit's fixed deadline and fuel, under the request's memory cap (one frozen
    Limits per cap: this is on every execution's path)."""
    # Constructed, not validated: `memory_mb` is a validated request's.
    return Limits.model_construct(timeout_ms=AUDIT_TIMEOUT_MS, memory_mb=memory_mb,
                                  max_stdout_bytes=MIB)


def coerce_source(code: str | bytes, max_bytes: int) -> str:
    """Validate source text: UTF-8, no null bytes, within the size limit."""
    if isinstance(code, (bytes, bytearray, memoryview)):
        raw = bytes(code)
        if len(raw) > max_bytes:
            raise SourceTooLargeError(
                f"source is {len(raw)} bytes, over the limit of {max_bytes} bytes"
            )
        try:
            code = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InvalidRequestError(
                f"source is not valid UTF-8 (byte {exc.start}: {exc.reason})", field="source"
            ) from None
    if not isinstance(code, str):
        raise InvalidRequestError(
            f"source must be str or bytes, not {type(code).__name__}", field="source"
        )
    try:
        size = len(code.encode("utf-8"))
    except UnicodeEncodeError:
        raise InvalidRequestError(
            "source is not valid UTF-8 text (lone surrogate)", field="source"
        ) from None
    if size > max_bytes:
        raise SourceTooLargeError(f"source is {size} bytes, over the limit of {max_bytes} bytes")
    if "\x00" in code:
        raise InvalidRequestError("source contains a null byte", field="source")
    return code


#: Most input files one request may give, and how deep their names may nest.
MAX_INPUT_FILES = 1_000
MAX_INPUT_DEPTH = 16
MAX_NAME_BYTES = 255


#: What an input file may be given as: its bytes or text, a path of the host's, or an open
#: file (read when the request is made).
FileContent: TypeAlias = (
    "bytes | bytearray | memoryview | str | os.PathLike[str] | IO[bytes] | IO[str]")


def coerce_stdin(stdin: str | bytes | int | None, max_bytes: int) -> bytes | int:
    """The user's stdin as bytes (text as UTF-8), at most `max_bytes` (what is left of
    max_input_bytes after the input files); or a file descriptor (an int), which the run
    reads from as the code asks (checked to be open here)."""
    if stdin is None:
        return b""
    if isinstance(stdin, int) and not isinstance(stdin, bool):
        try:
            os.fstat(stdin)
        except OSError:
            raise InvalidRequestError(f"stdin: {stdin} is not an open file descriptor",
                                      field="stdin") from None
        return stdin
    if isinstance(stdin, str):
        data = stdin.encode("utf-8", "surrogateescape")
    elif isinstance(stdin, (bytes, bytearray, memoryview)):
        data = bytes(stdin)
    else:
        raise InvalidRequestError("stdin must be bytes or text", field="stdin")
    if len(data) > max_bytes:
        raise InvalidRequestError(
            f"stdin is {len(data)} bytes, over the {max(0, max_bytes)} bytes left of "
            "max_input_bytes (stdin and the input files count together)", field="stdin")
    return data


def coerce_files(
    files: Mapping[str, FileContent] | None, max_bytes: int,
) -> dict[str, bytes]:
    """Validate input files: relative names of plain components (no `.`, `..`, empty parts,
    NUL or backslash); bytes, UTF-8 text, a host path or an open file (binary or text); at
    most MAX_INPUT_FILES and `max_bytes` in all.
    Each refusal names the file ("files.<name>")."""
    if files is None:
        return {}
    if not isinstance(files, Mapping):
        raise InvalidRequestError("files must be a mapping of name to bytes or text",
                                  field="files")
    if len(files) > MAX_INPUT_FILES:
        raise InvalidRequestError(f"{len(files)} files, over the limit of {MAX_INPUT_FILES}",
                                  field="files")
    checked: dict[str, bytes] = {}
    total = 0
    for name, data in files.items():
        where = f"files.{name}"
        if not isinstance(name, str):
            raise InvalidRequestError(f"file name {name!r} is not a string", field="files")
        _check_file_name(name, where)
        data = _file_content(name, data, max_bytes - total, where)
        total += len(data)
        if total > max_bytes:
            raise InvalidRequestError(
                f"input files are over the limit of {max_bytes} bytes in all", field=where)
        checked[name] = data
    _check_no_file_under_file(checked)
    return checked


def _file_content(name: str, data: object, room: int, where: str) -> bytes:
    """An input file's bytes from what the caller gave: bytes (or a buffer), text (UTF-8), a
    path of the host's (the caller's own file, read here) or an open file; at most `room`
    + 1 bytes are read, so an oversized file is refused without reading it all."""
    if isinstance(data, str):
        return data.encode("utf-8", "surrogatepass")
    if isinstance(data, (bytes, bytearray, memoryview)):
        return bytes(data)
    if isinstance(data, os.PathLike):
        try:
            with open(data, "rb") as handle:
                return handle.read(room + 1)
        except OSError as exc:
            raise InvalidRequestError(f"file {name!r}: cannot read {os.fspath(data)!r} "
                                      f"({exc.strerror})", field=where) from None
    read = getattr(data, "read", None)
    if callable(read):
        content = read(room + 1)
        if isinstance(content, str):
            return content.encode("utf-8", "surrogatepass")
        if isinstance(content, (bytes, bytearray, memoryview)):
            return bytes(content)
        raise InvalidRequestError(f"file {name!r}: its read() gave "
                                  f"{type(content).__name__}, not bytes", field=where)
    raise InvalidRequestError(
        f"file {name!r} must be bytes or str (or a path, or an open file), not "
        f"{type(data).__name__}", field=where)


def _check_file_name(name: str, where: str) -> None:
    parts = name.split("/")
    if not name or name.startswith("/") or any(p in ("", ".", "..") for p in parts):
        raise InvalidRequestError(
            f"file name {name!r} must be relative, without '.', '..' or empty parts "
            "(it is placed under /input)", field=where)
    if "\x00" in name or "\\" in name:
        raise InvalidRequestError(f"file name {name!r} contains NUL or a backslash",
                                  field=where)
    if len(parts) > MAX_INPUT_DEPTH:
        raise InvalidRequestError(
            f"file name {name!r} nests deeper than {MAX_INPUT_DEPTH} directories", field=where)
    try:
        too_long = any(len(p.encode("utf-8")) > MAX_NAME_BYTES for p in parts)
        path_bytes = len(f"input/{name}".encode())
    except UnicodeEncodeError:
        raise InvalidRequestError(f"file name {name!r} is not valid UTF-8 text",
                                  field=where) from None
    if too_long:
        raise InvalidRequestError(
            f"file name {name!r} has a part longer than {MAX_NAME_BYTES} bytes", field=where)
    # The tree's path rule (`_fs/tree.py`): every node's path is one the guest can look up.
    if path_bytes > MAX_PATH_BYTES:
        raise InvalidRequestError(
            f"file name {name!r} makes a path longer than {MAX_PATH_BYTES} bytes", field=where)


def _check_no_file_under_file(files: Mapping[str, bytes]) -> None:
    """A name that is both a file and a directory ("a" and "a/b") cannot be laid out."""
    directories = {"/".join(name.split("/")[:i]) for name in files
                   for i in range(1, name.count("/") + 1)}
    for name in files:
        if name in directories:
            raise InvalidRequestError(
                f"file {name!r} is also a directory of another input file",
                field=f"files.{name}")


def check_language(language: object) -> Language:
    """`language` if it is one this library runs."""
    if language not in LANGUAGES:
        raise InvalidRequestError(
            f"unsupported language {language!r} (expected 'python' or 'javascript')",
            field="language",
        )
    return language


def resolve_limits(
    limits: Limits | Mapping[str, object] | None = None,
    *,
    profile: TimeoutProfile | str | None = None,
    timeout_ms: int | None = None,
    memory_mb: int | None = None,
) -> Limits:
    """Merge a profile, a Limits object/dict and keyword overrides (keywords win)."""
    if isinstance(limits, Limits) and profile is None and timeout_ms is None \
            and memory_mb is None:
        return limits  # already valid, and frozen
    values: dict[str, object] = {}
    if profile is not None:
        if profile not in TIMEOUT_PROFILES:
            raise InvalidRequestError(
                f"unknown timeout profile {profile!r} "
                f"(expected {', '.join(TIMEOUT_PROFILES)})",
                field="profile",
            )
        values["timeout_ms"] = TIMEOUT_PROFILES[profile]
    if isinstance(limits, Limits):
        values.update(limits.model_dump(exclude_unset=True))
    elif isinstance(limits, Mapping):
        values.update(limits)
    elif limits is not None:
        raise InvalidRequestError("limits must be a Limits object or a dict", field="limits")
    if timeout_ms is not None:
        values["timeout_ms"] = timeout_ms
    if memory_mb is not None:
        values["memory_mb"] = memory_mb
    return validate_limits(values)


def validate_limits(values: Limits | Mapping[str, object]) -> Limits:
    """`Limits` from a mapping of its fields, or InvalidRequestError naming the first bad
    field ("limits.timeout_ms")."""
    if isinstance(values, Limits):
        return values
    if not values:
        return _DEFAULT_LIMITS
    try:
        return Limits.model_validate(values)
    except ValidationError as exc:
        raise InvalidRequestError(
            "invalid limits: " + describe_validation_error(exc),
            field=first_error_field(exc, "limits"),
        ) from None


def describe_validation_error(exc: ValidationError) -> str:
    """A one-line account of what pydantic rejected, field by field."""
    parts = []
    for error in exc.errors():
        where = ".".join(str(p) for p in error.get("loc", ())) or "request"
        parts.append(f"{where}: {error.get('msg', 'invalid')}")
    return "; ".join(parts)


def first_error_field(exc: ValidationError, prefix: str = "") -> str:
    """The dotted path of the first field pydantic rejected, under `prefix`."""
    errors = exc.errors()
    loc = [str(p) for p in errors[0].get("loc", ())] if errors else []
    return ".".join([prefix, *loc] if prefix else loc) or prefix or "request"
