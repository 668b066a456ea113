"""Every module of the guest's standard library (CPython 3.13), classified for the balanced
policy, with a one-line reason each: allowed (what it does inside the sandbox) or blocked (it
reaches the interpreter's internals: the first step of an escape). The reason of a blocked
module is shown in the finding of a refused import.

Balanced blocks little: the WebAssembly boundary and the limits are the guarantee, so a
module is allowed when its worst is to fail at the call (no processes, threads or sockets
exist in the guest) or to work on the guest's own in-memory tree (no host directory exists
to reach). The blocked modules are also in the guest's table (`_guest.BALANCED_TABLES`,
needed there to decide); `tests/runtime/test_stdlib.py` keeps this table and that one in step, and
checks the table against the guest's `sys.stdlib_module_names`.
"""

from __future__ import annotations


def _each(reason: str, names: str) -> dict[str, str]:
    return dict.fromkeys(names.split(), reason)


#: Top-level modules the balanced policy allows, and what they do in the sandbox.
ALLOWED: dict[str, str] = {
    **_each("pure computation", """
        __future__ abc array bisect cmath colorsys contextlib contextvars copy dataclasses
        decimal enum fractions functools graphlib heapq itertools math numbers operator
        random statistics types typing weakref copyreg"""),
    **_each("text processing", """
        base64 binascii difflib fnmatch keyword re reprlib shlex string stringprep textwrap
        token tokenize unicodedata codecs quopri sre_compile sre_constants sre_parse"""),
    **_each("data formats parsed and written in memory", """
        csv email html json plistlib struct tomllib xml zlib pyexpat bz2 lzma _compression
        configparser mimetypes netrc mailbox wave"""),
    **_each("dates and times (the guest's clock is the host's; no sleeping past the deadline)",
            "calendar datetime time sched zoneinfo"),
    **_each("hashes and tokens", "hashlib hmac secrets uuid"),
    **_each("in-memory streams, and files of the guest's own in-memory tree", "io"),
    **_each("files in the guest's own in-memory tree (/input, /output, /tmp): no host "
            "directory exists to reach", """
        os posix pathlib glob shutil tempfile filecmp fileinput zipfile tarfile gzip stat
        genericpath posixpath ntpath nturl2path linecache tabnanny dbm shelve sqlite3
        zipapp gettext"""),
    **_each("command-line parsing and prompts of the script's own (empty) input",
            "argparse getopt optparse getpass cmd readline rlcompleter"),
    **_each("diagnostics written to the guest's own streams", """
        logging traceback warnings faulthandler tracemalloc pprint"""),
    **_each("data structures", "collections queue"),
    **_each("constants and formatting rules", "errno locale"),
    **_each("code as data: parsed, inspected or compiled, and judged by the run-time guard",
            """ast symtable dis opcode inspect importlib pkgutil zipimport runpy code codeop
            compileall py_compile modulefinder pyclbr keyword"""),
    **_each("tests and tools run inside the sandbox", """
        unittest doctest timeit trace profile cProfile pstats pdb bdb pydoc pydoc_data
        pickletools this antigravity"""),
    **_each("pickles: the guest unpickles only its own objects", """
        pickle _compat_pickle"""),
    **_each("functions run at exit, under the same deadline and fuel", "atexit"),
    **_each("address arithmetic, no sockets", "ipaddress"),
    **_each("codecs for text the guest decodes itself", "encodings"),
    **_each("describes the interpreter; its frame and hook functions are refused by name",
            "sys sysconfig site platform _sitebuiltins"),
    **_each("the builtins; getattr & co. check escape-prone names at run time", "builtins"),
    **_each("processes: there are none in the sandbox, so starting one fails at the call",
            """subprocess multiprocessing concurrent signal pty tty termios fcntl resource
            pwd grp syslog"""),
    **_each("threads: the guest cannot start one, so starting one fails at the call",
            "threading _threading_local"),
    **_each("network: the guest has no sockets, so connecting fails at the call", """
        socket ssl http urllib ftplib smtplib poplib imaplib socketserver
        xmlrpc asyncio webbrowser wsgiref select selectors mmap"""),
    **_each("terminal and graphics toolkits (absent in the guest)", """
        curses tkinter turtle turtledemo idlelib"""),
    **_each("other platforms' modules (absent in the guest)", """
        nt msvcrt winreg winsound _winapi _overlapped _wmi _aix_support _osx_support
        _scproxy _android_support _apple_support _ios_support"""),
    **_each("packaging tools (there is nothing to install into)", "ensurepip venv"),
    **_each("private accelerator or helper of a public module", """
        _bisect _blake2 _codecs _codecs_cn _codecs_hk _codecs_iso2022 _codecs_jp _codecs_kr
        _codecs_tw _collections _collections_abc _contextvars _csv _datetime _decimal
        _elementtree _functools _hashlib _heapq _io _json _locale _markupbase _md5
        _multibytecodec _operator _py_abc _pydatetime _pydecimal _pyio _pylong _queue
        _random _sha1 _sha2 _sha3 _sre _stat _statistics _string _strptime _struct
        _tokenize _typing _uuid _abc _ast _warnings _weakref _weakrefset _opcode
        _opcode_metadata _sysconfig _suggestions _colorize _pyrepl _pickle _bz2 _lzma
        _dbm _gdbm _sqlite3 _zoneinfo _posixsubprocess _multiprocessing _posixshmem _thread
        _signal _socket _ssl _asyncio _symtable _tracemalloc _curses
        _curses_panel _tkinter _lsprof"""),
}

#: Top-level modules the balanced policy blocks, and what they would reach.
BLOCKED: dict[str, str] = {
    **_each("interpreter internals: every object, or raw memory", "gc ctypes _ctypes"),
    **_each("interpreter internals: code objects made from bytes", "marshal"),
    **_each("interpreter internals: the import machinery", """
        _imp _frozen_importlib _frozen_importlib_external"""),
    **_each("interpreter internals: other interpreters in this process", """
        _interpreters _interpchannels _interpqueues"""),
}
#: Submodules judged apart from their package (the longest matching name decides).
BLOCKED_SUBMODULES: dict[str, str] = {
    "importlib._bootstrap": "interpreter internals: the import machinery",
    "importlib._bootstrap_external": "interpreter internals: the import machinery",
    "importlib.machinery": "interpreter internals: the import machinery",
}


def import_reason(module: str) -> str | None:
    """Why the balanced policy refuses a standard-library module, or None when it is allowed
    or not part of the standard library."""
    parts = module.split(".")
    for depth in range(len(parts), 1, -1):
        reason = BLOCKED_SUBMODULES.get(".".join(parts[:depth]))
        if reason is not None:
            return reason
    return BLOCKED.get(parts[0])


#: The standard library of our CPython 3.13 guest: its `sys.stdlib_module_names`
#: (tests/runtime/test_stdlib.py checks it against the guest). Images are built for this guest.
STDLIB_313 = frozenset(ALLOWED) | frozenset(BLOCKED)
