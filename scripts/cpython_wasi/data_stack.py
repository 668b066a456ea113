#!/usr/bin/env python3
"""The data runtime (python-data): numpy and pandas cross-built for wasm32-wasip1 from their
pinned PyPI sdists and linked statically into our CPython (issue 30). Stages on top of
build.py's finished `cross` stage (read-only inputs: ctx.sdk, ctx.sysroot, ctx.src,
ctx.cross_dir, ctx.build_python, ctx.downloads); each writes only into data_dir(ctx, name)
and starts from an empty directory when rerun:

  cxx        sysroot = wasi-libc + Debian's libc++/libc++abi 19 for wasm32; the C++ ABI stub
             (a throw aborts); the build tools (meson, ninja, Cython, versioneer) in a venv,
             pip-installed by version and SHA-256; the compiler wrapper (data/ccwrap.py), the
             host python (native build-python with the cross sysconfig), the meson cross file
  numpy      numpy 2.4.6: sdist + data/numpy-*.patch, numpy's vendored meson, ninja, install
  pandas     pandas 3.0.6: sdist + data/pandas-*.patch, meson, ninja, install
  data-link  python-data-sandbox.wasm: the lean reactor's link (sandbox_entry.c with
             -DSANDBOX_EXTRA_BUILTINS) + the 58 extension modules registered as built-ins
             (ext_inittab.c), libc++, the stub; fails on an unexpected duplicate symbol
  data-site  the Python side as wheels for the image builder: numpy and pandas (their .py
             files as meson installed them, reproducible wheels) + the pinned
             python-dateutil, six and tzdata wheels

    python3 scripts/cpython_wasi/data_stack.py --work DIR [STAGE ...]   # development driver

What was learnt building it: /work/probe-data/FINDINGS.md (the probe) and LOG.md.
"""

from __future__ import annotations

import argparse
import base64
import fnmatch
import hashlib
import html
import io
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
import zipfile
from collections.abc import Iterator
from pathlib import Path

import build
from build import BuildError, check_pinned, log, run, sha256_file

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"

# --------------------------------------------------------------------------- pinned inputs
NUMPY_VERSION = "2.4.6"
PANDAS_VERSION = "3.0.6"
LIBCXX_DEBIAN_VERSION = "1:19.1.7-3~deb12u1"  # bookworm's, the release of our clang-19
DATA_INPUTS = {
    # PyPI: the sdist/wheel file of the simple index (https://pypi.org/simple/<project>/).
    # Not `pip download --no-binary`: meson-python has no prepare_metadata_for_build_wheel,
    # so pip would build numpy natively just to read its metadata.
    "numpy": {
        "file": f"numpy-{NUMPY_VERSION}.tar.gz",
        "sha256": "f3a3570c4a2a16746ac2c31a7c7c7b0c186b95ce902e33db6f28094ed7387dda",
        "size": 20735807,
        "project": "numpy",
        "pypi": f"numpy-{NUMPY_VERSION}.tar.gz",
    },
    "pandas": {
        "file": f"pandas-{PANDAS_VERSION}.tar.gz",
        "sha256": "66b07ef7315a31bfe1089cd3d71a7de781c9dca986762d0b4fe7c0ef17465d10",
        "size": 4667686,
        "project": "pandas",
        "pypi": f"pandas-{PANDAS_VERSION}.tar.gz",
    },
    # pandas' pure-Python dependencies (tzdata: the sandbox has no system tz database).
    "python-dateutil": {
        "file": "python_dateutil-2.9.0.post0-py2.py3-none-any.whl",
        "sha256": "a8b2bc7bffae282281c8140a97d3aa9c14da0b136dfe83f850eea9a5f7470427",
        "size": 229892,
        "project": "python-dateutil",
        "pypi": "python_dateutil-2.9.0.post0-py2.py3-none-any.whl",
    },
    "six": {
        "file": "six-1.17.0-py2.py3-none-any.whl",
        "sha256": "4721f391ed90541fddacab5acf947aa0d3dc7d27b2e1e8eda2be8970586c3274",
        "size": 11050,
        "project": "six",
        "pypi": "six-1.17.0-py2.py3-none-any.whl",
    },
    "tzdata": {
        "file": "tzdata-2026.6-py2.py3-none-any.whl",
        "sha256": "0a10eec6e13ef16b627fabed9a5f2ba61a62b1c67f327305f4e7e412a70b4aec",
        "size": 348210,
        "project": "tzdata",
        "pypi": "tzdata-2026.6-py2.py3-none-any.whl",
    },
    # Debian bookworm: C++ headers and static libraries for wasm32-wasi (numpy has C++).
    # From the Debian pool (build.fetch_from_pool), else `apt-get download`.
    "libc++": {
        "file": "libc++-19-dev-wasm32_1%3a19.1.7-3~deb12u1_all.deb",
        "sha256": "e2c3a1ec97f42ff660688e7a435dab7cb785211d9e9559eef86192a218c24ce8",
        "size": 1457508,
        "pool": "l/llvm-toolchain-19/libc++-19-dev-wasm32_19.1.7-3~deb12u1_all.deb",
        "apt_download": f"libc++-19-dev-wasm32={LIBCXX_DEBIAN_VERSION}",
        "apt_file": "libc++-19-dev-wasm32_1%3a19.1.7-3~deb12u1_all.deb",
    },
    "libc++abi": {
        "file": "libc++abi-19-dev-wasm32_1%3a19.1.7-3~deb12u1_all.deb",
        "sha256": "a0835ee4cf44d41ee988e77be30d023134160a80bdea02b03a6a384c3f048e4d",
        "size": 197980,
        "pool": "l/llvm-toolchain-19/libc++abi-19-dev-wasm32_19.1.7-3~deb12u1_all.deb",
        "apt_download": f"libc++abi-19-dev-wasm32={LIBCXX_DEBIAN_VERSION}",
        "apt_file": "libc++abi-19-dev-wasm32_1%3a19.1.7-3~deb12u1_all.deb",
    },
}
# The suites the libc++ debs come from, added to build.private_apt's configuration when it
# does not list them (nothing is installed from them).
DATA_APT_LINES = ["deb {uri} bookworm main"]
DEBIAN_KEYRING = "/usr/share/keyrings/debian-archive-keyring.gpg"

# Build tools, pip-installed into a venv of the cxx stage (`--require-hashes`): version and
# the SHA-256 of every PyPI file pip may pick (x86_64 Linux; Cython's pure wheel elsewhere,
# which gives the same C output, only slower).
BUILD_TOOLS = {
    "meson": ("1.12.1", {
        "meson-1.12.1-py3-none-any.whl":
            "930bc7542cbd9f57009e182fd014eba48cf1a0180a7b9006d2d32d8f168d8b02",
    }),
    "ninja": ("1.13.2", {
        "ninja-1.13.2-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl":
            "65a24341b5ac09fcadcc37082660be40a94174e51a937fabf6e2cae26225fa2c",
    }),
    "cython": ("3.3.1", {
        "cython-3.3.1-py3-none-any.whl":
            "61abc7feedd20dac6c4ff7ab3a30e17136a067b242ab9253e2b4a6d9a72c2b61",
        "cython-3.3.1-cp311-cp311-manylinux2014_x86_64.manylinux_2_17_x86_64.manylinux_2_28_"
        "x86_64.whl": "26a28e0ca5dffe9c7d69d1e3a0f78cb74f41b2b6b40771f620262a5d04862a00",
        "cython-3.3.1-cp312-cp312-manylinux2014_x86_64.manylinux_2_17_x86_64.manylinux_2_28_"
        "x86_64.whl": "215669fd0ce792080cd4d0748db7e1e31f424b6706a6220d08339895e6a3a03a",
        "cython-3.3.1-cp313-cp313-manylinux2014_x86_64.manylinux_2_17_x86_64.manylinux_2_28_"
        "x86_64.whl": "85be5442e8f465c7c5e80837ac2a85a2ce04034e616445113092e85b65d0ab94",
    }),
    # pandas' generate_version.py imports it (its `toml` extra is empty on Python >= 3.11).
    "versioneer": ("0.29", {
        "versioneer-0.29-py3-none-any.whl":
            "0f1a137bb5d6811e96a79bb0486798aeae9b9c6efc24b389659cebb0ee396cb9",
    }),
}
# For the native build-python 3.13, which runs pandas' generate_pxi.py (Cython.Tempita): the
# pure wheel, installed with --target (the venv's Cython is for the venv's Python).
HOST_TOOLS = {
    "cython": ("3.3.1", {
        "cython-3.3.1-py3-none-any.whl":
            "61abc7feedd20dac6c4ff7ab3a30e17136a067b242ab9253e2b4a6d9a72c2b61",
    }),
}
# The LLVM tools the stages call (bookworm's llvm-19, as build.py's sdk wrappers do).
LLVM = {"clang": "clang-19", "clang++": "clang++-19", "ar": "llvm-ar-19", "nm": "llvm-nm-19",
        "strip": "llvm-strip-19"}

# --------------------------------------------------------------------------- build knobs
STAGES = ["cxx", "numpy", "pandas", "data-link", "data-site"]
#: The stages whose extension modules data-link links (ext/extensions.json each), and the
#: C library stages they link: plot_stack.py's and sci_stack.py's.
EXT_STAGES = ("numpy", "pandas", "pillow", "kiwisolver", "contourpy", "matplotlib", "scipy",
              "sklearn", "statsmodels")
