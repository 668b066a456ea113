#!/usr/bin/env python3
"""The data runtime's plotting stack (issue 31): matplotlib (Agg) and Pillow, cross-built for
wasm32-wasip1 from pinned sources and linked statically into python-data-sandbox.wasm like
numpy and pandas (data_stack.py: its cxx stage's compiler wrapper, sysroot and host python;
its data-link registers these extension modules as built-ins, its data-site ships their
Python files as wheels). Stages (each writes only into its own directory):

  plot-tools  a venv with the build-time Python tools meson's builds call (pybind11,
              setuptools-scm, cppy), pip-installed by version and SHA-256; the meson cross
              file of these builds (cxx's, plus pkg-config on our own .pc files only,
              pybind11-config, devnull)
  freetype    FreeType (Debian's source tarball), its own meson build, static
  qhull       Qhull's reentrant C library (Debian's source tarball), compiled directly
  libjpeg     IJG libjpeg 9 (Debian's source tarball), compiled directly
  pillow      Pillow: its C extension modules compiled directly (Pillow builds with
              setuptools, whose probing does not cross-compile), with zlib, libjpeg, FreeType
  kiwisolver  kiwisolver's one C++ module, compiled directly (setuptools + cppy headers)
  contourpy   contourpy (meson, pybind11)
  matplotlib  matplotlib (meson, pybind11, system FreeType and Qhull: the stages above)

The C libraries are pinned by SHA-256 from Debian's pool; the Python packages' sdists from
PyPI. What was learnt: LOG.md ("The plotting stack").
"""

from __future__ import annotations

import concurrent.futures
import fnmatch
import json
import shlex
import shutil
import sys
import zipfile
from pathlib import Path

import build
import data_stack as ds
from build import BuildError, log, run

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"

# --------------------------------------------------------------------------- pinned inputs
FREETYPE_VERSION = "2.13.3"
QHULL_VERSION = "2020.2"  # Qhull 8.0.2
LIBJPEG_VERSION = "9f"
PILLOW_VERSION = "13.0.0"
KIWISOLVER_VERSION = "1.5.1"
CONTOURPY_VERSION = "1.4.0"
# Not 3.11: its text layout needs libraqm, HarfBuzz and SheenBidi besides FreeType (three more
# C/C++ libraries to cross-build); 3.10 is maintained and supports CPython 3.13 and numpy 2.4.
MATPLOTLIB_VERSION = "3.10.9"


def _pool(file: str, sha256: str, size: int, pool: str) -> dict:
    return {"file": file, "sha256": sha256, "size": size, "pool": pool}


def _pypi(project: str, file: str, sha256: str, size: int) -> dict:
    return {"file": file, "sha256": sha256, "size": size, "project": project, "pypi": file}


