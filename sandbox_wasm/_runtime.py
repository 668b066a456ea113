"""Locating and verifying runtimes, the process-wide Engine, and the compile cache.

Nothing here runs guest code; `_wasm` does that with what this module prepares.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import gc
import hashlib
import json
import os
import tempfile
import threading
import warnings
import weakref
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Literal, Protocol

import wasmtime

from ._errors import RuntimeIntegrityError, RuntimeNotFoundError

RuntimeKind = Literal["plain", "snapshot"]

PYTHON_WASM_NAME = "python.wasm"
PYTHON_WASM_SHA256 = "e5dc5a398b07b54ea8fdb503bf68fb583d533f10ec3f930963e02b9505f7a763"
PYTHON_WASM_SIZE = 26_267_204
PYTHON_VERSION = "3.12.0"
QUICKJS_WASM_NAME = "quickjs.wasm"
QUICKJS_WASM_SHA256 = "f9742952f9989b1558c4a79bedfb351d6ca33ff22a41e886517cae5196e6d783"
QUICKJS_VERSION = "0.11.0"
MANIFEST_NAME = "manifest.json"

#: How often the epoch advances; deadlines are whole ticks, so this is their resolution.
EPOCH_TICK_SECONDS = 0.01

_FETCH_HINT = "run scripts/fetch_runtime.sh (or set SANDBOX_WASM_RUNTIME_DIR)"


@functools.cache
def wasmtime_version() -> str:
    """The installed wasmtime-py version (read once: metadata lookups are slow)."""
    try:
        return metadata.version("wasmtime")
    except metadata.PackageNotFoundError:  # pragma: no cover - vendored installs
        return "unknown"


def runtime_dir() -> Path:
    """Where runtimes are looked for: $SANDBOX_WASM_RUNTIME_DIR, else the repository's
    `runtime/` directory next to the package."""
    configured = os.environ.get("SANDBOX_WASM_RUNTIME_DIR")
    if configured:
        return Path(configured).expanduser()
    return Path(__file__).resolve().parent.parent / "runtime"


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
            _write_atomically(cache_dir() / _HASH_RECORD, json.dumps(record).encode())
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


class _Releasable(Protocol):
    def release(self) -> None: ...


class _EpochTicker:
    """Advances the engine's epoch every tick so that epoch deadlines fire.

    One daemon thread per Engine; stopped at interpreter exit before the Engine is released.
    """

    def __init__(self, engine: wasmtime.Engine) -> None:
        self._engine = engine
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="sandbox-wasm-epoch", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(EPOCH_TICK_SECONDS):
            self._engine.increment_epoch()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=1)


@dataclass(frozen=True)
class EngineFlags:
    """Engine configuration; part of the compile-cache key (a serialised module only loads
    into an Engine built with the same flags)."""

    consume_fuel: bool = True
    epoch_interruption: bool = True

    def key(self) -> str:
        return f"fuel={int(self.consume_fuel)},epoch={int(self.epoch_interruption)}"


class EngineHost:
    """The process-wide Engine, its epoch ticker and the modules compiled for it."""

    def __init__(self, flags: EngineFlags | None = None) -> None:
        self.flags = flags or EngineFlags()
        config = wasmtime.Config()
        config.consume_fuel = self.flags.consume_fuel
        config.epoch_interruption = self.flags.epoch_interruption
        # max_wasm_stack is deliberately left at its default: raising it above the async
        # stack size aborts the host process inside wasmtime.
        self.engine = wasmtime.Engine(config)
        self.ticker = _EpochTicker(self.engine)
        self._modules: dict[str, wasmtime.Module] = {}
        self._lock = threading.Lock()
        self._dependents: weakref.WeakSet[_Releasable] = weakref.WeakSet()

    def register(self, dependent: _Releasable) -> None:
        """Remember an object holding wasmtime state for this engine, to release at exit."""
        self._dependents.add(dependent)

    def module(self, path: Path, sha256: str) -> tuple[wasmtime.Module, bool]:
        """The compiled module for a verified runtime file, from memory, the on-disk cache or
        a fresh compile (then cached). Returns (module, compiled_now)."""
        with self._lock:
            known = self._modules.get(sha256)
            if known is not None:
                return known, False
            module, compiled = self._load_or_compile(path, sha256)
            self._modules[sha256] = module
            return module, compiled

    def _cache_path(self, sha256: str) -> Path:
        key = hashlib.sha256(
            f"{sha256}|wasmtime={wasmtime_version()}|{self.flags.key()}".encode()
        ).hexdigest()[:32]
        return cache_dir() / f"module-{key}.cwasm"

    def _load_or_compile(self, path: Path, sha256: str) -> tuple[wasmtime.Module, bool]:
        cached = self._cache_path(sha256)
        if cached.is_file():
            try:
                return wasmtime.Module.deserialize_file(self.engine, str(cached)), False
            except wasmtime.WasmtimeError:
                pass  # stale or corrupt entry: compile again and replace it
        module = wasmtime.Module.from_file(self.engine, str(path))
        # A read-only cache only costs the next process a compile.
        with contextlib.suppress(OSError):
            _write_atomically(cached, bytes(module.serialize()))
        return module, True

    def close(self) -> None:
        self.ticker.stop()
        for dependent in list(self._dependents):
            dependent.release()
        self._modules.clear()


def _write_atomically(target: Path, data: bytes) -> None:
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


_host: EngineHost | None = None
_host_lock = threading.Lock()


def engine_host() -> EngineHost:
    """The process-wide EngineHost, created on first use."""
    global _host
    with _host_lock:
        if _host is None:
            _host = EngineHost()
        return _host


@atexit.register
def _release_engine() -> None:
    # Releasing modules and the Engine before interpreter shutdown avoids a Rust
    # "panic in a function that cannot unwind" printed by wasmtime's worker threads.
    global _host
    with _host_lock:
        if _host is not None:
            _host.close()
            _host = None
    gc.collect()


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


PYTHON_VARIANTS = ("snapshot", "bigstack", "plain")
BOOT_FILE = Path(__file__).resolve().parent / "_guest_boot.py"


def read_manifest(directory: Path) -> dict[str, object]:
    """The build manifest written by scripts/build_runtime.py, or {} if absent/invalid."""
    try:
        data = json.loads((directory / MANIFEST_NAME).read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


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
            "with the build extra installed (pip install -e '.[build]')"
        )
    if manifest.get("input_sha256") != PYTHON_WASM_SHA256:
        raise RuntimeIntegrityError(
            f"{directory / MANIFEST_NAME} was built from another input; {_FETCH_HINT}"
        )
    if variant == "snapshot":
        boot_sha256 = hashlib.sha256(BOOT_FILE.read_bytes()).hexdigest()
        if manifest.get("guest_boot_sha256") != boot_sha256:
            raise RuntimeIntegrityError(
                "the snapshot was built from another version of the guest bootstrap; "
                f"{_FETCH_HINT} to rebuild it"
            )
    path = directory / str(entry.get("file", ""))
    sha256 = str(entry.get("sha256", ""))
    verify_runtime_file(path, sha256)
    stack_bytes = int(manifest.get("stack_bytes", 0) or 0)  # type: ignore[call-overload]
    kind: RuntimeKind = "snapshot" if variant == "snapshot" else "plain"
    return RuntimeFile(
        path, sha256, kind, f"cpython-wasi-{variant}", PYTHON_VERSION, stack_bytes=stack_bytes
    )


_warned: set[str] = set()


def python_runtime_file(directory: Path | None = None, variant: str | None = None) -> RuntimeFile:
    """The Python runtime to use, verified.

    `variant` (or $SANDBOX_WASM_PYTHON_RUNTIME): "snapshot" (pre-initialised, fastest),
    "bigstack" (plain start-up with an 8 MiB C stack), "plain" (the pinned file as is), or
    "auto" (default: the first of those that is present and valid). The pinned plain file
    is always verified first: every derived runtime is built from it."""
    directory = directory or runtime_dir()
    path = directory / PYTHON_WASM_NAME
    verify_runtime_file(path, PYTHON_WASM_SHA256)
    plain = RuntimeFile(path, PYTHON_WASM_SHA256, "plain", "cpython-wasi", PYTHON_VERSION)
    choice = variant or os.environ.get("SANDBOX_WASM_PYTHON_RUNTIME") or "auto"
    if choice == "plain":
        return plain
    if choice in ("snapshot", "bigstack"):
        return _derived_runtime(directory, choice)
    if choice != "auto":
        raise RuntimeNotFoundError(
            f"unknown Python runtime variant {choice!r} "
            f"(expected auto, {', '.join(PYTHON_VARIANTS)})"
        )
    for candidate in ("snapshot", "bigstack"):
        try:
            return _derived_runtime(directory, candidate)
        except (RuntimeNotFoundError, RuntimeIntegrityError) as exc:
            key = f"{directory}:{candidate}"
            if key not in _warned and (directory / MANIFEST_NAME).exists():
                _warned.add(key)
                warnings.warn(f"skipping the {candidate} runtime: {exc}", RuntimeWarning,
                              stacklevel=2)
    return plain


def javascript_runtime_file(directory: Path | None = None) -> RuntimeFile:
    """The pinned QuickJS-ng WASI runtime, verified."""
    directory = directory or runtime_dir()
    path = directory / QUICKJS_WASM_NAME
    verify_runtime_file(path, QUICKJS_WASM_SHA256)
    return RuntimeFile(path, QUICKJS_WASM_SHA256, "plain", "quickjs-ng-wasi", QUICKJS_VERSION)
