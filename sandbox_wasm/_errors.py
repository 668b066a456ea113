"""The exceptions raised by sandbox-wasm. Everything a guest does is reported in an
`ExecutionResult`; these are only for problems with the request or the host set-up."""

from __future__ import annotations


class SandboxError(Exception):
    """Base class of every exception raised by sandbox-wasm."""


class InvalidRequestError(SandboxError, ValueError):
    """The request (source, limits, profile or policy) is not valid; nothing was run."""


class RuntimeNotFoundError(SandboxError):
    """The WebAssembly runtime file is missing; run `scripts/fetch_runtime.sh`."""


class RuntimeIntegrityError(SandboxError):
    """The runtime file exists but its SHA-256 is not the pinned one (tampered or corrupt)."""


class SourceTooLargeError(InvalidRequestError):
    """The source is larger than `Limits.max_source_bytes`."""
