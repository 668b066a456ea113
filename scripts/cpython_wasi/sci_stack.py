#!/usr/bin/env python3
"""The data runtime's scientific stack (issue 31): OpenBLAS with its C LAPACK, and scipy, cross-
built for wasm32-wasip1 without a Fortran compiler and linked statically into
python-data-sandbox.wasm like numpy and pandas (data_stack.py: the cxx stage's compiler
wrapper and sysroot; plot_stack.py: the plot-tools venv and cross file). Stages (each writes
only into its own directory):

  openblas  OpenBLAS (the PyPI sdist of cmeel-openblas, which carries the upstream tree with
            its f2c-translated LAPACK: Debian's `+ds` tarball has LAPACK stripped out), built
            with its own Makefiles: the generic C kernels (the RISCV64_GENERIC target, as
            Pyodide builds it), no threads, no Fortran. Every global symbol it defines is
            renamed `scipy_<name>`, without the Fortran trailing underscore (dgesv_ ->
            scipy_dgesv), so that numpy's own f2c'd lapack_lite (dgesv_, ...), OpenBLAS and
            scipy's wrappers of the Fortran names never meet in the one executable. scipy is
            compiled for that naming: the pkg-config file's -DBLAS_SYMBOL_PREFIX=scipy_,
            and -DNO_APPEND_FORTRAN (its f2py modules' Fortran names and the wrappers it
            defines for them lose the underscore too: dgemm -> scipy_dgemm).
  scipy     scipy (meson, Cython, pybind11; no Fortran: `_without-fortran`, so the
            deprecated scipy.odr is absent; no Pythran: its modules fall back to their
            Cython/Python versions), with OpenBLAS and our Qhull (plot_stack's).
  sklearn   scikit-learn (meson, Cython; no OpenMP), against scipy's .pxd files.
  statsmodels  statsmodels (meson, Cython, tempita templates), against scipy's .pxd files
            (its state-space models call BLAS/LAPACK through scipy.linalg.cython_blas/_lapack).

On wasm, a call through a declaration whose signature differs from the definition's traps;
OpenBLAS declares some LAPACK subroutines as returning `int` where LAPACK and scipy say
`void`: they are made `void` (void_subroutines). C++ threads, file streams and setjmp are
absent from Debian's libc++/wasi-libc for wasm32: scipy's build sees the single-threaded
stand-ins of data/wasi-include (HiGHS, boost, ducc, fast_matrix_market). What was learnt:
LOG.md ("The scientific stack").
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import time
from pathlib import Path

import build
import data_stack as ds
import plot_stack as ps
from build import BuildError, log, run

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"

# --------------------------------------------------------------------------- pinned inputs
OPENBLAS_VERSION = "0.3.31"
SCIPY_VERSION = "1.18.1"
SKLEARN_VERSION = "1.9.1"
STATSMODELS_VERSION = "0.15.0"
SCI_INPUTS = {
    "openblas": ps._pypi("cmeel-openblas", f"cmeel_openblas-{OPENBLAS_VERSION}.tar.gz",
                         "a3fe5e5875393a37f569da9bf1403adae45579570e8582b837bd985746d9ac20",
                         25876735),
    "scipy": ps._pypi("scipy", f"scipy-{SCIPY_VERSION}.tar.gz",
                      "52c4b7422442aba924d03ad4019852b08a92e64ea187b933135687bfe2747307",
                      30781235),
    "sklearn": ps._pypi("scikit-learn", f"scikit_learn-{SKLEARN_VERSION}.tar.gz",
                        "629cada3e33e2b9bf376cdc7614a47a4140b8aedc1d836579e359736fbd82977",
                        7786908),
    "statsmodels": ps._pypi("statsmodels", f"statsmodels-{STATSMODELS_VERSION}.tar.gz",
                            "5d257fe58d0772bc46a557880ca78e2a8e07fec7bfd9d11074aef8e33e1aecbc",
                            15736853),
}
# For the host python (the native build-python 3.13): scipy's build runs numpy.f2py to write
# the C wrappers of its BLAS/LAPACK modules (_fblas, _flapack); f2py imports numpy, so this
# is numpy's own native wheel, the version of the cross-built one.
SCI_HOST_TOOLS = {
    "numpy": (ds.NUMPY_VERSION, {
        f"numpy-{ds.NUMPY_VERSION}-cp313-cp313-manylinux_2_27_x86_64.manylinux_2_28_x86_64.whl":
            "a7830bab239b79cda9c08c2da014761cafb48da6150e1da17ac06283f43b6089",
    }),
}

# --------------------------------------------------------------------------- build knobs
STAGES = ["openblas", "scipy", "sklearn", "statsmodels"]
SYMBOL_PREFIX = "scipy_"
OPENBLAS_MAKE = [
    "NOFORTRAN=1", "C_LAPACK=1", "NO_SHARED=1", "NO_LAPACKE=1", "USE_THREAD=0",
    "USE_OPENMP=0", "NO_AFFINITY=1", "TARGET=RISCV64_GENERIC", "HOSTCC=cc",
]
# What the compiler wrapper adds: OpenBLAS's "embedded" platform (malloc'd buffers; no mmap,
# SysV shared memory or Linux syscalls, which WASI lacks).
OPENBLAS_CFLAGS = ["-DOS_EMBEDDED", "-DNO_SYSV_IPC"]
# The routines OpenBLAS's own LAPACK interface (interface/lapack) implements, declared in
# common_interface.h as returning int.
OPENBLAS_INT_SUBROUTINES = ("getf2", "getrf", "laswp", "getrs", "gesv", "potf2", "potrf",
                            "potri", "potrs", "lauu2", "lauum", "trti2", "trtri", "trtrs",
                            "laed3")
#: How many of them common_interface.h declares (s/d/q/c/z/x variants) in this version.
OPENBLAS_INT_DECLARATIONS = 78
# scipy's meson options: OpenBLAS (found as scipy-openblas: the symbol prefix), no Fortran
# (scipy.odr is absent), no Pythran (its modules use their Cython/Python versions), our Qhull
# (plot_stack's, patched for WASI's missing setjmp), no .pyc.
SCIPY_MESON_OPTIONS = [
    "--buildtype=release", "-Db_ndebug=if-release", "-Dpython.bytecompile=-1",
    "-Dblas=openblas", "-Dlapack=openblas", "-D_without-fortran=true", "-Duse-pythran=false",
    "-Duse-system-libraries=qhull",
]
# scikit-learn's: no OpenMP is found (its prange loops run serially), no .pyc.
SKLEARN_MESON_OPTIONS = ["--buildtype=release", "-Db_ndebug=if-release",
                         "-Dpython.bytecompile=-1"]
# statsmodels': the same (it has no OpenMP or optional parts).
STATSMODELS_MESON_OPTIONS = SKLEARN_MESON_OPTIONS
# NO_APPEND_FORTRAN: the Fortran names without the underscore (see the docstring);
# SuperLU's own BLAS names take their suffix from BLAS_FORTRAN_SUFFIX instead. HiGHS
# includes <csignal>: wasi-libc's signal emulation (its handlers never fire).
SCIPY_EXTRA_ARGS = ["-DNO_APPEND_FORTRAN", "-DBLAS_FORTRAN_SUFFIX=", "-D_WASI_EMULATED_SIGNAL"]
OPENBLAS_SMOKE = r"""
#include <stdio.h>
void scipy_dgesv(int *n, int *nrhs, double *a, int *lda, int *ipiv, double *b, int *ldb,
                  int *info);
