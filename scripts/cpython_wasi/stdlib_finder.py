# The in-memory standard library of the sandbox-wasm CPython for WASI.
#
# Runs INSIDE the guest, once, at snapshot build time: sandbox_init (sandbox_entry.c) execs
# this file as the module `_sandbox_stdlib` right after the core phase of the interpreter's
# initialisation (only the builtin and frozen importers exist then) and calls
# install(blob), where blob is a read-only memoryview of stdlib.blob (built on the host by
# make_stdlib_blob.py with the native CPython of the same version; the C side keeps the
# buffer for the life of the interpreter). Layout: an 8-byte little-endian length H, then H
# bytes of marshalled index, then the data region holding each module's zlib-compressed
# marshalled code object at (offset, length). From then on every stdlib module that is neither
# built in nor frozen is served from memory: the snapshot imports without any filesystem,
# sys.path is empty and no directory is preopened at run time.
#
# Only builtin modules may be imported here (sys, marshal, zlib, _frozen_importlib).
import _frozen_importlib as _bootstrap
import marshal
import sys

BLOB_FORMAT = 2


class StdlibFinder:
    """A meta path finder and loader for {name: (is_package, origin, offset, length)}: the
    module's code object, marshalled (and zlib-compressed if the blob says so), is
    data[offset:offset + length]."""

    def __init__(self, modules, data, decompress):
        self._modules = modules
        self._data = data
        self._decompress = decompress

    def __repr__(self):
        return f"<StdlibFinder: {len(self._modules)} in-memory stdlib modules>"

    # -- finder
    def find_spec(self, fullname, path=None, target=None):
        entry = self._modules.get(fullname)
        if entry is None:
            return None
        spec = _bootstrap.ModuleSpec(fullname, self, origin=entry[1], is_package=entry[0])
        # __file__ names where the module would live in a normal installation (tracebacks
        # read well); no such file exists in the sandbox.
        spec.has_location = True
        return spec

    def invalidate_caches(self):
        pass

    # -- loader
    def create_module(self, spec):
        return None  # the default module object

    def exec_module(self, module):
        exec(self.get_code(module.__spec__.name), module.__dict__)

    def get_code(self, fullname):
        entry = self._modules.get(fullname)
        if entry is None:
            raise ImportError(f"no in-memory stdlib module named {fullname!r}", name=fullname)
        data = self._data[entry[2] : entry[2] + entry[3]]
        if self._decompress is not None:
            data = self._decompress(data)
        return marshal.loads(data)

    def is_package(self, fullname):
        entry = self._modules.get(fullname)
        if entry is None:
            raise ImportError(f"no in-memory stdlib module named {fullname!r}", name=fullname)
        return entry[0]

    def get_source(self, fullname):
        return None  # sources are not kept (memory); tracebacks show no source lines

    def get_filename(self, fullname):
        entry = self._modules.get(fullname)
        if entry is None:
            raise ImportError(f"no in-memory stdlib module named {fullname!r}", name=fullname)
        return entry[1]

    def module_names(self):
        return sorted(self._modules)


def install(blob):
    """Install the finder for `blob` (bytes) on sys.meta_path, after the builtin and frozen
    importers (so built-in and frozen modules keep precedence, as in a normal interpreter),
    and empty sys.path."""
    blob = memoryview(blob)
    header = int.from_bytes(blob[:8], "little")
    table = marshal.loads(blob[8 : 8 + header])
    if table.get("format") != BLOB_FORMAT:
        raise ImportError(f"stdlib blob format {table.get('format')!r}, want {BLOB_FORMAT}")
    if table.get("hexversion") != sys.hexversion:
        # Same version, same bytecode magic: marshalled code is only valid for that.
        raise ImportError(f"stdlib blob was compiled by CPython {table.get('version')!r}, "
                          f"this is {sys.version.split()[0]}")
    decompress = None
    if table["compression"] == "zlib":
        from zlib import decompress
    elif table["compression"] is not None:
        raise ImportError(f"unknown stdlib blob compression {table['compression']!r}")
    finder = StdlibFinder(table["modules"], blob[8 + header :], decompress)
    for existing in sys.meta_path:
        if isinstance(existing, StdlibFinder):
            raise ImportError("the in-memory stdlib is already installed")
    sys.meta_path.append(finder)
    # In the core phase sys.path does not exist yet; the main phase makes it the (empty)
    # module search path of the configuration.
    if getattr(sys, "path", None):
        sys.path[:] = []
    if getattr(sys, "path_importer_cache", None):
        sys.path_importer_cache.clear()
    return finder

