"""The data runtime's packages' own test suites inside it (numpy's and pandas', issue 30, point
6; scipy's, scikit-learn's, matplotlib's and statsmodels', issue 31): the pinned inputs, the
guest's /input, and the driver that runs pytest in a sandbox session.

- pytest, its dependencies and hypothesis (numpy's, pandas' and scipy's root conftests
  import it) are pure wheels pinned by version and SHA-256 (TEST_WHEELS), downloaded once with
  pip into ~/.cache/sandbox-wasm/test-wheels; the test files come from the pinned sdists the
  runtime is built from (SDISTS: the build cache's copies, else the PyPI simple index,
  hash-checked).
  `python tests/runtime/data_upstream.py` fetches them ahead (and, with the runtime installed,
  compiles the bytecode below), so that later runs need no network.
- The wheels reach the guest as one file, /input/site.zip (an input holds at most 1,000
  files), on sys.path through zipimport. Their modules, the conftests and the selected test
  modules also come as bytecode (compiled once by the guest itself and cached by content):
  from source, every module is compiled in every run and, being the user's file, also read by
  the audit's run-time guard (`import pytest`: 12.5 G fuel from source, 2.1 G as bytecode).
  So asserts are not rewritten (`--assert=plain`): a failing bare assert shows no values.
- The packages are served from memory; their test directories are not: the driver appends
  the /input directory to the `__path__` of each package on the way (numpy, numpy.lib, ...),
  whose /input copy holds only an empty marker __init__.py (MARKER) for pytest's module names.
  A root conftest the runtime also has (scipy's, scikit-learn's and statsmodels' wheels ship
  theirs) is loaded from /input under its module name first: else the import would find the
  runtime's, not the file pytest asked for, which pytest refuses.
- pytest is driven through its own hooks across the calls of one sandbox session (a call's
  deadline is 30 s at most, a suite takes minutes): set-up, collection, then slices of the
  runtest protocol until a time budget per call, then the session's finish. A call that does
  not come back (a test that traps the instance, or outlasts the deadline) is rolled back by
  the session; its test is then run alone and, failing again, recorded as `crashed` or
  `timeout` and skipped over. The outcome of each test comes back in /output/report.json.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import urllib.request
import zipfile
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path, PurePosixPath

import sandbox_wasm as sw
from sandbox_wasm._runtimes.artifacts import cache_dir

HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Pin:
    """One pinned file of PyPI."""

    project: str
    version: str
    file: str
    sha256: str


#: pytest and its dependencies, hypothesis (6.155.7 is its last release with a pure wheel)
#: and sortedcontainers, which hypothesis needs.
TEST_WHEELS = (
    Pin("pytest", "9.2.0", "pytest-9.2.0-py3-none-any.whl",
        "07acdcf88ec174f907dc01af70bf52d49b014bbab03faeeade31c96b18c2e588"),
    Pin("pluggy", "1.7.0", "pluggy-1.7.0-py3-none-any.whl",
        "7dd7b0d8832ba3cb632c306926ded123429211b83641b35dc5c41ad2d34f9bec"),
    Pin("iniconfig", "2.3.1", "iniconfig-2.3.1-py3-none-any.whl",
        "9121e2c1fdb355232495be3194c8dfe87ccc2d5dee45947b78e68f499790d7a7"),
    Pin("packaging", "26.4", "packaging-26.4-py3-none-any.whl",
        "81383611a09c1bc0b08b76e0fd5829d7c6824c65b27a6aee339da133f4233ea2"),
    Pin("pygments", "2.21.0", "pygments-2.21.0-py3-none-any.whl",
        "2363c69b61c4a97c838da3b130dcd6468f4848992b21a82f2a63ec34377137d9"),
    Pin("hypothesis", "6.155.7", "hypothesis-6.155.7-py3-none-any.whl",
        "9f634bdb1f9e9b8ab6ba09431cf2deedb750c96978125a6fb3c5a0f6c6db4131"),
    Pin("sortedcontainers", "2.4.0", "sortedcontainers-2.4.0-py2.py3-none-any.whl",
        "a163dcaede0f1c021485e957a39245190e74249897e2ae4b2aa38595db237ee0"),
)

#: The sdists the data runtime is built from, by the package's import name (data_stack.py,
#: sci_stack.py and plot_stack.py in scripts/cpython_wasi pin the same files).
SDISTS = {
    "numpy": Pin("numpy", "2.4.6", "numpy-2.4.6.tar.gz",
                 "f3a3570c4a2a16746ac2c31a7c7c7b0c186b95ce902e33db6f28094ed7387dda"),
    "pandas": Pin("pandas", "3.0.6", "pandas-3.0.6.tar.gz",
                  "66b07ef7315a31bfe1089cd3d71a7de781c9dca986762d0b4fe7c0ef17465d10"),
    "scipy": Pin("scipy", "1.18.1", "scipy-1.18.1.tar.gz",
                 "52c4b7422442aba924d03ad4019852b08a92e64ea187b933135687bfe2747307"),
    "sklearn": Pin("scikit-learn", "1.9.1", "scikit_learn-1.9.1.tar.gz",
                   "629cada3e33e2b9bf376cdc7614a47a4140b8aedc1d836579e359736fbd82977"),
    "matplotlib": Pin("matplotlib", "3.10.9", "matplotlib-3.10.9.tar.gz",
                      "fd66508e8c6877d98e586654b608a0456db8d7e8a546eb1e2600efd957302358"),
    "statsmodels": Pin("statsmodels", "0.15.0", "statsmodels-0.15.0.tar.gz",
                       "5d257fe58d0772bc46a557880ca78e2a8e07fec7bfd9d11074aef8e33e1aecbc"),
}
#: Where a package's directory is in its sdist, when not at the top (matplotlib's src layout):
#: its files are named as if it were (`matplotlib/tests/...`).
SOURCE_ROOTS = {"matplotlib": "lib/"}

RUNTIME = "python-data"
#: numpy's root conftest, replaced: upstream's imports `numpy._core._multiarray_tests`, a C
#: test module the runtime does not build (see the file).
NUMPY_CONFTEST = HERE / "data_upstream_numpy_conftest.py"
#: What a suite's /input has of its package besides the test directories: upstream's
#: configuration and root conftest, by their path in /input, each from the sdist (a path in
#: it) or replaced by a file of ours; and non-test modules the runtime does not ship but the
#: tests import (matplotlib.testing: its decorators and fixtures).
PACKAGE_FILES: dict[str, dict[str, str | Path]] = {
    "numpy": {"pytest.ini": "pytest.ini", "numpy/conftest.py": NUMPY_CONFTEST},
    "pandas": {"pyproject.toml": "pyproject.toml", "pandas/conftest.py": "pandas/conftest.py"},
    "scipy": {"pytest.ini": "pytest.ini", "scipy/conftest.py": "scipy/conftest.py"},
    "sklearn": {"pyproject.toml": "pyproject.toml",
                "sklearn/conftest.py": "sklearn/conftest.py"},
    "matplotlib": {"pyproject.toml": "pyproject.toml"},
    "statsmodels": {"pyproject.toml": "pyproject.toml",
                    "statsmodels/conftest.py": "statsmodels/conftest.py"},
}
PACKAGE_HELPERS: dict[str, tuple[str, ...]] = {"matplotlib": ("matplotlib/testing",)}
#: Files of the test directories left out of every suite's /input: matplotlib's reference
#: images (2,200 files; an input holds at most 1,000) but those of the chosen modules.
BASELINE_IMAGES = "matplotlib/tests/baseline_images/"
#: The guest's `sys.implementation.cache_tag`: bytecode is valid for one CPython minor version
#: (the compile run checks it).
CACHE_TAG = "cpython-313"
#: One compile run takes at most this much source (it has one run's deadline).
COMPILE_BATCH_BYTES = 300_000
#: Stands for a package of the runtime in /input: pytest names a test module by the chain of
#: __init__.py above it (numpy/lib/tests/test_io.py -> numpy.lib.tests.test_io); the package
#: itself is already imported, from memory, and this file is never run.
MARKER = b"# The package is imported from the runtime: pytest reads this file's presence only.\n"


class UnavailableError(Exception):
    """A pinned input could not be fetched (no network): the caller skips."""


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def wheel_cache() -> Path:
    """~/.cache/sandbox-wasm/test-wheels (or under $SANDBOX_WASM_CACHE_DIR)."""
    return cache_dir() / "test-wheels"


def build_downloads() -> Path:
    """The runtime build cache's downloads, where the pinned sdists normally are."""
    root = os.environ.get("SANDBOX_WASM_BUILD_CACHE")
    return (Path(root).expanduser() if root else cache_dir() / "cpython-wasi") / "downloads"