void scipy_dpotrf(char *uplo, int *n, double *a, int *lda, int *info);
void scipy_dgesdd(char *jobz, int *m, int *n, double *a, int *lda, double *s, double *u,
                   int *ldu, double *vt, int *ldvt, double *work, int *lwork, int *iwork,
                   int *info);
void scipy_dgemm(char *ta, char *tb, int *m, int *n, int *k, double *alpha, double *a,
                  int *lda, double *b, int *ldb, double *beta, double *c, int *ldc);
int main(void) {
    double a[4] = {4, 1, 2, 3}, b[2] = {1, 2}, c[4] = {4, 2, 2, 3};
    double m[6] = {1, 2, 3, 4, 5, 6}, s[2], u[9], vt[4], work[100];
    double x[4] = {1, 2, 3, 4}, y[4] = {5, 6, 7, 8}, z[4], one = 1, zero = 0;
    int n = 2, nrhs = 1, ipiv[2], info[3], iwork[16], lwork = 100, rows = 3;
    char upper = 'U', all = 'A', no = 'N';
    scipy_dgesv(&n, &nrhs, a, &n, ipiv, b, &n, &info[0]);
    scipy_dpotrf(&upper, &n, c, &n, &info[1]);
    scipy_dgesdd(&all, &rows, &n, m, &rows, s, u, &rows, vt, &n, work, &lwork, iwork,
                  &info[2]);
    scipy_dgemm(&no, &no, &n, &n, &n, &one, x, &n, y, &n, &zero, z, &n);
    printf("%d %d %d %.6f %.6f %.6f %.6f %.6f %.6f %g %g %g %g\n", info[0], info[1], info[2],
           b[0], b[1], c[2], c[3], s[0], s[1], z[0], z[1], z[2], z[3]);
    return 0;
}
"""
# What numpy (native, OpenBLAS) computes for the same: solve, cholesky, svd, matmul.
OPENBLAS_SMOKE_EXPECTED = ("0 0 0 -0.100000 0.700000 1.000000 1.414214 9.508032 0.772870 "
                           "23 34 31 46")


# --------------------------------------------------------------------------- openblas
def void_subroutines(src: Path) -> int:
    """Declare and define as `void` the LAPACK subroutines OpenBLAS gives an `int` result
    (its own LAPACK interface, and some f2c files of its C LAPACK), as LAPACK's other C files
    and scipy declare them: their definitions, their `return 0;` (now `return;`), and every
    declaration f2c marks as a subroutine (`extern /* Subroutine */ int dgetrf_(...)`).
    Returns how many files changed (checked against what this version needs, so a new
    OpenBLAS is looked at)."""
    names = "|".join(OPENBLAS_INT_SUBROUTINES)
    header = src / "common_interface.h"
    text, n = re.subn(rf"^int(\s+)BLASFUNC\(([sdqczx](?:{names}))\)", r"void\1BLASFUNC(\2)",
                      header.read_text(), flags=re.M)
    if n != OPENBLAS_INT_DECLARATIONS:
        raise BuildError(f"openblas: {n} int LAPACK declarations in common_interface.h")
    header.write_text(text)
    changed = {header}
    voided = {f"{p}{name}_" for p in "sdcz" for name in OPENBLAS_INT_SUBROUTINES}
    for path in sorted((src / "interface" / "lapack").glob("*.c")):
        text = path.read_text()
        m = re.search(r"^int(\s+)(?:NAME|CNAME)\(", text, flags=re.M)
        if m:
            body = re.sub(r"return\s+0\s*;", "return;", "void" + text[m.start() + 3:])
            path.write_text(text[:m.start()] + body)
            changed.add(path)
    f2c_files = sorted((src / "lapack-netlib").rglob("*.c"))
    definition = re.compile(r"^/\* Subroutine \*/ int (\w+)\(", flags=re.M)
    for path in f2c_files:
        text = path.read_text()
        pieces, at = [], 0
        for m in definition.finditer(text):
            # f2c ends each function with `} /* name */`; only that body's returns change.
            end = text.find(f"\n}} /* {m.group(1)} */", m.end())
            if end < 0:
                raise BuildError(f"openblas: {path.name}: no end of {m.group(1)}")
            voided.add(m.group(1))
            pieces += [text[at:m.start()], "/* Subroutine */ void ",
                       re.sub(r"return\s+0\s*;", "return;", text[m.start(1):end])]
            at = end
        if pieces:
            path.write_text("".join(pieces) + text[at:])
            changed.add(path)
    # What f2c marks `/* Subroutine */` is a SUBROUTINE: void, wherever it is declared
    # (extern declarations name several at once). XERBLA included: OpenBLAS's own is made
    # void too.
    subroutine = re.compile(r"/\* Subroutine \*/\s+(?:int|void)\s+(\w+)\(")
    texts = {path: path.read_text() for path in f2c_files}
    for text in texts.values():
        voided.update(subroutine.findall(text))
    voided.add("xerbla_")
    # Some files declare them without f2c's comment: `extern int strtri_(...)`.
    plain = re.compile(r"\bextern int (\w+)\(")
    # A few hand-edited files call XERBLA without the hidden length of its name (two
    # arguments, where OpenBLAS's XERBLA and every other caller have three).
    short_decl = re.compile(r"xerbla_\(\s*char\s*\*,\s*integer\s*\*\)")
    short_call = re.compile(r'xerbla_\("([A-Z0-9_]+)", (&\w+)\)')
    for path, text in texts.items():
        new = text.replace("/* Subroutine */ int ", "/* Subroutine */ void ")
        new = short_decl.sub("xerbla_(char *, integer *, ftnlen)", new)
        new = short_call.sub(lambda m: f'xerbla_("{m.group(1)}", {m.group(2)}, '
                             f'(ftnlen){len(m.group(1))})', new)
        new = plain.sub(lambda m: ("extern void " if m.group(1) in voided else "extern int ")
                        + m.group(1) + "(", new)
        if new != text:
            path.write_text(new)
            changed.add(path)
    xerbla = src / "driver" / "others" / "xerbla.c"
    text = xerbla.read_text()
    text, n = re.subn(r"^int (__xerbla|BLASFUNC\(xerbla\))\(", r"void \1(", text, flags=re.M)
    if n != 3:
        raise BuildError(f"openblas: {n} xerbla definitions in {xerbla.name}")
    xerbla.write_text(re.sub(r"return\s+0\s*;", "return;", text))
    header = src / "common_interface.h"
    text, n = re.subn(r"^int(\s+)BLASFUNC\(xerbla\)", r"void\1BLASFUNC(xerbla)",
                      header.read_text(), flags=re.M)
    if n != 1:
        raise BuildError(f"openblas: {n} xerbla declarations in common_interface.h")
    header.write_text(text)
    changed.add(xerbla)
    return len(changed)


def openblas_make(ctx: build.Ctx, src: Path, cc: Path, opt: str) -> Path:
    """OpenBLAS's static library (BLAS and its C LAPACK), built in `src`."""
    env = ds.tool_env(ctx)
    args = [*OPENBLAS_MAKE, f"CC={cc}", f"AR={ds.LLVM['ar']}", "RANLIB=llvm-ranlib-19",
            f"COMMON_OPT={opt} -DNDEBUG", f"MAKE_NB_JOBS={build.MAKE_JOBS}"]
    run(ctx, ["make", f"-j{build.MAKE_JOBS}", "-C", src, "libs", "netlib", *args], env=env)
    (lib,) = [p for p in src.glob("libopenblas_*.a") if not p.is_symlink()]
    return lib