LIB_STAGES = ("freetype", "qhull", "libjpeg", "openblas")
EXT_SUFFIX = f".cpython-{build.PY_MINOR.replace('.', '')}-wasm32-wasi.so"
C_ARGS = [build.WASM_OPT, "-DNDEBUG"]
# -fexceptions: numpy's C++ uses throw/try; the wasm backend lowers invokes to plain calls
# (catch blocks are dead) and a throw calls the stub, which aborts (data/cxa_stub.c).
CPP_ARGS = [build.WASM_OPT, "-DNDEBUG", "-fexceptions"]
# No BLAS/LAPACK (numpy's f2c'd lapack_lite), no SIMD dispatch, no threads; the meson
# options numpy's build exposes for that. -Dpython.bytecompile=-1: no .pyc (the image
# compiles the sources itself).
NUMPY_MESON_OPTIONS = [
    "--buildtype=release", "-Db_ndebug=if-release", "-Dpython.bytecompile=-1",
    "-Dallow-noblas=true", "-Dblas=none", "-Dlapack=none",
    "-Ddisable-optimization=true", "-Dcpu-baseline=none", "-Dcpu-dispatch=none",
    "-Ddisable-svml=true", "-Ddisable-highway=true", "-Ddisable-intel-sort=true",
    "-Ddisable-threading=true",
]
PANDAS_MESON_OPTIONS = ["--buildtype=release", "-Db_ndebug=if-release",
                        "-Dpython.bytecompile=-1"]
# numpy's test-only extension modules are not linked (their tests are not shipped either).
LINK_EXCLUDE = re.compile(r"_tests$|^numpy\._core\._simd$")
# Of python-data-sandbox.wasm: the 8 MiB stack + its static data, 18,901,296 bytes in all
# with numpy 2.4.6, pandas 3.0.6, the plotting stack, scipy and scikit-learn and the 64 KiB
# request area, and 64 KiB more with the tool answer area since session 20 (14,691,696
# before scipy and scikit-learn; wasm-ld says how much is needed
# when this is too small; the lean runtime needs ~11.5 MB). The snapshot's memory is what
# the init run used.
DATA_INITIAL_MEMORY = 19 * 1024 * 1024
REACTOR_EXPORTS = ["-Wl,--export=sandbox_init", "-Wl,--export=sandbox_resume",
                   "-Wl,--export=sandbox_request", "-Wl,--export=sandbox_answer"]
# As the lean reactor (build.SANDBOX_MK): deterministic entropy and clock during the init.
REACTOR_WRAPS = ["-Wl,--wrap=__wasi_random_get", "-Wl,--wrap=__wasi_clock_time_get"]
# wasi-libc's printf/scanf without long double abort on it; numpy's longdouble needs them.
EXTRA_LINK_LIBS = ["-lc-printscan-long-double"]
# The Python side: what is left out of the numpy/pandas wheels, and why.
SITE_DROP_DIRS = {
    "tests": "test suites (issue 30 runs a chosen subset separately)",
    "__pycache__": "bytecode: the image compiles every module from its source",
}
SITE_DROP_PATHS = {
    "numpy/_core/include": "C headers (nothing compiles in the sandbox)",
    "numpy/_core/lib": "libnpymath.a and pkg-config files (static C library)",
    "numpy/random/lib": "libnpyrandom.a (static C library)",
    "numpy/f2py/src": "C sources f2py compiles into modules (no compiler in the sandbox)",
    "numpy/random/_examples": "Cython/cffi/numba build examples, not importable as shipped",
    "numpy/conftest.py": "pytest configuration",
    "pandas/conftest.py": "pytest configuration",
}
SITE_DROP_SUFFIXES = {
    ".pyc": "bytecode (see __pycache__)",
    EXT_SUFFIX: "extension modules: their code is linked into python-data-sandbox.wasm",
    ".a": "static libraries (linked in)",
    ".pxd": "Cython declarations (for building against numpy/pandas)",
    ".pyi": "type stubs: read by type checkers, never at run time (they would sit in the "
            "image's memory)",
    **dict.fromkeys((".pyx", ".pyx.in", ".pyx.tp", ".pxd.tp", ".pxi", ".pxi.in", ".c", ".cpp",
                     ".h"), "Cython, C and C++ sources and templates (compiled in)"),
    "/meson.build": "build files",
}
# Reproducible wheels: every member with this time and mode, sorted, deflated at level 9.
WHEEL_DATE = (1980, 1, 1, 0, 0, 0)
WHEEL_TAG = "py3-none-any"
#: In the numpy/pandas wheels' .dist-info: the built-in modules their code needs, a line each.
BUILTINS_FILE = "sandbox-wasm-builtins.txt"
WHEEL_GENERATOR = ("sandbox-wasm scripts/cpython_wasi/data_stack.py (the Python files only: "
                   "the extension modules are built into python-data-sandbox.wasm)")


# --------------------------------------------------------------------------- helpers
def data_dir(ctx: build.Ctx, stage: str) -> Path:
    """Where a data stage writes its output (the only directory it writes): its keyed
    stage directory (build.py), or below the development driver's work directory."""
    if isinstance(ctx, build.Ctx):
        return ctx.stage_dir(stage)
    return ctx.dir / stage


def fresh_dir(ctx: build.Ctx, stage: str, keep: tuple[str, ...] = ()) -> Path:
    """The stage's output directory, emptied (but for `keep`)."""
    out = data_dir(ctx, stage)
    if out.exists():
        for child in out.iterdir():
            if child.name in keep:
                continue
            if child.is_dir() and not child.is_symlink():
                shutil.rmtree(child)
            else:
                child.unlink()
    out.mkdir(parents=True, exist_ok=True)
    return out


def data_input_path(ctx: build.Ctx, key: str) -> Path:
    return ctx.downloads / DATA_INPUTS[key]["file"]


def ok_data_input(ctx: build.Ctx, key: str) -> bool:
    path = data_input_path(ctx, key)
    return path.is_file() and path.stat().st_size == DATA_INPUTS[key]["size"]


def tool_env(ctx: build.Ctx, **extra: str) -> dict:
    """The environment of the meson/ninja runs: the cxx stage's wrappers and venv first."""
    cxx = data_dir(ctx, "cxx")
    return {
        "PATH": f"{cxx / 'bin'}:{cxx / 'venv' / 'bin'}:{os.environ.get('PATH', '/usr/bin:/bin')}",
        "SOURCE_DATE_EPOCH": build.source_date_epoch(ctx),
        "PYTHONHASHSEED": "0",
        **extra,
    }


def pip_requirements(tools: dict) -> str:
    lines = []
    for name, (version, files) in sorted(tools.items()):
        hashes = " ".join(f"--hash=sha256:{sha}" for sha in sorted(files.values()))
        lines.append(f"{name}=={version} {hashes}")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- fetch
def _pypi_fetch(ctx: build.Ctx, key: str, dest_dir: Path) -> Path:
    """The pinned file from PyPI's simple index; its listed and actual SHA-256 checked."""
    spec = DATA_INPUTS[key]
    index = f"https://pypi.org/simple/{spec['project']}/"
    log(f"fetch {key}: {spec['pypi']} from {index}")
    with urllib.request.urlopen(index, timeout=60) as resp:
        page = resp.read().decode("utf-8", "replace")
    url = None
    for href in re.findall(r'href="([^"]+)"', page):
        href = html.unescape(href)
        base, _, fragment = href.partition("#")
        if base.rsplit("/", 1)[-1] == spec["pypi"]:
            if fragment and fragment != f"sha256={spec['sha256']}":
                raise BuildError(f"fetch {key}: the index lists {fragment}, not the pinned "
                                 f"sha256={spec['sha256']}")
            url = urllib.request.urljoin(index, base)
            break
    if url is None:
        raise BuildError(f"fetch {key}: {spec['pypi']} is not listed at {index}")
    got = dest_dir / spec["file"]
    with urllib.request.urlopen(url, timeout=600) as resp, open(got, "wb") as out:
        shutil.copyfileobj(resp, out)
    return got


def data_apt(ctx: build.Ctx) -> list[str]:
    """build.private_apt's options, with the suites of DATA_APT_LINES added (in a
    configuration and state of their own) when its sources.list does not have them."""
    opts = build.private_apt(ctx)
    source_opt = next(o for o in opts if o.startswith("-oDir::Etc::SourceList="))
    listed = Path(source_opt.split("=", 1)[1]).read_text()
    uri = build.debian_mirror()
    wanted = [line.format(uri=f"[signed-by={DEBIAN_KEYRING}] {uri}") for line in DATA_APT_LINES]
    missing = [line for line in wanted if line not in listed.splitlines()]
    if not missing:
        return opts
    root = ctx.apt / "data"
    for d in (root / "state" / "lists" / "partial", root / "cache" / "archives" / "partial"):
        d.mkdir(parents=True, exist_ok=True)
    (root / "sources.list").write_text(listed.rstrip("\n") + "\n" + "\n".join(missing) + "\n")
    replaced = ("-oDir::Etc::SourceList=", "-oDir::State=", "-oDir::Cache=")
    return [o for o in opts if not o.startswith(replaced)] + [
        f"-oDir::Etc::SourceList={root / 'sources.list'}",
        f"-oDir::State={root / 'state'}",
        f"-oDir::Cache={root / 'cache'}",
    ]


