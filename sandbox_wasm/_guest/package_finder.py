# The packages of an image (a derived runtime, see sandbox_wasm/_images/image.py).
#
# Runs INSIDE the guest, once, while the image (or the data runtime) is pre-initialised: the
# bootstrap (bootstrap.py `_install_init_packages`) execs this file as the module
# `_sandbox_packages` and calls install(). The wheels' files were checked and unpacked
# on the host into /init/packages, and their modules compiled by the same interpreter into
# /init/compiled (marshalled code); /init is the init run's only preopen, gone from the
# finished image. install() keeps the code objects and data files in memory, puts the finder
# on sys.meta_path after the in-memory stdlib, and imports the packages to preload. From then
# on the packages import like the stdlib does: from memory, with no filesystem; a preloaded
# one is already in sys.modules in every run.
#
# The host imports this module for its constants only; nothing here runs on the host.
import _frozen_importlib as _bootstrap
import marshal
import sys
import zlib

#: Where the packages' modules say they live (`__file__`, tracebacks, `__path__`), as in a
#: normal installation; no such directory exists in the sandbox.
SITE = "/usr/local/lib/python3.13/site-packages"
#: Where the init run finds the unpacked wheels, and their modules' marshalled code.
INIT_ROOT = "/init/packages"
COMPILED_ROOT = "/init/compiled"
#: zlib level of the modules' code kept in memory.
COMPILED_LEVEL = 6


class PackageFinder:
    """A meta path finder and loader for {name: (is_package, origin, content, compiled)}:
    the module's marshalled code, deflated, when `compiled` (inflated and unmarshalled when
    it is imported: the modules never imported cost only their bytes), else its source (a
    module that did not compile: importing it raises the error) or a code object (a
    namespace package),
    with the packages' data files ({path: bytes}, served by `get_data` and
    `importlib.resources`) and the wheels' metadata ({normalised name: {file: text}}, for
    `importlib.metadata`)."""

    def __init__(self, modules, data, distributions):
        self._modules = modules
        self._data = data
        self._distributions = distributions

    def __repr__(self):
        return f"<PackageFinder: {len(self._modules)} modules from the image's wheels>"

    # -- finder
    def find_spec(self, fullname, path=None, target=None):
        try:
            entry = self._entry(fullname)
        except ImportError:
            return None
        spec = _bootstrap.ModuleSpec(fullname, self, origin=entry[1], is_package=entry[0])
        if entry[0]:
            spec.submodule_search_locations = [SITE + "/" + fullname.replace(".", "/")]
        spec.has_location = entry[1] is not None
        return spec

    def invalidate_caches(self):
        pass

    def find_distributions(self, context=None):
        """The wheels' metadata for importlib.metadata (`version("tabulate")` & co.)."""
        name = getattr(context, "name", None)
        wanted = None if name is None else _normalise(name)
        for key in sorted(self._distributions):
            if wanted is None or key == wanted:
                yield _distribution_class()(self._distributions[key])

    # -- loader
    def create_module(self, spec):
        return None  # the default module object

    def exec_module(self, module):
        exec(self.get_code(module.__spec__.name), module.__dict__)

    def get_code(self, fullname):
        _, origin, content, compiled = self._entry(fullname)
        if compiled:
            return marshal.loads(zlib.decompress(content))
        if isinstance(content, bytes):
            return compile(content, origin, "exec", dont_inherit=True)
        return content

    def is_package(self, fullname):
        return self._entry(fullname)[0]

    def get_source(self, fullname):
        self._entry(fullname)
        return None  # sources are not kept; tracebacks show no source lines

    def get_filename(self, fullname):
        origin = self._entry(fullname)[1]
        if origin is None:
            raise ImportError(f"{fullname!r} is a namespace package", name=fullname)
        return origin

    def get_data(self, path):
        try:
            return self._data[path]
        except KeyError:
            raise FileNotFoundError(2, "No such file in the image's packages", path) from None

    def get_resource_reader(self, fullname):
        self._entry(fullname)
        return _Reader(self, SITE + "/" + fullname.replace(".", "/"))

    def _children(self, directory):
        """The names directly below `directory` (data files and modules)."""
        prefix = directory + "/"
        paths = [*self._data, *(e[1] for e in self._modules.values() if e[1])]
        return sorted({p[len(prefix):].split("/", 1)[0] for p in paths if p.startswith(prefix)})

    # -- path hook
    def path_hook(self, path):
        """The path entry finder of one of the packages' directories (SITE itself for the
        top level), for what asks a directory for its modules: `pkgutil.iter_modules(path)`
        (faker finds its locales so) and the path finder. ImportError for any other path,
        so that the next hook is tried."""
        directory = str(path).rstrip("/")
        if directory == SITE:
            return _PackageDirectory(self, "")
        if directory.startswith(SITE + "/"):
            package = directory[len(SITE) + 1:].replace("/", ".")
            entry = self._modules.get(package)
            if entry is not None and entry[0]:
                return _PackageDirectory(self, package)
        raise ImportError(f"{path!r} is not a directory of the image's packages", path=path)

    def submodules(self, package):
        """(name, is_package) of the modules directly in `package` ("": the top level)."""
        prefix = package + "." if package else ""
        found = []
        for name, entry in self._modules.items():
            if name.startswith(prefix) and "." not in name[len(prefix):]:
                found.append((name[len(prefix):], entry[0]))
        return sorted(found)

    def _entry(self, fullname):
        entry = self._modules.get(fullname)
        if entry is None:
            # `package.__init__` (statsmodels.api does `from .__init__ import test`): the
            # package's own file as a plain module, a second one, as the path finder has it.
            parent, _, last = fullname.rpartition(".")
            package = self._modules.get(parent) if last == "__init__" else None
            if package is None or not package[0] or package[1] is None:
                raise ImportError(f"no module named {fullname!r} in the image", name=fullname)
            entry = (False, *package[1:])
        return entry