def check_signatures(ctx: build.Ctx, archive: Path, work: Path) -> None:
    """Link every member of `archive` (what it leaves undefined does not matter here) with
    wasm-ld's warnings as errors: no call inside the library goes through a declaration whose
    signature differs from the definition's (on wasm such a call traps)."""
    work.mkdir(exist_ok=True)
    (work / "main.c").write_text("int main(void) { return 0; }\n")
    run(ctx, [ds.data_dir(ctx, "cxx") / "bin" / "wasm32-wasi-clang", work / "main.c",
              "-Wl,--whole-archive", archive, "-Wl,--no-whole-archive", "-Wl,--allow-undefined",
              "-Wl,--fatal-warnings", "-o", work / "all.wasm"], env=ds.tool_env(ctx))
    (work / "all.wasm").unlink()


def defined_globals(ctx: build.Ctx, archive: Path) -> list[str]:
    defs = ds.global_definitions(ctx, {"openblas": archive})
    return sorted(defs)


def renamed(symbol: str, defined: set[str]) -> str:
    """What OpenBLAS's global `symbol` is called in the data runtime (see the docstring):
    without its trailing underscore, unless OpenBLAS also defines that name (its C API has
    openblas_get_num_threads beside the Fortran openblas_get_num_threads_)."""
    if symbol.endswith("_") and symbol[:-1] not in defined:
        symbol = symbol[:-1]
    return SYMBOL_PREFIX + symbol


