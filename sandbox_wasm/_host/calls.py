"""The hot path's calls between host and guest through wasmtime's "unchecked" C API, which
wasmtime-py binds (`wasmtime._ffi`) but does not expose: host functions that take and return
only integers, and the call of a guest function without parameters or results.

wasmtime-py's public API converts every argument through `Val` objects and checks the
function's type on every call: ~19-26 µs per guest->host call and ~53 µs per host->guest call
here, against ~4-6 µs unchecked (`../shared/RUNTIME_FACTS.md`); a `print` run makes 2 host calls and
one entry call. The functions below keep the public API's behaviour (the host function gets
a `wasmtime.Caller`; a trap raises `wasmtime.Trap`, a WASI exit `wasmtime.ExitTrap`, any
other failure `wasmtime.WasmtimeError`). `FAST_CALLS` is False, and the public API is used,
when wasmtime-py lacks the private names or $SANDBOX_WASM_PUBLIC_CALLS=1;
`tests/runtime/test_wasm_calls.py` fails loudly if the private API changes shape.

`watch_epochs` installs a Store's epoch-deadline callback (also private: wasmtime-py does
not expose it): the run's deadline and interrupt are decided there, every tick, on the
thread running the guest (`hostcall.on_epoch`). `EPOCH_CALLBACKS` is False, and a Store's
epoch deadline is its whole timeout, when wasmtime-py lacks it.
"""

from __future__ import annotations

import ctypes
import os
from collections.abc import Callable
from typing import Any

import wasmtime

try:  # private: checked by tests/runtime/test_wasm_calls.py
    from wasmtime import _ffi as ffi
    from wasmtime._func import maybe_raise_last_exn

    _PRIVATE_API = all(
        hasattr(ffi, name)
        for name in ("wasmtime_linker_define_func_unchecked", "wasmtime_func_call_unchecked",
                     "wasmtime_func_unchecked_callback_t", "wasmtime_val_raw_t",
                     "wasmtime_caller_context", "wasm_trap_t", "wasmtime_error_t")
    )
except ImportError:  # pragma: no cover - a wasmtime-py without the private module
    _PRIVATE_API = False

#: Whether the unchecked C API is used (else wasmtime-py's public API).
FAST_CALLS = _PRIVATE_API and os.environ.get("SANDBOX_WASM_PUBLIC_CALLS") != "1"

if FAST_CALLS:
    # The same C functions as wasmtime-py's Memory.data_ptr/data_len, bound apart (their own
    # ctypes objects: wasmtime-py's are left as they are) to answer plain integers.
    _lib = ctypes.CDLL(ffi.dll._name)
    _memory_data = _lib.wasmtime_memory_data
    _memory_data.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
    _memory_data.restype = ctypes.c_void_p
    _memory_data_size = _lib.wasmtime_memory_data_size
    _memory_data_size.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
    _memory_data_size.restype = ctypes.c_size_t


    _get_fuel = _lib.wasmtime_context_get_fuel
    _get_fuel.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint64)]
    _get_fuel.restype = ctypes.c_void_p
    _set_fuel = _lib.wasmtime_context_set_fuel
    _set_fuel.argtypes = [ctypes.c_void_p, ctypes.c_uint64]
    _set_fuel.restype = ctypes.c_void_p
    _set_epoch_deadline = _lib.wasmtime_context_set_epoch_deadline
    _set_epoch_deadline.argtypes = [ctypes.c_void_p, ctypes.c_uint64]
    _set_epoch_deadline.restype = None


def refuel(caller: wasmtime.Caller, fuel: int | None, epoch_ticks: int) -> int | None:
    """From inside a host call: give the store `fuel` (None: leave it), returning the fuel
    it had left, and an epoch deadline `epoch_ticks` from now. One store context for the
    three (wasmtime-py's Store methods look it up, and check it, each time)."""
    if not FAST_CALLS:
        store: Any = caller
        left = None
        if fuel is not None:
            left = wasmtime.Store.get_fuel(store)
            wasmtime.Store.set_fuel(store, fuel)
        wasmtime.Store.set_epoch_deadline(store, epoch_ticks)
        return left
    context = caller._context()
    left = None
    if fuel is not None:
        remaining = ctypes.c_uint64(0)
        error = _get_fuel(context, ctypes.byref(remaining)) or _set_fuel(context, fuel)
        if error:
            raise wasmtime.WasmtimeError._from_ptr(ctypes.cast(
                error, ctypes.POINTER(ffi.wasmtime_error_t)))
        left = remaining.value
    _set_epoch_deadline(context, epoch_ticks)
    return left


def memory_extent(caller: wasmtime.Caller | wasmtime.Store, memory: wasmtime.Memory
                  ) -> tuple[int, int]:
    """(address in the host, size in bytes) of a guest's memory, from inside a host call
    (the memory cannot move or grow while the call runs) or of a store at rest."""
    if FAST_CALLS:
        context = caller._context()
        handle = ctypes.byref(memory._memory)
        return _memory_data(context, handle) or 0, _memory_data_size(context, handle)
    return ctypes.addressof(memory.data_ptr(caller).contents), memory.data_len(caller)
#: Whether Stores get an epoch-deadline callback (`watch_epochs`).
EPOCH_CALLBACKS = _PRIVATE_API and all(
    hasattr(ffi, name) for name in ("wasmtime_store_epoch_deadline_callback",
                                    "wasmtime_error_new"))

HostFunction = Callable[..., int | None]