class _PackageDirectory:
    """A path entry finder for one package directory of the image (`PackageFinder.path_hook`):
    its modules for `pkgutil.iter_modules`, and their specs for the path finder."""

    def __init__(self, finder, package):
        self._finder = finder
        self._package = package

    def __repr__(self):
        return f"<PackageDirectory {self._package or '(top level)'}>"

    def find_spec(self, fullname, target=None):
        return self._finder.find_spec(fullname)

    def invalidate_caches(self):
        pass

    def iter_modules(self, prefix=""):
        """What `pkgutil.iter_modules` lists: (prefix + name, is_package)."""
        for name, is_package in self._finder.submodules(self._package):
            yield prefix + name, is_package


class _Reader:
    """importlib.resources' view of a package: `files()`."""

    def __init__(self, finder, directory):
        self._root = _Resource(finder, directory)

    def files(self):
        return self._root


class _Resource:
    """A file or directory of the packages, as importlib.resources' Traversable."""

    def __init__(self, finder, path):
        self._finder = finder
        self._path = path

    def __repr__(self):
        return f"<image resource {self._path}>"

    def __str__(self):
        return self._path

    def __truediv__(self, child):
        return self.joinpath(child)

    @property
    def name(self):
        return self._path.rsplit("/", 1)[-1]

    def joinpath(self, *descendants):
        path = self._path
        for part in descendants:
            for piece in str(part).split("/"):
                if piece in ("", "."):
                    continue
                path = path.rsplit("/", 1)[0] if piece == ".." else path + "/" + piece
        return _Resource(self._finder, path)

    def is_file(self):
        return self._path in self._finder._data

    def is_dir(self):
        return bool(self._finder._children(self._path))

    def iterdir(self):
        return iter([_Resource(self._finder, self._path + "/" + child)
                     for child in self._finder._children(self._path)])

    def read_bytes(self):
        return self._finder.get_data(self._path)

    def read_text(self, encoding=None, errors=None):
        return self.read_bytes().decode(encoding or "utf-8", errors or "strict")

    def open(self, mode="r", *args, **kwargs):
        import io

        if mode in ("rb", "br"):
            return io.BytesIO(self.read_bytes())
        if mode == "r":
            return io.TextIOWrapper(io.BytesIO(self.read_bytes()), *args, **kwargs)
        raise ValueError(f"the image's package files are read-only (mode {mode!r})")


def _normalise(name):
    """A distribution name as importlib.metadata compares them (PEP 503, with '_')."""
    out = []
    for ch in name.lower():
        out.append("_" if ch in "-_." else ch)
    normalised = "".join(out)
    while "__" in normalised:
        normalised = normalised.replace("__", "_")
    return normalised


_classes = {}


def _distribution_class():
    """importlib.metadata.Distribution over one wheel's .dist-info files (defined at first
    use: importlib.metadata is only imported by whoever asks for metadata)."""
    cls = _classes.get("distribution")
    if cls is None:
        from importlib.metadata import Distribution

        class ImageDistribution(Distribution):
            def __init__(self, files):
                self._files = files

            def read_text(self, filename):
                return self._files.get(filename)

            def locate_file(self, path):
                return SITE + "/" + str(path)

        cls = _classes["distribution"] = ImageDistribution
    return cls


def _read(path):
    """A file's bytes, read without stat calls: open() stats the file, and the time stamps
    it leaves in freed memory would make every build of an image differ."""
    import os

    fd = os.open(path, os.O_RDONLY)
    try:
        chunks = []
        while chunk := os.read(fd, 1 << 16):
            chunks.append(chunk)
    finally:
        os.close(fd)
    return b"".join(chunks)