def stage_openblas(ctx: build.Ctx) -> None:
    out = ds.fresh_dir(ctx, "openblas")
    work = out / "src"
    bindir = out / "bin"
    bindir.mkdir()
    # The compiler: the cxx stage's wrapper, without the RISC-V flags the target's Makefile
    # adds (-march/-mabi/-mtune), with OPENBLAS_CFLAGS and OPENBLAS_PREFIX_H if present.
    cc = bindir / "openblas-cc"
    prefix_h = out / "include" / "openblas_symbol_prefix.h"
    wrapper = ds.data_dir(ctx, "cxx") / "bin" / "wasm32-wasi-clang"
    build.write_exe(cc, "\n".join([
        "#!/bin/sh",
        'for a in "$@"; do',
        "  shift",
        '  case "$a" in -march=*|-mabi=*|-mtune=*) ;; *) set -- "$@" "$a" ;; esac',
        "done",
        f"if [ -f {shlex.quote(str(prefix_h))} ]; then "
        f"set -- -include {shlex.quote(str(prefix_h))} \"$@\"; fi",
        f"exec {shlex.quote(str(wrapper))} {' '.join(OPENBLAS_CFLAGS)} \"$@\"",
    ]) + "\n")
    # Pass 1 (-O0, quick): which global symbols the library defines.
    first = ds.unpack_sdist(ctx, "openblas", work / "first") / "OpenBLAS"
    n = void_subroutines(first)
    log(f"openblas: {n} files with int LAPACK subroutines made void")
    t0 = time.monotonic()
    first_lib = openblas_make(ctx, first, cc, "-O0")
    check_signatures(ctx, first_lib, work / "check")
    symbols = defined_globals(ctx, first_lib)
    log(f"openblas: pass 1 (-O0) {time.monotonic() - t0:.0f}s: {len(symbols)} globals")
    new_names = [renamed(s, set(symbols)) for s in symbols]
    if len(set(new_names)) != len(new_names) or set(new_names) & set(symbols):
        raise BuildError("openblas: two globals would get one name")
    prefix_h.parent.mkdir(parents=True)
    prefix_h.write_text(
        "/* Generated by scripts/cpython_wasi/sci_stack.py: OpenBLAS's globals, renamed "
        "(sci_stack.renamed). */\n"
        + "".join(f"#define {s} {n}\n" for s, n in zip(symbols, new_names, strict=True)))
    shutil.rmtree(work / "first")
    # Pass 2: the library, every global prefixed.
    second = ds.unpack_sdist(ctx, "openblas", work / "second") / "OpenBLAS"
    void_subroutines(second)
    t0 = time.monotonic()
    lib = openblas_make(ctx, second, cc, build.WASM_OPT)
    log(f"openblas: pass 2 ({build.WASM_OPT}) {time.monotonic() - t0:.0f}s")
    unprefixed = [s for s in defined_globals(ctx, lib) if not s.startswith(SYMBOL_PREFIX)]
    if unprefixed:
        raise BuildError(f"openblas: globals not renamed: {unprefixed[:10]}")
    (out / "lib").mkdir()
    shutil.copyfile(lib, out / "lib" / "libopenblas.a")
    shutil.rmtree(work)
    ps.write_pc(out, "scipy-openblas", OPENBLAS_VERSION, f"-L{out / 'lib'} -lopenblas",
                f"-DBLAS_SYMBOL_PREFIX={SYMBOL_PREFIX}")
    # Smoke: LAPACK and BLAS calls, declared as scipy declares them, link without a
    # signature mismatch (wasm-ld's warning is an error) and give numpy's results.
    smoke = out / "smoke"
    smoke.mkdir()
    (smoke / "t.c").write_text(OPENBLAS_SMOKE)
    run(ctx, [wrapper, build.WASM_OPT, smoke / "t.c", out / "lib" / "libopenblas.a",
              "-Wl,--fatal-warnings", "-o", smoke / "t.wasm"], env=ds.tool_env(ctx))
    check_signatures(ctx, out / "lib" / "libopenblas.a", smoke)
    got = run(ctx, [build.wasmtime_cli(ctx), "run", smoke / "t.wasm"], capture=True)
    said = got.stdout.decode().strip()
    if said != OPENBLAS_SMOKE_EXPECTED:
        raise BuildError(f"openblas: the smoke program says {said!r}, expected "
                         f"{OPENBLAS_SMOKE_EXPECTED!r}")
    shutil.rmtree(smoke)
    log(f"openblas {OPENBLAS_VERSION}: {(out / 'lib' / 'libopenblas.a').stat().st_size:,} "
        f"bytes, {len(symbols)} globals prefixed {SYMBOL_PREFIX}")



