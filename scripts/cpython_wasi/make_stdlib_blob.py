"""Precompile the standard library into one blob for the in-memory stdlib finder.

Run with the NATIVE build-python of exactly the CPython version that the WASI build is
(marshalled code objects are only valid for that version):

    build-python/python -I -S make_stdlib_blob.py --lib SRC/Lib --extra CROSS/build/lib.wasi-... \
        --missing CROSS/missing-modules.txt --out stdlib.blob --report stdlib-report.json

The blob is an 8-byte little-endian length H, then H bytes of marshal.dumps({"format": 2,
"version": ..., "hexversion": ..., "compression": "zlib", "modules": {name: (is_package,
origin, offset, length)}}), then the data region: zlib(marshal.dumps(code)) of each module
at (offset, length). See stdlib_finder.py, which serves it inside the guest without copying
it. Output is deterministic (sorted walk,
fixed compression level).
"""

from __future__ import annotations

import argparse
import json
import marshal
import os
import sys
import zlib

# Directories of Lib/ that are dead weight in a sandbox without a display, a filesystem or
# pip (tests, IDEs, GUI toolkits, bundled wheels, help texts).
EXCLUDED_DIRS = {
    "test", "tests", "idle_test", "idlelib", "tkinter", "turtledemo", "ensurepip",
    "lib2to3", "pydoc_data", "site-packages", "__pycache__", "__phello__",
}
EXCLUDED_FILES = {"turtle.py", "__hello__.py"}  # turtle needs tkinter
# Where a module appears to live (its __file__ / co_filename), as in a normal installation.
ORIGIN_ROOT = f"/usr/local/lib/python{sys.version_info[0]}.{sys.version_info[1]}"
COMPRESS_LEVEL = 9


def walk(lib: str):
    """(module name, is_package, path, relative path) for every .py under lib, sorted."""
    found = []
    for root, dirs, files in os.walk(lib):
        dirs[:] = sorted(d for d in dirs if d not in EXCLUDED_DIRS and "-" not in d
                         and not d.startswith("."))
        rel_root = os.path.relpath(root, lib)
        parts = [] if rel_root == "." else rel_root.split(os.sep)
        if parts and not os.path.isfile(os.path.join(root, "__init__.py")):
            # Not a package (namespace dirs are not part of the stdlib): skip its contents.
            dirs[:] = []
            continue
        for name in sorted(files):
            if not name.endswith(".py") or name in EXCLUDED_FILES:
                continue
            stem = name[:-3]
            rel = os.path.join(rel_root, name) if parts else name
            if stem == "__init__":
                if not parts:
                    continue
                found.append((".".join(parts), True, os.path.join(root, name), rel))
            else:
                if not stem.isidentifier() and not stem.startswith("_sysconfigdata_"):
                    continue
                found.append((".".join([*parts, stem]), False, os.path.join(root, name), rel))
    return found


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", required=True)
    ap.add_argument("--extra", action="append", default=[],
                    help="more top-level module directories (the cross build's sysconfig data)")
    ap.add_argument("--missing", help="file listing the C modules the WASI build lacks")
    ap.add_argument("--out", required=True)
    ap.add_argument("--report", required=True)
    args = ap.parse_args()

    entries = walk(args.lib)
    for extra in args.extra:
        for name in sorted(os.listdir(extra)):
            if name.endswith(".py"):
                entries.append((name[:-3], False, os.path.join(extra, name), name))
    modules, failed = {}, {}
    data_region = bytearray()
    raw_total = 0
    for name, is_pkg, path, rel in entries:
        with open(path, "rb") as f:
            source = f.read()
        origin = f"{ORIGIN_ROOT}/{rel}"
        try:
            code = compile(source, origin, "exec", dont_inherit=True, optimize=0)
        except SyntaxError as exc:
            failed[name] = f"SyntaxError: {exc.msg} (line {exc.lineno})"
            continue
        data = marshal.dumps(code)
        raw_total += len(data)
        packed = zlib.compress(data, COMPRESS_LEVEL)
        modules[name] = (is_pkg, origin, len(data_region), len(packed))
        data_region += packed
    table = {
        "format": 2,
        "version": sys.version.split()[0],
        "hexversion": sys.hexversion,
        "compression": "zlib",
        "modules": modules,
    }
    index = marshal.dumps(table)
    blob = len(index).to_bytes(8, "little") + index + bytes(data_region)
    with open(args.out + ".part", "wb") as f:
        f.write(blob)
    os.replace(args.out + ".part", args.out)
    missing = []
    if args.missing and os.path.exists(args.missing):
        with open(args.missing) as f:
            missing = [line.strip() for line in f if line.strip()]
    report = {
        "modules": len(modules),
        "marshalled_bytes": raw_total,
        "blob_bytes": len(blob),
        "excluded_dirs": sorted(EXCLUDED_DIRS),
        "excluded_files": sorted(EXCLUDED_FILES),
        "failed_to_compile": failed,
        "absent": missing,
    }
    with open(args.report, "w") as f:
        json.dump(report, f, indent=2, sort_keys=True)
        f.write("\n")
    print(f"{len(modules)} modules, {raw_total:,} bytes marshalled, blob {len(blob):,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