# Host functions by index (the callback's env pointer). Entries are never removed: the
# linkers that use them live as long as the process.
_HOST_FUNCTIONS: list[tuple[HostFunction, tuple[bool, ...], bool, bool]] = []


def _trap_pointer(message: str) -> int:
    trap = wasmtime.Trap(message)
    return ctypes.cast(trap._consume(), ctypes.c_void_p).value or 0


if _PRIVATE_API:

    def _call_host(env: int | None, caller_ptr: Any, values: Any, _count: int) -> int:
        function, wide, access_caller, returns = _HOST_FUNCTIONS[env or 0]
        caller = wasmtime.Caller(caller_ptr)
        try:
            args = [values[i].i64 if is_wide else values[i].i32 for i, is_wide in enumerate(wide)]
            result = function(caller, *args) if access_caller else function(*args)
            if returns:
                values[0].i32 = result
            return 0
        except BaseException as exc:  # never into wasmtime: the guest traps instead
            return _trap_pointer(f"host function failed: {type(exc).__name__}")
        finally:
            caller._invalidate()

    def _finalise(_env: int | None) -> None:
        """The finaliser: host functions are kept for the life of the process."""

    # Wrapped by a call, not as decorators: mypy takes the ctypes function types for untyped
    # decorators, which would leave the functions unchecked.
    _trampoline = ffi.wasmtime_func_unchecked_callback_t(_call_host)
    _keep = ctypes.CFUNCTYPE(None, ctypes.c_void_p)(_finalise)


def define_host_function(
    linker: wasmtime.Linker, module: str, name: str, params: list[wasmtime.ValType],
    results: list[wasmtime.ValType], function: HostFunction, *, access_caller: bool = False,
) -> None:
    """`linker.define_func(...)` for a function of i32/i64 parameters and at most one i32
    result, through the unchecked C API when available."""
    functype = wasmtime.FuncType(params, results)
    if not FAST_CALLS:
        linker.define_func(module, name, functype, function, access_caller=access_caller)
        return
    if len(results) > 1 or any(r != wasmtime.ValType.i32() for r in results):
        raise ValueError("fast host functions return at most one i32")
    wide = tuple(p == wasmtime.ValType.i64() for p in params)
    index = len(_HOST_FUNCTIONS)
    _HOST_FUNCTIONS.append((function, wide, access_caller, bool(results)))
    module_bytes, name_bytes = module.encode(), name.encode()
    error = ffi.wasmtime_linker_define_func_unchecked(
        linker.ptr(), module_bytes, len(module_bytes), name_bytes, len(name_bytes),
        functype.ptr(), _trampoline, index, _keep,
    )
    if error:
        raise wasmtime.WasmtimeError._from_ptr(error)


def call_entry(entry: wasmtime.Func, store: wasmtime.Store, *, returns: bool = False
               ) -> int | None:
    """`entry(store)` for a guest function of no parameters and no results, or (`returns`)
    one i32 result, which is returned."""
    if not FAST_CALLS:
        result = entry(store)
        return int(result) if returns else None
    slot = (ffi.wasmtime_val_raw_t * 1)()
    trap = ctypes.POINTER(ffi.wasm_trap_t)()
    error = ffi.wasmtime_func_call_unchecked(
        store._context(), ctypes.byref(entry._func), slot, 1, ctypes.byref(trap),
    )
    if error:
        maybe_raise_last_exn()
        raise wasmtime.WasmtimeError._from_ptr(error)
    if trap:
        trap_object = wasmtime.Trap._from_ptr(trap)
        maybe_raise_last_exn()
        raise trap_object
    return int(slot[0].i32) if returns else None


#: wasmtime_update_deadline_kind_t: keep running with a new deadline.
_UPDATE_DEADLINE_CONTINUE = 0
_epoch_decision: list[Callable[[], int | None]] = []

if EPOCH_CALLBACKS:

    def _on_epoch(_context: Any, _data: Any, delta: Any, kind: Any) -> int:
        try:
            ticks = _epoch_decision[0]()
        except BaseException:  # never into wasmtime: stop the guest instead
            ticks = None
        if ticks is None:
            # An error, not a trap: `call_entry` raises WasmtimeError, and the run state
            # says why (interrupted or past its deadline).
            error = ffi.wasmtime_error_new(b"sandbox-wasm: run stopped by the host")
            return ctypes.cast(error, ctypes.c_void_p).value or 0
        delta[0] = ticks
        kind[0] = _UPDATE_DEADLINE_CONTINUE
        return 0

    # The type the binding declares (ctypes caches function types by signature).
    _epoch_trampoline = ctypes.CFUNCTYPE(
        ctypes.c_size_t, ctypes.POINTER(ffi.wasmtime_context_t), ctypes.c_void_p,
        ctypes.POINTER(ctypes.c_uint64), ctypes.POINTER(ffi.wasmtime_update_deadline_kind_t),
    )(_on_epoch)


def watch_epochs(store: wasmtime.Store, decide: Callable[[], int | None]) -> bool:
    """Call `decide()` whenever `store`'s epoch deadline is reached, on the thread running
    its guest: it returns the ticks until the next call, or None to stop the guest (the
    call in progress fails with WasmtimeError). One `decide` for the process. False when
    wasmtime-py cannot (`EPOCH_CALLBACKS`): the deadline then traps as usual."""
    if not EPOCH_CALLBACKS:
        return False
    if not _epoch_decision:
        _epoch_decision.append(decide)
    ffi.wasmtime_store_epoch_deadline_callback(store.ptr(), _epoch_trampoline, None, _keep)
    return True