# --------------------------------------------------------------------------- scipy
def scipy_env(ctx: build.Ctx, out: Path) -> dict:
    """plot_stack's environment with this stage's tools first (f2py), pkg-config reading
    our numpy.pc, OpenBLAS's and Qhull's .pc files, and Cython finding the cross-built
    numpy's .pxd files (the stand-in numpy package)."""
    env = ps.plot_env(ctx)
    env["PATH"] = f"{out / 'bin'}:{env['PATH']}"
    env["PKG_CONFIG_LIBDIR"] = ":".join([str(out / "pkgconfig"), *(
        str(ds.data_dir(ctx, s) / "lib" / "pkgconfig") for s in ("openblas", "qhull"))])
    env["PYTHONPATH"] = str(out / "fakenumpy")
    # No response files: data/ccwrap.py reads a link's arguments from its command line
    # (unuran_wrapper's would otherwise be linked for real, and fail).
    env["MESON_RSP_THRESHOLD"] = str(1 << 30)
    return env


def scipy_tools(ctx: build.Ctx, out: Path) -> Path:
    """The build's helpers in `out`: the native numpy (f2py) and its wrapper, the stand-in
    numpy package (headers and .pxd of the cross-built one), numpy.pc, the C/C++ stand-ins of
    data/wasi-include, and the cross file; returns the cross file."""
    cxx = ds.data_dir(ctx, "cxx")
    np_site = ds.site_packages(ds.data_dir(ctx, "numpy") / "install")
    venv_python = ds.data_dir(ctx, "plot-tools") / "venv" / "bin" / "python"
    (out / "host-requirements.txt").write_text(ds.pip_requirements(SCI_HOST_TOOLS))
    run(ctx, [venv_python, "-m", "pip", "install", "--disable-pip-version-check", "--no-input",
              "--no-deps", "--only-binary", ":all:", "--require-hashes", "--target",
              out / "hostsite", "--python-version", build.PY_MINOR, "--implementation", "cp",
              "--abi", f"cp{build.PY_MINOR.replace('.', '')}",
              "--platform", "manylinux_2_28_x86_64", "-r", out / "host-requirements.txt"])
    # -P: scipy's build runs f2py in its source tree, whose scipy/signal would shadow the
    # standard `signal` module that numpy imports.
    build.write_exe(out / "bin" / "f2py", "\n".join([
        "#!/bin/sh",
        f"DATA_HOST_PYTHONPATH={shlex.quote(str(out / 'hostsite'))} exec "
        f"{shlex.quote(str(cxx / 'bin' / 'hostpython'))} -P -m numpy.f2py \"$@\"",
    ]) + "\n")
    fake = out / "fakenumpy" / "numpy"
    shutil.copytree(np_site / "numpy" / "_core" / "include", fake / "_core" / "include")
    for pxd in sorted(np_site.glob("numpy/**/*.pxd")):
        dest = fake / pxd.relative_to(np_site / "numpy")
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(pxd, dest)
    (fake / "__init__.py").write_text(
        "import os\n\n\ndef get_include():\n"
        "    return os.path.join(os.path.dirname(__file__), '_core', 'include')\n")
    include = np_site / "numpy" / "_core" / "include"
    (out / "pkgconfig").mkdir()
    (out / "pkgconfig" / "numpy.pc").write_text(
        f"Name: numpy\nDescription: numpy for wasm32-wasi\nVersion: {ds.NUMPY_VERSION}\n"
        f"Cflags: -I{include}\n")
    shims = out / "wasi-include"
    shutil.copytree(DATA / "wasi-include", shims)
    cross = (ds.data_dir(ctx, "plot-tools") / "cross.ini").read_text()
    extra = [f"-I{shims}", *SCIPY_EXTRA_ARGS]
    for key, args in (("c_args", ds.C_ARGS), ("cpp_args", ds.CPP_ARGS)):
        old = f"{key} = {args!r}"
        if old not in cross:
            raise BuildError(f"scipy: plot-tools' cross file has no {old}")
        cross = cross.replace(old, f"{key} = {[*args, *extra]!r}")
    cross = cross.replace("[properties]\n", f"[properties]\nnumpy-include-dir = '{include}'\n")
    (out / "cross.ini").write_text(renaming_compilers(ctx, out, cross, "scipy-renames.txt"))
    return out / "cross.ini"