def _cached(path: Path, pin: Pin) -> bool:
    return path.is_file() and _sha256(path.read_bytes()) == pin.sha256


def _install(staged: Path, pin: Pin, target: Path) -> Path:
    actual = _sha256(staged.read_bytes())
    if actual != pin.sha256:
        raise AssertionError(f"{pin.file} was served with SHA-256 {actual}, pinned {pin.sha256}")
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = target.with_name(f".{target.name}.{os.getpid()}")
    shutil.copyfile(staged, temporary)
    os.replace(temporary, target)
    return target


def fetch_wheel(pin: Pin) -> Path:
    """The pinned wheel, from the cache or downloaded with pip (no dependencies, the pure
    wheel only: the guest is CPython 3.13 on wasm32)."""
    target = wheel_cache() / pin.file
    if _cached(target, pin):
        return target
    with tempfile.TemporaryDirectory() as tmp:
        command = [sys.executable, "-m", "pip", "download", f"{pin.project}=={pin.version}",
                   "--no-deps", "--only-binary=:all:", "--disable-pip-version-check", "-q",
                   "--python-version", "3.13", "--implementation", "py", "--abi", "none",
                   "--platform", "any", "-d", tmp]
        try:
            proc = subprocess.run(command, capture_output=True, timeout=300, check=False)
        except subprocess.TimeoutExpired as exc:
            raise UnavailableError(f"pip download {pin.project} timed out") from exc
        downloaded = Path(tmp) / pin.file
        if proc.returncode != 0 or not downloaded.is_file():
            raise UnavailableError(f"pip download {pin.project}=={pin.version} failed: "
                                   + proc.stderr.decode("utf-8", "replace").strip()[-300:])
        return _install(downloaded, pin, target)