def fetch_data_inputs(ctx: build.Ctx) -> None:
    """Download the missing DATA_INPUTS into ctx.downloads (content-addressed by name and
    checked against the pins), then check every one."""
    ctx.downloads.mkdir(parents=True, exist_ok=True)
    apt_opts = None
    for key, spec in DATA_INPUTS.items():
        if ok_data_input(ctx, key):
            continue
        if "pool" in spec:
            log(f"fetch {key}: Debian pool {spec['pool']}")
            if build.fetch_from_pool(spec["pool"], data_input_path(ctx, key), spec["sha256"]):
                continue
        with tempfile.TemporaryDirectory(dir=ctx.downloads, prefix=".dl-") as td:
            if "pypi" in spec:
                got = _pypi_fetch(ctx, key, Path(td))
            else:
                if shutil.which("apt-get") is None:
                    raise BuildError(f"fetch {key}: the Debian archive is unreachable and this "
                                     f"machine has no apt-get; put {spec['file']} (SHA-256 "
                                     f"{spec['sha256']}) into {ctx.downloads}")
                if apt_opts is None:
                    apt_opts = data_apt(ctx)
                    log("fetch: apt-get update (private configuration)")
                    run(ctx, ["apt-get", *apt_opts, "update", "-q"])
                log(f"fetch {key}: apt-get download {spec['apt_download']}")
                run(ctx, ["apt-get", *apt_opts, "download", spec["apt_download"]], cwd=td)
                got = Path(td) / spec["apt_file"]
            if not got.is_file():
                raise BuildError(f"fetch {key}: {got.name} was not downloaded")
            check_pinned(f"fetch {key}", got, spec["sha256"])
            got.rename(data_input_path(ctx, key))
    for key, spec in DATA_INPUTS.items():
        check_pinned(f"input {spec['file']}", data_input_path(ctx, key), spec["sha256"])
    log("fetch: " + ", ".join(f"{k} ok" for k in DATA_INPUTS))


# --------------------------------------------------------------------------- stage: cxx
CROSS_FILE = """\
# Generated by scripts/cpython_wasi/data_stack.py (stage cxx): numpy and pandas for wasm32-wasi.
[binaries]
c = '{bin}/wasm32-wasi-clang'
cpp = '{bin}/wasm32-wasi-clang++'
ar = '{ar}'
strip = '{strip}'
nm = '{nm}'
python = '{bin}/hostpython'
cython = '{venv}/bin/cython'
pkg-config = 'false'

[built-in options]
c_args = {c_args}
cpp_args = {cpp_args}

[properties]
needs_exe_wrapper = true
# wasm32's long double is IEEE binary128 (numpy would run a test program to find out)
longdouble_format = 'IEEE_QUAD_LE'

[host_machine]
system = 'wasi'
cpu_family = 'wasm32'
cpu = 'wasm32'
endian = 'little'
"""

CXX_SMOKE = """\
#include <stdexcept>
#include <vector>
int main(int argc, char **argv) {
    std::vector<int> v(3, argc);
    if (v.size() != 3) throw std::runtime_error("no");
    return 0;
}
"""


def stage_cxx(ctx: build.Ctx) -> None:
    out = fresh_dir(ctx, "cxx")
    # meson's python module adds the cross sysconfig's INCLUDEPY (/usr/local/include/python3.13)
    # to every compile, before the cross build's own pyconfig.h: the host must not have one.
    host_include = Path(f"/usr/local/include/python{build.PY_MINOR}")
    if host_include.exists():
        raise BuildError(f"{host_include} exists on this machine: the numpy/pandas compiles "
                         "would find its (native) pyconfig.h before the wasm32 one")
    # 1. The sysroot: wasi-libc (as the sdk stage unpacked it) + libc++/libc++abi for wasm32.
    sysroot = out / "sysroot"
    for sub in ("include", "lib"):
        shutil.copytree(ctx.sysroot / sub, sysroot / sub, symlinks=True)
    debs = out / "debs"
    for key in ("libc++", "libc++abi"):
        build.unpack_deb(data_input_path(ctx, key), debs)
    # The headers and libraries are symlinks into usr/lib/llvm-19: copy what they point to.
    shutil.copytree(debs / "usr/include/wasm32-wasi/c++/v1",
                    sysroot / "include/wasm32-wasi/c++/v1")
    for lib in ("libc++.a", "libc++abi.a"):
        shutil.copyfile(debs / "usr/lib/wasm32-wasi" / lib, sysroot / "lib/wasm32-wasi" / lib)
    shutil.rmtree(debs)
    # 2. The compiler wrappers (data/ccwrap.py, its renames), the host python, the cross file.
    share, bindir, libdir = out / "share", out / "bin", out / "lib"
    for d in (share, bindir, libdir):
        d.mkdir()
    for name in ("ccwrap.py", "renames.txt"):
        shutil.copyfile(DATA / name, share / name)
    wrapper_env = (
        f"export DATA_CC_DRIVER_C={shlex.quote(LLVM['clang'])} "
        f"DATA_CC_DRIVER_CXX={shlex.quote(LLVM['clang++'])} DATA_CC_AR={shlex.quote(LLVM['ar'])}"
        f"\nexport DATA_CC_SYSROOT={shlex.quote(str(sysroot))} "
        f"DATA_CC_RENAMES={shlex.quote(str(share / 'renames.txt'))}\n"
    )
    for name, lang in (("wasm32-wasi-clang", "c"), ("wasm32-wasi-clang++", "c++")):
        build.write_exe(bindir / name, f"#!/bin/sh\n{wrapper_env}exec "
                        f"{shlex.quote(sys.executable)} {shlex.quote(str(share / 'ccwrap.py'))} "
                        f"{lang} \"$@\"\n")
    # meson runs numpy's code generators and asks sysconfig for the include directories and
    # the extension suffix with this: the native build-python with the cross build's
    # sysconfig, as CPython's own PYTHON_FOR_BUILD does. DATA_HOST_PYTHONPATH adds to its path.
    sysconfig_dir = ctx.cross_dir / "build" / f"lib.wasi-wasm32-{build.PY_MINOR}"
    q = shlex.quote
    build.write_exe(bindir / "hostpython", "\n".join([
        "#!/bin/sh",
        f"export _PYTHON_PROJECT_BASE={q(str(ctx.cross_dir))} _PYTHON_HOST_PLATFORM=wasi-wasm32",
        "export _PYTHON_SYSCONFIGDATA_NAME=_sysconfigdata__wasi_wasm32-wasi",
        f"export _PYTHON_SYSCONFIGDATA_PATH={q(str(sysconfig_dir))}",
        f"export PYTHONPATH={q(str(ctx.src / 'Lib'))}"
        "${DATA_HOST_PYTHONPATH:+:$DATA_HOST_PYTHONPATH}",
        f"exec {q(str(ctx.build_python))} \"$@\"",
    ]) + "\n")
    # 3. The build tools.
    venv = out / "venv"
    log("cxx: build tools venv (pip --require-hashes)")
    run(ctx, [sys.executable, "-m", "venv", venv])
    pip = [venv / "bin" / "python", "-m", "pip", "install", "--disable-pip-version-check",
           "--no-input", "--no-deps", "--only-binary", ":all:", "--require-hashes"]
    (out / "requirements.txt").write_text(pip_requirements(BUILD_TOOLS))
    run(ctx, [*pip, "-r", out / "requirements.txt"])
    (out / "host-requirements.txt").write_text(pip_requirements(HOST_TOOLS))
    run(ctx, [*pip, "--target", out / "hostsite", "--python-version", build.PY_MINOR,
              "--implementation", "py", "--abi", "none", "--platform", "any",
              "-r", out / "host-requirements.txt"])
    for tool, version_of in (("meson", "meson"), ("ninja", "ninja"), ("cython", "cython")):
        got = run(ctx, [venv / "bin" / tool, "--version"], capture=True).stdout.decode()
        if BUILD_TOOLS[version_of][0] not in got:
            raise BuildError(f"cxx: {tool} --version says {got.strip()!r}")
    (out / "cross.ini").write_text(CROSS_FILE.format(
        bin=bindir, venv=venv, ar=LLVM["ar"], strip=LLVM["strip"], nm=LLVM["nm"],
        c_args=repr(C_ARGS), cpp_args=repr(CPP_ARGS)))
    # 4. The C++ ABI stub (a throw aborts: Debian's libc++abi has no exception runtime).
    run(ctx, [bindir / "wasm32-wasi-clang", "-O2", "-c", DATA / "cxa_stub.c",
              "-o", libdir / "cxa_stub.o"])
    # Smoke: C++ with libc++ links and runs to the end without an exception runtime.
    with tempfile.TemporaryDirectory(dir=out) as td:
        src = Path(td) / "t.cpp"
        src.write_text(CXX_SMOKE)
        run(ctx, [bindir / "wasm32-wasi-clang++", *CPP_ARGS, src, libdir / "cxa_stub.o",
                  "-lc++", "-lc++abi", "-o", Path(td) / "t.wasm"])
        run(ctx, [build.wasmtime_cli(ctx), "run", Path(td) / "t.wasm"])
    log(f"cxx: sysroot with libc++ {LIBCXX_DEBIAN_VERSION}, tools "
        + ", ".join(f"{k} {v[0]}" for k, v in BUILD_TOOLS.items()))


