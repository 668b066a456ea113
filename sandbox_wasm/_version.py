"""The installed version of sandbox-wasm."""

from importlib import metadata

try:
    __version__ = metadata.version("sandbox-wasm")
except metadata.PackageNotFoundError:  # pragma: no cover - running from a source tree
    __version__ = "0.0.0"
