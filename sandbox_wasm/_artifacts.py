"""The runtime artefacts: where the runtimes live, their hashes (checked before anything is
loaded), and the guest bootstrap a snapshot bakes in.

Python runs on our own CPython 3.13 for WASI (built by scripts/cpython_wasi from pinned
registry inputs and installed into `<runtime dir>/cpython313/`) by default; the vmware-labs
CPython 3.12 file and the runtimes derived from it (scripts/build_runtime.py) are the fallback.

Nothing here compiles or runs anything; `_engine` compiles what this module has verified.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import tempfile
import threading
import warnings
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Literal

from ._errors import RuntimeIntegrityError, RuntimeNotFoundError

RuntimeKind = Literal["plain", "snapshot"]

PYTHON_WASM_NAME = "python.wasm"
PYTHON_WASM_SHA256 = "e5dc5a398b07b54ea8fdb503bf68fb583d533f10ec3f930963e02b9505f7a763"
PYTHON_VERSION = "3.12.0"
QUICKJS_WASM_NAME = "quickjs.wasm"
QUICKJS_WASM_SHA256 = "f9742952f9989b1558c4a79bedfb351d6ca33ff22a41e886517cae5196e6d783"
QUICKJS_VERSION = "0.11.0"
MANIFEST_NAME = "manifest.json"

#: Our own build: a directory below the runtime directory holding the snapshot and its build
#: manifest (put there by `wasm-exec runtime install`, which runs scripts/cpython_wasi/install.py).
OWN_PYTHON_VARIANT = "cpython313"
OWN_PYTHON_SNAPSHOT_NAME = "python-snapshot.wasm"
#: `RuntimeFile.name` (and `result.runtime.name`) of our own runtime.
OWN_PYTHON_RUNTIME_NAME = f"{OWN_PYTHON_VARIANT}-wasi-snapshot"

#: What fixes a missing or stale runtime, named by every error about one.
INSTALL_COMMAND = "wasm-exec runtime install"
_FETCH_HINT = (f"run `{INSTALL_COMMAND}` (scripts/setup.sh in a checkout; or set "
               "SANDBOX_WASM_RUNTIME_DIR)")


@functools.cache
def wasmtime_version() -> str:
    """The installed wasmtime-py version (read once: metadata lookups are slow)."""
    try:
        return metadata.version("wasmtime")
    except metadata.PackageNotFoundError:  # pragma: no cover - vendored installs
        return "unknown"


#: The repository checkout the package runs from, if it does (an editable install).
_CHECKOUT = Path(__file__).resolve().parent.parent


def checkout_dir() -> Path | None:
    """The repository checkout this package is imported from, or None when it is installed
    (a wheel's package has no scripts/cpython_wasi/ next to it)."""
    return _CHECKOUT if (_CHECKOUT / "scripts" / "cpython_wasi" / "build.py").is_file() else None


def user_runtime_dir() -> Path:
    """Where `wasm-exec runtime install` puts the runtimes for an installed package: the
    user data directory."""
    import platformdirs

    return Path(platformdirs.user_data_dir("sandbox-wasm")) / "runtime"


def runtime_dir() -> Path:
    """Where runtimes are looked for: $SANDBOX_WASM_RUNTIME_DIR, else the repository's
    `runtime/` directory when the package runs from a checkout, else the user data
    directory (`wasm-exec runtime path` prints it)."""
    configured = os.environ.get("SANDBOX_WASM_RUNTIME_DIR")
    if configured:
        return Path(configured).expanduser()
    checkout = checkout_dir()
    return checkout / "runtime" if checkout is not None else user_runtime_dir()


def cache_dir() -> Path:
    """Where compiled modules are cached: $SANDBOX_WASM_CACHE_DIR, else the user cache."""
    configured = os.environ.get("SANDBOX_WASM_CACHE_DIR")
    if configured:
        return Path(configured).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "sandbox-wasm"


_hash_cache: dict[str, str] = {}
_hash_lock = threading.Lock()
_HASH_RECORD = "runtime-hashes.json"


def _stat_key(path: Path) -> str:
    # ctime cannot be set back by a user, so an in-place edit always changes the key.
    stat = path.stat()
    return f"{path.resolve()}|{stat.st_size}|{stat.st_mtime_ns}|{stat.st_ctime_ns}|{stat.st_ino}"


def _load_hash_record() -> dict[str, str]:
    try:
        data = json.loads((cache_dir() / _HASH_RECORD).read_text())
    except (OSError, ValueError):
        return {}
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}