# --------------------------------------------------------------------------- numpy, pandas
def unpack_sdist(ctx: build.Ctx, key: str, dest: Path) -> Path:
    dest.mkdir(parents=True)
    build.unpack_tar(data_input_path(ctx, key), dest)
    (src,) = [p for p in dest.iterdir() if p.is_dir()]
    patches = sorted(DATA.glob(f"{key}-*.patch"))
    if patches and shutil.which("patch") is None:
        raise BuildError("this machine has no `patch` (Debian: the patch package)")
    for patch in patches:
        log(f"{key}: apply {patch.name}")
        run(ctx, ["patch", "-d", src, "-p1", "--forward", "--batch", "--fuzz=0",
                  "--no-backup-if-mismatch", "-i", patch])
    return src


def site_packages(install: Path) -> Path:
    """The site-packages directory `meson install --destdir` wrote below `install`."""
    found = sorted(install.glob(f"**/lib/python{build.PY_MINOR}/site-packages"))
    if len(found) != 1:
        raise BuildError(f"expected one site-packages below {install}, found {found}")
    return found[0]


def mangle(fullname: str) -> str:
    """The init function data/ccwrap.py renamed a module's to (its full name encoded)."""
    return "PyInit_" + fullname.replace("_", "_U").replace(".", "_D")


def copy_archive(ctx: build.Ctx, src: Path, dest: Path) -> None:
    """Copy a static library; a thin archive (meson makes one of every library it does not
    install: it only names its members' files) becomes a regular one with the same members
    in the same order."""
    with open(src, "rb") as f:
        thin = f.read(8) == b"!<thin>\n"
    if not thin:
        shutil.copyfile(src, dest)
        return
    listed = run(ctx, [LLVM["ar"], "t", src.name], cwd=src.parent, capture=True)
    members = [src.parent / m for m in listed.stdout.decode().splitlines() if m]
    # q: append (r would replace members of the same name); s: the symbol index
    run(ctx, [LLVM["ar"], "qcs", dest, *members])


def collect_extensions(ctx: build.Ctx, build_dir: Path, out: Path) -> list[dict]:
    """Copy the extension archives (data/ccwrap.py's `-shared` output) and the static
    libraries they need into out/ext/; write out/ext/extensions.json. A module's import name
    is where meson installs it (pandas' Cython utility module is built at the top of the
    build directory but installed as pandas._libs._cyutility); its init symbol comes from
    where it was built (what ccwrap.py renamed)."""
    installed = json.loads((build_dir / "meson-info" / "intro-installed.json").read_text())
    installed = {os.path.realpath(k): v for k, v in installed.items()}
    ext, libdir = out / "ext", out / "ext" / "lib"
    libdir.mkdir(parents=True)
    libs_by_name: dict[str, Path] = {}
    modules = []
    for manifest in sorted(build_dir.rglob(f"*{EXT_SUFFIX}.link.json")):
        archive = manifest.with_name(manifest.name[: -len(".link.json")])
        rel = archive.relative_to(build_dir)
        if any(p.endswith(".p") or p.startswith("meson-") for p in rel.parts[:-1]):
            continue
        dest = installed.get(os.path.realpath(archive))
        if dest is None or "/site-packages/" not in dest:
            raise BuildError(f"{rel}: meson does not install it into site-packages")
        name = dest.split("/site-packages/", 1)[1][: -len(EXT_SUFFIX)].replace("/", ".")
        built_as = str(rel)[: -len(EXT_SUFFIX)].replace("/", ".")
        info = json.loads(manifest.read_text())
        libs = []
        for lib in info["archives"]:
            path = (build_dir / lib).resolve()
            prior = libs_by_name.setdefault(path.name, path)
            if prior != path:
                raise BuildError(f"two static libraries named {path.name}: {prior}, {path}")
            if not (libdir / path.name).exists():
                copy_archive(ctx, path, libdir / path.name)
            libs.append(f"ext/lib/{path.name}")
        copy_archive(ctx, archive, ext / f"{name}.a")
        modules.append({"name": name, "init": mangle(built_as), "archive": f"ext/{name}.a",
                        "libraries": libs, "link_flags": info["libs"], "cxx": info["cxx"]})
    modules.sort(key=lambda m: m["name"])
    (ext / "extensions.json").write_text(json.dumps(modules, indent=1) + "\n")
    return modules


def scrub_build_paths(path: Path, replacements: dict[str, str]) -> None:
    """Replace absolute build paths in a generated text file (numpy's __config__.py records
    the compiler and host python commands), so none reaches the image."""
    text = path.read_text()
    for old, new in replacements.items():
        text = text.replace(old, new)
    path.write_text(text)


def meson_build(ctx: build.Ctx, key: str, src: Path, meson: list, options: list,
                env: dict, install_args: list) -> Path:
    out = data_dir(ctx, key)
    cxx = data_dir(ctx, "cxx")
    t0 = time.monotonic()
    log(f"{key}: meson setup")
    run(ctx, [*meson, "setup", out / "build", f"--cross-file={cxx / 'cross.ini'}", *options],
        cwd=src, env=env)
    t1 = time.monotonic()
    log(f"{key}: ninja -j{build.MAKE_JOBS} (numpy ~7 min, pandas ~10-15 min on 2 loaded cores)")
    run(ctx, [cxx / "venv" / "bin" / "ninja", "-C", out / "build", f"-j{build.MAKE_JOBS}"],
        env=env)
    t2 = time.monotonic()
    run(ctx, [*meson, "install", "-C", out / "build", "--destdir", out / "install",
              *install_args], env=env)
    log(f"{key}: setup {t1 - t0:.0f}s, ninja {t2 - t1:.0f}s, install {time.monotonic() - t2:.0f}s")
    return site_packages(out / "install")


def stage_numpy(ctx: build.Ctx) -> None:
    out = fresh_dir(ctx, "numpy")
    cxx = data_dir(ctx, "cxx")
    src = unpack_sdist(ctx, "numpy", out / "src")
    # numpy's own meson fork (its `features` module is not upstream).
    meson = [cxx / "venv" / "bin" / "python", src / "vendored-meson" / "meson" / "meson.py"]
    site = meson_build(ctx, "numpy", src, meson, NUMPY_MESON_OPTIONS, tool_env(ctx),
                       ["--tags", "runtime,python-runtime,devel"])
    scrub_build_paths(site / "numpy" / "__config__.py", {f"{cxx}/": "<build>/"})
    modules = collect_extensions(ctx, out / "build", out)
    log(f"numpy: {len(modules)} extension modules")


def stage_pandas(ctx: build.Ctx) -> None:
    out = fresh_dir(ctx, "pandas")
    cxx = data_dir(ctx, "cxx")
    src = unpack_sdist(ctx, "pandas", out / "src")
    # pandas/meson.build asks the host python for numpy.get_include(), and Cython (the venv's
    # Python) needs numpy's .pxd for `cimport numpy`: a stand-in numpy package with the
    # cross-built numpy's headers and .pxd (the real one cannot be imported natively).
    np_site = site_packages(data_dir(ctx, "numpy") / "install")
    fake = out / "fakenumpy" / "numpy"
    shutil.copytree(np_site / "numpy" / "_core" / "include", fake / "_core" / "include")
    for pxd in ("__init__.pxd", "__init__.cython-30.pxd"):
        shutil.copyfile(np_site / "numpy" / pxd, fake / pxd)
    (fake / "__init__.py").write_text(
        "import os\n\n\ndef get_include():\n"
        "    return os.path.join(os.path.dirname(__file__), '_core', 'include')\n")
    env = tool_env(ctx, PYTHONPATH=str(out / "fakenumpy"),
                   DATA_HOST_PYTHONPATH=f"{out / 'fakenumpy'}:{cxx / 'hostsite'}")
    # pandas installs its subpackages without install tags: install everything.
    meson_build(ctx, "pandas", src, [cxx / "venv" / "bin" / "meson"], PANDAS_MESON_OPTIONS,
                env, [])
    modules = collect_extensions(ctx, out / "build", out)
    log(f"pandas: {len(modules)} extension modules")


# --------------------------------------------------------------------------- stage: link
PRINT_VARS_MK = """\
# Generated by scripts/cpython_wasi/data_stack.py: print the cross build's link variables
# (make -C <cross dir> -f Makefile -f this; nothing is built or written there).
data-print-link-vars:
\t@echo 'CC=$(CC)'
\t@echo 'PY_CORE_CFLAGS=$(PY_CORE_CFLAGS)'
\t@echo 'LINKCC=$(LINKCC)'
\t@echo 'PY_CORE_LDFLAGS=$(PY_CORE_LDFLAGS)'
\t@echo 'LINKFORSHARED=$(LINKFORSHARED)'
\t@echo 'LINK_PYTHON_OBJS=$(LINK_PYTHON_OBJS)'
\t@echo 'LIBS=$(LIBS)'
\t@echo 'MODLIBS=$(MODLIBS)'
\t@echo 'SYSLIBS=$(SYSLIBS)'
"""