def renaming_compilers(ctx: build.Ctx, out: Path, cross: str, extra_renames: str) -> str:
    """Compiler wrappers in out/bin: the cxx stage's, reading data/renames.txt plus
    `extra_renames` (a file of data/, same format: symbols renamed per extension module at
    compile time, see renames.txt); returns `cross` with every wasm32-wasi-clang(++) it names
    replaced by these."""
    cxx = ds.data_dir(ctx, "cxx")
    renames = out / "renames.txt"
    renames.write_text((DATA / "renames.txt").read_text() + (DATA / extra_renames).read_text())
    (out / "bin").mkdir(exist_ok=True)
    for name in ("wasm32-wasi-clang", "wasm32-wasi-clang++"):
        text = (cxx / "bin" / name).read_text()
        old = f"DATA_CC_RENAMES={shlex.quote(str(cxx / 'share' / 'renames.txt'))}"
        if old not in text:
            raise BuildError(f"cxx's {name} does not set {old}")
        build.write_exe(out / "bin" / name, text.replace(
            old, f"DATA_CC_RENAMES={shlex.quote(str(renames))}"))
        cross, n = re.subn(rf"'[^']*/bin/{re.escape(name)}'", f"'{out / 'bin' / name}'", cross)
        if n != 1:
            raise BuildError(f"the cross file names {name} {n} times")
    return cross


def shipped_targets(build_dir: Path) -> list[str]:
    """The build outputs meson installs with a tag other than `tests` (scipy's test-only
    extension modules are not built: one needs floating-point rounding modes wasm lacks)."""
    plan = json.loads((build_dir / "meson-info" / "intro-install_plan.json").read_text())
    targets = []
    for path, info in plan.get("targets", {}).items():
        if info.get("tag") != "tests":
            targets.append(os.path.relpath(path, build_dir))
    if not targets:
        raise BuildError("scipy: meson's install plan lists no target")
    return sorted(targets)