PLOT_INPUTS = {
    # Debian trixie's orig tarballs (the Debian pool; build.fetch_from_pool).
    "freetype": _pool("freetype_2.13.3+dfsg.orig.tar.xz",
                      "686ec73cbf6783b245dd068a09ce807b729ac0f8a46dd70f7867923c32fdf4de",
                      2201416, "f/freetype/freetype_2.13.3+dfsg.orig.tar.xz"),
    "qhull": _pool("qhull_2020.2.orig.tar.gz",
                   "b5c2d7eb833278881b952c8a52d20179eab87766b00b865000469a45c1838b7e",
                   1298874, "q/qhull/qhull_2020.2.orig.tar.gz"),
    "libjpeg": _pool("libjpeg9_9f.orig.tar.gz",
                     "04705c110cb2469caa79fb71fba3d7bf834914706e9641a4589485c1f832565b",
                     1081470, "libj/libjpeg9/libjpeg9_9f.orig.tar.gz"),
    # PyPI sdists.
    "pillow": _pypi("pillow", f"pillow-{PILLOW_VERSION}.tar.gz",
                    "cdcd1ba258178f7356d74170c9a81ba4eab6a5d55748bc402a5a2a6fe6be3510",
                    47058631),
    "kiwisolver": _pypi("kiwisolver", f"kiwisolver-{KIWISOLVER_VERSION}.tar.gz",
                        "f1303ef2eec81262a4b708c3e858afe58d7c75ad91c1c05266eda7673369859a",
                        104395),
    "contourpy": _pypi("contourpy", f"contourpy-{CONTOURPY_VERSION}.tar.gz",
                       "20156f5a1ac4f8ce02656e39a61e82164a3d359796dc8026f75b062783d500e1",
                       13323726),
    "matplotlib": _pypi("matplotlib", f"matplotlib-{MATPLOTLIB_VERSION}.tar.gz",
                        "fd66508e8c6877d98e586654b608a0456db8d7e8a546eb1e2600efd957302358",
                        34811233),
    # Pure-Python packages whose PyPI files are sdists only (their C speedups are optional):
    # wheels of their Python files are made at data-site.
    "markupsafe": _pypi("markupsafe", "markupsafe-3.0.4.tar.gz",
                        "2e9ad7dd851bf45fab9f75cbff4cb493fee9979e8d8c7c9c3ee119022518edd6",
                        153777),
    "pyyaml": _pypi("pyyaml", "pyyaml-6.0.4.tar.gz",
                    "e24bf71af8a432d7808fabff134d38dfe16d3cbb41f2873bb4b1e42422de0a1a",
                    136336),
}
#: Pure-Python wheels shipped as they are (PyPI): matplotlib's and seaborn's dependencies and
#: the everyday helpers model code imports. faker (a 2.1 MB wheel, 9 MB of modules for its
#: ~90 locales) finds its locales with pkgutil.iter_modules, which the package finder's path
#: hook serves; it is not pre-imported (its modules cost only their bytes until imported).
PURE_WHEELS = {
    "cycler": ("cycler-0.12.1-py3-none-any.whl",
               "85cef7cff222d8644161529808465972e51340599459b8ac3ccbac5a854e0d30", 8321),
    "pyparsing": ("pyparsing-3.3.3-py3-none-any.whl",
                  "ece8c00a69cf01b45d0b1dedabb469c90d8caf996d4fda40f147627a122849a4", 126420),
    "packaging": ("packaging-26.4-py3-none-any.whl",
                  "81383611a09c1bc0b08b76e0fd5829d7c6824c65b27a6aee339da133f4233ea2", 140049),
    "fonttools": ("fonttools-4.68.0-py3-none-any.whl",
                  "d76f8fdcb6936f5e1045a0c9dd721a4bf11112e60d1e243bfa1d39f06a8b3104", 1248357),
    "seaborn": ("seaborn-0.13.2-py3-none-any.whl",
                "636f8336facf092165e27924f223d3c62ca560b1f2bb5dff7ab7fad265361987", 294914),
    "tabulate": ("tabulate-0.10.0-py3-none-any.whl",
                 "f0b0622e567335c8fabaaa659f1b33bcb6ddfe2e496071b743aa113f8774f2d3", 39814),
    "jinja2": ("jinja2-3.1.6-py3-none-any.whl",
               "85ece4451f492d0c13c5dd7c13a64681a86afae63a5f347908daf103ce6d2f67", 134899),
    "beautifulsoup4": ("beautifulsoup4-4.15.0-py3-none-any.whl",
                       "d6f88de62e1d4e38ecb1077eb9724cd0eff29d2a08ca16a401e9b9e93f117cf9",
                       109924),
    "soupsieve": ("soupsieve-4.1.3-py3-none-any.whl",
                  "7a390d1a57d1ab7bb228531e9b8a750a5ebf87db774e0ef6faeeac057d22a5bf", 59792),
    "typing-extensions": ("typing_extensions-4.16.0-py3-none-any.whl",
                          "481caa481374e813c1b176ada14e97f1f67a4539ce9cfeb3f350d78d6370c2e8",
                          45571),
    "openpyxl": ("openpyxl-3.1.5-py2.py3-none-any.whl",
                 "5282c12b107bffeef825f4617dc029afaf41d0ea60823bbb665ef3079dc79de2", 250910),
    "et-xmlfile": ("et_xmlfile-2.0.0-py3-none-any.whl",
                   "7a91720bc756843502c3b7504c77b8fe44217c85c537d85037f0f536151b2caa", 18059),
    "faker": ("faker-40.63.0-py3-none-any.whl",
              "36627c20b575b4138f54b6c21f8703e9ab122fd487aca11319beec2aa6ca7232", 2074417),
    # scikit-learn's dependencies (joblib runs its jobs sequentially: no processes).
    "joblib": ("joblib-1.6.0-py3-none-any.whl",
               "3dbbf9f6e4b592a2357b854608e980fe6390d131d7a82f011a377ef2ebef7aba", 306115),
    "threadpoolctl": ("threadpoolctl-3.8.0-py3-none-any.whl",
                      "f1b49c82704d50f13ffae019c727b0fa4f6791a58f48f06a09c45face1be66da",
                      32091),
    "narwhals": ("narwhals-2.29.0-py3-none-any.whl",
                 "1c69b3dc30240f6e848c5a673cafc86affa44184ecce721e25b7194663ad10dc", 501718),
    "cloudpickle": ("cloudpickle-3.1.3-py3-none-any.whl",
                    "1654f4f18e416447210a63c5c25a135d65a292156aa5fa519dfa4baf7726dddb", 22399),
    # statsmodels' dependencies: patsy (its formulas before 0.15) and formulaic (0.15's
    # formula engine) with formulaic's interface-meta and wrapt (the pure wheel: no C part).
    "patsy": ("patsy-1.0.3-py2.py3-none-any.whl",
              "d3dbebe8fd5f46e29912d030b63c6268647b59bf788a99e2af28a30234cf357c", 233318),
    "formulaic": ("formulaic-1.2.2-py3-none-any.whl",
                  "0f84ff49e3fc9dc0e68ab08a0a9427874021aa6c558e66b44dc634a35739b09b", 118939),
    "interface-meta": ("interface_meta-2.0.1-py3-none-any.whl",
                       "f38016bef9a4429b6d0792d809be7b65e9781820c674bf7f463999086b6e6323",
                       15330),
    "wrapt": ("wrapt-2.5.2-py3-none-any.whl",
              "61eb54e9540ea522c2c4752a57549a83d3c67e6704ed708403d28e067aaf90f0", 82025),
    "pytz": ("pytz-2026.6-py2.py3-none-any.whl",
             "7fed3fee8fd6bd4a2b7b75a8d56021d0624127bf69bd5691f115db929ac570b3", 506321),
    # requests and its dependencies (charset_normalizer's pure wheel: no mypyc speedups).
    # The guest has no sockets: the bootstrap routes requests' HTTPAdapter through the
    # host's network channel (`network=`), which carries out the request, TLS included.
    "requests": ("requests-2.34.2-py3-none-any.whl",
                 "2a0d60c172f83ac6ab31e4554906c0f3b3588d37b5cb939b1c061f4907e278e0", 73075),
    "urllib3": ("urllib3-2.8.0-py3-none-any.whl",
                "0cf3cae568d36aa9576b28dfb35f11328f1cb974ca7647d9475ebb86c75ac6e3", 135717),
    "idna": ("idna-3.20-py3-none-any.whl",
             "ab7ae7122974553370f0bdb919e1a960b2cd1bc1ef0276416d896db81c14582c", 69583),
    "charset-normalizer": ("charset_normalizer-3.5.3-py3-none-any.whl",
                           "96e268b0cbda016ac519513294fcd17032264085b600abaac58b93049477e132",
                           68878),
    "certifi": ("certifi-2026.10.19.post1-py3-none-any.whl",
                "1324c476b4811eff41a8bc2122cd0bbd4d9c7234c725446d99ab1612b3a7fdd2", 134047),
}
for _name, (_file, _sha, _size) in PURE_WHEELS.items():
    PLOT_INPUTS[_name] = _pypi(_name, _file, _sha, _size)