def fetch_sdist(name: str) -> Path:
    """The pinned sdist: the build cache's copy, else ours, else from the PyPI simple index."""
    pin = SDISTS[name]
    for candidate in (build_downloads() / pin.file, wheel_cache() / pin.file):
        if _cached(candidate, pin):
            return candidate
    index = f"https://pypi.org/simple/{pin.project}/"
    try:
        with urllib.request.urlopen(index, timeout=60) as response:
            page = response.read().decode("utf-8", "replace")
        links = [url for url in re.findall(r'href="([^"]+)"', page)
                 if url.split("#", 1)[0].rsplit("/", 1)[-1] == pin.file]
        if not links:
            raise UnavailableError(f"{pin.file} is not listed at {index}")
        with tempfile.TemporaryDirectory() as tmp:
            staged = Path(tmp) / pin.file
            with urllib.request.urlopen(links[0], timeout=300) as response, \
                    staged.open("wb") as out:
                shutil.copyfileobj(response, out)
            return _install(staged, pin, wheel_cache() / pin.file)
    except OSError as exc:
        raise UnavailableError(f"cannot fetch {pin.file} from {index}: {exc}") from exc


def fetch_all() -> list[Path]:
    """Every pinned input, fetched if missing."""
    return [*(fetch_wheel(pin) for pin in TEST_WHEELS), *(fetch_sdist(n) for n in SDISTS)]


@cache
def wheel_members() -> dict[str, bytes]:
    """The files of all the wheels, by their path in site-packages (.dist-info included:
    pytest finds hypothesis' plugin through its entry point)."""
    files: dict[str, bytes] = {}
    for pin in TEST_WHEELS:
        with zipfile.ZipFile(fetch_wheel(pin)) as archive:
            for member in archive.namelist():
                if not member.endswith("/"):
                    files[member] = archive.read(member)
    return files


