#!/usr/bin/env python3
"""Build our CPython for WASI if needed (build.py, cached by recipe) and install its snapshot
and build manifest into a runtime directory, where sandbox_wasm looks for it:

    python3 scripts/cpython_wasi/install.py runtime/cpython313

The parts the snapshot was built from (the reactor, the stdlib blob and its finder) go to
`image-base/` below it, with their SHA-256: `wasm-exec image build` pre-initialises them
again with a user's packages (sandbox_wasm/_image_build.py).

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


#: What `image-base/` holds, and where the build has it.
IMAGE_BASE_DIR = "image-base"


def image_base_parts(ctx: build.Ctx, runtime: str = "python") -> dict[str, Path]:
    """What an image of `runtime` is built from: its reactor, the stdlib blob and finder, and
    for the data runtime the wheels its snapshot bakes in (`wheels/<file>`)."""
    if runtime == "python":
        return {
            "python-sandbox.wasm": ctx.link_dir / "python-sandbox.wasm",
            "stdlib.blob": ctx.stdlib_dir / "stdlib.blob",
            "stdlib_finder.py": build.HERE / "stdlib_finder.py",
        }
    wheels = sorted((ctx.stage_dir("data-site") / "wheels").glob("*.whl"))
    return {
        "python-sandbox.wasm": ctx.stage_dir("data-link") / "python-data-sandbox.wasm",
        "stdlib.blob": ctx.stdlib_dir / "stdlib.blob",
        "stdlib_finder.py": build.HERE / "stdlib_finder.py",
        **{f"wheels/{wheel.name}": wheel for wheel in wheels},
    }


def install_image_base(ctx: build.Ctx, dest: Path, runtime: str = "python") -> None:
    """Copy the snapshot's parts into `dest` / image-base, with a manifest of their SHA-256
    and the snapshot they made (written last); a no-op when it already holds them."""
    snapshot = json.loads(
        (ctx.stage_dir(build.TARGETS[runtime]) / "manifest.json").read_text())
    parts = image_base_parts(ctx, runtime)
    record = {
        "recipe_hash": ctx.recipe,
        "snapshot_sha256": snapshot["snapshot_sha256"],
        "python_version": snapshot["python_version"],
        "files": {name: build.sha256_file(path) for name, path in parts.items()},
        # What the snapshot preloaded of its wheels (an image preloads them too).
        "preload": snapshot.get("preloaded", []),
    }
    where = dest / IMAGE_BASE_DIR
    installed = where / "manifest.json"
    if (installed.is_file() and json.loads(installed.read_text()) == record
            and all((where / name).is_file()
                    and build.sha256_file(where / name) == record["files"][name]
                    for name in parts)):
        build.log(f"install: {where} already holds this build's parts")
        return
    where.mkdir(parents=True, exist_ok=True)
    installed.unlink(missing_ok=True)
    for name, path in parts.items():
        (where / name).parent.mkdir(parents=True, exist_ok=True)
        tmp = (where / name).with_name(f".{Path(name).name}.tmp")
        shutil.copyfile(path, tmp)
        os.replace(tmp, where / name)
        if build.sha256_file(where / name) != record["files"][name]:
            raise build.BuildError(f"install: {where / name} changed during the copy")
    tmp = where / ".manifest.json.tmp"
    tmp.write_text(json.dumps(record, indent=2, sort_keys=True) + "\n")
    os.replace(tmp, installed)
    build.log(f"install: {where} (the parts images are built from)")


#: Builds of each stage kept in the build cache: the current one and the newest other (a
#: second checkout on another commit), so the cache does not grow with every recipe change.
KEEP_PER_STAGE = 2


def prune(ctx: build.Ctx) -> None:
    """Remove the directories of older builds of each stage, beyond KEEP_PER_STAGE."""
    stages = ctx.cache / "stages"
    if not stages.is_dir():
        return
    for name in ctx.stages:
        if name == "build-python":
            continue
        current = ctx.stage_dir(name)
        others = [d for d in stages.iterdir()
                  if d != current and re.fullmatch(re.escape(name) + r"-[0-9a-f]{16}", d.name)]
        others.sort(key=lambda d: d.stat().st_mtime, reverse=True)
        for old in others[KEEP_PER_STAGE - 1:]:
            build.log(f"install: removing an older build of the {name} stage, {old}")
            shutil.rmtree(old, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dest", type=Path,
                        help="where to install (<runtime dir>/cpython313, or "
                        "<runtime dir>/python-data with --runtime python-data)")
    parser.add_argument("--runtime", choices=list(build.TARGETS), default="python",
                        help="the runtime to build and install (default python)")
    args = parser.parse_args(argv)
    status = build.main(["--runtime", args.runtime])
    if status != 0:
        return status
    ctx = build.Ctx()
    install(ctx.stage_dir(build.TARGETS[args.runtime]), args.dest)
    install_image_base(ctx, args.dest, args.runtime)
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
