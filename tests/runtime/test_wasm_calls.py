"""The unchecked C API path for host calls and the entry call (`_wasm_calls`): the private
wasmtime-py names it needs still exist with the shapes it relies on (this fails loudly when a
wasmtime upgrade changes them), and the public-API fallback gives the same results."""

from __future__ import annotations

import ctypes
import os
import subprocess
import sys

import pytest
import wasmtime

import sandbox_wasm as sw
from sandbox_wasm._host import calls as _wasm_calls


def test_the_private_api_has_the_shape_we_rely_on() -> None:
    from wasmtime import _bindings
    from wasmtime import _ffi as ffi

    assert _wasm_calls.FAST_CALLS, "the unchecked C API is unavailable: calls use the slow path"
    callback = ffi.wasmtime_func_unchecked_callback_t
    assert callback._restype_ is ctypes.c_size_t
    assert callback._argtypes_[2] == ctypes.POINTER(ffi.wasmtime_val_raw_t)
    define = _bindings._wasmtime_linker_define_func_unchecked
    assert len(define.argtypes) == 9 and define.argtypes[6] is callback
    call = _bindings._wasmtime_func_call_unchecked
    assert len(call.argtypes) == 5 and call.restype == ctypes.POINTER(ffi.wasmtime_error_t)
    fields = dict(ffi.wasmtime_val_raw_t._fields_)
    assert fields["i32"] is ctypes.c_int32 and fields["i64"] is ctypes.c_int64
    assert hasattr(wasmtime.Caller, "_invalidate") and hasattr(wasmtime.Func, "_from_raw")


def _tiny_module(engine: wasmtime.Engine) -> wasmtime.Module:
    return wasmtime.Module(engine, """
        (module
          (import "host" "add" (func $add (param i32 i64 i32) (result i32)))
          (import "host" "fail" (func $fail))
          (memory (export "memory") 1)
          (global $out (mut i32) (i32.const 0))
          (func (export "run")
            (i32.store (i32.const 0)
              (call $add (i32.const -5) (i64.const 4294967296) (i32.const 7))))
          (func (export "crash") (call $fail))
          (func (export "trap") unreachable))
    """)


def test_host_functions_and_entry_calls_behave_as_the_public_api() -> None:
    engine = wasmtime.Engine()
    module = _tiny_module(engine)
    seen: list[object] = []

    def add(caller: wasmtime.Caller, a: int, b: int, c: int) -> int:
        seen.append((type(caller).__name__, a, b, c))
        return a + c

    def fail() -> None:
        raise RuntimeError("boom")

    linker = wasmtime.Linker(engine)
    i32, i64 = wasmtime.ValType.i32(), wasmtime.ValType.i64()
    _wasm_calls.define_host_function(linker, "host", "add", [i32, i64, i32], [i32], add,
                                     access_caller=True)
    _wasm_calls.define_host_function(linker, "host", "fail", [], [], fail)
    store = wasmtime.Store(engine)
    exports = linker.instantiate(store, module).exports(store)
    _wasm_calls.call_entry(exports["run"], store)
    memory = exports["memory"]
    assert isinstance(memory, wasmtime.Memory)
    assert int.from_bytes(memory.read(store, 0, 4), "little", signed=True) == 2
    assert seen == [("Caller", -5, 4294967296, 7)]
    with pytest.raises(wasmtime.Trap) as trapped:
        _wasm_calls.call_entry(exports["trap"], store)
    assert trapped.value.trap_code == wasmtime.TrapCode.UNREACHABLE
    # A host function that raises traps the guest (nothing crosses into wasmtime).
    with pytest.raises(wasmtime.WasmtimeError, match="host function failed: RuntimeError"):
        _wasm_calls.call_entry(exports["crash"], store)


def test_fast_host_functions_refuse_results_they_cannot_write() -> None:
    linker = wasmtime.Linker(wasmtime.Engine())
    i64 = wasmtime.ValType.i64()
    with pytest.raises(ValueError, match="at most one i32"):
        _wasm_calls.define_host_function(linker, "host", "f", [], [i64], lambda: 0)


def test_the_public_api_fallback_runs_the_same() -> None:
    code = (
        "import sandbox_wasm as sw, sandbox_wasm._host.calls as c\n"
        "r = sw.execute(\"import time\\nprint('hi', time.time() > 0)\")\n"
        "t = sw.execute('while True: pass', timeout_ms=300)\n"
        "print(c.FAST_CALLS, r.status, repr(r.stdout), t.status)\n"
    )
    env = {**os.environ, "SANDBOX_WASM_PUBLIC_CALLS": "1"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, timeout=120)
    assert done.stdout == "False succeeded 'hi True\\n' timeout\n", done.stderr
    fast = sw.execute("import time\nprint('hi', time.time() > 0)")
    assert _wasm_calls.FAST_CALLS and fast.stdout == "hi True\n"
