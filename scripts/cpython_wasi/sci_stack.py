#!/usr/bin/env python3
"""The data runtime's scientific stack (issue 31): OpenBLAS with its C LAPACK, and scipy, cross-
built for wasm32-wasip1 without a Fortran compiler and linked statically into
python-data-sandbox.wasm like numpy and pandas (data_stack.py: the cxx stage's compiler
wrapper and sysroot; plot_stack.py: the plot-tools venv and cross file). Stages (each writes
only into its own directory):

  openblas  OpenBLAS (the PyPI sdist of cmeel-openblas, which carries the upstream tree with
            its f2c-translated LAPACK: Debian's `+ds` tarball has LAPACK stripped out), built
            with its own Makefiles: the generic C kernels (the RISCV64_GENERIC target, as
            Pyodide builds it), no threads, no Fortran. Every global symbol it defines gets
            the prefix `scipy_` (as PyPI's scipy-openblas wheels do), so numpy's own f2c'd
            lapack_lite (dgesv_, ...) and OpenBLAS never meet in the one executable; scipy
            asks for the prefix through the pkg-config file (-DBLAS_SYMBOL_PREFIX=scipy_).
  scipy     scipy (meson, Cython, pybind11; no Fortran: `_without-fortran`, so the
            deprecated scipy.odr is absent; no Pythran: its modules fall back to their
            Cython/Python versions), with OpenBLAS and our Qhull (plot_stack's).

On wasm, a call through a declaration whose signature differs from the definition's traps;
OpenBLAS declares some LAPACK subroutines as returning `int` where LAPACK and scipy say
`void`: they are made `void` (void_subroutines). C++ threads, file streams and setjmp are
absent from Debian's libc++/wasi-libc for wasm32: scipy's build sees the single-threaded
stand-ins of data/wasi-include (HiGHS, boost, ducc, fast_matrix_market). What was learnt:
LOG.md ("The scientific stack").
"""