def file_sha256(path: Path) -> str:
    """SHA-256 of a file. Remembered per (path, size, mtime, ctime, inode) in the process and
    in the user's private cache directory, so a new process does not re-hash 40 MB of
    runtimes on start-up; any change to the file changes the key and forces a re-hash."""
    key = _stat_key(path)
    with _hash_lock:
        known = _hash_cache.get(key)
        if known is None:
            known = _load_hash_record().get(key)
            if known is not None:
                _hash_cache[key] = known
    if known is not None:
        return known
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    value = digest.hexdigest()
    with _hash_lock:
        _hash_cache[key] = value
        path_prefix = key.split("|", 1)[0] + "|"
        record = {k: v for k, v in _load_hash_record().items() if not k.startswith(path_prefix)}
        record[key] = value
        record = dict(list(record.items())[-64:])  # bounded: old entries are only a speed-up
        with contextlib.suppress(OSError):
            write_atomically(cache_dir() / _HASH_RECORD, json.dumps(record).encode())
    return value


def verify_runtime_file(path: Path, expected_sha256: str) -> None:
    """Raise unless `path` exists and has the expected SHA-256."""
    if not path.is_file():
        raise RuntimeNotFoundError(f"runtime not found at {path}: {_FETCH_HINT}")
    actual = file_sha256(path)
    if actual != expected_sha256:
        raise RuntimeIntegrityError(
            f"runtime {path} has SHA-256 {actual}, expected {expected_sha256}: "
            f"refusing to load a tampered or corrupt runtime; {_FETCH_HINT}"
        )