@cache
def sdist_members(name: str) -> dict[str, bytes]:
    """The sdist's files, by their path below its top directory (`numpy/...`; the package's
    own below its SOURCE_ROOTS directory: `matplotlib/...`)."""
    pin = SDISTS[name]
    prefix = pin.file.removesuffix(".tar.gz") + "/"
    source_root = SOURCE_ROOTS.get(name, "")
    files: dict[str, bytes] = {}
    with tarfile.open(fetch_sdist(name)) as archive:
        for member in archive.getmembers():
            if member.isfile() and member.name.startswith(prefix):
                handle = archive.extractfile(member)
                assert handle is not None
                path = member.name[len(prefix):]
                if source_root and path.startswith(source_root + name + "/"):
                    path = path[len(source_root):]
                files[path] = handle.read()
    return files


# --------------------------------------------------------------------------- bytecode
#: Compiles /input/src/<i> (the sources) with the file names the modules will have into
#: unchecked-hash .pyc data (valid whatever the file times in the sandbox) at /output/<i>.
COMPILE_SOURCE = """
import importlib._bootstrap_external as external
import importlib.util
import sys

assert sys.implementation.cache_tag == CACHE_TAG, sys.implementation.cache_tag
for index, filename in enumerate(FILENAMES):
    with open(f"/input/src/{index}", "rb") as handle:
        source = handle.read()
    code = compile(source, filename, "exec", dont_inherit=True)
    with open(f"/output/{index}", "wb") as handle:
        handle.write(external._code_to_hash_pyc(code, importlib.util.source_hash(source), False))
"""


def _bytecode_key(filename: str, source: bytes) -> str:
    return _sha256(repr((CACHE_TAG, COMPILE_SOURCE, filename)).encode() + source)


def bytecode(box: sw.Sandbox, sources: dict[str, bytes]) -> dict[str, bytes]:
    """.pyc data for each source, by the file name its code gets (its path in the guest):
    from the cache (~/.cache/sandbox-wasm/test-wheels/bytecode, by content), else compiled
    in `box` and cached."""
    directory = wheel_cache() / "bytecode"
    compiled: dict[str, bytes] = {}
    missing: list[str] = []
    for filename, source in sources.items():
        path = directory / f"{_bytecode_key(filename, source)}.pyc"
        if path.is_file():
            compiled[filename] = path.read_bytes()
        else:
            missing.append(filename)
    batches: list[list[str]] = []
    size = COMPILE_BATCH_BYTES
    for filename in sorted(missing):
        if size + len(sources[filename]) > COMPILE_BATCH_BYTES:
            batches.append([])
            size = 0
        batches[-1].append(filename)
        size += len(sources[filename])
    directory.mkdir(parents=True, exist_ok=True)
    for batch in batches:
        program = f"CACHE_TAG = {CACHE_TAG!r}\nFILENAMES = {batch!r}\n" + COMPILE_SOURCE
        inputs = {f"src/{index}": sources[name] for index, name in enumerate(batch)}
        result = box.execute(program, files=inputs)
        if result.status != "succeeded" or len(result.files) != len(batch):
            raise AssertionError(f"compiling in the guest failed: {result.status} "
                                 f"{result.error} {result.stderr[-2000:]}")
        for index, filename in enumerate(batch):
            data = result.files[str(index)]
            path = directory / f"{_bytecode_key(filename, sources[filename])}.pyc"
            temporary = path.with_name(f".{path.name}.{os.getpid()}")
            temporary.write_bytes(data)
            os.replace(temporary, path)
            compiled[filename] = data
    return compiled


# --------------------------------------------------------------------------- /input
SITE_ZIP = "/input/site.zip"


_site_zip: dict[str, bytes] = {}


def site_zip(box: sw.Sandbox) -> bytes:
    """The wheels' files in one uncompressed zip, each module with its bytecode beside it
    (`mod.pyc`, which zipimport prefers; the source stays for tracebacks). Built once per
    process."""
    if "zip" in _site_zip:
        return _site_zip["zip"]
    members = wheel_members()
    sources = {f"{SITE_ZIP}/{name}": data for name, data in members.items()
               if name.endswith(".py")}
    compiled = bytecode(box, sources)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
        entries = {**members, **{name[len(SITE_ZIP) + 1:] + "c": data
                                 for name, data in compiled.items()}}
        for name, data in sorted(entries.items()):
            archive.writestr(zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0)), data)
    _site_zip["zip"] = buffer.getvalue()
    return _site_zip["zip"]