def cross_link_vars(ctx: build.Ctx, out: Path) -> dict[str, list[str]]:
    """The cross build's compiler and link line (what python.wasm and the lean reactor are
    linked with), read from its Makefile; paths in them are relative to ctx.cross_dir."""
    mk = out / "print-vars.mk"
    mk.write_text(PRINT_VARS_MK)
    # -o: never remake the Makefile itself (config.status would write into the cross dir).
    proc = run(ctx, ["make", "-s", "--no-print-directory", "-C", ctx.cross_dir,
                     "-o", "Makefile", "-o", "Makefile.pre", "-f", "Makefile", "-f", mk,
                     "data-print-link-vars"], capture=True)
    found = {}
    for line in proc.stdout.decode().splitlines():
        key, sep, value = line.partition("=")
        if sep:
            found[key] = shlex.split(value)
    missing = {"CC", "PY_CORE_CFLAGS", "LINKCC", "LINK_PYTHON_OBJS"} - set(found)
    if missing:
        raise BuildError(f"data-link: the cross Makefile gave no {sorted(missing)}")
    return found


def linked_modules(ctx: build.Ctx) -> tuple[list[dict], list[Path]]:
    """The extension modules to link (numpy's and pandas' but the test modules), with the
    absolute paths of their archives, and the static libraries they need."""
    modules, libs = [], []
    for stage in EXT_STAGES:
        out = data_dir(ctx, stage)
        for m in json.loads((out / "ext" / "extensions.json").read_text()):
            if LINK_EXCLUDE.search(m["name"]):
                continue
            modules.append({**m, "archive": out / m["archive"]})
            for lib in m["libraries"]:
                # `@<stage>/<path>`: a C library another stage built (FreeType serves both
                # matplotlib and Pillow: linked once).
                if lib.startswith("@"):
                    owner, _, rel = lib[1:].partition("/")
                    path = data_dir(ctx, owner) / rel
                else:
                    path = out / lib
                if path not in libs:
                    libs.append(path)
    modules.sort(key=lambda m: m["name"])
    for field in ("name", "init"):
        values = [m[field] for m in modules]
        dups = sorted({v for v in values if values.count(v) > 1})
        if dups:
            raise BuildError(f"data-link: two extension modules with the {field} {dups}")
    return modules, libs


def write_inittab(path: Path, modules: list[dict]) -> None:
    """sandbox_register_builtins(): one PyImport_ExtendInittab of a static table (one
    allocation, no realloc garbage left in the snapshot as 58 AppendInittab calls would)."""
    lines = [
        "/* Generated by scripts/cpython_wasi/data_stack.py: the data runtime's statically",
        " * linked extension modules, registered as built-in modules (dotted names: 3.13's",
        " * BuiltinImporter finds them once the parent package is imported). sandbox_entry.c",
        " * calls this before the interpreter starts (-DSANDBOX_EXTRA_BUILTINS). */",
        '#include "Python.h"',
        "",
    ]
    lines += [f"extern PyObject *{m['init']}(void);" for m in modules]
    lines += ["", "static struct _inittab sandbox_builtins[] = {"]
    lines += [f'    {{"{m["name"]}", {m["init"]}}},' for m in modules]
    lines += ["    {NULL, NULL},", "};", "",
              "int sandbox_register_builtins(void) {",
              "    return PyImport_ExtendInittab(sandbox_builtins);", "}", ""]
    path.write_text("\n".join(lines))


def load_allow_list() -> list[tuple[frozenset[str], str, bool]]:
    """data/dup_allow.txt's rules: (modules, symbol pattern, whether a variable is accepted)."""
    rules = []
    for line in (DATA / "dup_allow.txt").read_text().splitlines():
        parts = line.split("#", 1)[0].split()
        if not parts:
            continue
        is_data = len(parts) == 3 and parts[2] == "data"
        if len(parts) != 2 and not is_data:
            raise BuildError(f"data/dup_allow.txt: malformed line {line!r}")
        if is_data and any(c in parts[1] for c in "*?["):
            raise BuildError(f"data/dup_allow.txt: a variable is accepted by its name only: "
                             f"{line!r}")
        rules.append((frozenset(parts[0].split(",")), parts[1], is_data))
    return rules


def global_definitions(ctx: build.Ctx, files: dict[str, Path]) -> dict[str, dict[str, set]]:
    """symbol -> {owner: {nm type letters}} of the non-weak global definitions in `files`
    ({owner: archive or object})."""
    defs: dict[str, dict[str, set]] = {}
    for owner, path in files.items():
        # The toolchain's own llvm-nm (run() puts its directory first on PATH; this call
        # reads the output itself, so it names the tool by path).
        nm = Path(ctx.toolchain_bin) / LLVM["nm"]
        cmd = [str(nm), "--defined-only", "--extern-only", "--format=posix", str(path)]
        with open(ctx.current_log, "ab") as logf:  # the command is logged, not its output
            logf.write(f"\n$ {shlex.join(cmd)}\n".encode())
        proc = subprocess.run(cmd, capture_output=True, check=False)
        if proc.returncode != 0:
            raise BuildError(f"{shlex.join(cmd)} failed: {proc.stderr.decode()[-300:]}")
        for line in proc.stdout.decode("utf-8", "replace").splitlines():
            parts = line.split()
            if len(parts) < 2 or line.endswith(":") or parts[1] in ("W", "V", "w", "v"):
                continue
            defs.setdefault(parts[0], {}).setdefault(owner, set()).add(parts[1])
    return defs


#: llvm-nm's letters of the variables a `data` line of dup_allow.txt accepts (initialised,
#: read-only, zero-initialised).
DATA_KINDS = {"D", "R", "B"}


def check_duplicates(ctx: build.Ctx, ours: dict[str, Path], system: dict[str, Path],
                     report: Path) -> int:
    """Fail on a global defined twice (by our archives, or by one of them and a system
    library: wasi-libc, libc++, libc++abi) that data/dup_allow.txt does not accept (a
    function of one source compiled into several modules; a variable only where a `data`
    line names it); return how many were accepted."""
    rules = load_allow_list()
    defs = global_definitions(ctx, {**ours, **system})
    accepted, refused = [], []
    for symbol in sorted(defs):
        owners = defs[symbol]
        if len(owners) < 2 or not set(owners) & set(ours):
            continue
        kinds = set().union(*owners.values())
        ok = any(set(owners) <= mods and fnmatch.fnmatchcase(symbol, pattern)
                 and (kinds == {"T"} or (is_data and kinds <= DATA_KINDS))
                 for mods, pattern, is_data in rules)
        (accepted if ok else refused).append(f"{symbol} {sorted(kinds)} {sorted(owners)}")
    report.write_text("accepted (data/dup_allow.txt):\n" + "\n".join(accepted)
                      + "\n\nrefused:\n" + "\n".join(refused) + "\n")
    if refused:
        raise BuildError(f"data-link: {len(refused)} duplicate global symbols not on "
                         f"data/dup_allow.txt, e.g. {refused[0]} (all in {report})")
    return len(accepted)


def leak_needles(ctx: build.Ctx) -> list[bytes]:
    """Absolute build paths that must not appear in a shipped file."""
    paths = {ctx.dir, ctx.cross_dir, ctx.src, ctx.sdk, ctx.downloads,
             ctx.build_python_dir, Path.home() / ".cache"}
    paths |= {data_dir(ctx, s) for s in STAGES}
    return sorted({str(p).encode() for p in paths if len(str(p)) > 4})


def check_no_leaks(ctx: build.Ctx, label: str, data: bytes) -> None:
    for needle in leak_needles(ctx):
        if needle in data:
            raise BuildError(f"{label} contains the build path {needle.decode()}")