def stage_scipy(ctx: build.Ctx) -> None:
    out = ds.fresh_dir(ctx, "scipy")
    cxx = ds.data_dir(ctx, "cxx")
    (out / "bin").mkdir()
    cross = scipy_tools(ctx, out)
    src = ds.unpack_sdist(ctx, "scipy", out / "src")
    env = scipy_env(ctx, out)
    meson = [cxx / "venv" / "bin" / "meson"]
    t0 = time.monotonic()
    run(ctx, [*meson, "setup", out / "build", f"--cross-file={cross}", *SCIPY_MESON_OPTIONS],
        cwd=src, env=env)
    targets = shipped_targets(out / "build")
    log(f"scipy: ninja -j{build.MAKE_JOBS}: {len(targets)} installed targets (~6 min on 2 "
        "cores)")
    run(ctx, [cxx / "venv" / "bin" / "ninja", "-C", out / "build", f"-j{build.MAKE_JOBS}",
              *targets], env=env)
    run(ctx, [*meson, "install", "-C", out / "build", "--destdir", out / "install",
              "--no-rebuild", "--tags", "runtime,python-runtime,devel"], env=env)
    log(f"scipy: built in {time.monotonic() - t0:.0f}s")
    modules = ds.collect_extensions(ctx, out / "build", out)
    # The C libraries the modules link (pkg-config's -l flags, which data-link does not
    # read; as plot_stack's matplotlib stage).
    libraries = {"-lopenblas": "@openblas/lib/libopenblas.a",
                 "-lqhull_r": "@qhull/lib/libqhull_r.a"}
    for m in modules:
        for flag, lib in libraries.items():
            if flag in m["link_flags"] and lib not in m["libraries"]:
                m["libraries"].append(lib)
    # _uarray's thread_local destructors and ducc0's fork handlers (scipy.fft) call two
    # functions wasi-libc lacks (data/wasi-thread-stubs.c): an archive every module may
    # pull them from (the link takes an archive's member only when a symbol needs it).
    objs = ps.compile_objects(ctx, [DATA / "wasi-thread-stubs.c"], out / "obj", [])
    ps.archive(ctx, out / "ext" / "lib" / "libwasi_thread_stubs.a", objs)
    for m in modules:
        m["libraries"].append("ext/lib/libwasi_thread_stubs.a")
    (out / "ext" / "extensions.json").write_text(json.dumps(modules, indent=1) + "\n")
    replacements = {needle.decode(): "<build>" for needle in
                    sorted(ds.leak_needles(ctx), key=len, reverse=True)}
    ds.scrub_build_paths(ds.site_packages(out / "install") / "scipy" / "__config__.py",
                         replacements)
    log(f"scipy {SCIPY_VERSION}: {len(modules)} extension modules")


# --------------------------------------------------------------------------- on scipy
def meson_on_scipy(ctx: build.Ctx, stage: str, options: list[str]) -> list[dict]:
    """Build and install the sdist of the pinned input `stage` (meson), a package that builds
    against scipy: scipy's cross file with compilers that also read data/<stage>-renames.txt,
    scipy's environment with numpy's and scipy's .pxd files on PYTHONPATH (scikit-learn and
    statsmodels cimport scipy.linalg.cython_blas/_lapack and scipy.special.cython_special,
    whose functions they call through those modules' capsules at run time); writes the
    stage's ext/ (extension modules) and returns their descriptions."""
    out = ds.fresh_dir(ctx, stage)
    cxx = ds.data_dir(ctx, "cxx")
    scipy_out = ds.data_dir(ctx, "scipy")
    src = ds.unpack_sdist(ctx, stage, out / "src")
    cross = (scipy_out / "cross.ini").read_text()
    (out / "cross.ini").write_text(renaming_compilers(ctx, out, cross, f"{stage}-renames.txt"))
    env = scipy_env(ctx, scipy_out)
    env["PYTHONPATH"] = ":".join([str(scipy_out / "fakenumpy"),
                                  str(ds.site_packages(scipy_out / "install"))])
    # The cross file's python (the host interpreter with the target's sysconfig) finds the
    # stand-in numpy too: statsmodels asks it for numpy's include directory.
    env["DATA_HOST_PYTHONPATH"] = ":".join(
        [str(scipy_out / "fakenumpy"), *filter(None, [env.get("DATA_HOST_PYTHONPATH")])])
    meson = [cxx / "venv" / "bin" / "meson"]
    t0 = time.monotonic()
    run(ctx, [*meson, "setup", out / "build", f"--cross-file={out / 'cross.ini'}", *options],
        cwd=src, env=env)
    log(f"{stage}: ninja -j{build.MAKE_JOBS}")
    run(ctx, [cxx / "venv" / "bin" / "ninja", "-C", out / "build", f"-j{build.MAKE_JOBS}"],
        env=env)
    run(ctx, [*meson, "install", "-C", out / "build", "--destdir", out / "install",
              "--no-rebuild"], env=env)
    modules = ds.collect_extensions(ctx, out / "build", out)
    log(f"{stage}: {len(modules)} extension modules in {time.monotonic() - t0:.0f}s")
    return modules