def _test_dir(path: str) -> str:
    parts = path.split("/")
    return "/".join(parts[:parts.index("tests") + 1])


#: An import of a module of one of the packages (absolute), or of a sibling (relative).
_IMPORT = re.compile(rb"^\s*(?:from|import)\s+((?:%s)\.[\w.]+|\.+\w[\w.]*)"
                     % "|".join(SDISTS).encode(), re.M)


def _imported_modules(name: str, source: bytes) -> list[str]:
    """The paths (in the sdist) the module at `name` may import by its import statements."""
    paths = []
    for dotted in _IMPORT.findall(source):
        module = dotted.decode()
        if module.startswith("."):
            level = len(module) - len(module.lstrip("."))
            base = name.split("/")[:-level]
            module = "/".join([*base, *module.lstrip(".").split(".")])
        else:
            module = module.replace(".", "/")
        paths.append(module + ".py")
    return paths


def guest_files(box: sw.Sandbox, package: str,
                paths: tuple[str, ...]) -> tuple[dict[str, bytes], list[str]]:
    """A suite's /input, and the runtime's packages that get their /input directory on
    their `__path__` (in the order to import them).

    `paths` are test modules or directories of the sdist. Shipped: their `tests` directories
    with every file but the test modules not chosen (helpers, data files, conftests), the
    upstream configuration, site.zip, and bytecode (`__pycache__/`) for the chosen modules,
    the conftests and the __init__.py files."""
    members = sdist_members(package)
    chosen = {name for name in members if name.endswith(".py") and any(
        name == path or name.startswith(path.rstrip("/") + "/") for path in paths)}
    if not chosen:
        raise ValueError(f"{package} has no test modules under {paths}")
    # Test modules the chosen ones import (pandas' and scipy's tests share a few helpers that
    # way), and theirs.
    pending = sorted(chosen)
    while pending:
        for module in _imported_modules(name := pending.pop(), members[name]):
            if module in members and "/tests/" in module and module not in chosen:
                chosen.add(module)
                pending.append(module)
    roots = {_test_dir(name) for name in chosen}
    images = {f"{BASELINE_IMAGES}{PurePosixPath(name).stem}/" for name in chosen}
    files: dict[str, bytes] = {}
    for name, data in members.items():
        if name.startswith(BASELINE_IMAGES) and not name.startswith(tuple(images)):
            continue
        if any(name.startswith(root + "/") for root in roots):
            module = PurePosixPath(name).name
            if not (module.startswith("test_") and module.endswith(".py")) or name in chosen:
                files[name] = data
    helpers = PACKAGE_HELPERS.get(package, ())
    files.update({name: data for name, data in members.items()
                  if any(name.startswith(helper + "/") for helper in helpers)})
    grafted: list[str] = []
    for root in sorted(roots):
        parts = root.split("/")
        for depth in range(1, len(parts)):
            directory = "/".join(parts[:depth])
            inside = any(directory.startswith(other + "/") for other in roots)
            if not inside and f"{directory}/__init__.py" in members:
                files[f"{directory}/__init__.py"] = MARKER
                dotted = directory.replace("/", ".")
                if dotted not in grafted:
                    grafted.append(dotted)
    for target, source in PACKAGE_FILES[package].items():
        files[target] = source.read_bytes() if isinstance(source, Path) else members[source]
    imported = {f"/input/{name}": data for name, data in files.items()
                if name in chosen or PurePosixPath(name).name in ("conftest.py", "__init__.py")
                or (name.endswith(".py") and name.startswith(tuple(h + "/" for h in helpers)))}
    for filename, data in bytecode(box, imported).items():
        source = PurePosixPath(filename[len("/input/"):])
        files[str(source.parent / "__pycache__" / f"{source.stem}.{CACHE_TAG}.pyc")] = data
    files["site.zip"] = site_zip(box)
    return files, sorted(grafted, key=lambda name: name.count("."))