#: The wheels made from sdists at data-site: input key -> (distribution, version, the
#: package directory in the sdist).
SDIST_WHEELS = {
    "markupsafe": ("markupsafe", "3.0.4", "src/markupsafe"),
    "pyyaml": ("PyYAML", "6.0.4", "lib/yaml"),
}

# The build tools of these builds (`--require-hashes`, as data_stack.BUILD_TOOLS): meson and
# ninja come from the cxx stage's venv.
PLOT_TOOLS = {
    # Not 3.x: its internals use std::mutex outside free-threaded builds, and Debian's libc++
    # for wasm32 is built without threads (no std::mutex). 2.13 guards them.
    "pybind11": ("2.13.6", {
        "pybind11-2.13.6-py3-none-any.whl":
            "237c41e29157b962835d356b370ededd57594a26d5894a795960f0047cb5caf5",
    }),
    # kiwisolver's C++ includes its headers.
    "cppy": ("1.3.1", {
        "cppy-1.3.1-py3-none-any.whl":
            "7ca132b6ef6187384738804bd3a453d4eab7e3274df6dcd35e5d92aae3404717",
    }),
}

# For the host python (the native build-python: contourpy's meson.build asks it for
# meson-python's version), installed with --target as data_stack.HOST_TOOLS.
PLOT_HOST_TOOLS = {
    "meson-python": ("0.22.1", {
        "meson_python-0.22.1-py3-none-any.whl":
            "258fde948cf45aab5df23fcc9e17a9050ee73d4e1002fe6cf86519f61c414778",
    }),
    # matplotlib's meson.build runs `python3 -m setuptools_scm` for its version, with the
    # cross file's python (the host python).
    # matplotlib asks for setuptools_scm < 10.
    "setuptools-scm": ("9.2.2", {
        "setuptools_scm-9.2.2-py3-none-any.whl":
            "30e8f84d2ab1ba7cb0e653429b179395d0c33775d54807fc5f1dd6671801aef7",
    }),
    "packaging": ("26.4", {
        "packaging-26.4-py3-none-any.whl":
            "81383611a09c1bc0b08b76e0fd5829d7c6824c65b27a6aee339da133f4233ea2",
    }),
    "setuptools": ("84.2.1", {
        "setuptools-84.2.1-py3-none-any.whl":
            "ca140b45d5325a9478f880e351484f62fef15f336462e449ca0c03c873d589c2",
    }),
}

# --------------------------------------------------------------------------- build knobs
#: The stages of this module, in build order.
STAGES = ["plot-tools", "freetype", "qhull", "libjpeg", "pillow", "kiwisolver", "contourpy",
          "matplotlib"]
FREETYPE_MESON_OPTIONS = [
    "--buildtype=release", "-Db_ndebug=if-release", "-Ddefault_library=static",
    "-Dbrotli=disabled", "-Dbzip2=disabled", "-Dharfbuzz=disabled", "-Dpng=disabled",
    "-Dzlib=disabled", "-Dmmap=disabled", "-Dtests=disabled",
]
# b_lto: matplotlib's default; the data link does its own thin LTO. werror: contourpy's
# default (a new compiler's warning is not an error here).
CONTOURPY_MESON_OPTIONS = ["--buildtype=release", "-Db_ndebug=if-release",
                           "-Dpython.bytecompile=-1", "-Dwerror=false"]
MATPLOTLIB_MESON_OPTIONS = ["--buildtype=release", "-Db_ndebug=if-release",
                            "-Dpython.bytecompile=-1", "-Db_lto=false",
                            "-Dsystem-freetype=true", "-Dsystem-qhull=true",
                            "-Dmacosx=false", "-DrcParams-backend=Agg"]
