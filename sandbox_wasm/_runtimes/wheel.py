"""Runtimes as wheels: an installed runtime directory packed into a reproducible,
platform-independent wheel, and such a wheel (or directory) read back and checked.

A runtime wheel holds variant directories of a runtime directory (`cpython313/`: the
snapshot, its build manifest and image-base/) and optionally the pinned `quickjs.wasm`,
under `sandbox_wasm_runtimes/` (a namespace every runtime wheel shares, so that the lean and
the data runtime's wheels installed side by side make one runtime directory), with an
inventory of every file's SHA-256 and size (`sandbox_wasm_runtimes/<name>.json`). WebAssembly
is portable, so the wheel is `py3-none-any`. Packing the same directory twice gives the same
bytes: members in sorted order, fixed time stamps (1980-01-01), fixed permissions (0644),
deflate at a fixed level, and nothing from the machine that packed it.

`wasm-exec runtime pack` and scripts/build_wheels.py pack; `wasm-exec runtime install
--from WHEEL` unpacks one (checking every file against the inventory first); the library
finds an installed runtime wheel by itself (`artifacts.wheel_runtime_dir`).
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import shutil
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from .._errors import RuntimeIntegrityError, RuntimeNotFoundError
from .._version import __version__
from .artifacts import (
    DATA_PYTHON_VARIANT,
    MANIFEST_NAME,
    OWN_PYTHON_VARIANT,
    PYTHON_VARIANTS,
    QUICKJS_VERSION,
    QUICKJS_WASM_NAME,
    QUICKJS_WASM_SHA256,
    RUNTIME_WHEEL,
    WHEEL_RUNTIME_PACKAGE,
    javascript_runtime_file,
    python_runtime_file,
    read_manifest,
)

INVENTORY_FORMAT = "sandbox-wasm-runtime-wheel/1"
#: Every zip member's time stamp: the earliest a zip can hold, so nothing of the packing
#: machine's clock gets in.
ZIP_TIME = (1980, 1, 1, 0, 0, 0)
FILE_MODE = 0o644
COMPRESS_LEVEL = 6
IMAGE_BASE_DIR = "image-base"


@dataclass(frozen=True)
class RuntimeWheelSpec:
    """A runtime wheel: its distribution name, the Python variants it holds, whether it
    holds QuickJS, and its one-line summary."""

    name: str
    variants: tuple[str, ...]
    quickjs: bool
    summary: str


#: The runtime wheels this project publishes, by distribution name.
#: The data runtime's wheel (numpy and pandas): optional, beside the default one.
DATA_RUNTIME_WHEEL = "sandbox-wasm-runtime-data"
RUNTIME_WHEELS: dict[str, RuntimeWheelSpec] = {
    RUNTIME_WHEEL: RuntimeWheelSpec(
        RUNTIME_WHEEL, (OWN_PYTHON_VARIANT,), True,
        "The WebAssembly runtimes of sandbox-wasm: CPython 3.13 for WASI (pre-initialised) "
        "and QuickJS-NG",
    ),
    DATA_RUNTIME_WHEEL: RuntimeWheelSpec(
        DATA_RUNTIME_WHEEL, (DATA_PYTHON_VARIANT,), False,
        "The data runtime of sandbox-wasm: CPython 3.13 for WASI with numpy and pandas "
        "built in and imported (pre-initialised)",
    ),
}

def wheels_to_pack(directory: Path) -> list[str]:
    """The runtime wheels `pack` makes by default from `directory`: the default one, and
    each optional one whose runtimes are installed there."""
    return [name for name, spec in RUNTIME_WHEELS.items()
            if spec.quickjs or all((directory / v / MANIFEST_NAME).is_file()
                                   for v in spec.variants)]


#: The licences of what the runtimes are built from (the NOTICE in every runtime wheel).
NOTICE = """\
This wheel redistributes WebAssembly runtimes built by sandbox-wasm (Apache-2.0) from
pinned sources; each keeps its own licence:

- CPython (the interpreter and its standard library): PSF-2.0
- zlib: Zlib
- SQLite: public domain (blessing)
- wasi-libc: Apache-2.0 WITH LLVM-exception, and MIT for its musl parts
- compiler-rt builtins (LLVM): Apache-2.0 WITH LLVM-exception
- QuickJS-NG (quickjs.wasm, the project's own v{quickjs} release artifact qjs-wasi.wasm): MIT

The pinned inputs of each Python runtime (file names and SHA-256) are listed in its
manifest.json under "inputs".
"""


def _record_hash(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(
        b"=").decode("ascii")


def _normalized(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


def wheel_filename(name: str, version: str = __version__) -> str:
    """The file name of a runtime wheel (`sandbox_wasm_runtime-0.1.0-py3-none-any.whl`)."""
    return f"{_normalized(name)}-{version}-py3-none-any.whl"


def _variant_files(directory: Path, variant: str) -> list[Path]:
    """The files of a variant directory that a wheel carries: everything but temporary
    files, dot files and byte-code caches, checked against the variant's manifests first."""
    python_runtime_file(directory, variant)  # the snapshot against its manifest
    where = directory / variant
    base = where / IMAGE_BASE_DIR
    if base.is_dir() or variant == OWN_PYTHON_VARIANT:  # images are built on the lean one
        record = read_manifest(base)
        hashes = record.get("files")
        if not isinstance(hashes, dict):
            raise RuntimeNotFoundError(f"{base / MANIFEST_NAME} is missing: the parts images "
                                       "are built from must travel with the runtime")
        for part, expected in hashes.items():
            if _sha256(base / str(part)) != expected:
                raise RuntimeIntegrityError(f"{base / str(part)} does not match its manifest")
    files = []
    for path in sorted(where.rglob("*")):
        relative = path.relative_to(where)
        if any(part.startswith(".") or part == "__pycache__" for part in relative.parts):
            continue
        if path.is_symlink():
            raise RuntimeIntegrityError(f"{path} is a link: a runtime directory holds files")
        if path.is_file():
            files.append(path)
    return files


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def pack_wheel(directory: Path, out_dir: Path, spec: RuntimeWheelSpec,
               version: str = __version__) -> Path:
    """Pack the runtimes `spec` names from the runtime directory `directory` into a wheel in
    `out_dir` and return its path. Each runtime is verified as the library would before it
    is packed (RuntimeNotFoundError / RuntimeIntegrityError otherwise)."""
    members: dict[str, Path] = {}
    for variant in spec.variants:
        for path in _variant_files(directory, variant):
            relative = path.relative_to(directory / variant).as_posix()
            members[f"{WHEEL_RUNTIME_PACKAGE}/{variant}/{relative}"] = path
    if spec.quickjs:
        members[f"{WHEEL_RUNTIME_PACKAGE}/{QUICKJS_WASM_NAME}"] = \
            javascript_runtime_file(directory).path
    contents = {name: path.read_bytes() for name, path in sorted(members.items())}
    variants = {}
    for variant in spec.variants:
        manifest = read_manifest(directory / variant)
        variants[variant] = {key: manifest.get(key) for key in (
            "python_version", "snapshot_sha256", "guest_boot_sha256", "recipe_hash")}
    inventory = {
        "format": INVENTORY_FORMAT,
        "name": spec.name,
        "version": version,
        "variants": variants,
        "quickjs": ({"version": QUICKJS_VERSION, "sha256": QUICKJS_WASM_SHA256}
                    if spec.quickjs else None),
        "files": {name.removeprefix(f"{WHEEL_RUNTIME_PACKAGE}/"): {
            "sha256": hashlib.sha256(data).hexdigest(), "size": len(data)}
            for name, data in contents.items()},
    }
    contents[f"{WHEEL_RUNTIME_PACKAGE}/{spec.name}.json"] = (
        json.dumps(inventory, indent=1, sort_keys=True) + "\n").encode()
    dist_info = f"{_normalized(spec.name)}-{version}.dist-info"
    contents[f"{dist_info}/licenses/NOTICE"] = NOTICE.format(quickjs=QUICKJS_VERSION).encode()
    contents[f"{dist_info}/METADATA"] = "\n".join([
        "Metadata-Version: 2.1",
        f"Name: {spec.name}",
        f"Version: {version}",
        f"Summary: {spec.summary}",
        "License: Apache-2.0 (packaging); the runtimes keep their own licences: see NOTICE",
        "Requires-Python: >=3.11",
        f"Requires-Dist: sandbox-wasm=={version}",
        "",
        f"The runtimes {', '.join(spec.variants) or 'none'}"
        f"{' and QuickJS-NG' if spec.quickjs else ''} for sandbox-wasm {version}, found by "
        "the library without any install step.",
        "",
    ]).encode()
    contents[f"{dist_info}/WHEEL"] = (
        b"Wheel-Version: 1.0\nGenerator: sandbox-wasm runtime pack\nRoot-Is-Purelib: true\n"
        b"Tag: py3-none-any\n")
    record_name = f"{dist_info}/RECORD"
    record = "".join(f"{name},{_record_hash(data)},{len(data)}\n"
                     for name, data in contents.items()) + f"{record_name},,\n"
    contents[record_name] = record.encode()

    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / wheel_filename(spec.name, version)
    partial = target.with_name(f".{target.name}.part")
    with zipfile.ZipFile(partial, "w") as archive:
        for name, data in contents.items():
            info = zipfile.ZipInfo(name, date_time=ZIP_TIME)
            info.create_system = 3  # unix, so that the permissions below are read
            info.external_attr = (0o100000 | FILE_MODE) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data, compresslevel=COMPRESS_LEVEL)
    os.replace(partial, target)
    return target