# --------------------------------------------------------------------------- the driver
#: pytest's options in every suite, and why.
PYTEST_ARGS = (
    "-q", "-rfE", "--tb=short", "--color=no",
    "--assert=plain",  # the test modules come as bytecode (see the module's docstring)
    "-p", "no:cacheprovider",  # /input is read-only, and nothing outlives a session
    "-p", "no:faulthandler",  # it dup()s stderr: WASI has no dup
    "--capture=sys",  # fd capture needs dup/dup2 too
    "--rootdir=/input",
    "--basetemp=/tmp/pytest",  # the default asks os.getuid(), which WASI lacks
    "--log-file=/tmp/pytest.log",  # the default log file is os.devnull: no /dev in the sandbox
)
#: Each package's own configuration: numpy's and scipy's pytest.ini; pandas' pyproject.toml
#: with its addopts replaced (they write a JUnit file and a durations report) by those of them
#: that matter, and `--no-strict-data-files`: pandas' sdist does not ship the data files of its
#: tests, which then skip; scikit-learn's and matplotlib's pyproject.toml without their addopts
#: (`--import-mode=importlib`, under which the test modules would not be the submodules of the
#: runtime's packages the grafts make them; scikit-learn's output options). scikit-learn's
#: faulthandler timeouts are unknown options without the faulthandler plugin: a warning.
#: matplotlib's conftest makes warnings errors, and its 3.10.9 tests give parametrize the
#: iterators pytest 9 deprecates (PytestRemovedIn10Warning: collection errors): ignored.
#: statsmodels' pyproject.toml without its addopts: a durations report, a JUnit file,
#: pytest-randomly's `--randomly-dont-reset-seed` (an unknown option without the plugin) and
#: `--strict` (pytest 9's strict mode), whose strict markers fail its tests' `thread_unsafe`
#: marks (pytest-run-parallel's, unregistered without that plugin) at collection. Its conftest
#: sees wasm32 (PYTHON_IMPL_WASM) and makes upstream's xfails non-strict.
PACKAGE_ARGS = {
    "numpy": ("-c", "/input/pytest.ini"),
    "pandas": ("-c", "/input/pyproject.toml", "-o", "addopts=", "--strict-markers",
               "--strict-config", "--no-strict-data-files"),
    "scipy": ("-c", "/input/pytest.ini"),
    "sklearn": ("-c", "/input/pyproject.toml", "-o", "addopts="),
    "matplotlib": ("-c", "/input/pyproject.toml", "-o", "addopts=",
                   "-W", "ignore::pytest.PytestRemovedIn10Warning"),
    "statsmodels": ("-c", "/input/pyproject.toml", "-o", "addopts="),
}
#: Each call of a suite's session: the 30 s deadline (the maximum), a memory cap for the
#: session's whole life, output and files with room to spare.
SUITE_LIMITS = sw.Limits(
    timeout_ms=30_000, memory_mb=1_024, max_stdout_bytes=1 << 20, max_stderr_bytes=64 << 10,
    max_source_bytes=256 << 10, max_input_bytes=128 << 20, max_file_bytes=64 << 20,
    max_written_bytes=256 << 20,
)
#: A call stops starting tests after this long; the rest of the deadline is for the last one.
CALL_BUDGET_S = 10.0

