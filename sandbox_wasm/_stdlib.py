"""Every module of the guests' standard libraries (CPython 3.13, and 3.12 for the fallback
runtime), classified for the balanced policy: allowed
(it only computes) or blocked (it reaches files, processes, the network, interpreter
internals or code loading), with a one-line reason each. The reason is shown in the finding
of a refused import.

A module whose purpose is computation stays allowed when it also offers a convenience that
takes a file path (`logging.FileHandler`, `xml.etree.ElementTree.parse`): such a path is
opened with the guest's `open`, and the sandbox has no host directory to open it in. The
allowlist itself lives in the guest (`_guest.BALANCED_ALLOWED_MODULES`, needed there to
decide); `tests/test_stdlib.py` keeps this table and that list in step, and checks the table
against the guest's `sys.stdlib_module_names`.
"""

from __future__ import annotations


def _each(reason: str, names: str) -> dict[str, str]:
    return dict.fromkeys(names.split(), reason)


#: Top-level modules the balanced policy allows, and why they are harmless.
ALLOWED: dict[str, str] = {
    **_each("pure computation", """
        __future__ abc array bisect cmath colorsys contextlib contextvars copy dataclasses
        decimal enum fractions functools graphlib heapq itertools math numbers operator
        random statistics types typing weakref"""),
    **_each("text processing", """
        base64 binascii difflib fnmatch keyword re reprlib shlex string stringprep textwrap
        token unicodedata"""),
    **_each("data formats parsed and written in memory", """
        csv email html json plistlib struct tomllib xml zlib"""),
    **_each("dates and times (the guest's clock is the host's; no sleeping past the deadline)",
            "calendar datetime time sched"),
    **_each("hashes and tokens", "hashlib hmac secrets uuid"),
    **_each("in-memory streams (StringIO, BytesIO), and io.open on the guest's own tree", "io"),
    **_each("files in the guest's own in-memory tree (/input, /output, /tmp): no host "
            "directory exists to reach", """
        pathlib glob shutil tempfile filecmp fileinput zipfile tarfile gzip"""),
    **_each("command-line parsing of the script's own argv", "argparse getopt optparse"),
    **_each("diagnostics written to the guest's own streams", "logging traceback warnings"),
    **_each("pretty-printing to a string or the guest's stdout", "pprint"),
    **_each("data structures", "collections queue"),
    **_each("constants and formatting rules", "errno locale"),
    **_each("parses code into a tree without running it", "ast"),
    **_each("functions run at exit, under the same deadline and fuel", "atexit"),
    **_each("address arithmetic, no sockets", "ipaddress"),
    **_each("codecs for text the guest decodes itself", "encodings"),
    **_each("allowed by attribute: standard streams, version, recursion limit, exit, argv; "
            "every other use of sys is flagged", "sys"),
}

#: Top-level modules the balanced policy blocks, and what they would reach.
BLOCKED: dict[str, str] = {
    **_each("operating-system interface: files, processes, environment", """
        os posix nt pwd grp spwd resource fcntl termios tty pty msvcrt winreg winsound
        _winapi _overlapped syslog nis crypt _crypt ossaudiodev"""),
    **_each("file and directory access", """
        linecache tabnanny netrc mailbox
        mailcap mimetypes dbm _dbm _gdbm shelve sqlite3 _sqlite3 bz2
        _bz2 lzma _lzma _compression zipapp chunk wave aifc sunau sndhdr imghdr audioop uu
        xdrlib gettext zoneinfo _zoneinfo genericpath posixpath ntpath nturl2path
        configparser getpass readline rlcompleter"""),
    **_each("processes, threads and signals", """
        subprocess _posixsubprocess multiprocessing _multiprocessing _posixshmem concurrent
        threading _thread _threading_local signal _signal select selectors mmap"""),
    **_each("network access", """
        socket _socket ssl _ssl http urllib ftplib smtplib poplib imaplib nntplib telnetlib
        socketserver xmlrpc asyncio _asyncio webbrowser wsgiref cgi cgitb antigravity"""),
    **_each("interpreter internals and escape routes", """
        builtins gc inspect ctypes _ctypes faulthandler tracemalloc _tracemalloc
        symtable _symtable dis opcode _opcode copyreg site sysconfig
        _sitebuiltins _aix_support _osx_support _scproxy platform _frozen_importlib
        _frozen_importlib_external _imp _abc _ast _warnings _weakref _weakrefset
        _interpreters _interpchannels _interpqueues _opcode_metadata _sysconfig
        _suggestions _colorize _android_support _apple_support _ios_support _wmi"""),
    **_each("loads or runs code (compile, exec, import machinery, pickles)", """
        importlib pkgutil zipimport runpy code codeop compileall py_compile modulefinder
        pyclbr pickle _pickle _compat_pickle pickletools marshal timeit doctest unittest
        trace profile cProfile _lsprof pstats pdb bdb cmd pydoc pydoc_data idlelib lib2to3
        ensurepip venv this _pyrepl"""),
    **_each("terminal and graphics toolkits", """
        curses _curses _curses_panel tkinter _tkinter turtle turtledemo"""),
    **_each("Windows installers", "msilib _msi"),
    **_each("private accelerator of a public module (import the public one)", """
        _bisect _blake2 _codecs _codecs_cn _codecs_hk _codecs_iso2022 _codecs_jp _codecs_kr
        _codecs_tw _collections _collections_abc _contextvars _csv _datetime _decimal
        _elementtree _functools _hashlib _heapq _io _json _locale _markupbase _md5
        _multibytecodec _operator _py_abc _pydatetime _pydecimal _pyio _pylong _queue
        _random _sha1 _sha2 _sha3 _sre _stat _statistics _string _strptime _struct
        _tokenize _typing _uuid"""),
    **_each("low-level tools with no use without files or internals", """
        codecs sre_compile sre_constants sre_parse tokenize stat pyexpat quopri pipes"""),
}
#: Submodules judged apart from their package (the longest matching name decides).
ALLOWED_SUBMODULES: dict[str, str] = {
    "urllib.parse": "URL parsing, no network",
}


def import_reason(module: str) -> str | None:
    """Why the balanced policy refuses a top-level standard-library module, or None when it
    is allowed or not part of the standard library."""
    return BLOCKED.get(module.split(".")[0])


#: Modules of the 3.12 fallback's standard library that 3.13 removed (PEP 594, lib2to3).
REMOVED_IN_313 = frozenset(_each("", """
    _crypt _msi aifc audioop cgi cgitb chunk crypt imghdr lib2to3 mailcap msilib nis nntplib
    ossaudiodev pipes sndhdr spwd sunau telnetlib uu xdrlib"""))
#: The standard library of our CPython 3.13 guest: its `sys.stdlib_module_names`
#: (tests/test_stdlib.py checks it against the guest). Images are built for this guest.
STDLIB_313 = (frozenset(ALLOWED) | frozenset(BLOCKED)) - REMOVED_IN_313
