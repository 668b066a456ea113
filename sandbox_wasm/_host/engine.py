"""The process-wide wasmtime Engine: its configuration, the epoch ticker that makes
deadlines fire, and the modules compiled for it (from memory, the on-disk cache, or a fresh
compile). Nothing here runs guest code; `program` does that."""

from __future__ import annotations

import atexit
import contextlib
import gc
import hashlib
import json
import os
import threading
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import wasmtime

from .._errors import RuntimeIntegrityError
from .._runtimes.artifacts import cache_dir, wasmtime_version, write_atomically
from .memory import initial_stack_pointer

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
        self._stack_tops: dict[str, int] = {}
        self._lock = threading.Lock()
        self._dependents: weakref.WeakSet[_Releasable] = weakref.WeakSet()

    def register(self, dependent: _Releasable) -> None:
        """Remember an object holding wasmtime state for this engine, to release at exit."""
        self._dependents.add(dependent)

    def module(self, path: Path, sha256: str) -> tuple[wasmtime.Module, bool]:
        """The compiled module of the runtime whose content has SHA-256 `sha256` (verified
        by the caller when it opened `path`), from memory, the on-disk cache or a fresh
        compile (then cached), and whether it was compiled just now.

        The module runs by that hash: the cache is keyed by it, and a compile reads
        `path` once and compiles those very bytes only if they still hash to `sha256`. A
        file swapped after it was verified is refused (RuntimeIntegrityError), never
        compiled, and so never cached under the verified file's hash for later processes."""
        return self.load(path, sha256)[:2]

    def load(self, path: Path, sha256: str) -> tuple[wasmtime.Module, bool, int]:
        """`module()`, and the module's initial C stack pointer (`initial_stack_pointer`,
        taken from the same verified bytes; 0 when unknown)."""
        with self._lock:
            known = self._modules.get(sha256)
            if known is not None:
                return known, False, self._stack_tops.get(sha256, 0)
            module, compiled_now, stack_top = self._load_or_compile(path, sha256)
            self._modules[sha256] = module
            self._stack_tops[sha256] = stack_top
            return module, compiled_now, stack_top

    def _cache_path(self, sha256: str) -> Path:
        key = hashlib.sha256(
            f"{sha256}|wasmtime={wasmtime_version()}|{self.flags.key()}".encode()
        ).hexdigest()[:32]
        return cache_dir() / f"module-{key}.cwasm"

    def _load_or_compile(self, path: Path, sha256: str) -> tuple[wasmtime.Module, bool, int]:
        cached = self._cache_path(sha256)
        facts = cached.with_suffix(".json")
        if cached.is_file():
            try:
                module = wasmtime.Module.deserialize_file(self.engine, str(cached))
                stack_top = _read_stack_top(facts)
            except (wasmtime.WasmtimeError, OSError, ValueError):
                pass  # stale, corrupt or incomplete entry: compile again and replace it
            else:
                with contextlib.suppress(OSError):
                    os.utime(cached)  # recently used: the last to be pruned
                return module, False, stack_top
        data = _verified_bytes(path, sha256)
        module = wasmtime.Module(self.engine, data)
        stack_top = initial_stack_pointer(data)
        del data
        # A read-only cache only costs the next process a compile. The facts first: an
        # entry is used only with them.
        with contextlib.suppress(OSError):
            write_atomically(facts, json.dumps({"stack_top": stack_top}).encode())
            write_atomically(cached, bytes(module.serialize()))
            prune_module_cache(cached.parent)
        return module, True, stack_top

    def close(self) -> None:
        self.ticker.stop()
        for dependent in list(self._dependents):
            dependent.release()
        self._modules.clear()
        # Now, not when the interpreter tears its modules down (by then wasmtime-py's
        # bindings are gone and deleting the engine prints an ignored TypeError). Anything
        # still holding wasmtime state keeps the engine alive on the Rust side.
        self.engine.close()



def _verified_bytes(path: Path, sha256: str) -> bytes:
    """The file's bytes, read once, if they hash to `sha256`: what is compiled is what was
    verified (a file changed on disk since is refused, not compiled)."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise RuntimeIntegrityError(f"runtime {path} cannot be read: {exc}") from None
    actual = hashlib.sha256(data).hexdigest()
    if actual != sha256:
        raise RuntimeIntegrityError(
            f"runtime {path} changed on disk since it was verified (SHA-256 {actual[:16]}…, "
            f"verified {sha256[:16]}…): refusing to compile it")
    return data


def _read_stack_top(facts: Path) -> int:
    value = json.loads(facts.read_bytes())["stack_top"]
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError("malformed module facts")
    return value


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
        with contextlib.suppress(OSError):
            entry.with_suffix(".json").unlink()


_host: EngineHost | None = None
_host_lock = threading.Lock()


def engine_host() -> EngineHost:
    """The process-wide EngineHost, created on first use."""
    global _host
    with _host_lock:
        if _host is None:
            _host = EngineHost()
        return _host


def use_engine_flags(flags: EngineFlags) -> None:
    """Make the process-wide EngineHost one with `flags`, before anything has used it. For
    measurement only (benchmarks/cpu.py --engines times the guest without fuel or epochs):
    without fuel a run has no fuel limit, without epochs no deadline or interrupt. Raises
    RuntimeError once the EngineHost exists."""
    global _host
    with _host_lock:
        if _host is not None:
            raise RuntimeError("the process's wasmtime engine exists already")
        _host = EngineHost(flags)


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


