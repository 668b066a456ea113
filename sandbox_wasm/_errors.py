"""The exceptions raised by sandbox-wasm, all of them. Everything a guest does is reported in
an `ExecutionResult`; these are only for problems with the request or the host set-up.

    SandboxError
    +-- InvalidRequestError (also a ValueError; `field` names what was wrong)
    |   +-- SourceTooLargeError
    |   +-- SnapshotError (a session snapshot that cannot be restored)
    |   +-- WheelError (a wheel refused for an image; sandbox_wasm.image)
    +-- RuntimeNotFoundError
    +-- RuntimeIntegrityError
    +-- SandboxClosedError
    +-- SessionClosedError
    +-- ImageBuildError (sandbox_wasm.image)

Each says it lives where it is imported from (`sandbox_wasm.SessionClosedError`), not in
this private module. The gateways' own errors (`sandbox_wasm.server`) and the CLI's usage
errors stay with them: they never cross into the library."""

from __future__ import annotations


class SandboxError(Exception):
    """Base class of every exception raised by sandbox-wasm."""


class InvalidRequestError(SandboxError, ValueError):
    """The request (source, limits, profile or policy) is not valid; nothing was run.

    `field` names what was wrong ("source", "language", "limits", "limits.timeout_ms",
    "profile", ...), so that a boundary (CLI, HTTP, MCP, batch) can point at it without
    reading the message."""

    def __init__(self, message: str, *, field: str = "request") -> None:
        super().__init__(message)
        self.field = field


class RuntimeNotFoundError(SandboxError):
    """The WebAssembly runtime file is missing; run `wasm-exec runtime install`."""


class RuntimeIntegrityError(SandboxError):
    """The runtime file exists but its SHA-256 is not the pinned one (tampered or corrupt)."""


class SourceTooLargeError(InvalidRequestError):
    """The source is larger than `Limits.max_source_bytes`."""

    def __init__(self, message: str, *, field: str = "source") -> None:
        super().__init__(message, field=field)


class SandboxClosedError(SandboxError):
    """The Sandbox was closed; create a new one."""


class SessionClosedError(SandboxError):
    """The session was closed (by `close()`, its idle timeout, or a call it could not
    survive); open a new one or restore a snapshot."""


class SnapshotError(InvalidRequestError):
    """A session snapshot that cannot be restored: not a snapshot, another format version,
    another runtime, a failed integrity check, or a missing or wrong key."""

    def __init__(self, message: str) -> None:
        super().__init__(message, field="snapshot")


class WheelError(InvalidRequestError):
    """A wheel was refused for an image: not pure Python, corrupt, altered (its RECORD does
    not match), or holding a name that could land outside the package tree. `wheel` names
    the file."""

    def __init__(self, message: str, *, wheel: str) -> None:
        super().__init__(message, field="wheels")
        self.wheel = wheel


class ImageBuildError(SandboxError):
    """An image could not be built: the build tools or the base runtime's parts are missing,
    or the packages failed while the image was pre-initialised (the message has the guest's
    last lines)."""


_PUBLIC: tuple[type[SandboxError], ...] = (
    SandboxError, InvalidRequestError, RuntimeNotFoundError, RuntimeIntegrityError,
    SourceTooLargeError, SandboxClosedError, SessionClosedError, SnapshotError)
for _error in _PUBLIC:
    _error.__module__ = "sandbox_wasm"
for _error in (WheelError, ImageBuildError):
    _error.__module__ = "sandbox_wasm.image"