def stage_sklearn(ctx: build.Ctx) -> None:
    """scikit-learn (meson, Cython; no OpenMP: its parallel loops run on one thread)."""
    meson_on_scipy(ctx, "sklearn", SKLEARN_MESON_OPTIONS)


def stage_statsmodels(ctx: build.Ctx) -> None:
    """statsmodels (meson, Cython; its .pyx.in templates expanded by its tempita script,
    which meson runs with its own Python: the cxx venv's, which has Cython)."""
    meson_on_scipy(ctx, "statsmodels", STATSMODELS_MESON_OPTIONS)


# --------------------------------------------------------------------------- stage specs
def _settings() -> list:
    return [ds.C_ARGS, ds.CPP_ARGS, ds.EXT_SUFFIX, ds.LLVM, build.WASM_OPT]


def _on_scipy_files(stage: str) -> tuple[str, ...]:
    return ("data/renames.txt", f"data/{stage}-renames.txt",
            *(f"data/{p.name}" for p in sorted(DATA.glob(f"{stage}-*.patch"))))


_ON_SCIPY_HELPERS = (meson_on_scipy, scipy_env, renaming_compilers, ds.unpack_sdist,
                     ds.site_packages, ds.collect_extensions, ds.copy_archive, ds.mangle,
                     ps.plot_env)

STAGE_SPECS = {
    "openblas": dict(
        func=stage_openblas, needs=("cxx", "cross"), inputs=("openblas",),
        files=tuple(f"data/{p.name}" for p in sorted(DATA.glob("openblas-*.patch"))),
        helpers=(void_subroutines, openblas_make, check_signatures, defined_globals, renamed,
                 ds.unpack_sdist,
                 ds.global_definitions, ps.write_pc),
        settings=lambda: [OPENBLAS_MAKE, OPENBLAS_CFLAGS, OPENBLAS_INT_SUBROUTINES,
                          OPENBLAS_INT_DECLARATIONS, SYMBOL_PREFIX, OPENBLAS_SMOKE,
                          OPENBLAS_SMOKE_EXPECTED, _settings()],
        pins=ds.DATA_INPUTS),
    "scipy": dict(
        func=stage_scipy, needs=("cxx", "cross", "plot-tools", "numpy", "openblas", "qhull"),
        inputs=("scipy",),
        files=("data/renames.txt", "data/scipy-renames.txt", "data/wasi-thread-stubs.c",
               *(f"data/{p.name}" for p in sorted(DATA.glob("scipy-*.patch"))),
               *(f"data/wasi-include/{p.name}" for p in sorted(
                   (DATA / "wasi-include").iterdir()))),
        helpers=(scipy_env, scipy_tools, renaming_compilers, shipped_targets, ds.unpack_sdist,
                 ds.site_packages,
                 ds.collect_extensions, ds.copy_archive, ds.mangle, ds.scrub_build_paths,
                 ds.leak_needles, ds.pip_requirements, ps.plot_env, ps.compile_objects,
                 ps.archive),
        settings=lambda: [SCI_HOST_TOOLS, SCIPY_MESON_OPTIONS, SCIPY_EXTRA_ARGS, _settings()],
        pins=ds.DATA_INPUTS),
    "sklearn": dict(
        func=stage_sklearn, needs=("cxx", "cross", "plot-tools", "numpy", "scipy"),
        inputs=("sklearn",), files=_on_scipy_files("sklearn"), helpers=_ON_SCIPY_HELPERS,
        settings=lambda: [SKLEARN_MESON_OPTIONS, _settings()], pins=ds.DATA_INPUTS),
    "statsmodels": dict(
        func=stage_statsmodels, needs=("cxx", "cross", "plot-tools", "numpy", "scipy"),
        inputs=("statsmodels",), files=_on_scipy_files("statsmodels"),
        helpers=_ON_SCIPY_HELPERS,
        settings=lambda: [STATSMODELS_MESON_OPTIONS, _settings()], pins=ds.DATA_INPUTS),
}


# --------------------------------------------------------------------------- data-site part
#: The Python side of the package stages (plot_stack.SITE_PACKAGES' shape).
SITE_PACKAGES = {
    "scipy": ("scipy", SCIPY_VERSION, "install", ["scipy"]),
    "sklearn": ("scikit-learn", SKLEARN_VERSION, "install", ["sklearn"]),
    "statsmodels": ("statsmodels", STATSMODELS_VERSION, "install", ["statsmodels"]),
}
