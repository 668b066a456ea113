"""Why: the C/C++ compiler meson sees when building numpy and pandas for the data runtime,
whose extension modules are linked statically into python-data-sandbox.wasm, not loaded as
shared libraries (WASI has no dlopen). It runs clang-19 for wasm32-wasi, and:

* compiling an object of an extension module (meson puts them in
  `<dir>/<name>.cpython-313-wasm32-wasi.so.p/`): adds `-DPyInit_<name>=PyInit_<mangled>`,
  where <mangled> encodes the module's full dotted name (`_` -> `_U`, `.` -> `_D`), so that two
  packages' `PyInit__common` cannot clash in one executable; and the renames of renames.txt;
* "linking" an extension module (`-shared`): writes the objects into an archive at the -o
  path instead, and `<out>.link.json` with the static libraries the link would have used
  (paths as given, relative to the build directory meson runs us in);
* drops `-pthread` (meson adds it for `dependency('threads')`: HiGHS, ducc0, scipy.stats'
  QMC): on wasm32 it turns on the atomics feature, which keeps `thread_local` variables in a
  TLS block, and wasm-ld 19, linking a memory that is not shared, resolves their offsets as
  addresses and adds the TLS base again: they landed on other modules' data (HiGHS's second
  solve in a process trapped on an unaligned atomic). Without it, clang makes them ordinary
  globals, as for the rest of the single-threaded guest; data-link checks no object was
  compiled with atomics.

Called by the wrapper scripts of data_stack.py's cxx stage as
`python ccwrap.py {c|c++} ARGS...`, with DATA_CC_DRIVER_C / DATA_CC_DRIVER_CXX (the clang
drivers), DATA_CC_SYSROOT, DATA_CC_RENAMES (renames.txt) and DATA_CC_AR (llvm-ar) in the
environment.
"""

import json
import os
import re
import subprocess
import sys

EXT_RE = re.compile(r"(?:^|/)([^/]+)\.cpython-[^/]*\.so\.p/")


def mangle(fullname):
    """The renamed init function of a module: `a._b` -> `PyInit_a_D_Ub`."""
    return "PyInit_" + fullname.replace("_", "_U").replace(".", "_D")


def module_fullname(out):
    """The dotted module an object belongs to, from where meson writes it (relative to the
    build directory), e.g. numpy/random/_common.cpython-313-wasm32-wasi.so.p/x.c.o; None for
    other objects."""
    m = EXT_RE.search(out)
    if not m:
        return None
    parent = out[: m.start(1)].strip("/")
    parts = [p for p in parent.split("/") if p not in ("", ".")] + [m.group(1)]
    return ".".join(parts)


def renames(fullname):
    out = []
    with open(os.environ["DATA_CC_RENAMES"], encoding="utf-8") as f:
        for line in f:
            parts = line.split("#", 1)[0].split()
            if len(parts) == 2 and parts[0] == fullname:
                out.append(f"-D{parts[1]}={parts[1]}__{fullname.replace('.', '_')}")
    return out


def fake_link(args, cxx):
    out = args[args.index("-o") + 1]
    objs, archives, libs = [], [], []
    skip = False
    for a in args:
        if skip:
            skip = False
            continue
        if a == "-o":
            skip = True
        elif a.endswith((".o", ".obj")):
            objs.append(os.path.normpath(a))
        elif a.endswith(".a"):
            archives.append(os.path.normpath(a))
        elif a.startswith("-l"):
            libs.append(a)
        elif a.startswith("-Wl,"):
            archives += [os.path.normpath(p) for p in a[4:].split(",") if p.endswith(".a")]
    if os.path.exists(out):
        os.unlink(out)
    # llvm-ar writes deterministic archives (no time stamps, uid or gid) by default; q
    # appends (r would replace a member of the same name).
    subprocess.check_call([os.environ["DATA_CC_AR"], "qcs", out, *objs])
    with open(out + ".link.json", "w", encoding="utf-8") as f:
        json.dump({"objects": objs, "archives": archives, "libs": libs, "cxx": cxx}, f,
                  indent=1, sort_keys=True)
    return 0


def main():
    lang, args = sys.argv[1], [a for a in sys.argv[2:] if a != "-pthread"]
    cxx = lang == "c++"
    driver = os.environ["DATA_CC_DRIVER_CXX" if cxx else "DATA_CC_DRIVER_C"]
    if "-shared" in args and "-o" in args:
        return fake_link(args, cxx)
    extra = []
    if "-c" in args and "-o" in args:
        full = module_fullname(args[args.index("-o") + 1])
        if full:
            extra.append(f"-DPyInit_{full.rsplit('.', 1)[-1]}={mangle(full)}")
            extra += renames(full)
    if not {"-c", "-E", "-S"} & set(args):
        extra.append("-fuse-ld=lld")
    base = [driver, "--target=wasm32-wasi", f"--sysroot={os.environ['DATA_CC_SYSROOT']}"]
    os.execvp(driver, base + extra + args)
    return 1


if __name__ == "__main__":
    sys.exit(main())