def write_atomically(target: Path, data: bytes) -> None:
    """Write via a temp file and rename, so racing processes never see a partial file."""
    target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd, tmp = tempfile.mkstemp(prefix=target.name, suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


@dataclass(frozen=True)
class RuntimeFile:
    """A runtime artefact on disk and how to enter it."""

    path: Path
    sha256: str
    kind: RuntimeKind
    name: str
    version: str
    #: Size of the C stack region the entry point grows before anything else (0: stock).
    stack_bytes: int = 0
    #: Whether runs get the in-memory filesystem: our own runtime and its images, whose
    #: snapshot rescans its preopens at first use (the fallback embeds a wasi-vfs of its own).
    has_filesystem: bool = False
    #: Whether the entry returns when a request asks it to (`REST_OPTION`), leaving the
    #: instance at rest: our own runtime and its images (sessions and instance reuse
    #: stand on it).
    returns_to_rest: bool = False


#: Python runtime variants, in the order "auto" tries them: our own CPython 3.13 snapshot,
#: then the vmware-labs CPython 3.12 snapshot, its relocated-stack plain start-up, the file as is.
PYTHON_VARIANTS = (OWN_PYTHON_VARIANT, "snapshot", "bigstack", "plain")
#: The guest bootstrap (`_guest.py`): run by the plain runtimes on every execution, baked
#: into a snapshot at build time. The build script and the tests take it from here.
GUEST_FILE = Path(__file__).resolve().parent / "_guest.py"


@functools.cache
def guest_source() -> str:
    """The guest bootstrap's source text."""
    return GUEST_FILE.read_text("utf-8")


def guest_sha256() -> str:
    """SHA-256 of the guest bootstrap (recorded in a snapshot's build manifest)."""
    return hashlib.sha256(guest_source().encode("utf-8")).hexdigest()


def read_manifest(directory: Path) -> dict[str, object]:
    """The build manifest written by scripts/build_runtime.py, or {} if absent/invalid."""
    try:
        data = json.loads((directory / MANIFEST_NAME).read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _check_bootstrap(manifest: dict[str, object], directory: Path) -> None:
    """Refuse a snapshot whose manifest records another guest bootstrap than this library's
    (a snapshot bakes the bootstrap in)."""
    if manifest.get("guest_boot_sha256") != guest_sha256():
        raise RuntimeIntegrityError(
            f"the snapshot in {directory} was built from another version of the guest "
            f"bootstrap; {_FETCH_HINT} to rebuild it"
        )


def _derived_runtime(directory: Path, variant: str) -> RuntimeFile:
    """A derived Python runtime (bigstack or snapshot) recorded in the build manifest.

    The build is deterministic and checks its input against the pinned hash; here the file
    is checked against the manifest, and the manifest against the pinned input and the
    bootstrap this library would run (a snapshot bakes the bootstrap in)."""
    manifest = read_manifest(directory)
    artifacts = manifest.get("artifacts")
    entry = artifacts.get(variant) if isinstance(artifacts, dict) else None
    if not isinstance(entry, dict):
        raise RuntimeNotFoundError(
            f"no {variant} runtime in {directory / MANIFEST_NAME}: {_FETCH_HINT} "
            "with the build extra installed (pip install 'sandbox-wasm[build]')"
        )
    if manifest.get("input_sha256") != PYTHON_WASM_SHA256:
        raise RuntimeIntegrityError(
            f"{directory / MANIFEST_NAME} was built from another input; {_FETCH_HINT}"
        )
    if variant == "snapshot":
        _check_bootstrap(manifest, directory)
    path = directory / str(entry.get("file", ""))
    sha256 = str(entry.get("sha256", ""))
    verify_runtime_file(path, sha256)
    stack_bytes = int(manifest.get("stack_bytes", 0) or 0)  # type: ignore[call-overload]
    kind: RuntimeKind = "snapshot" if variant == "snapshot" else "plain"
    return RuntimeFile(
        path, sha256, kind, f"cpython-wasi-{variant}", PYTHON_VERSION, stack_bytes=stack_bytes
    )


def _own_runtime(directory: Path) -> RuntimeFile:
    """Our own CPython snapshot, installed with its build manifest by
    `scripts/cpython_wasi/install.py`: the file is checked against the manifest and the
    manifest against the bootstrap this library would run (the snapshot bakes it in)."""
    own = directory / OWN_PYTHON_VARIANT
    manifest = read_manifest(own)
    if not manifest:
        raise RuntimeNotFoundError(
            f"our CPython runtime is not installed in {own}: {_FETCH_HINT} "
            "(the first build takes ~8 minutes on 2 cores, later ones reuse its cache)"
        )
    _check_bootstrap(manifest, own)
    sha256 = str(manifest.get("snapshot_sha256", ""))
    version = str(manifest.get("python_version", ""))
    if manifest.get("entry") != "sandbox_resume" or not version:
        raise RuntimeIntegrityError(f"{own / MANIFEST_NAME} is not a snapshot manifest")
    path = own / OWN_PYTHON_SNAPSHOT_NAME
    verify_runtime_file(path, sha256)
    return RuntimeFile(path, sha256, "snapshot", OWN_PYTHON_RUNTIME_NAME, version,
                       has_filesystem=True, returns_to_rest=True)


def _vmware_runtime(directory: Path, variant: str) -> RuntimeFile:
    """The vmware-labs file (verified first: every runtime derived from it is built from it)
    or one of its derived runtimes."""
    path = directory / PYTHON_WASM_NAME
    verify_runtime_file(path, PYTHON_WASM_SHA256)
    if variant == "plain":
        return RuntimeFile(path, PYTHON_WASM_SHA256, "plain", "cpython-wasi", PYTHON_VERSION)
    return _derived_runtime(directory, variant)


def _variant_runtime(directory: Path, variant: str) -> RuntimeFile:
    if variant == OWN_PYTHON_VARIANT:
        return _own_runtime(directory)
    return _vmware_runtime(directory, variant)


_warned: set[str] = set()


def python_runtime_file(directory: Path | None = None, variant: str | None = None) -> RuntimeFile:
    """The Python runtime to use, verified.

    `variant` (or $SANDBOX_WASM_PYTHON_RUNTIME): "cpython313" (our own CPython 3.13 build,
    pre-initialised), "snapshot" (the vmware-labs CPython 3.12, pre-initialised), "bigstack"
    (its plain start-up with an 8 MiB C stack), "plain" (its pinned file as is), or "auto"
    (default: the first of those that is present and valid)."""
    directory = directory or runtime_dir()
    choice = variant or os.environ.get("SANDBOX_WASM_PYTHON_RUNTIME") or "auto"
    if choice in PYTHON_VARIANTS:
        return _variant_runtime(directory, choice)
    if choice != "auto":
        raise RuntimeNotFoundError(
            f"unknown Python runtime variant {choice!r} "
            f"(expected auto, {', '.join(PYTHON_VARIANTS)})"
        )
    first_error: RuntimeNotFoundError | RuntimeIntegrityError | None = None
    for candidate in PYTHON_VARIANTS[:-1]:
        try:
            return _variant_runtime(directory, candidate)
        except (RuntimeNotFoundError, RuntimeIntegrityError) as exc:
            first_error = first_error or exc
            installed = (directory / OWN_PYTHON_VARIANT if candidate == OWN_PYTHON_VARIANT
                         else directory / MANIFEST_NAME).exists()
            key = f"{directory}:{candidate}"
            if installed and key not in _warned:
                _warned.add(key)
                warnings.warn(f"skipping the {candidate} runtime: {exc}", RuntimeWarning,
                              stacklevel=2)
    try:
        return _vmware_runtime(directory, "plain")
    except RuntimeNotFoundError:
        # Nothing at all: name what is missing first (our own runtime), not the fallback.
        raise first_error or RuntimeNotFoundError(f"no Python runtime in {directory}") from None


def javascript_runtime_file(directory: Path | None = None) -> RuntimeFile:
    """The pinned QuickJS-ng WASI runtime, verified."""
    directory = directory or runtime_dir()
    path = directory / QUICKJS_WASM_NAME
    verify_runtime_file(path, QUICKJS_WASM_SHA256)
    return RuntimeFile(path, QUICKJS_WASM_SHA256, "plain", "quickjs-ng-wasi", QUICKJS_VERSION)