#: Defined by the session's first call (after the host's `RUN = {...}` line), then called by
#: name: begin(), collect(), run(budget_s, limit), give_up(outcome), finish().
GUEST_DRIVER = r"""
import importlib
import importlib.util
import json
import os
import re
import sys
import time

sys.path.insert(0, "/input/site.zip")
for name in RUN["grafts"]:
    importlib.import_module(name).__path__.append("/input/" + name.replace(".", "/"))
for name in RUN["grafts"]:
    # A conftest the runtime has too: loaded from /input under its name (see the docstring).
    path = "/input/" + name.replace(".", "/") + "/conftest.py"
    if os.path.isfile(path) and importlib.util.find_spec(name + ".conftest").origin != path:
        spec = importlib.util.spec_from_file_location(name + ".conftest", path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module
        spec.loader.exec_module(module)

import pytest
from _pytest.config import _prepareconfig
from _pytest.main import Session


def matching(table, nodeid):
    # A key is a node id, a prefix of one (ending before a "::" or "["), or a pattern
    # where "*" stands for anything.
    for key in table:
        if "*" in key:
            if re.fullmatch(".*".join(map(re.escape, key.split("*"))), nodeid):
                return key
        elif nodeid == key or nodeid.startswith((key + "::", key + "[")):
            return key
    return None


class Plan:
    # The host's tables applied at collection, and each test's outcome.
    def __init__(self, run):
        self.deselect = run["deselect"]
        self.xfail = run["xfail"]
        self.used = set()
        self.tests = {}
        self.errors = []

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, config, items):
        kept, dropped = [], []
        for item in items:
            key = matching(self.deselect, item.nodeid)
            if key is not None:
                self.used.add(key)
                dropped.append(item)
                continue
            key = matching(self.xfail, item.nodeid)
            if key is not None:
                self.used.add(key)
                item.add_marker(pytest.mark.xfail(reason=self.xfail[key], strict=True))
            kept.append(item)
        if dropped:
            config.hook.pytest_deselected(items=dropped)
        items[:] = kept

    def pytest_runtest_logreport(self, report):
        entry = self.tests.setdefault(report.nodeid, {"outcome": None, "seconds": 0.0})
        entry["seconds"] += report.duration
        if report.failed:
            outcome = "failed" if report.when == "call" else "error"
            entry["detail"] = str(report.longrepr)[-3000:]
        elif hasattr(report, "wasxfail"):
            outcome = "xfailed" if report.skipped else "xpassed"
        elif report.skipped:
            outcome = "skipped"
            if isinstance(report.longrepr, tuple):
                entry["detail"] = str(report.longrepr[2])[:300]
        elif report.when == "call":
            outcome = "passed"
        else:
            return
        if entry["outcome"] in (None, "passed"):
            entry["outcome"] = outcome

    def pytest_collectreport(self, report):
        if report.failed:
            self.errors.append([report.nodeid, str(report.longrepr)[-4000:]])


def progress(**extra):
    with open("/output/progress.json", "w") as out:
        json.dump({"position": STATE["position"], "total": len(STATE["items"]), **extra}, out)


def begin():
    plan = Plan(RUN)
    config = _prepareconfig(RUN["args"], plugins=[plan])
    config._do_configure()
    session = Session.from_config(config)
    session.exitstatus = 0
    config.hook.pytest_sessionstart(session=session)
    STATE.update(plan=plan, config=config, session=session)


def collect():
    STATE["config"].hook.pytest_collection(session=STATE["session"])
    STATE["items"] = STATE["session"].items
    progress(errors=STATE["plan"].errors)


def run(budget_s, limit):
    # What pytest_runtestloop does, for at most `limit` tests or until `budget_s` is over.
    # Each test's index goes to stderr first: if the call does not come back, the host
    # knows which test it was in.
    items, started = STATE["items"], time.perf_counter()
    for _ in range(limit):
        index = STATE["position"]
        if index >= len(items):
            break
        os.write(2, b"%s%d\n" % (STARTING, index))
        nextitem = items[index + 1] if index + 1 < len(items) else None
        items[index].ihook.pytest_runtest_protocol(item=items[index], nextitem=nextitem)
        STATE["position"] = index + 1
        if time.perf_counter() - started > budget_s:
            break
    progress()


def give_up(outcome):
    # The next test, run alone, did not come back: record it and tear down for the one after.
    items, index = STATE["items"], STATE["position"]
    nextitem = items[index + 1] if index + 1 < len(items) else None
    STATE["plan"].tests[items[index].nodeid] = {"outcome": outcome, "seconds": 0.0}
    STATE["session"]._setupstate.teardown_exact(nextitem)
    STATE["position"] = index + 1
    progress()


def finish():
    plan, session, config = STATE["plan"], STATE["session"], STATE["config"]
    bad = any(t["outcome"] not in ("passed", "skipped", "xfailed") for t in plan.tests.values())
    session.exitstatus = 1 if bad or plan.errors else 0
    config.hook.pytest_sessionfinish(session=session, exitstatus=session.exitstatus)
    config._ensure_unconfigure()
    with open("/output/report.json", "w") as out:
        json.dump({"tests": plan.tests, "collect_errors": plan.errors,
                   "collected": len(STATE["items"]), "used": sorted(plan.used)}, out)


STATE = {"position": 0, "items": []}
STARTING = STARTING.encode()
begin()
"""
#: Starts the line the driver writes to stderr before each test (then the test's index).
STARTING = "\x01#"