from __future__ import annotations

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
SCI_INPUTS = {
    "openblas": ps._pypi("cmeel-openblas", f"cmeel_openblas-{OPENBLAS_VERSION}.tar.gz",
                         "a3fe5e5875393a37f569da9bf1403adae45579570e8582b837bd985746d9ac20",
                         25876735),
    "scipy": ps._pypi("scipy", f"scipy-{SCIPY_VERSION}.tar.gz",
                      "52c4b7422442aba924d03ad4019852b08a92e64ea187b933135687bfe2747307",
                      30781235),
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
STAGES = ["openblas"]
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
OPENBLAS_SMOKE = r"""
#include <stdio.h>
void scipy_dgesv_(int *n, int *nrhs, double *a, int *lda, int *ipiv, double *b, int *ldb,
                  int *info);
void scipy_dpotrf_(char *uplo, int *n, double *a, int *lda, int *info);
void scipy_dgesdd_(char *jobz, int *m, int *n, double *a, int *lda, double *s, double *u,
                   int *ldu, double *vt, int *ldvt, double *work, int *lwork, int *iwork,
                   int *info);
void scipy_dgemm_(char *ta, char *tb, int *m, int *n, int *k, double *alpha, double *a,
                  int *lda, double *b, int *ldb, double *beta, double *c, int *ldc);
int main(void) {
    double a[4] = {4, 1, 2, 3}, b[2] = {1, 2}, c[4] = {4, 2, 2, 3};
    double m[6] = {1, 2, 3, 4, 5, 6}, s[2], u[9], vt[4], work[100];
    double x[4] = {1, 2, 3, 4}, y[4] = {5, 6, 7, 8}, z[4], one = 1, zero = 0;
    int n = 2, nrhs = 1, ipiv[2], info[3], iwork[16], lwork = 100, rows = 3;
    char upper = 'U', all = 'A', no = 'N';
    scipy_dgesv_(&n, &nrhs, a, &n, ipiv, b, &n, &info[0]);
    scipy_dpotrf_(&upper, &n, c, &n, &info[1]);
    scipy_dgesdd_(&all, &rows, &n, m, &rows, s, u, &rows, vt, &n, work, &lwork, iwork,
                  &info[2]);
    scipy_dgemm_(&no, &no, &n, &n, &n, &one, x, &n, y, &n, &zero, z, &n);
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
    (its own LAPACK interface, and 26 f2c files of its C LAPACK), as LAPACK's other C files
    and scipy declare them; their `return 0;` become `return;`. Returns how many files
    changed (checked against what this version needs, so a new OpenBLAS is looked at)."""
    names = "|".join(OPENBLAS_INT_SUBROUTINES)
    header = src / "common_interface.h"
    text, n = re.subn(rf"^int(\s+)BLASFUNC\(([sdqczx](?:{names}))\)", r"void\1BLASFUNC(\2)",
                      header.read_text(), flags=re.M)
    if n != OPENBLAS_INT_DECLARATIONS:
        raise BuildError(f"openblas: {n} int LAPACK declarations in common_interface.h")
    header.write_text(text)
    changed = 1
    patterns = [(src / "interface" / "lapack", r"^int(\s+)(?:NAME|CNAME)\(", "void"),
                (src / "lapack-netlib" / "SRC", r"^/\* Subroutine \*/ int ",
                 "/* Subroutine */ void ")]
    for directory, pattern, repl in patterns:
        for path in sorted(directory.glob("*.c")):
            text = path.read_text()
            m = re.search(pattern, text, flags=re.M)
            if not m:
                continue
            head = text[:m.start()]
            body = re.sub(r"^int", repl, text[m.start():], count=1) if repl == "void" else \
                repl + text[m.end():]
            body = re.sub(r"return\s+0\s*;", "return;", body)
            path.write_text(head + body)
            changed += 1
    return changed


def openblas_make(ctx: build.Ctx, src: Path, cc: Path, opt: str) -> Path:
    """OpenBLAS's static library (BLAS and its C LAPACK), built in `src`."""
    env = ds.tool_env(ctx)
    args = [*OPENBLAS_MAKE, f"CC={cc}", f"AR={ds.LLVM['ar']}", "RANLIB=llvm-ranlib-19",
            f"COMMON_OPT={opt} -DNDEBUG", f"MAKE_NB_JOBS={build.MAKE_JOBS}"]
    run(ctx, ["make", f"-j{build.MAKE_JOBS}", "-C", src, "libs", "netlib", *args], env=env)
    (lib,) = [p for p in src.glob("libopenblas_*.a") if not p.is_symlink()]
    return lib


def defined_globals(ctx: build.Ctx, archive: Path) -> list[str]:
    defs = ds.global_definitions(ctx, {"openblas": archive})
    return sorted(defs)


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
    symbols = defined_globals(ctx, openblas_make(ctx, first, cc, "-O0"))
    log(f"openblas: pass 1 (-O0) {time.monotonic() - t0:.0f}s: {len(symbols)} globals")
    prefix_h.parent.mkdir(parents=True)
    prefix_h.write_text(
        "/* Generated by scripts/cpython_wasi/sci_stack.py: every global of OpenBLAS gets the "
        f"prefix {SYMBOL_PREFIX}. */\n"
        + "".join(f"#define {s} {SYMBOL_PREFIX}{s}\n" for s in symbols))
    shutil.rmtree(work / "first")
    # Pass 2: the library, every global prefixed.
    second = ds.unpack_sdist(ctx, "openblas", work / "second") / "OpenBLAS"
    void_subroutines(second)
    t0 = time.monotonic()
    lib = openblas_make(ctx, second, cc, build.WASM_OPT)
    log(f"openblas: pass 2 ({build.WASM_OPT}) {time.monotonic() - t0:.0f}s")
    unprefixed = [s for s in defined_globals(ctx, lib) if not s.startswith(SYMBOL_PREFIX)]
    if unprefixed:
        raise BuildError(f"openblas: globals without the prefix: {unprefixed[:10]}")
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
    got = run(ctx, [build.wasmtime_cli(ctx), "run", smoke / "t.wasm"], capture=True)
    said = got.stdout.decode().strip()
    if said != OPENBLAS_SMOKE_EXPECTED:
        raise BuildError(f"openblas: the smoke program says {said!r}, expected "
                         f"{OPENBLAS_SMOKE_EXPECTED!r}")
    shutil.rmtree(smoke)
    log(f"openblas {OPENBLAS_VERSION}: {(out / 'lib' / 'libopenblas.a').stat().st_size:,} "
        f"bytes, {len(symbols)} globals prefixed {SYMBOL_PREFIX}")


# --------------------------------------------------------------------------- stage specs
def _settings() -> list:
    return [ds.C_ARGS, ds.CPP_ARGS, ds.EXT_SUFFIX, ds.LLVM, build.WASM_OPT]


STAGE_SPECS = {
    "openblas": dict(
        func=stage_openblas, needs=("cxx", "cross"), inputs=("openblas",),
        files=tuple(f"data/{p.name}" for p in sorted(DATA.glob("openblas-*.patch"))),
        helpers=(void_subroutines, openblas_make, defined_globals, ds.unpack_sdist,
                 ds.global_definitions, ps.write_pc),
        settings=lambda: [OPENBLAS_MAKE, OPENBLAS_CFLAGS, OPENBLAS_INT_SUBROUTINES,
                          OPENBLAS_INT_DECLARATIONS, SYMBOL_PREFIX, OPENBLAS_SMOKE,
                          OPENBLAS_SMOKE_EXPECTED, _settings()],
        pins=ds.DATA_INPUTS),
}
