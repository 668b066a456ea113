#!/usr/bin/env python3
"""Find C callbacks whose parameter count differs from the slot they are stored in.

Why: WebAssembly checks the type of every indirect call. A function stored, through a
cast, where CPython calls it with another signature (a METH_NOARGS function declared with
one parameter, a getter without its closure parameter, a tp_dealloc taking two) works on
x86/ARM but traps ("indirect call signature mismatch") on wasm32. Reading, not compiling:
it reports suspects for a human to confirm (macros and unusual declarations escape it).

    python3 scan_signatures.py SOURCE_DIR [...]      # exit 1 when it found any

Looks at: PyMethodDef entries (with or without a PyCFunction cast) and their METH_* flags,
PyGetSetDef getters/setters, casts to CPython's slot typedefs ((destructor)f, (reprfunc)f,
...), and PyType_Slot entries ({Py_tp_dealloc, f}).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

SUFFIXES = (".c", ".cpp", ".cc", ".cxx", ".h", ".hpp", ".src")
SKIP_PARTS = {"vendored-meson", "tests", "test", "testing", "doc", "docs", "benchmarks"}

# CPython's function-pointer typedefs and how many parameters each passes.
TYPEDEF_ARITY = {
    "destructor": 1, "reprfunc": 1, "hashfunc": 1, "inquiry": 1, "lenfunc": 1,
    "unaryfunc": 1, "getiterfunc": 1, "iternextfunc": 1, "freefunc": 1,
    "binaryfunc": 2, "ssizeargfunc": 2, "getattrofunc": 2, "getattrfunc": 2,
    "objobjproc": 2, "releasebufferproc": 2, "getter": 2, "visitproc": 2,
    "ternaryfunc": 3, "richcmpfunc": 3, "initproc": 3, "newfunc": 3, "traverseproc": 3,
    "setattrofunc": 3, "setattrfunc": 3, "descrgetfunc": 3, "descrsetfunc": 3,
    "objobjargproc": 3, "ssizeobjargproc": 3, "getbufferproc": 3, "setter": 3,
    "allocfunc": 2, "vectorcallfunc": 4,
}
SLOT_TYPEDEF = {
    "Py_tp_dealloc": "destructor", "Py_tp_repr": "reprfunc", "Py_tp_str": "reprfunc",
    "Py_tp_hash": "hashfunc", "Py_tp_richcompare": "richcmpfunc", "Py_tp_init": "initproc",
    "Py_tp_new": "newfunc", "Py_tp_traverse": "traverseproc", "Py_tp_clear": "inquiry",
    "Py_tp_iter": "getiterfunc", "Py_tp_iternext": "iternextfunc", "Py_tp_call": "ternaryfunc",
    "Py_tp_getattro": "getattrofunc", "Py_tp_setattro": "setattrofunc",
    "Py_tp_descr_get": "descrgetfunc", "Py_tp_descr_set": "descrsetfunc",
    "Py_tp_free": "freefunc", "Py_tp_alloc": "allocfunc", "Py_mp_length": "lenfunc",
    "Py_sq_length": "lenfunc", "Py_mp_subscript": "binaryfunc",
    "Py_mp_ass_subscript": "objobjargproc", "Py_sq_item": "ssizeargfunc",
    "Py_sq_contains": "objobjproc", "Py_bf_getbuffer": "getbufferproc",
    "Py_bf_releasebuffer": "releasebufferproc", "Py_nb_add": "binaryfunc",
    "Py_nb_subtract": "binaryfunc", "Py_nb_multiply": "binaryfunc",
    "Py_nb_negative": "unaryfunc", "Py_nb_bool": "inquiry", "Py_nb_int": "unaryfunc",
    "Py_nb_float": "unaryfunc", "Py_nb_index": "unaryfunc", "Py_nb_power": "ternaryfunc",
}

# A definition: `name(params) {` at the start of a line (the return type on the same line
# before it, or on the line above, as most C extension code writes it).
FUNC_DEF = re.compile(r"^[ \t]*(?:[\w\*][\w \t\*]*?[ \t\*])?(\w+)[ \t]*\(([^;{}]*?)\)\s*"
                      r"(?:const\s*)?\{", re.M)
KEYWORDS = {"if", "for", "while", "switch", "return", "sizeof", "else", "do", "case"}
METHOD_ENTRY = re.compile(
    r"\{\s*\"[^\"]*\"\s*,\s*(?:\(\s*(?:PyCFunction|PyCFunctionWithKeywords|"
    r"_PyCFunctionFast|_PyCFunctionFastWithKeywords|PyCMethod|void\s*\(\s*\*\s*\)\s*\(\s*"
    r"void\s*\))\s*\)\s*)*\(?\s*(?:\(\s*void\s*\(\s*\*\s*\)\s*\(\s*void\s*\)\s*\)\s*)?"
    r"&?(\w+)\s*\)?\s*,\s*((?:METH_\w+\s*\|?\s*)+)")
GETSET_ENTRY = re.compile(
    r"\{\s*\"[^\"]*\"\s*,\s*(?:\(\s*getter\s*\)\s*)?&?(\w+)\s*,\s*"
    r"(?:\(\s*setter\s*\)\s*)?&?(\w+|NULL|0)\s*,")
TYPEDEF_CAST = re.compile(r"\(\s*(" + "|".join(TYPEDEF_ARITY) + r")\s*\)\s*&?(\w+)")
SLOT_ENTRY = re.compile(
    r"\{\s*(" + "|".join(SLOT_TYPEDEF) + r")\s*,\s*(?:\(\s*void\s*\*\s*\)\s*)?"
    r"(?:\(\s*\w+\s*\)\s*)?&?(\w+)\s*\}")


def method_arity(flags: str) -> int:
    flags = flags.replace(" ", "")
    if "METH_METHOD" in flags:
        return 5
    if "METH_FASTCALL" in flags:
        return 4 if "METH_KEYWORDS" in flags else 3
    if "METH_KEYWORDS" in flags:
        return 3
    return 2  # METH_NOARGS, METH_O, METH_VARARGS: (self, arg-or-NULL)


def count_params(params: str) -> int:
    params = re.sub(r"/\*.*?\*/", "", params, flags=re.S).strip()
    if params in ("", "void"):
        return 0
    depth, n = 0, 1
    for ch in params:
        if ch in "(<[":
            depth += 1
        elif ch in ")>]":
            depth -= 1
        elif ch == "," and depth == 0:
            n += 1
    return n


def scan(roots: list[Path]) -> list[str]:
    files = [p for root in roots for p in sorted(root.rglob("*"))
             if p.is_file() and p.suffix in SUFFIXES
             and not SKIP_PARTS & set(p.relative_to(root).parts[:-1])]
    texts = {p: p.read_text(errors="replace") for p in files}
    defs: dict[str, list[tuple[Path, int]]] = {}
    for path, text in texts.items():
        for m in FUNC_DEF.finditer(text):
            if m.group(1) in KEYWORDS or m.group(1)[0].isdigit():
                continue
            defs.setdefault(m.group(1), []).append((path, count_params(m.group(2))))
    uses: list[tuple[Path, str, int, str]] = []
    for path, text in texts.items():
        for m in METHOD_ENTRY.finditer(text):
            uses.append((path, m.group(1), method_arity(m.group(2)), m.group(2).strip()))
        for m in GETSET_ENTRY.finditer(text):
            uses.append((path, m.group(1), 2, "getter"))
            if m.group(2) not in ("NULL", "0"):
                uses.append((path, m.group(2), 3, "setter"))
        for m in TYPEDEF_CAST.finditer(text):
            uses.append((path, m.group(2), TYPEDEF_ARITY[m.group(1)], m.group(1)))
        for m in SLOT_ENTRY.finditer(text):
            kind = SLOT_TYPEDEF[m.group(1)]
            uses.append((path, m.group(2), TYPEDEF_ARITY[kind], f"{m.group(1)} ({kind})"))
    found = set()
    for path, name, arity, kind in uses:
        candidates = defs.get(name, [])
        # A static function of the same file shadows same-named ones elsewhere.
        local = [d for d in candidates if d[0] == path]
        for dpath, n in local or candidates:
            if n != arity:
                found.add(f"{kind}: {name} defined with {n} parameters in {dpath}, "
                          f"called with {arity} (stored in {path})")
    return sorted(found)


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    found = scan([Path(a) for a in argv])
    print("\n".join(found) if found else "no suspect found")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