QHULL_SOURCES = [
    "geom2_r", "geom_r", "global_r", "io_r", "libqhull_r", "mem_r", "merge_r", "poly2_r",
    "poly_r", "qset_r", "random_r", "rboxlib_r", "stat_r", "usermem_r", "userprintf_rbox_r",
    "userprintf_r", "user_r",
]
# libjpeg's Makefile.am LIBSOURCES with the memory manager that needs no files (jmemnobs).
LIBJPEG_SOURCES = [
    "jaricom", "jcapimin", "jcapistd", "jcarith", "jccoefct", "jccolor", "jcdctmgr",
    "jchuff", "jcinit", "jcmainct", "jcmarker", "jcmaster", "jcomapi", "jcparam", "jcprepct",
    "jcsample", "jctrans", "jdapimin", "jdapistd", "jdarith", "jdatadst", "jdatasrc",
    "jdcoefct", "jdcolor", "jddctmgr", "jdhuff", "jdinput", "jdmainct", "jdmarker",
    "jdmaster", "jdmerge", "jdpostct", "jdsample", "jdtrans", "jerror", "jfdctflt",
    "jfdctfst", "jfdctint", "jidctflt", "jidctfst", "jidctint", "jquant1", "jquant2",
    "jutils", "jmemmgr", "jmemnobs",
]
# What configure would write for an ANSI C compiler with the standard headers.
LIBJPEG_JCONFIG = """\
/* jconfig.h for wasm32-wasi, written by scripts/cpython_wasi/plot_stack.py */
#define HAVE_PROTOTYPES
#define HAVE_UNSIGNED_CHAR
#define HAVE_UNSIGNED_SHORT
#define HAVE_STDDEF_H
#define HAVE_STDLIB_H
#undef NEED_BSD_STRINGS
#undef NEED_SYS_TYPES_H
#undef NEED_FAR_POINTERS
#undef NEED_SHORT_EXTERNAL_NAMES
#undef INCOMPLETE_TYPES_BROKEN
#ifdef JPEG_INTERNALS
#undef RIGHT_SHIFT_IS_UNSIGNED
#endif
"""
# Pillow's setup.py, as its probing would configure it here: zlib and libjpeg for _imaging
# (PNG is Pillow's own code over zlib), FreeType for _imagingft (basic layout: no raqm).
# Absent: _imagingcms (LittleCMS), _webp, _avif, _imagingtk (no libraries/Tk), TIFF and
# JPEG 2000 (no libraries).
PILLOW_IMAGING = ["decode", "encode", "map", "display", "outline", "path"]
PILLOW_DEFINES = ["-DHAVE_LIBJPEG", "-DHAVE_LIBZ", f'-DPILLOW_VERSION="{PILLOW_VERSION}"']


# --------------------------------------------------------------------------- helpers
def plot_env(ctx: build.Ctx, **extra: str) -> dict:
    """tool_env with this stage set's venv first (its python3 runs setuptools_scm) and
    pkg-config reading only the .pc files of the freetype and qhull stages."""
    env = ds.tool_env(ctx, **extra)
    tools = ds.data_dir(ctx, "plot-tools")
    env["PATH"] = f"{tools / 'venv' / 'bin'}:{env['PATH']}"
    env["PKG_CONFIG_LIBDIR"] = ":".join(
        str(ds.data_dir(ctx, s) / "lib" / "pkgconfig") for s in ("freetype", "qhull"))
    env["PKG_CONFIG_PATH"] = ""
    env["DATA_HOST_PYTHONPATH"] = str(tools / "hostsite")
    return env


def python_includes(ctx: build.Ctx) -> list[str]:
    """What meson's python dependency adds: CPython's headers and the cross build's
    pyconfig.h."""
    return [f"-I{ctx.src / 'Include'}", f"-I{ctx.cross_dir}"]


def compile_objects(ctx: build.Ctx, sources: list[Path], objdir: Path, flags: list[str],
                    *, cxx: bool = False) -> list[Path]:
    """Compile `sources` with the cxx stage's wrappers (MAKE_JOBS at a time); the objects.
    Paths below the stage's directory are recorded relative to it (__FILE__, e.g. in
    CPython's PyErr_BadInternalCall), as meson's relative paths do for numpy's."""
    bindir = ds.data_dir(ctx, "cxx") / "bin"
    compiler = bindir / ("wasm32-wasi-clang++" if cxx else "wasm32-wasi-clang")
    base = list(ds.CPP_ARGS if cxx else ds.C_ARGS)
    base.append(f"-ffile-prefix-map={ds.data_dir(ctx, ctx.current_stage)}/=")
    objdir.mkdir(parents=True, exist_ok=True)
    jobs = []
    for src in sources:
        obj = objdir / (src.stem + ".o")
        if obj in [o for o, _ in jobs]:
            raise BuildError(f"two sources compile to {obj.name}")
        jobs.append((obj, [compiler, *base, *flags, "-c", src, "-o", obj]))
    with concurrent.futures.ThreadPoolExecutor(int(build.MAKE_JOBS)) as pool:
        for fut in [pool.submit(run, ctx, cmd, env=ds.tool_env(ctx)) for _, cmd in jobs]:
            fut.result()
    return [obj for obj, _ in jobs]


