#!/usr/bin/env python3
"""Build our CPython for WASI if needed (build.py, cached by recipe) and install its snapshot
and build manifest into a runtime directory, where sandbox_wasm looks for it:

    python3 scripts/cpython_wasi/install.py runtime/cpython313

Kept out of build.py on purpose: build.py is part of the recipe hash (an edit rebuilds
everything), installing is not. Exit status 0 on success, 1 with a one-line reason.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import build


def install(snapshot_dir: Path, dest: Path) -> None:
    """Copy the snapshot and its manifest into `dest`, each through a temp file and a rename,
    the manifest last (a reader that sees the new manifest sees the new snapshot, and the
    library checks the file against the manifest's SHA-256 anyway); a no-op when `dest`
    already holds this build."""
    manifest = json.loads((snapshot_dir / "manifest.json").read_text())
    target = dest / "python-snapshot.wasm"
    installed = dest / "manifest.json"
    if (target.is_file() and installed.is_file()
            and json.loads(installed.read_text()) == manifest
            and build.sha256_file(target) == manifest["snapshot_sha256"]):
        build.log(f"install: {dest} already holds this snapshot")
        return
    dest.mkdir(parents=True, exist_ok=True)
    for name in ("python-snapshot.wasm", "manifest.json"):
        tmp = dest / f".{name}.tmp"
        shutil.copyfile(snapshot_dir / name, tmp)
        os.replace(tmp, dest / name)
    if build.sha256_file(target) != manifest["snapshot_sha256"]:
        raise build.BuildError(f"install: {target} does not match its manifest after the copy")
    build.log(f"install: {target} ({manifest['snapshot_size']:,} bytes, "
              f"CPython {manifest['python_version']})")


#: Recipe directories kept in the build cache: the current one and the newest other (a second
#: checkout on another commit), so the cache does not grow by ~1 GB per recipe change.
KEEP_RECIPES = 2


def prune(ctx: build.Ctx) -> None:
    """Remove the build directories of older recipes, beyond KEEP_RECIPES."""
    recipes = [d for d in ctx.cache.iterdir()
               if d.is_dir() and re.fullmatch(r"[0-9a-f]{64}", d.name) and d != ctx.dir]
    recipes.sort(key=lambda d: d.stat().st_mtime, reverse=True)
    for old in recipes[KEEP_RECIPES - 1:]:
        build.log(f"install: removing the build of an older recipe, {old}")
        shutil.rmtree(old, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dest", type=Path, help="where to install (<runtime dir>/cpython313)")
    args = parser.parse_args(argv)
    status = build.main([])
    if status != 0:
        return status
    ctx = build.Ctx()
    install(ctx.snapshot_dir, args.dest)
    prune(ctx)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except build.BuildError as exc:
        print(f"cpython-wasi: error: {exc}", file=sys.stderr)
        sys.exit(1)
    except (OSError, subprocess.SubprocessError, ValueError, KeyError) as exc:
        print(f"cpython-wasi: error: {type(exc).__name__}: {exc}", file=sys.stderr)
        sys.exit(1)
    except KeyboardInterrupt:
        print("cpython-wasi: error: interrupted", file=sys.stderr)
        sys.exit(1)
