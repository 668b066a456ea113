"""The exceptions raised by sandbox-wasm. Everything a guest does is reported in an
`ExecutionResult`; these are only for problems with the request or the host set-up."""

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