def archive(ctx: build.Ctx, path: Path, objects: list[Path]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.unlink(missing_ok=True)
    run(ctx, [ds.LLVM["ar"], "qcs", path, *objects])
    return path


def direct_extension(ctx: build.Ctx, out: Path, name: str, sources: list[Path],
                     flags: list[str], *, cxx: bool = False,
                     libraries: list[str] = ()) -> dict:
    """One extension module compiled without its build system: its objects (the module's
    init function renamed as data/ccwrap.py does for meson's builds) archived into
    out/ext/<name>.a; its entry of extensions.json (data_stack.collect_extensions' shape).
    `libraries`: static libraries it needs, relative to `out` or `@<stage>/<path>`."""
    short = name.rsplit(".", 1)[-1]
    objdir = out / "obj" / name
    objs = compile_objects(ctx, sources, objdir,
                           [*python_includes(ctx), f"-DPyInit_{short}={ds.mangle(name)}",
                            *flags], cxx=cxx)
    archive(ctx, out / "ext" / f"{name}.a", objs)
    return {"name": name, "init": ds.mangle(name), "archive": f"ext/{name}.a",
            "libraries": list(libraries), "link_flags": [], "cxx": cxx}


def write_extensions(out: Path, modules: list[dict]) -> None:
    modules = sorted(modules, key=lambda m: m["name"])
    (out / "ext" / "extensions.json").write_text(json.dumps(modules, indent=1) + "\n")
    log(f"{out.name}: {len(modules)} extension modules: "
        + ", ".join(m["name"] for m in modules))


def write_pc(prefix: Path, name: str, version: str, libs: str, cflags: str) -> None:
    pc = prefix / "lib" / "pkgconfig" / f"{name}.pc"
    pc.parent.mkdir(parents=True, exist_ok=True)
    pc.write_text(f"prefix={prefix}\nName: {name}\nDescription: {name} for wasm32-wasi\n"
                  f"Version: {version}\nLibs: {libs}\nCflags: {cflags}\n")


def copy_package(src: Path, dest_site: Path, package: str) -> None:
    """A package's Python files from an sdist into a site directory (for data-site)."""
    shutil.copytree(src, dest_site / package,
                    ignore=shutil.ignore_patterns("*.c", "*.h", "*.cpp", "*.pyx", "*.pxd",
                                                  "__pycache__", "tests"))


# --------------------------------------------------------------------------- plot-tools
def stage_plot_tools(ctx: build.Ctx) -> None:
    out = ds.fresh_dir(ctx, "plot-tools")
    cxx = ds.data_dir(ctx, "cxx")
    venv = out / "venv"
    log("plot-tools: venv (pip --require-hashes)")
    run(ctx, [sys.executable, "-m", "venv", venv])
    (out / "requirements.txt").write_text(ds.pip_requirements(PLOT_TOOLS))
    run(ctx, [venv / "bin" / "python", "-m", "pip", "install", "--disable-pip-version-check",
              "--no-input", "--no-deps", "--only-binary", ":all:", "--require-hashes",
              "-r", out / "requirements.txt"])
    (out / "host-requirements.txt").write_text(ds.pip_requirements(PLOT_HOST_TOOLS))
    run(ctx, [venv / "bin" / "python", "-m", "pip", "install", "--disable-pip-version-check",
              "--no-input", "--no-deps", "--only-binary", ":all:", "--require-hashes",
              "--target", out / "hostsite", "--python-version", build.PY_MINOR,
              "--implementation", "py", "--abi", "none", "--platform", "any",
              "-r", out / "host-requirements.txt"])
    got = run(ctx, [venv / "bin" / "pybind11-config", "--version"], capture=True)
    if PLOT_TOOLS["pybind11"][0] not in got.stdout.decode():
        raise BuildError(f"plot-tools: pybind11-config says {got.stdout!r}")
    # meson asks `pybind11-config --includes` for the compile flags, which names the venv
    # Python's (native) headers too: the cross build must see pybind11's headers alone.
    include = run(ctx, [venv / "bin" / "python", "-c",
                        "import pybind11; print(pybind11.get_include())"], capture=True)
    (out / "bin").mkdir()
    build.write_exe(out / "bin" / "pybind11-config", "\n".join([
        "#!/bin/sh",
        f'if [ "$1" = --includes ]; then echo -I{include.stdout.decode().strip()}; exit 0; fi',
        f'exec {shlex.quote(str(venv / "bin" / "pybind11-config"))} "$@"',
    ]) + "\n")
    # The cross file: cxx's, with pkg-config (plot_env limits it to our .pc files), the
    # pybind11 config tool and the guest's /dev/null (matplotlib would ask the host python).
    cross = (cxx / "cross.ini").read_text()
    cross = cross.replace("pkg-config = 'false'",
                          "pkg-config = 'pkg-config'\n"
                          f"pybind11-config = '{out / 'bin' / 'pybind11-config'}'")
    cross = cross.replace("[properties]\n", "[properties]\ndevnull = '/dev/null'\n")
    if "pybind11-config" not in cross or "devnull" not in cross:
        raise BuildError("plot-tools: cxx's cross file is not in the expected shape")
    (out / "cross.ini").write_text(cross)


# --------------------------------------------------------------------------- C libraries
def stage_freetype(ctx: build.Ctx) -> None:
    out = ds.fresh_dir(ctx, "freetype")
    cxx = ds.data_dir(ctx, "cxx")
    work = out / "src"
    src = ds.unpack_sdist(ctx, "freetype", work)
    meson = [cxx / "venv" / "bin" / "meson"]
    env = ds.tool_env(ctx)
    run(ctx, [*meson, "setup", out / "build", f"--cross-file={cxx / 'cross.ini'}",
              f"--prefix={out}", "--libdir=lib", *FREETYPE_MESON_OPTIONS], cwd=src, env=env)
    run(ctx, [cxx / "venv" / "bin" / "ninja", "-C", out / "build", f"-j{build.MAKE_JOBS}"],
        env=env)
    run(ctx, [*meson, "install", "-C", out / "build", "--no-rebuild"], env=env)
    lib = out / "lib" / "libfreetype.a"
    if not lib.is_file():
        raise BuildError("freetype: libfreetype.a was not installed")
    # meson wrote freetype2.pc with the prefix; nothing else of the build is needed.
    shutil.rmtree(out / "build")
    shutil.rmtree(work)


def stage_qhull(ctx: build.Ctx) -> None:
    out = ds.fresh_dir(ctx, "qhull")
    work = out / "src"
    src = ds.unpack_sdist(ctx, "qhull", work)
    sources = [src / "src" / "libqhull_r" / f"{s}.c" for s in QHULL_SOURCES]
    objs = compile_objects(ctx, sources, out / "obj", [f"-I{src / 'src'}"])
    archive(ctx, out / "lib" / "libqhull_r.a", objs)
    inc = out / "include" / "libqhull_r"
    inc.mkdir(parents=True)
    for header in sorted((src / "src" / "libqhull_r").glob("*.h")):
        shutil.copyfile(header, inc / header.name)
    write_pc(out, "qhull_r", "8.0.2", f"-L{out / 'lib'} -lqhull_r",
             f"-I{out / 'include'}")
    shutil.rmtree(out / "obj")
    shutil.rmtree(work)


def stage_libjpeg(ctx: build.Ctx) -> None:
    out = ds.fresh_dir(ctx, "libjpeg")
    work = out / "src"
    work.mkdir()
    build.unpack_tar(ds.data_input_path(ctx, "libjpeg"), work)
    (src,) = [p for p in work.iterdir() if p.is_dir()]
    (src / "jconfig.h").write_text(LIBJPEG_JCONFIG)
    objs = compile_objects(ctx, [src / f"{s}.c" for s in LIBJPEG_SOURCES], out / "obj",
                           [f"-I{src}"])
    archive(ctx, out / "lib" / "libjpeg.a", objs)
    (out / "include").mkdir()
    for header in ("jconfig.h", "jerror.h", "jmorecfg.h", "jpeglib.h"):
        shutil.copyfile(src / header, out / "include" / header)
    shutil.rmtree(out / "obj")
    shutil.rmtree(work)


# --------------------------------------------------------------------------- packages
def stage_pillow(ctx: build.Ctx) -> None:
    out = ds.fresh_dir(ctx, "pillow")
    src = ds.unpack_sdist(ctx, "pillow", out / "src")
    freetype, libjpeg = ds.data_dir(ctx, "freetype"), ds.data_dir(ctx, "libjpeg")
    inc = [f"-I{src / 'src' / 'libImaging'}", f"-I{ctx.zlib_prefix / 'include'}",
           f"-I{libjpeg / 'include'}", f"-I{freetype / 'include' / 'freetype2'}"]
    # setup.py's `libraries` entry: Mode.c, a static library of its own used by every module.
    mode = compile_objects(ctx, [src / "src" / "libImaging" / "Mode.c"], out / "obj" / "mode",
                           [*python_includes(ctx), *inc])
    archive(ctx, out / "ext" / "lib" / "libpil_imaging_mode.a", mode)
    common = ["ext/lib/libpil_imaging_mode.a"]
    imaging = [src / "src" / "_imaging.c"]
    imaging += [src / "src" / f"{s}.c" for s in PILLOW_IMAGING]
    imaging += sorted(p for p in (src / "src" / "libImaging").glob("*.c") if p.name != "Mode.c"
                      and p.stem in PILLOW_LIB_IMAGING(src))
    modules = [
        direct_extension(ctx, out, "PIL._imaging", imaging, [*inc, *PILLOW_DEFINES],
                         libraries=[*common, "@libjpeg/lib/libjpeg.a"]),
        direct_extension(ctx, out, "PIL._imagingft", [src / "src" / "_imagingft.c"], inc,
                         libraries=[*common, "@freetype/lib/libfreetype.a"]),
        direct_extension(ctx, out, "PIL._imagingmath", [src / "src" / "_imagingmath.c"], inc,
                         libraries=common),
        direct_extension(ctx, out, "PIL._imagingmorph", [src / "src" / "_imagingmorph.c"], inc,
                         libraries=common),
    ]
    write_extensions(out, modules)
    site = out / "site"
    copy_package(src / "src" / "PIL", site, "PIL")
    shutil.rmtree(out / "obj")


def PILLOW_LIB_IMAGING(src: Path) -> set[str]:
    """setup.py's _LIB_IMAGING tuple (the libImaging files the extension compiles)."""
    text = (src / "setup.py").read_text()
    start = text.index("_LIB_IMAGING = (")
    body = text[start:text.index(")", start)]
    names = set(json.loads("[" + body.split("(", 1)[1].strip().rstrip(",") + "]"))
    if "Access" not in names:
        raise BuildError("pillow: setup.py's _LIB_IMAGING was not understood")
    return names


def stage_kiwisolver(ctx: build.Ctx) -> None:
    out = ds.fresh_dir(ctx, "kiwisolver")
    src = ds.unpack_sdist(ctx, "kiwisolver", out / "src")
    cppy = next((ds.data_dir(ctx, "plot-tools") / "venv" / "lib").glob(
        "python3*/site-packages/cppy/include"))
    sources = sorted((src / "py" / "src").glob("*.cpp"))
    modules = [direct_extension(ctx, out, "kiwisolver._cext", sources,
                                [f"-I{src}", f"-I{cppy}", "-std=c++17"], cxx=True)]
    write_extensions(out, modules)
    copy_package(src / "py" / "kiwisolver", out / "site", "kiwisolver")
    shutil.rmtree(out / "obj")


def meson_package(ctx: build.Ctx, key: str, options: list[str]) -> None:
    """A meson-python package built with meson directly (as pandas), with plot-tools'
    cross file and environment."""
    out = ds.fresh_dir(ctx, key)
    cxx = ds.data_dir(ctx, "cxx")
    src = ds.unpack_sdist(ctx, key, out / "src")
    meson = [cxx / "venv" / "bin" / "meson"]
    env = plot_env(ctx)
    cross = ds.data_dir(ctx, "plot-tools") / "cross.ini"
    log(f"{key}: meson setup")
    run(ctx, [*meson, "setup", out / "build", f"--cross-file={cross}", *options],
        cwd=src, env=env)
    log(f"{key}: ninja -j{build.MAKE_JOBS}")
    run(ctx, [cxx / "venv" / "bin" / "ninja", "-C", out / "build", f"-j{build.MAKE_JOBS}"],
        env=env)
    run(ctx, [*meson, "install", "-C", out / "build", "--destdir", out / "install",
              "--no-rebuild"], env=env)
    modules = ds.collect_extensions(ctx, out / "build", out)
    log(f"{key}: {len(modules)} extension modules: " + ", ".join(m["name"] for m in modules))
    # Generated modules that record the build (contourpy's util/_build_config.py: its
    # directories, compilers, host python): no absolute build path may reach the image.
    replacements = {needle.decode(): "<build>" for needle in
                    sorted(ds.leak_needles(ctx), key=len, reverse=True)}
    for path in sorted(ds.site_packages(out / "install").rglob("_build_config.py")):
        ds.scrub_build_paths(path, replacements)


def stage_contourpy(ctx: build.Ctx) -> None:
    meson_package(ctx, "contourpy", CONTOURPY_MESON_OPTIONS)


def stage_matplotlib(ctx: build.Ctx) -> None:
    meson_package(ctx, "matplotlib", MATPLOTLIB_MESON_OPTIONS)
    out = ds.data_dir(ctx, "matplotlib")
    # The C libraries its modules link (pkg-config's -l flags, which the archives' link
    # manifests keep but data-link does not read): named like libnpymath.a.
    ext = json.loads((out / "ext" / "extensions.json").read_text())
    extra = {"matplotlib.ft2font": "@freetype/lib/libfreetype.a",
             "matplotlib._qhull": "@qhull/lib/libqhull_r.a"}
    for m in ext:
        if m["name"] in extra:
            m["libraries"].append(extra[m["name"]])
    (out / "ext" / "extensions.json").write_text(json.dumps(ext, indent=1) + "\n")


def _settings() -> list:
    return [ds.C_ARGS, ds.CPP_ARGS, ds.EXT_SUFFIX, ds.LLVM]


_COMMON = (compile_objects, archive, python_includes)
STAGE_SPECS = {
    "plot-tools": dict(
        func=stage_plot_tools, needs=("cxx",), helpers=(ds.pip_requirements,),
        settings=lambda: [PLOT_TOOLS, PLOT_HOST_TOOLS, sys.version_info[:2]],
        pins=ds.DATA_INPUTS),
    "freetype": dict(
        func=stage_freetype, needs=("cxx",), inputs=("freetype",),
        files=tuple(f"data/{p.name}" for p in sorted(DATA.glob("freetype-*.patch"))),
        helpers=(ds.unpack_sdist,),
        settings=lambda: [FREETYPE_MESON_OPTIONS, _settings()], pins=ds.DATA_INPUTS),
    "qhull": dict(
        func=stage_qhull, needs=("cxx",), inputs=("qhull",),
        files=tuple(f"data/{p.name}" for p in sorted(DATA.glob("qhull-*.patch"))),
        helpers=(*_COMMON, write_pc, ds.unpack_sdist),
        settings=lambda: [QHULL_SOURCES, _settings()], pins=ds.DATA_INPUTS),
    "libjpeg": dict(
        func=stage_libjpeg, needs=("cxx",), inputs=("libjpeg",), helpers=_COMMON,
        settings=lambda: [LIBJPEG_SOURCES, LIBJPEG_JCONFIG, _settings()],
        pins=ds.DATA_INPUTS),
    "pillow": dict(
        func=stage_pillow, needs=("cxx", "cross", "zlib", "freetype", "libjpeg"),
        inputs=("pillow",),
        files=tuple(f"data/{p.name}" for p in sorted(DATA.glob("pillow-*.patch"))),
        helpers=(*_COMMON, direct_extension, write_extensions, copy_package,
                 PILLOW_LIB_IMAGING, ds.unpack_sdist),
        settings=lambda: [PILLOW_IMAGING, PILLOW_DEFINES, _settings()], pins=ds.DATA_INPUTS),
    "kiwisolver": dict(
        func=stage_kiwisolver, needs=("cxx", "cross", "plot-tools"), inputs=("kiwisolver",),
        files=tuple(f"data/{p.name}" for p in sorted(DATA.glob("kiwisolver-*.patch"))),
        helpers=(*_COMMON, direct_extension, write_extensions, copy_package,
                 ds.unpack_sdist),
        settings=_settings, pins=ds.DATA_INPUTS),
    "contourpy": dict(
        func=stage_contourpy, needs=("cxx", "cross", "plot-tools"), inputs=("contourpy",),
        files=tuple(f"data/{p.name}" for p in sorted(DATA.glob("contourpy-*.patch"))),
        helpers=(meson_package, plot_env, ds.unpack_sdist, ds.collect_extensions,
                 ds.copy_archive, ds.mangle, ds.scrub_build_paths, ds.leak_needles),
        settings=lambda: [CONTOURPY_MESON_OPTIONS, _settings()], pins=ds.DATA_INPUTS),
    "matplotlib": dict(
        func=stage_matplotlib, needs=("cxx", "cross", "plot-tools", "freetype", "qhull"),
        inputs=("matplotlib",),
        files=tuple(f"data/{p.name}" for p in sorted(DATA.glob("matplotlib-*.patch"))),
        helpers=(meson_package, plot_env, ds.unpack_sdist, ds.collect_extensions,
                 ds.copy_archive, ds.mangle, ds.scrub_build_paths, ds.leak_needles),
        settings=lambda: [MATPLOTLIB_MESON_OPTIONS, _settings()], pins=ds.DATA_INPUTS),
}


# --------------------------------------------------------------------------- data-site part
#: The Python side of each package stage: stage -> (distribution, version, where its files
#: are (`install`: meson's, else the stage's `site`), top-level packages/modules).
SITE_PACKAGES = {
    "pillow": ("pillow", PILLOW_VERSION, "site", ["PIL"]),
    "kiwisolver": ("kiwisolver", KIWISOLVER_VERSION, "site", ["kiwisolver"]),
    "contourpy": ("contourpy", CONTOURPY_VERSION, "install", ["contourpy"]),
    "matplotlib": ("matplotlib", MATPLOTLIB_VERSION, "install",
                   ["matplotlib", "mpl_toolkits", "pylab.py"]),
}
#: What is left out of these wheels besides data_stack.SITE_DROP_*, and why (paths, or
#: patterns where `*` stands for any part).
PLOT_SITE_DROP = {
    "matplotlib/mpl-data/sample_data": "example data of matplotlib's gallery "
                                       "(cbook.get_sample_data)",
    "matplotlib/mpl-data/images": "toolbar icons of the interactive (GUI) backends",
    "matplotlib/backends/web_backend": "JavaScript/CSS of the WebAgg and nbAgg backends",
    "matplotlib/testing": "matplotlib's test helpers (its tests are not shipped)",
    "statsmodels/datasets/*/src": "the original files the datasets' CSVs were made from "
                                  "(4.7 MB; their loaders read the CSVs)",
}


def plot_site_wheels(ctx: build.Ctx, wheels: Path, packages: dict) -> list[dict]:
    """The plotting and scientific stacks' wheels, into `wheels`: the built packages' Python
    files (`packages`: SITE_PACKAGES' shape; reproducible wheels, as numpy's), the pure
    wheels of PURE_WHEELS as PyPI has them, and wheels of markupsafe's and PyYAML's Python
    files (pure fallbacks: no C speedups)."""
    listing = []
    for stage, (dist, version, where, tops) in packages.items():
        out = ds.data_dir(ctx, stage)
        (src,) = [p for p in (out / "src").iterdir() if p.is_dir()]
        pkg_info = (src / "PKG-INFO").read_text()
        root = out / "site" if where == "site" else ds.site_packages(out / "install")
        files: dict[str, bytes] = {}
        for top in tops:
            if top.endswith(".py"):
                files[top] = (root / top).read_bytes()
            else:
                files.update(ds.site_files(root, top))
        files = {rel: data for rel, data in files.items()
                 if not any(fnmatch.fnmatchcase(rel, p) or fnmatch.fnmatchcase(rel, p + "/*")
                            for p in PLOT_SITE_DROP)}
        files = ds.apply_site_patches(ctx, stage, files)
        for rel, data in files.items():
            ds.check_no_leaks(ctx, f"data-site: {stage} {rel}", data)
        builtins = [m["name"] for m in
                    json.loads((out / "ext" / "extensions.json").read_text())]
        extra = {**ds.license_files(src, pkg_info),
                 ds.BUILTINS_FILE: "".join(f"{n}\n" for n in builtins).encode()}
        path = ds.write_wheel(wheels, dist, version, files, pkg_info.encode(), extra)
        listing.append({"name": dist, "version": version, "file": path.name,
                        "files": len(files), "unpacked": sum(map(len, files.values()))})
    for key, (dist, version, package_dir) in SDIST_WHEELS.items():
        with tempfile_dir(ds.data_dir(ctx, "data-site")) as tmp:
            build.unpack_tar(ds.data_input_path(ctx, key), tmp)
            (src,) = [p for p in tmp.iterdir() if p.is_dir()]
            pkg_info = (src / "PKG-INFO").read_text()
            if f"\nVersion: {version}\n" not in pkg_info:
                raise BuildError(f"data-site: {key} is not version {version}")
            pkg = src / package_dir
            files = {f"{pkg.name}/{p.relative_to(pkg).as_posix()}": p.read_bytes()
                     for p in sorted(pkg.rglob("*.py"))}
            path = ds.write_wheel(wheels, dist, version, files, pkg_info.encode(),
                                  ds.license_files(src, pkg_info))
        listing.append({"name": dist, "version": version, "file": path.name,
                        "files": len(files), "unpacked": sum(map(len, files.values()))})
    for key in PURE_WHEELS:
        spec = ds.DATA_INPUTS[key]
        build.check_pinned(f"input {spec['file']}", ds.data_input_path(ctx, key),
                           spec["sha256"])
        if any(ds.DATA.glob(f"site-{key}-*.patch")):
            listing.append(patched_pure_wheel(ctx, key, wheels))
            continue
        shutil.copyfile(ds.data_input_path(ctx, key), wheels / spec["file"])
        listing.append({"name": key, "file": spec["file"]})
    return listing


def patched_pure_wheel(ctx: build.Ctx, key: str, wheels: Path) -> dict:
    """PURE_WHEELS' `key` with data/site-<key>-*.patch applied to its Python files, written
    again into `wheels` as a reproducible wheel (its METADATA and license files kept)."""
    with zipfile.ZipFile(ds.data_input_path(ctx, key)) as whl:
        members = {n: whl.read(n) for n in whl.namelist() if not n.endswith("/")}
    (dist_info,) = {n.split("/")[0] for n in members if n.split("/")[0].endswith(".dist-info")}
    metadata = members[f"{dist_info}/METADATA"]
    dist, version = dist_info[: -len(".dist-info")].rsplit("-", 1)
    files = {n: d for n, d in members.items() if not n.startswith(f"{dist_info}/")}
    extra = {n[len(dist_info) + 1:]: d for n, d in members.items()
             if n.startswith(f"{dist_info}/")
             and n[len(dist_info) + 1:] not in ("METADATA", "WHEEL", "RECORD")}
    files = ds.apply_site_patches(ctx, key, files)
    path = ds.write_wheel(wheels, dist, version, files, metadata, extra)
    return {"name": key, "version": version, "file": path.name, "files": len(files),
            "unpacked": sum(map(len, files.values()))}


class tempfile_dir:
    """A scratch directory below `parent`, removed afterwards."""

    def __init__(self, parent: Path) -> None:
        import tempfile
        self.path = Path(tempfile.mkdtemp(prefix=".sdist-", dir=parent))

    def __enter__(self) -> Path:
        return self.path

    def __exit__(self, *exc) -> None:
        shutil.rmtree(self.path, ignore_errors=True)
