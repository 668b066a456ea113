"""The process-wide wasmtime Engine: its configuration, the epoch ticker that makes
deadlines fire, and the modules compiled for it (from memory, the on-disk cache, or a fresh
compile). Nothing here runs guest code; `_guest_program` does that."""

from __future__ import annotations

import atexit
import contextlib
import gc
import hashlib
import os
import threading
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import wasmtime

from ._artifacts import cache_dir, wasmtime_version, write_atomically

#: How often the epoch advances; deadlines are whole ticks, so this is their resolution.
EPOCH_TICK_SECONDS = 0.01


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


#: Native stack wasm code may use (wasmtime's default is 512 KiB).
MAX_WASM_STACK_BYTES = 3 << 19  # 1.5 MiB


class EngineHost:
    """The process-wide Engine, its epoch ticker and the modules compiled for it."""

    def __init__(self, flags: EngineFlags | None = None) -> None:
        self.flags = flags or EngineFlags()
        config = wasmtime.Config()
        config.consume_fuel = self.flags.consume_fuel
        config.epoch_interruption = self.flags.epoch_interruption
        # Native stack for guest code: CPython's C recursion budget in our runtime is sized
        # for it (scripts/cpython_wasi/sandbox_entry.c). It must stay below wasmtime's async
        # stack size (2 MiB): at or above that, creating the Engine aborts the host process.
        # The thread running a guest needs this much free stack (Linux threads get 8 MiB).
        config.max_wasm_stack = MAX_WASM_STACK_BYTES
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
        a fresh compile (then cached), and whether it was compiled just now."""
        with self._lock:
            known = self._modules.get(sha256)
            if known is not None:
                return known, False
            module, compiled_now = self._load_or_compile(path, sha256)
            self._modules[sha256] = module
            return module, compiled_now

    def _cache_path(self, sha256: str) -> Path:
        key = hashlib.sha256(
            f"{sha256}|wasmtime={wasmtime_version()}|{self.flags.key()}".encode()
        ).hexdigest()[:32]
        return cache_dir() / f"module-{key}.cwasm"

    def _load_or_compile(self, path: Path, sha256: str) -> tuple[wasmtime.Module, bool]:
        cached = self._cache_path(sha256)
        if cached.is_file():
            try:
                module = wasmtime.Module.deserialize_file(self.engine, str(cached))
            except wasmtime.WasmtimeError:
                pass  # stale or corrupt entry: compile again and replace it
            else:
                with contextlib.suppress(OSError):
                    os.utime(cached)  # recently used: the last to be pruned
                return module, False
        module = wasmtime.Module.from_file(self.engine, str(path))
        # A read-only cache only costs the next process a compile.
        with contextlib.suppress(OSError):
            write_atomically(cached, bytes(module.serialize()))
            prune_module_cache(cached.parent)
        return module, True

    def close(self) -> None:
        self.ticker.stop()
        for dependent in list(self._dependents):
            dependent.release()
        self._modules.clear()
        # Now, not when the interpreter tears its modules down (by then wasmtime-py's
        # bindings are gone and deleting the engine prints an ignored TypeError). Anything
        # still holding wasmtime state keeps the engine alive on the Rust side.
        self.engine.close()



#: Compiled modules kept in the cache (~35 MB each): every rebuilt runtime or image has a
#: new SHA-256, so without a bound the cache grows by one entry per build.
MAX_CACHED_MODULES = 12


def prune_module_cache(directory: Path, keep: int = MAX_CACHED_MODULES) -> None:
    """Remove all but the `keep` most recently used compiled modules in `directory` (a
    process still using a removed one keeps its mapping; the next compiles it again)."""
    entries = []
    for entry in directory.glob("module-*.cwasm"):
        with contextlib.suppress(OSError):
            entries.append((entry.stat().st_mtime, entry))
    for _, entry in sorted(entries, reverse=True)[keep:]:
        with contextlib.suppress(OSError):
            entry.unlink()


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
        host, _host = _host, None
    if host is not None:
        host.close()
        gc.collect()