def data_link(ctx: build.Ctx, out: Path, *, reactor: bool) -> Path:
    """Link the cross build's objects + the extension modules. reactor: the product
    (python-data-sandbox.wasm, as build.py's SANDBOX_MK links python-sandbox.wasm); else a
    command-line python-data.wasm for smoke tests (not shipped)."""
    cxx = data_dir(ctx, "cxx")
    modules, libs = linked_modules(ctx)
    write_inittab(out / "ext_inittab.c", modules)
    (out / "builtins.json").write_text(json.dumps([m["name"] for m in modules], indent=1) + "\n")
    v = cross_link_vars(ctx, out)
    cc = [*v["CC"], *v["PY_CORE_CFLAGS"]]
    if reactor:
        entry = [*cc, "-DSANDBOX_EXTRA_BUILTINS", "-c", HERE / "sandbox_entry.c",
                 "-o", out / "sandbox_entry.o"]
    else:
        entry = [*cc, "-c", DATA / "cli_main.c", "-o", out / "sandbox_entry.o"]
    run(ctx, entry, cwd=ctx.cross_dir)
    build.write_ast_children(ctx, out)
    run(ctx, [*cc, f"-I{out}", "-c", HERE / "sandbox_audit.c", "-o", out / "sandbox_audit.o"],
        cwd=ctx.cross_dir)
    run(ctx, [*cc, "-c", out / "ext_inittab.c", "-o", out / "ext_inittab.o"], cwd=ctx.cross_dir)
    # CPython's C files patched at the link, compiled as the lean link compiles them (their
    # __FILE__ the original's, as the cross build names it: no build path in the module).
    patched = build.patched_cpython_sources(ctx, out)
    srcdir = os.path.relpath(ctx.src, ctx.cross_dir)
    for obj, source in patched.items():
        run(ctx, [*cc, f"-I{ctx.src / Path(obj).parent}",
                  f"-ffile-prefix-map={out / 'cpython'}={srcdir}", "-c", source,
                  "-o", source.with_suffix(".o")], cwd=ctx.cross_dir)
    python_objs = [entry for entry in v["LINK_PYTHON_OBJS"] if entry not in patched]
    python_objs += [str(source.with_suffix(".o")) for source in patched.values()]
    libcxx = [cxx / "sysroot/lib/wasm32-wasi/libc++.a", cxx / "sysroot/lib/wasm32-wasi/libc++abi.a"]
    archives = [m["archive"] for m in modules] + libs + libcxx
    if reactor:
        ours = {m["name"]: m["archive"] for m in modules}
        ours |= {p.name: p for p in libs}
        ours["cxa_stub.o"] = cxx / "lib" / "cxa_stub.o"
        # Debian's libc++.a holds libc++abi's objects as well: duplicates among the system
        # libraries are theirs (one consistent build), not checked.
        libc_dir = ctx.sysroot / "lib" / "wasm32-wasi"
        system = {p.name: p for p in sorted(libc_dir.glob("*.a")) + libcxx}
        n = check_duplicates(ctx, ours, system, out / "duplicates.txt")
        log(f"data-link: {len(modules)} modules; {n} duplicate functions accepted "
            "(data/dup_allow.txt), no other duplicate")
    name = "python-data-sandbox.wasm" if reactor else "python-data.wasm"
    full = out / name.replace(".wasm", ".full.wasm")
    cmd = [*v["LINKCC"], *v["PY_CORE_LDFLAGS"], *v.get("LINKFORSHARED", [])]
    if reactor:
        cmd += ["-mexec-model=reactor"]
    cmd += ["-o", full, out / "sandbox_entry.o", out / "sandbox_audit.o", out / "ext_inittab.o",
            cxx / "lib/cxa_stub.o",
            *python_objs, *archives, *v.get("LIBS", []), *v.get("MODLIBS", []),
            *v.get("SYSLIBS", []), *EXTRA_LINK_LIBS]
    if reactor:
        cmd += [*REACTOR_EXPORTS, *REACTOR_WRAPS, f"-Wl,-z,stack-size={build.STACK_BYTES}",
                f"-Wl,--initial-memory={DATA_INITIAL_MEMORY}"]
    if build.WASM_LTO:
        cmd.append(f"-Wl,--thinlto-cache-dir={thinlto_cache_dir(ctx)}")
    log(f"data-link: {name}" + (" -- thin LTO over libpython (first link ~10 min on 2 "
                                 "loaded cores, then cached)" if build.WASM_LTO else ""))
    mark = ctx.current_log.stat().st_size if ctx.current_log.exists() else 0
    proc = run(ctx, cmd, cwd=ctx.cross_dir, check=False)
    with open(ctx.current_log, "rb") as f:
        f.seek(mark)
        said = f.read().decode("utf-8", "replace")
    too_small = re.search(r"initial memory too small, (\d+) bytes needed", said)
    if too_small:
        raise BuildError(f"data-link: DATA_INITIAL_MEMORY ({DATA_INITIAL_MEMORY}) is too "
                         f"small: wasm-ld needs {too_small.group(1)} bytes")
    if proc.returncode != 0:
        raise BuildError(f"data-link: wasm-ld failed (exit {proc.returncode}; log "
                         f"{ctx.current_log})")
    # A signature mismatch means two modules call one symbol with different types: wasm-ld
    # replaces the call by a trap. Every such case must be renamed (data/renames.txt).
    warnings = [ln for ln in said.splitlines() if "warning:" in ln and "wasm-ld" in ln]
    if warnings:
        raise BuildError(f"data-link: wasm-ld warned: {warnings[0]}")
    # configure adds -g to LTO builds: drop the DWARF sections, keep the name section.
    run(ctx, [LLVM["strip"], "--strip-debug", "-o", out / name, full])
    full.unlink()
    check_no_leaks(ctx, name, (out / name).read_bytes())
    log(f"data-link: {name} {(out / name).stat().st_size:,} bytes")
    return out / name


def thinlto_cache_dir(ctx: build.Ctx) -> Path:
    """Thin-LTO cache of the data links (content-addressed by LLVM: reusing it never changes
    the output). Shared by every key of the stage (a new package changes data-link's key,
    not libpython's bitcode): a relink takes a minute or two instead of ~10 min."""
    return ctx.cache / "thinlto-data"


def stage_data_link(ctx: build.Ctx) -> None:
    out = fresh_dir(ctx, "data-link")
    wasm = data_link(ctx, out, reactor=True)
    exports = wasm_exports(wasm)
    if not {"sandbox_init", "sandbox_resume", "sandbox_request", "sandbox_answer",
            "memory"} <= set(exports):
        raise BuildError(f"data-link: the reactor exports {exports}")
    if "atomics" in wasm_target_features(wasm):
        # Its thread_locals would be misplaced by wasm-ld (see data/ccwrap.py's -pthread).
        raise BuildError("data-link: an object was compiled with the atomics feature "
                         "(-pthread or -matomics): the guest is single-threaded")
    manifest = {
        "file": wasm.name, "sha256": sha256_file(wasm), "size": wasm.stat().st_size,
        "exports": exports, "initial_memory": DATA_INITIAL_MEMORY,
        "c_stack_bytes": build.STACK_BYTES, "opt": build.WASM_OPT, "lto": build.WASM_LTO,
        "builtins": json.loads((out / "builtins.json").read_text()),
        "inputs": {k: {"file": s["file"], "sha256": s["sha256"]} for k, s in DATA_INPUTS.items()},
    }
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")