def install(config, root=INIT_ROOT):
    """Serve the image's files (modules as the code the host had compiled); import the
    packages to preload.

    `config` (image.json, written by the host) lists the unpacked files ("files", paths
    relative to `root`), the modules compiled on the host's behalf ("compiled", their code
    below COMPILED_ROOT as `<path>c`), the top-level names ("top_level") and what to import
    now ("preload")."""
    compiled = frozenset(config["compiled"])
    modules = {}
    data = {}
    distributions = {}
    for relative in config["files"]:
        content = _read(root + "/" + relative)
        parts = relative.split("/")
        if parts[0].endswith(".dist-info"):
            if len(parts) == 2:
                files = distributions.setdefault(parts[0], {})
                files[parts[1]] = content.decode("utf-8", "replace")
            continue
        origin = SITE + "/" + relative
        parts[-1] = parts[-1].removesuffix(".py")
        if not relative.endswith(".py") or not all(part.isidentifier() for part in parts):
            data[origin] = content  # not importable: a data file
            continue
        is_package = parts[-1] == "__init__"
        if is_package:
            parts.pop()
        name = ".".join(parts)
        is_compiled = relative in compiled
        if is_compiled:
            # Kept deflated: the marshalled code of every module lies in every instance's
            # memory, imported or not (a third of it as much again when deflated); a
            # module imported later pays ~0.1 ms to inflate.
            content = zlib.compress(_read(COMPILED_ROOT + "/" + relative + "c"),
                                    COMPILED_LEVEL)
        modules[name] = (is_package, origin, content, is_compiled)
    # A directory of modules without an __init__.py is a namespace package.
    empty = compile("", "<namespace>", "exec", dont_inherit=True)
    for name in list(modules):
        parts = name.split(".")
        for depth in range(1, len(parts)):
            parent = ".".join(parts[:depth])
            if parent not in modules:
                modules[parent] = (True, None, empty, False)
    for top in config["top_level"]:
        for existing in sys.meta_path:
            if existing.find_spec(top) is not None:
                raise ImportError(f"the image's package {top!r} would shadow the standard "
                                  "library's module of that name")
    by_name = {}
    for dist_dir, files in distributions.items():
        name = dist_dir[: -len(".dist-info")].rsplit("-", 1)[0]
        by_name[_normalise(name)] = files
    finder = PackageFinder(modules, data, by_name)
    # Right after the in-memory stdlib: before the path finder, whose search of a package's
    # __path__ would only look for directories that do not exist.
    index = len(sys.meta_path)
    for position, existing in enumerate(sys.meta_path):
        if type(existing).__name__ == "StdlibFinder":
            index = position + 1
    sys.meta_path.insert(index, finder)
    sys.path_hooks.insert(0, finder.path_hook)
    sys.path_importer_cache.clear()
    _install_file_view(finder)
    for name in config["preload"]:
        __import__(name)
    if "matplotlib.pyplot" in config["preload"]:
        _warm_matplotlib()
    if "sklearn.linear_model" in config["preload"]:
        _warm_sklearn()
    return finder


def _warm_matplotlib():
    """Draw one small chart to PNG in memory, once, in the snapshot: pyplot's backend, the
    default font, its glyph and text-layout caches and the PNG writer are then loaded in
    every run (a run's first chart took ~2x longer without it). Deterministic, as the
    snapshot must be: nothing of the clock or randomness reaches the figure."""
    import io

    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(2, 1.5))
    axes.plot([0, 1, 2], [2, 0, 1], label="a")
    axes.set_title("warm-up 0123456789")
    axes.set_xlabel("x")
    axes.legend()
    figure.savefig(io.BytesIO(), format="png")
    plt.close(figure)


def _warm_sklearn():
    """Ask narwhals for its plugins, once, in the snapshot: scikit-learn's first fit of a run
    does (for the feature names), and the answer reads the metadata of every installed
    distribution (~20 ms of a 1k-row LinearRegression's 28 ms; narwhals caches it for the
    process). Not a fit: OpenBLAS's first call allocates its 32 MiB work buffer, which would
    raise every instance's memory floor by as much. Deterministic: the installed
    distributions are the runtime's."""
    import narwhals.plugins

    narwhals.plugins._discover_entrypoints()