@dataclass
class SuiteResult:
    """What a suite's session gave: the report (tests: {nodeid: {outcome, seconds, detail}},
    collect_errors, collected, used), and the calls' results (fuel, output)."""

    report: dict[str, object]
    calls: list[sw.ExecutionResult] = field(default_factory=list)

    @property
    def fuel(self) -> int:
        return sum(call.metrics.fuel_consumed for call in self.calls)


class SuiteError(AssertionError):
    """A call of the driver failed in a way no test explains (a bug of the driver, or the
    session gave up)."""


def run_suite(box: sw.Sandbox, package: str, paths: tuple[str, ...], *,
              deselect: dict[str, str], xfail: dict[str, str],
              budget_s: float = CALL_BUDGET_S) -> SuiteResult:
    """Run pytest on `paths` (test modules or directories of `package`'s sdist) in a session
    on `box`'s runtime; `deselect` and `xfail` map node ids (or prefixes of them ending
    before a `::` or `[`, or patterns with `*`) to reasons."""
    files, grafts = guest_files(box, package, paths)
    args = [*PYTEST_ARGS, *PACKAGE_ARGS[package], *(f"/input/{path}" for path in paths)]
    run = {"grafts": grafts, "args": args, "deselect": deselect, "xfail": xfail}
    calls: list[sw.ExecutionResult] = []

    with sw.Session(sandbox=box, policy=sw.REPORT_ONLY_POLICY, limits=SUITE_LIMITS,
                    idle_timeout_s=None) as session:
        def call(code: str, **options: object) -> sw.ExecutionResult:
            result = session.execute(code, **options)  # type: ignore[arg-type]
            calls.append(result)
            rolled_back = result.session is not None and result.session.rolled_back
            if result.status != "succeeded" and not rolled_back:
                raise SuiteError(f"{code[:40]!r}: {result.status} {result.error}\n"
                                 f"{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
            return result

        def position(result: sw.ExecutionResult) -> tuple[int, int]:
            state = json.loads(result.files["progress.json"])
            return int(state["position"]), int(state["total"])

        first = call(f"RUN = {run!r}\nSTARTING = {STARTING!r}\n" + GUEST_DRIVER, files=files)
        if first.status != "succeeded":
            raise SuiteError(f"set-up: {first.status} {first.error}\n{first.stderr[-3000:]}")
        collected = call("collect()")
        if collected.status != "succeeded":
            raise SuiteError(f"collection: {collected.status} {collected.error}")
        done, total = position(collected)
        while done < total:
            result = call(f"run({budget_s!r}, {total})")
            if result.status != "succeeded":
                # Rolled back: the tests before the one it was in again, then that one
                # alone, and past it if it does not come back again either.
                started = re.findall(f"^{re.escape(STARTING)}(\\d+)$", result.stderr, re.M)
                culprit = int(started[-1]) if started else done
                if culprit > done:
                    result = call(f"run({budget_s!r}, {culprit - done})")
                    if result.status != "succeeded":
                        raise SuiteError(f"tests {done}..{culprit} passed, then did not: "
                                         f"{result.status} {result.error}")
                result = call("run(0, 1)")
                if result.status != "succeeded":
                    outcome = "timeout" if result.status == "timeout" else "crashed"
                    result = call(f"give_up({outcome!r})")
            done, total = position(result)
        final = call("finish()")
        if final.status != "succeeded":
            raise SuiteError(f"finish: {final.status} {final.error}")
        return SuiteResult(json.loads(final.files["report.json"]), calls)


if __name__ == "__main__":
    for fetched in fetch_all():
        print(fetched)
    try:
        with sw.Sandbox(runtime=RUNTIME, policy=sw.REPORT_ONLY_POLICY,
                        limits=SUITE_LIMITS) as sandbox:
            sandbox.warm_up()
            print(f"{len(site_zip(sandbox)):,} bytes of site.zip, its bytecode compiled")
    except sw.RuntimeNotFoundError:
        print(f"the {RUNTIME} runtime is not installed: bytecode compiled on first use")
