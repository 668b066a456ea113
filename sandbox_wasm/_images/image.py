"""Images: our CPython runtime with pure-Python packages baked in, pre-initialised with them.

An image is built by `build_image` (`_images/build.py`, `wasm-exec image build`) from the
installed base runtime and a set of verified wheels, and written with a manifest next to it
(`<image>.json`): its SHA-256, the base runtime's, the bootstrap's, the wheels (names and
SHA-256) and the top-level packages. Loading one checks the manifest and then the file
against it, as the base runtime is checked against its build manifest, and refuses a
tampered or stale image before anything is compiled. The manifest's packages extend the
audit's allowlist of a Sandbox running the image (`Sandbox(image=..., allow_image_packages=
True)`, the default).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Final, Literal

from pydantic import BaseModel, ConfigDict, StringConstraints, ValidationError

from .._audit.stdlib import STDLIB_313
from .._errors import RuntimeIntegrityError, RuntimeNotFoundError
from .._runtimes.artifacts import RuntimeFile, file_sha256, guest_sha256

IMAGE_FORMAT: Final = "sandbox-wasm-image/1"
#: `RuntimeFile.name` (and `result.runtime.name`) of an image.
IMAGE_RUNTIME_NAME = "cpython313-wasi-image"
MANIFEST_SUFFIX = ".json"
#: Names an image's packages may not take: the guest's own modules (`tools` is the host
#: tools' module the guest builds; and, checked apart, the standard library's).
RESERVED_NAMES = frozenset({"__main__", "tools", "_sandbox_stdlib", "_sandbox_packages"})
#: Every name the guest itself may one day use for a module of its own.
RESERVED_PREFIX = "_sandbox_"

Sha256 = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{64}$")]
#: A top-level module name: what the audit's allowlist gains.
PackageName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$",
                                               max_length=200)]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ImageWheel(_Frozen):
    """One wheel baked into an image."""

    file: str
    name: str
    version: str
    sha256: Sha256
    top_level: tuple[PackageName, ...]
    #: Whether the wheel had a RECORD, so that every member was checked against its hash.
    record_checked: bool


class BaseRuntime(_Frozen):
    """The installed runtime an image was derived from."""

    name: str
    sha256: Sha256
    recipe_hash: str


class ImageManifest(_Frozen):
    """What an image holds, written next to it by `build_image` and checked when it loads."""

    format: Literal["sandbox-wasm-image/1"] = IMAGE_FORMAT
    #: The image's file name when it was built (informative: images may be renamed, with
    #: their manifest).
    file: str
    sha256: Sha256
    size: int
    python_version: str
    #: The guest bootstrap the image bakes in (the library's `_guest/bootstrap.py`).
    guest_boot_sha256: Sha256
    base_runtime: BaseRuntime
    wheels: tuple[ImageWheel, ...]
    #: Every top-level name the wheels make importable: added to the audit's allowlist.
    packages: tuple[PackageName, ...]
    #: What was imported while the image was pre-initialised (already in `sys.modules` in
    #: every run).
    preloaded: tuple[str, ...]
    #: The tools that built it: sandbox-wasm's version, the Wizer CLI's version and SHA-256.
    builder: dict[str, str]


def shadowed_name(name: str) -> bool:
    """Whether a top-level package name is the guest's standard library's or the guest's
    own. The guest's list, not the host's: the host is another Python (3.11 has no
    `_colorize`; 3.13 has no `imghdr`, which a backport wheel may bring back)."""
    return name in RESERVED_NAMES or name.startswith(RESERVED_PREFIX) or name in STDLIB_313


def _check_packages(record: Path, manifest: ImageManifest) -> None:
    """The manifest's packages feed the audit's allowlist: they must be the wheels' own,
    and none may be a standard-library name (the builder refuses those)."""
    listed = tuple(sorted({name for wheel in manifest.wheels for name in wheel.top_level}))
    shadowing = [name for name in manifest.packages if shadowed_name(name)]
    if shadowing:
        raise RuntimeIntegrityError(
            f"{record} lists names of the standard library ({', '.join(shadowing)}) as "
            "packages: refusing the image")
    if manifest.packages != listed:
        raise RuntimeIntegrityError(
            f"{record} lists packages ({', '.join(manifest.packages) or 'none'}) that are not "
            "its wheels' own top-level packages: refusing the image")


def manifest_path(image: Path) -> Path:
    """Where an image's manifest lives: `my-image.wasm` -> `my-image.wasm.json`."""
    return image.with_name(image.name + MANIFEST_SUFFIX)


@dataclass(frozen=True)
class Image:
    """A verified image: its manifest and the runtime file a Sandbox runs."""

    path: Path
    manifest: ImageManifest
    runtime: RuntimeFile


def load_image(path: Path | str) -> Image:
    """The image at `path`, verified against its manifest; RuntimeNotFoundError when either
    file is missing, RuntimeIntegrityError when the manifest is invalid, was built for
    another guest bootstrap, or does not match the image (tampered or corrupt)."""
    path = Path(path).expanduser()
    if not path.is_file():
        raise RuntimeNotFoundError(f"image not found at {path}")
    record = manifest_path(path)
    try:
        manifest = ImageManifest.model_validate_json(record.read_bytes())
    except FileNotFoundError:
        raise RuntimeNotFoundError(
            f"image {path} has no manifest {record.name} next to it (`wasm-exec image build` "
            "writes one)") from None
    except OSError as exc:
        raise RuntimeNotFoundError(f"image manifest {record} cannot be read: {exc}") from None
    except ValidationError as exc:
        error = exc.errors()[0]
        where = ".".join(str(part) for part in error["loc"]) or "manifest"
        raise RuntimeIntegrityError(
            f"{record} is not a valid image manifest ({where}: {error['msg']}): refusing "
            "the image") from None
    _check_packages(record, manifest)
    if manifest.guest_boot_sha256 != guest_sha256():
        raise RuntimeIntegrityError(
            f"image {path} was built with another version of the guest bootstrap than this "
            "library's: build it again (wasm-exec image build)")
    actual = file_sha256(path)
    if actual != manifest.sha256:
        raise RuntimeIntegrityError(
            f"image {path} has SHA-256 {actual}, its manifest says {manifest.sha256}: "
            "refusing to load a tampered or corrupt image")
    runtime = RuntimeFile(path, actual, "snapshot", IMAGE_RUNTIME_NAME,
                          manifest.python_version, has_filesystem=True, returns_to_rest=True)
    return Image(path, manifest, runtime)


def verify_image(path: Path | str) -> ImageManifest:
    """Check the image at `path` against its manifest (see `load_image`); its manifest."""
    return load_image(path).manifest