# -- reading a runtime wheel back ---------------------------------------------------------
def unpack_wheel(wheel: Path, dest: Path) -> Path:
    """Unpack the runtimes of a runtime wheel into `dest` (a directory laid out as a runtime
    directory), checking every file against the wheel's inventory; returns `dest`."""
    try:
        archive = zipfile.ZipFile(wheel)
    except (OSError, zipfile.BadZipFile) as exc:
        raise RuntimeNotFoundError(f"{wheel} is not a readable wheel: {exc}") from None
    with archive:
        prefix = f"{WHEEL_RUNTIME_PACKAGE}/"
        inventories = [n for n in archive.namelist()
                       if n.startswith(prefix) and n.count("/") == 1 and n.endswith(".json")]
        if len(inventories) != 1:
            raise RuntimeNotFoundError(f"{wheel} is not a sandbox-wasm runtime wheel")
        inventory = json.loads(archive.read(inventories[0]))
        if inventory.get("format") != INVENTORY_FORMAT:
            raise RuntimeIntegrityError(f"{wheel}: unknown inventory format")
        files: dict[str, dict[str, object]] = inventory["files"]
        for name, entry in sorted(files.items()):
            parts = PurePosixPath(name).parts
            if not parts or any(p in ("", ".", "..") or "\\" in p for p in parts) \
                    or name.startswith("/"):
                raise RuntimeIntegrityError(f"{wheel}: refusing the member name {name!r}")
            data = archive.read(prefix + name)
            if hashlib.sha256(data).hexdigest() != entry.get("sha256"):
                raise RuntimeIntegrityError(f"{wheel}: {name} does not match its inventory")
            target = dest.joinpath(*parts)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
    return dest


def runtimes_in(directory: Path) -> tuple[list[str], bool]:
    """The Python variants and whether QuickJS are present (not yet verified) in a runtime
    directory."""
    variants = [v for v in PYTHON_VARIANTS if (directory / v / MANIFEST_NAME).is_file()]
    return variants, (directory / QUICKJS_WASM_NAME).is_file()


def copy_runtimes(source: Path, dest: Path, log: Callable[[str], None]) -> list[str]:
    """Copy every runtime present in the runtime directory `source` into `dest`, each
    verified first (as the library verifies it) and again once copied; return what was
    copied. Files are written through a temporary name and a rename, each variant's
    manifest last, readable by every user (a runtime directory may be shared)."""
    variants, quickjs = runtimes_in(source)
    copied = []
    for variant in variants:
        files = _variant_files(source, variant)
        target = dest / variant
        ordered = sorted(files, key=lambda p: (p.parent == source / variant
                                               and p.name == MANIFEST_NAME, str(p)))
        for path in ordered:
            _copy_file(path, target / path.relative_to(source / variant))
        _variant_files(dest, variant)  # the copy, as the library will check it
        copied.append(variant)
        log(f"{variant}: installed from {source} into {target}")
    if quickjs:
        javascript_runtime_file(source)
        _copy_file(source / QUICKJS_WASM_NAME, dest / QUICKJS_WASM_NAME)
        javascript_runtime_file(dest)
        copied.append("quickjs")
        log(f"quickjs: installed from {source} into {dest / QUICKJS_WASM_NAME}")
    return copied


def _copy_file(source: Path, target: Path) -> None:
    for parent in reversed(target.parents):
        if not parent.exists():
            parent.mkdir()
            parent.chmod(0o755)
    if target.is_file() and _same_content(source, target):
        return
    partial = target.with_name(f".{target.name}.part")
    with source.open("rb") as src, partial.open("wb") as dst:
        shutil.copyfileobj(src, dst, 1 << 20)
    partial.chmod(FILE_MODE)
    os.replace(partial, target)


def _same_content(a: Path, b: Path) -> bool:
    return a.stat().st_size == b.stat().st_size and _sha256(a) == _sha256(b)


def read_inventory(wheel: Path) -> dict[str, object]:
    """The inventory of a runtime wheel (what `wasm-exec runtime pack` wrote into it)."""
    with zipfile.ZipFile(wheel) as archive:
        names = [n for n in archive.namelist()
                 if n.startswith(f"{WHEEL_RUNTIME_PACKAGE}/") and n.count("/") == 1
                 and n.endswith(".json")]
        if len(names) != 1:
            raise RuntimeNotFoundError(f"{wheel} is not a sandbox-wasm runtime wheel")
        data = json.loads(archive.read(names[0]))
    return data if isinstance(data, dict) else {}