def _install_file_view(finder):
    """The packages' data files, readable at their installed paths (read-only), as in a
    normal installation: `open()`, `os.stat`, `os.listdir`, `os.scandir` (so `os.walk`,
    `os.path.exists`, `pathlib` and `glob` too) answer for paths below SITE from memory;
    every other path goes to the real calls unchanged. matplotlib reads its matplotlibrc,
    styles and fonts (FreeType through `io.open`) this way; pytz its zone files."""
    import builtins
    import errno
    import glob
    import io
    import os
    import stat

    data = finder._data
    prefix = SITE + "/"
    # directory -> {name: is a directory}
    entries = {SITE: {}}
    for path in sorted(data):
        child, is_dir = path, False
        while child != SITE:
            parent, name = child.rsplit("/", 1)
            known = parent in entries
            entries.setdefault(parent, {})[name] = is_dir
            if known:
                break
            child, is_dir = parent, True
    real = {"open": io.open, "stat": os.stat, "lstat": os.lstat, "listdir": os.listdir,
            "scandir": os.scandir}

    def key(path):
        if isinstance(path, int):
            return None
        try:
            path = os.fspath(path)
        except TypeError:
            return None
        if isinstance(path, bytes):
            path = os.fsdecode(path)
        if not path.startswith(SITE):
            return None
        path = os.path.normpath(path)
        return path if path == SITE or path.startswith(prefix) else None

    def missing(path):
        return FileNotFoundError(errno.ENOENT, "No such file or directory", path)

    def view_open(file, mode="r", buffering=-1, encoding=None, errors=None, newline=None,
                  closefd=True, opener=None):
        path = key(file)
        if path is None:
            return real["open"](file, mode, buffering, encoding, errors, newline, closefd,
                                opener)
        if path in entries:
            raise IsADirectoryError(errno.EISDIR, "Is a directory", path)
        if path not in data:
            raise missing(path)
        if set(mode) - set("rbt"):
            raise OSError(errno.EROFS, "Read-only file system", path)
        raw = _PackageFile(data[path])
        raw.name = file if isinstance(file, (str, bytes)) else os.fspath(file)
        if "b" in mode:
            return raw
        return io.TextIOWrapper(raw, encoding=encoding or "utf-8", errors=errors,
                                newline=newline)

    def result(path):
        if path in entries:
            mode, size = stat.S_IFDIR | 0o555, 0
        elif path in data:
            mode, size = stat.S_IFREG | 0o444, len(data[path])
        else:
            raise missing(path)
        return os.stat_result((mode, 0, 0, 1, 0, 0, size, 0, 0, 0))

    def view_stat(path, *, dir_fd=None, follow_symlinks=True):
        found = key(path) if dir_fd is None else None
        if found is None:
            return real["stat"](path, dir_fd=dir_fd, follow_symlinks=follow_symlinks)
        return result(found)

    def view_lstat(path, *, dir_fd=None):
        found = key(path) if dir_fd is None else None
        if found is None:
            return real["lstat"](path, dir_fd=dir_fd)
        return result(found)

    def children(path):
        if path not in entries:
            if path in data:
                raise NotADirectoryError(errno.ENOTDIR, "Not a directory", path)
            raise missing(path)
        return entries[path]

    def view_listdir(path="."):
        found = key(path)
        if found is None:
            return real["listdir"](path)
        return sorted(children(found))

    def view_scandir(path="."):
        found = key(path)
        if found is None:
            return real["scandir"](path)
        base = os.fspath(path)
        return _Scandir([_DirEntry(name, os.path.join(base, name), is_dir, result)
                         for name, is_dir in sorted(children(found).items())])

    global _PackageFile
    _PackageFile = _package_file_class()
    io.open = builtins.open = view_open
    os.stat, os.lstat, os.listdir, os.scandir = view_stat, view_lstat, view_listdir, view_scandir
    # glob's globber (pathlib.Path.glob) bound os.lstat and os.scandir when it was defined.
    glob._StringGlobber.lstat = staticmethod(view_lstat)
    glob._StringGlobber.scandir = staticmethod(view_scandir)


def _package_file_class():
    import io

    class PackageFile(io.BytesIO):
        """A package file opened for reading: its bytes, with the `name` (and `mode`)
        a file object opened by path has (FreeType's reader asks for it)."""

        mode = "rb"

    return PackageFile


class _Scandir:
    """What os.scandir returns: an iterator and a context manager."""

    def __init__(self, items):
        self._items = iter(items)

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._items)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        self._items = iter(())


class _DirEntry:
    """os.DirEntry of a package directory."""

    __slots__ = ("_is_dir", "_result", "name", "path")

    def __init__(self, name, path, is_dir, result):
        self.name, self.path, self._is_dir, self._result = name, path, is_dir, result

    def __repr__(self):
        return f"<DirEntry {self.name!r}>"

    def __fspath__(self):
        return self.path

    def is_dir(self, *, follow_symlinks=True):
        return self._is_dir

    def is_file(self, *, follow_symlinks=True):
        return not self._is_dir

    def is_symlink(self):
        return False

    def is_junction(self):
        return False

    def inode(self):
        return 0

    def stat(self, *, follow_symlinks=True):
        import os

        return self._result(os.path.normpath(self.path))