def _leb(data: bytes, pos: int) -> tuple[int, int]:
    """The unsigned LEB128 number at `pos` of `data`, and the position after it."""
    result = shift = 0
    while True:
        byte = data[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return result, pos


def wasm_sections(data: bytes) -> Iterator[tuple[int, bytes]]:
    """The (id, contents) of every section of a wasm module."""
    pos = 8
    while pos < len(data):
        section, pos = data[pos], pos + 1
        size, pos = _leb(data, pos)
        yield section, data[pos:pos + size]
        pos += size


def wasm_exports(path: Path) -> list[str]:
    """The export names of a wasm module (its export section, read directly)."""
    names = []
    for section, body in wasm_sections(path.read_bytes()):
        if section == 7:
            count, p = _leb(body, 0)
            for _ in range(count):
                n, p = _leb(body, p)
                names.append(body[p:p + n].decode())
                p += n + 1
                _, p = _leb(body, p)
    return sorted(names)


def wasm_target_features(path: Path) -> list[str]:
    """The features wasm-ld recorded as used by the module's objects (its target_features
    custom section: a prefix byte, `+` for used, then the feature's name)."""
    for section, body in wasm_sections(path.read_bytes()):
        if section != 0:
            continue
        n, p = _leb(body, 0)
        if body[p:p + n] != b"target_features":
            continue
        count, p = _leb(body, p + n)
        features = []
        for _ in range(count):
            prefix = body[p]
            n, p = _leb(body, p + 1)
            if prefix == ord("+"):
                features.append(body[p:p + n].decode())
            p += n
        return sorted(features)
    return []


# --------------------------------------------------------------------------- stage: site
def site_files(root: Path, package: str) -> dict[str, bytes]:
    """The package's files below site-packages `root`, but what SITE_DROP_* leave out."""
    files = {}
    for path in sorted((root / package).rglob("*")):
        rel = path.relative_to(root).as_posix()
        if path.is_dir() or any(part in SITE_DROP_DIRS for part in rel.split("/")[:-1]):
            continue
        if any(rel == p or rel.startswith(p + "/") for p in SITE_DROP_PATHS):
            continue
        if rel.endswith(tuple(SITE_DROP_SUFFIXES)):
            continue
        if path.is_symlink():
            raise BuildError(f"data-site: {rel} is a symbolic link")
        files[rel] = path.read_bytes()
    return files


def apply_site_patches(ctx: build.Ctx, key: str, files: dict[str, bytes]) -> dict[str, bytes]:
    """The package's Python files with data/site-<package>-*.patch applied: patches of
    Python files alone are applied here, to what the wheel gets, so that changing one
    rebuilds no C (data/<package>-*.patch are applied to the sdist)."""
    patches = sorted(DATA.glob(f"site-{key}-*.patch"))
    if not patches:
        return files
    if shutil.which("patch") is None:
        raise BuildError("this machine has no `patch` (Debian: the patch package)")
    with tempfile.TemporaryDirectory(prefix="site-patch-", dir=data_dir(ctx, "data-site")) as t:
        root = Path(t)
        for rel, data in files.items():
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_bytes(data)
        for patch in patches:
            log(f"data-site: apply {patch.name}")
            run(ctx, ["patch", "-d", root, "-p1", "--forward", "--batch", "--fuzz=0",
                      "--no-backup-if-mismatch", "-i", patch])
        return {rel: (root / rel).read_bytes() for rel in files}


def license_files(src: Path, metadata: str) -> dict[str, bytes]:
    """The sdist's license files (its License-File fields; else LICENSE* and LICENSES/)."""
    names = re.findall(r"^License-File: (.+)$", metadata, re.M)
    if not names:
        names = [p.relative_to(src).as_posix() for p in sorted(src.glob("LICENSE*"))
                 + sorted(src.glob("LICENSES/*")) if p.is_file()]
    return {f"licenses/{n.strip()}": (src / n.strip()).read_bytes() for n in names}


def record_hash(data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"sha256={digest}"


def write_wheel(dest: Path, name: str, version: str, files: dict[str, bytes],
                metadata: bytes, extra_dist_info: dict[str, bytes]) -> Path:
    """A reproducible wheel: sorted members, fixed time stamps and modes, RECORD last; its
    file and .dist-info named with the project name escaped (scikit-learn -> scikit_learn:
    a hyphen separates a wheel name's fields)."""
    name = re.sub(r"[-_.]+", "_", name)
    dist_info = f"{name}-{version}.dist-info"
    wheel_meta = (f"Wheel-Version: 1.0\nGenerator: {WHEEL_GENERATOR}\nRoot-Is-Purelib: true\n"
                  f"Tag: {WHEEL_TAG}\n").encode()
    members = sorted(files.items())
    members += [(f"{dist_info}/METADATA", metadata), (f"{dist_info}/WHEEL", wheel_meta)]
    members += sorted((f"{dist_info}/{k}", v) for k, v in extra_dist_info.items())
    record = io.StringIO()
    for member, data in members:
        record.write(f"{member},{record_hash(data)},{len(data)}\n")
    record.write(f"{dist_info}/RECORD,,\n")
    members.append((f"{dist_info}/RECORD", record.getvalue().encode()))
    path = dest / f"{name}-{version}-{WHEEL_TAG}.whl"
    with zipfile.ZipFile(path, "w") as zf:
        for member, data in members:
            info = zipfile.ZipInfo(member, date_time=WHEEL_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = 3
            info.external_attr = 0o100644 << 16
            zf.writestr(info, data, compresslevel=9)
    return path


def stage_data_site(ctx: build.Ctx) -> None:
    out = fresh_dir(ctx, "data-site")
    wheels = out / "wheels"
    wheels.mkdir()
    listing = []
    for key, version in (("numpy", NUMPY_VERSION), ("pandas", PANDAS_VERSION)):
        stage = data_dir(ctx, key)
        (src,) = [p for p in (stage / "src").iterdir() if p.is_dir()]
        pkg_info = (src / "PKG-INFO").read_text()
        if not re.search(rf"^Version: {re.escape(version)}$", pkg_info, re.M):
            raise BuildError(f"data-site: {src / 'PKG-INFO'} is not version {version}")
        files = apply_site_patches(ctx, key, site_files(site_packages(stage / "install"), key))
        for rel, data in files.items():
            check_no_leaks(ctx, f"data-site: {key} {rel}", data)
        # The extension modules this package's Python code imports, which only the data
        # runtime has (built in): an image builder can refuse the wheel on another runtime.
        builtins = [m["name"] for m in json.loads((stage / "ext/extensions.json").read_text())
                    if not LINK_EXCLUDE.search(m["name"])]
        extra = {**license_files(src, pkg_info),
                 BUILTINS_FILE: "".join(f"{name}\n" for name in builtins).encode()}
        path = write_wheel(wheels, key, version, files, pkg_info.encode(), extra)
        listing.append({"name": key, "version": version, "file": path.name,
                        "files": len(files), "unpacked": sum(map(len, files.values()))})
    for key in ("python-dateutil", "six", "tzdata"):
        spec = DATA_INPUTS[key]
        check_pinned(f"input {spec['file']}", data_input_path(ctx, key), spec["sha256"])
        shutil.copyfile(data_input_path(ctx, key), wheels / spec["file"])
        listing.append({"name": key, "file": spec["file"]})
    listing += plot_stack.plot_site_wheels(ctx, wheels, SITE_STAGES)
    for item in listing:
        path = wheels / item["file"]
        item.update(sha256=sha256_file(path), size=path.stat().st_size)
        log(f"data-site: {item['file']} {item['size']:,} bytes")
    (out / "wheels.json").write_text(json.dumps(listing, indent=1) + "\n")


# The plotting stack's stages (matplotlib, Pillow, their C libraries): linked and shipped by
# data-link and data-site below. Imported here, once every helper it uses is defined.
import plot_stack  # noqa: E402

DATA_INPUTS.update(plot_stack.PLOT_INPUTS)
STAGES[STAGES.index("data-link"):STAGES.index("data-link")] = plot_stack.STAGES
# The scientific stack's stages (OpenBLAS, scipy), on top of the plotting stack's tools.
import sci_stack  # noqa: E402

DATA_INPUTS.update(sci_stack.SCI_INPUTS)
STAGES[STAGES.index("data-link"):STAGES.index("data-link")] = sci_stack.STAGES
#: The package stages whose Python files data-site makes wheels of (plot_stack.SITE_PACKAGES'
#: shape).
SITE_STAGES = {**plot_stack.SITE_PACKAGES, **sci_stack.SITE_PACKAGES}

STAGE_FUNCS = {
    "cxx": stage_cxx,
    "numpy": stage_numpy,
    "pandas": stage_pandas,
    "data-link": stage_data_link,
    "data-site": stage_data_site,
    **{name: spec["func"] for name, spec in plot_stack.STAGE_SPECS.items()},
    **{name: spec["func"] for name, spec in sci_stack.STAGE_SPECS.items()},
}


def _build_settings() -> dict:
    return {"opt": build.WASM_OPT, "lto": build.WASM_LTO, "stack": build.STACK_BYTES,
            "py": build.PY_VERSION}


#: What each stage's output depends on, in the shape of build.Stage's fields (`needs`: the
#: stages whose outputs it reads, lean ones included; `inputs`: keys of DATA_INPUTS; `files`:
#: recipe files relative to this directory; `helpers`: functions whose code shapes the
#: output; `settings`: constants). MAKE_JOBS is left out: it changes no output byte.
STAGE_SPECS = {
    "cxx": dict(
        func=stage_cxx, needs=("sdk", "cross", "build-python"), inputs=("libc++", "libc++abi"),
        files=("data/ccwrap.py", "data/renames.txt", "data/cxa_stub.c"),
        helpers=(fresh_dir, pip_requirements),
        settings=lambda: [BUILD_TOOLS, HOST_TOOLS, LLVM, C_ARGS, CPP_ARGS, CROSS_FILE,
                          sys.version_info[:2]],
        pins=DATA_INPUTS),
    "numpy": dict(
        func=stage_numpy, needs=("cxx", "cross"), inputs=("numpy",),
        files=tuple(f"data/{p.name}" for p in sorted(DATA.glob("numpy-*.patch"))),
        helpers=(fresh_dir, tool_env, unpack_sdist, meson_build, site_packages,
                 collect_extensions, copy_archive, mangle, scrub_build_paths),
        settings=lambda: [NUMPY_MESON_OPTIONS, EXT_SUFFIX], pins=DATA_INPUTS),
    "pandas": dict(
        func=stage_pandas, needs=("cxx", "cross", "numpy"), inputs=("pandas",),
        files=tuple(f"data/{p.name}" for p in sorted(DATA.glob("pandas-*.patch"))),
        helpers=(fresh_dir, tool_env, unpack_sdist, meson_build, site_packages,
                 collect_extensions, copy_archive, mangle),
        settings=lambda: [PANDAS_MESON_OPTIONS, EXT_SUFFIX], pins=DATA_INPUTS),
    **plot_stack.STAGE_SPECS,
    **sci_stack.STAGE_SPECS,
    "data-link": dict(
        func=stage_data_link, needs=("sdk", "cross", "cxx", *EXT_STAGES, *LIB_STAGES),
        files=("sandbox_entry.c", "sandbox_audit.c", "ast_children.py", "data/dup_allow.txt",
               *(patch.name for patch in build.CPYTHON_LINK_PATCHES)),
        helpers=(fresh_dir, data_link, build.write_ast_children, build.patched_cpython_sources,
                 cross_link_vars,
                 linked_modules, write_inittab,
                 load_allow_list, global_definitions, check_duplicates, leak_needles,
                 check_no_leaks, thinlto_cache_dir, _leb, wasm_sections, wasm_exports,
                 wasm_target_features),
        settings=lambda: [LINK_EXCLUDE.pattern, DATA_INITIAL_MEMORY, REACTOR_EXPORTS,
                          sorted(DATA_KINDS),
                          REACTOR_WRAPS, EXTRA_LINK_LIBS, PRINT_VARS_MK, LLVM,
                          _build_settings()],
        pins=DATA_INPUTS),
    "data-site": dict(
        func=stage_data_site, needs=("numpy", "pandas", *SITE_STAGES),
        inputs=("python-dateutil", "six", "tzdata", *plot_stack.SDIST_WHEELS,
                *plot_stack.PURE_WHEELS),
        files=tuple(f"data/{p.name}" for p in sorted(DATA.glob("site-*.patch"))),
        helpers=(fresh_dir, site_packages, site_files, apply_site_patches, license_files,
                 record_hash, write_wheel, leak_needles, check_no_leaks,
                 plot_stack.plot_site_wheels, plot_stack.patched_pure_wheel,
                 plot_stack.tempfile_dir),
        settings=lambda: [SITE_DROP_DIRS, SITE_DROP_PATHS, SITE_DROP_SUFFIXES, WHEEL_DATE,
                          WHEEL_TAG, WHEEL_GENERATOR, BUILTINS_FILE, LINK_EXCLUDE.pattern,
                          NUMPY_VERSION, PANDAS_VERSION, SITE_STAGES,
                          plot_stack.PLOT_SITE_DROP, plot_stack.SDIST_WHEELS],
        pins=DATA_INPUTS),
}


# --------------------------------------------------------------------------- development
LEAN_DIR = (Path.home() / ".cache/sandbox-wasm/cpython-wasi/"
            "7c94890aceaf9b3278c6c4ec50e31bb15432e2c920f9dd9f1fc3ee54fce5e015")
BUILD_PYTHON_ROOT = (Path.home() / ".cache/sandbox-wasm/cpython-wasi/"
                     "build-python-3.13.15-de3f1e5423ffd46f")


class DevCtx:
    """What the data stages read of a build.Ctx, for development: the inputs are a finished
    lean recipe directory (the layout before stage keys; read only), and the outputs,
    downloads, apt state and logs are below `work`."""

    def __init__(self, work: Path, lean: Path, build_python_root: Path) -> None:
        self.cache = self.dir = work
        self.downloads = work / "downloads"
        self.apt = work / "apt"
        self.logs = work / "logs"
        # build.run puts the toolchain's wrappers first on PATH: none here (the machine's
        # clang-19 & co., as the lean recipe directory was built with).
        self.toolchain_bin = work / "no-toolchain"
        self.src = lean / "src" / f"Python-{build.PY_VERSION}"
        self.sdk = lean / "sdk"
        self.sysroot = self.sdk / "share" / "wasi-sysroot"
        self.cross_dir = lean / "cross"
        self.tools = lean / "tools"  # the wasmtime CLI, only read
        self.build_python_root = build_python_root
        self.build_python_dir = build_python_root / "build-python"
        self.build_python = self.build_python_dir / "python"
        self.timings_file = work / "timings.json"
        self.current_log: Path | None = None

    def input_path(self, key: str) -> Path:
        return self.downloads / build.INPUTS[key]["file"]


SMOKE_RUNNER = r"""
import sys, time, wasmtime
mod, dirs, env, args = sys.argv[1], sys.argv[2].split(","), sys.argv[3], sys.argv[4:]
cfg = wasmtime.Config()
cfg.max_wasm_stack = 1536 * 1024
cfg.cache = True
engine = wasmtime.Engine(cfg)
module = wasmtime.Module.from_file(engine, mod)
linker = wasmtime.Linker(engine)
linker.define_wasi()
store = wasmtime.Store(engine)
w = wasmtime.WasiConfig()
w.argv = ["python", *args]
w.env = [tuple(env.split("=", 1))]
w.inherit_stdout()
w.inherit_stderr()
for d in dirs:
    host, guest = d.split("::")
    w.preopen_dir(host, guest)
store.set_wasi(w)
inst = linker.instantiate(store, module)
t = time.time()
code = 0
try:
    inst.exports(store)["_start"](store)
except wasmtime.ExitTrap as e:
    code = e.code
mem = inst.exports(store)["memory"]
print(f"[smoke] run {time.time() - t:.2f}s exit {code} memory "
      f"{mem.data_len(store) / 2**20:.1f} MiB", file=sys.stderr)
sys.exit(code)
"""


def dev_smoke(ctx: build.Ctx, scripts: Path, runner_python: Path) -> None:
    """Link a command-line python-data.wasm (not shipped), unpack the wheels into a site
    directory and run the smoke scripts with wasmtime-py."""
    out = fresh_dir(ctx, "data-cli", keep=())
    wasm = data_link(ctx, out, reactor=False)
    site = out / "site"
    for whl in sorted((data_dir(ctx, "data-site") / "wheels").glob("*.whl")):
        with zipfile.ZipFile(whl) as zf:
            zf.extractall(site)
    sysconfig_dir = ctx.cross_dir / "build" / f"lib.wasi-wasm32-{build.PY_MINOR}"
    dirs = f"{ctx.src / 'Lib'}::/lib,{sysconfig_dir}::/sc,{site}::/site,{scripts}::/scripts"
    for script in ("t_numpy.py", "t_pandas.py"):
        log(f"smoke: {script}")
        run(ctx, [runner_python, "-c", SMOKE_RUNNER, wasm, dirs, "PYTHONPATH=/site:/lib:/sc",
                  "-S", f"/scripts/{script}"])
        print(ctx.current_log.read_text().strip().splitlines()[-1])


def dev_snapshot(ctx: DevCtx, lean_stdlib: Path, runner_python: Path) -> None:
    """Wizer over python-data-sandbox.wasm as build.make_snapshot would run it: /init with
    the lean stdlib blob, its finder, the guest bootstrap (sandbox_wasm/_guest/bootstrap.py) and the
    data-site wheels (build.write_package_init, preloading numpy and pandas); then one
    sandbox_resume of the snapshot with no preopens (its request: none, so serve() reports
    a protocol error, which shows the instance came up)."""
    out = fresh_dir(ctx, "data-snapshot")
    initdir = out / "init"
    initdir.mkdir()
    shutil.copyfile(lean_stdlib / "stdlib.blob", initdir / "stdlib.blob")
    shutil.copyfile(HERE / "stdlib_finder.py", initdir / "stdlib_finder.py")
    shutil.copyfile(build.GUEST_FILE, initdir / "guest.py")
    wheels = sorted((data_dir(ctx, "data-site") / "wheels").glob("*.whl"))
    build.write_package_init(ctx, initdir, wheels, ["numpy", "pandas"])
    reactor = data_dir(ctx, "data-link") / "python-data-sandbox.wasm"
    for attempt in (1, 2):
        t0 = time.monotonic()
        build.run_wizer(ctx, reactor, out / f"python-data-snapshot.{attempt}.wasm", initdir)
        log(f"snapshot: wizer run {attempt} {time.monotonic() - t0:.1f}s")
    a, b = (sha256_file(out / f"python-data-snapshot.{i}.wasm") for i in (1, 2))
    snap = out / "python-data-snapshot.wasm"
    os.replace(out / "python-data-snapshot.1.wasm", snap)
    log(f"snapshot: {snap.stat().st_size:,} bytes, sha256 {a[:16]}, second run "
        + ("identical" if a == b else f"DIFFERENT ({b[:16]})"))
    code = (
        "import sys, time, wasmtime\n"
        "cfg = wasmtime.Config(); cfg.max_wasm_stack = 1536 * 1024; cfg.cache = True\n"
        "engine = wasmtime.Engine(cfg)\n"
        "module = wasmtime.Module.from_file(engine, sys.argv[1])\n"
        "for imp in module.exports:\n"
        "    if imp.name == 'memory': print('memory minimum pages', imp.type.limits.min)\n"
        "linker = wasmtime.Linker(engine); linker.define_wasi()\n"
        "store = wasmtime.Store(engine); w = wasmtime.WasiConfig()\n"
        "w.inherit_stdout(); w.inherit_stderr(); store.set_wasi(w)\n"
        "inst = linker.instantiate(store, module)\n"
        "t = time.perf_counter()\n"
        "try:\n"
        "    inst.exports(store)['sandbox_resume'](store)\n"
        "except wasmtime.ExitTrap as e:\n"
        "    print('exit', e.code)\n"
        "print(f'resume {1000 * (time.perf_counter() - t):.1f} ms')\n")
    proc = run(ctx, [runner_python, "-c", code, snap], capture=True, check=False)
    print(proc.stdout.decode()[-2000:])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Run the data stages (development driver).")
    ap.add_argument("--work", type=Path, required=True, help="outputs, downloads, logs")
    ap.add_argument("--lean", type=Path, default=LEAN_DIR,
                    help="a finished lean recipe directory (read only)")
    ap.add_argument("--build-python", type=Path, default=BUILD_PYTHON_ROOT)
    ap.add_argument("--scripts", type=Path, default=Path("/work/probe-data/tests"),
                    help="smoke scripts (t_numpy.py, t_pandas.py)")
    ap.add_argument("--runner-python", type=Path, default=build.REPO / ".venv/bin/python",
                    help="a Python with wasmtime for the smoke run")
    ap.add_argument("stages", nargs="*", help=f"fetch, {', '.join(STAGES)}, smoke, "
                    "snapshot (default: fetch and every stage)")
    args = ap.parse_args(argv)
    work = args.work.resolve()
    ctx = DevCtx(work, args.lean.resolve(), args.build_python.resolve())
    ctx.logs.mkdir(parents=True, exist_ok=True)
    ctx.toolchain_bin.mkdir(exist_ok=True)
    timings = json.loads(ctx.timings_file.read_text()) if ctx.timings_file.is_file() else {}
    for stage in args.stages or ["fetch", *STAGES]:
        ctx.current_log = ctx.logs / f"{stage}.log"
        ctx.current_log.unlink(missing_ok=True)
        log(f"{stage}: start (log {ctx.current_log})")
        t0 = time.monotonic()
        if stage == "fetch":
            fetch_data_inputs(ctx)
        elif stage == "smoke":
            dev_smoke(ctx, args.scripts.resolve(), args.runner_python)
        elif stage == "snapshot":
            dev_snapshot(ctx, args.lean.resolve() / "stdlib", args.runner_python)
        else:
            STAGE_FUNCS[stage](ctx)
        timings[stage] = round(time.monotonic() - t0, 1)
        ctx.timings_file.write_text(json.dumps(timings, indent=2) + "\n")
        log(f"{stage}: finished in {timings[stage]:.1f}s")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BuildError as exc:
        print(f"data-stack: error: {exc}", file=sys.stderr)
        sys.exit(1)
    except (OSError, subprocess.SubprocessError) as exc:
        print(f"data-stack: error: {type(exc).__name__}: {exc}", file=sys.stderr)
        sys.exit(1)
