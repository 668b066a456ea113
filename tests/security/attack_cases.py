"""The attack table: real hostile scripts and the outcome each one must have.

Every attack runs twice (tests/security/test_attacks.py): under the default strict policy and
with the audit in report-only mode, so that the WebAssembly boundary alone is shown to hold.

- `sandbox` is the outcome when the code actually runs (report-only): the boundary's answer.
- `audit` says what the strict policy does with it:
  "blocks"  refused before running (status blocked, nothing executed);
  "misses"  an escape attempt the static audit does not see (a documented audit gap): it runs
            under the strict policy too and must be contained exactly as in report-only;
  "allows"  code the policy has no reason to refuse (resource exhaustion, output games): it
            runs under both policies with the same outcome.
- Invalid sources (`raises`) are refused with InvalidRequestError before any audit.

Code may use these placeholders, filled in by the test with the host's canary set-up:
@CANARY_FILE@ (a file holding the secret), @CANARY_DIR@ (its directory), @CANARY_ENV@ (the
name of a host environment variable holding the secret), @PORT@ (a host TCP listener on
127.0.0.1 that must never see a connection), @PAYLOAD_B64@ and @PAYLOAD_ROT13@ (encoded
code that prints the canary file). The secret itself never appears in any code.
"""

from __future__ import annotations

import base64
import codecs
import textwrap
from dataclasses import dataclass, field
from typing import Literal

import sandbox_wasm as sw
from sandbox_wasm._guest.bootstrap import MAX_FACTS

AuditOutcome = Literal["blocks", "misses", "allows"]

# Default limits of an attack: short, so that a case that escapes its limits is obvious.
DEFAULT_TIMEOUT_MS = 5_000
RESOURCE_TIMEOUT_MS = 500


@dataclass(frozen=True)
class Expect:
    """The outcome of running an attack (or of submitting it, for `raises`)."""

    status: str = "succeeded"
    exit_code: int = 0
    error: tuple[str, ...] = ()  # acceptable error.type values; () = don't care / None
    stdout: str | None = None  # exact stdout
    stdout_has: tuple[str, ...] = ()  # substrings stdout must contain
    stderr_has: tuple[str, ...] = ()
    stderr_lacks: tuple[str, ...] = ()
    stdout_truncated: bool | None = None
    stderr_truncated: bool | None = None
    raises: type[Exception] | None = None
    message_has: tuple[str, ...] = ()  # substrings error.message must contain
    error_type_chars: int | None = None  # exact length of error.type
    result_json_dropped: bool | None = None  # stdout is JSON the result cannot carry


@dataclass(frozen=True)
class Attack:
    id: str
    category: str
    code: str | bytes
    sandbox: Expect
    audit: AuditOutcome = "blocks"
    limits: dict[str, int] = field(default_factory=dict)
    # A known weakness of the core this case reproduces (the case is then marked
    # xfail(strict=True) wherever the code runs).
    xfail: str | None = None
    # A tighter bound on the guest's run time than the suite's default, in ms.
    exec_bound_ms: int | None = None
    # The outcome on a runtime (a `python_runtime` variant, by name) that differs from
    # `sandbox`, because that runtime lacks what the attack uses (say so next to the case).
    on_runtime: dict[str, Expect] = field(default_factory=dict)
    # The policies whose run-time guard (the guest bootstrap's) refuses the attack while it
    # runs (a PermissionError in the guest); report-only lists what the guard found.
    guard: tuple[str, ...] = ()

    @property
    def timeout_ms(self) -> int:
        return self.limits.get("timeout_ms", DEFAULT_TIMEOUT_MS)


def src(text: str) -> str:
    return textwrap.dedent(text).strip("\n") + "\n"


def ok(stdout: str | None = None, **kw: object) -> Expect:
    return Expect("succeeded", 0, stdout=stdout, **kw)  # type: ignore[arg-type]


def fails(*errors: str, exit_code: int = 1, **kw: object) -> Expect:
    return Expect("failed", exit_code, error=errors, **kw)  # type: ignore[arg-type]


def times_out(**kw: object) -> Expect:
    return Expect("timeout", 124, error=("TimeoutError",), **kw)  # type: ignore[arg-type]


def syntax_error() -> Expect:
    return Expect("syntax_error", 1, error=("SyntaxError",))


def raises(exc: type[Exception]) -> Expect:
    return Expect(raises=exc)


NOT_FOUND = fails("FileNotFoundError")
# Our CPython 3.13 build has no os.writev/os.readv: CPython's WASI configuration disables them
# (config.site-wasm32-wasi, wasmtime issue 7830), so the guest cannot issue a vectored call
# with more than one entry (the host bounds such calls all the same: `_host/wasi_fs.py`, IOV_MAX).
NO_WRITEV = fails("AttributeError", message_has=("writev",))
NO_READV = fails("AttributeError", message_has=("readv",))
# On our runtime the guest's filesystem is the in-memory tree (sandbox_wasm/_fs/tree.py): a
# listing of its root shows the tree's own three directories and nothing of the host, and a
# write under /tmp lands in the tree (test_attacks checks the host's /tmp is untouched).
TREE_ROOT = "['input', 'output', 'tmp']\n"
LISTS_THE_TREE = ok(TREE_ROOT)
WRITES_THE_TREE = ok("")
# `..` never leaves the tree's root: ENOTCAPABLE, as WASI's own sandbox answers.
LEAVES_NO_ROOT = fails("PermissionError", message_has=("Capabilities",))
RESOURCE = {"timeout_ms": RESOURCE_TIMEOUT_MS}
SMALL_MEMORY = {"timeout_ms": 2_000, "memory_mb": 64}

# A payload that, if it ran with host access, would print the canary file.
_PAYLOAD = "print(open('@CANARY_FILE@').read())"

# Reaches the `os` module from any object, without naming it (the classic subclass walk).
_OS_VIA_SUBCLASSES = src(
    """
    g = None
    for cls in ().__class__.__base__.__subclasses__():
        init = cls.__dict__.get('__init__')
        if init is not None and hasattr(init, '__globals__') and 'listdir' in init.__globals__:
            g = init.__globals__
            break
    """
)

AUDIT_EVASION = [
    Attack(
        "getattr-built-name",
        "audit-evasion",
        "f = getattr(__builtins__, 'op' + 'en')\nprint(f('@CANARY_FILE@').read())\n",
        NOT_FOUND,
    ),
    Attack(
        "getattr-eval-payload",
        "audit-evasion",
        f"getattr(__builtins__, 'ev' + 'al')({_PAYLOAD!r})\n",
        NOT_FOUND,
    ),
    Attack(
        "vars-builtins-dict",
        "audit-evasion",
        "vars(__builtins__)['op' + 'en']('@CANARY_FILE@').read()\n",
        NOT_FOUND,
    ),
    Attack(
        "dir-search-builtins",
        "audit-evasion",
        src(
            """
            name = [n for n in dir(__builtins__) if n.startswith('ope')][0]
            print(__builtins__.__dict__[name]('@CANARY_FILE@').read())
            """
        ),
        NOT_FOUND,
    ),
    Attack(
        "dunder-import-built-name",
        "audit-evasion",
        "m = __import__('o' + 's')\nprint(m.listdir('/'))\n",
        LISTS_THE_TREE,
    ),
    Attack(
        "subclasses-walk-to-os",
        "audit-evasion",
        _OS_VIA_SUBCLASSES + "print(g['listdir']('/'))\n",
        LISTS_THE_TREE,
    ),
    Attack(
        "subclasses-walk-to-builtins-open",
        "audit-evasion",
        _OS_VIA_SUBCLASSES + "print(g['__builtins__']['open']('@CANARY_FILE@').read())\n",
        NOT_FOUND,
    ),
    Attack(
        "attrgetter-built-dunders",
        "audit-evasion",
        src(
            """
            import operator
            d = '_' * 2
            get = lambda obj, name: operator.attrgetter(d + name + d)(obj)
            base = get(get((), 'class'), 'base')
            for cls in get(base, 'subclasses')():
                init = get(cls, 'init')
                try:
                    g = get(init, 'globals')
                except AttributeError:
                    continue
                if 'listdir' in g:
                    print(g['listdir']('/'))
            """
        ),
        LISTS_THE_TREE,
        audit="misses",
        guard=("strict", "balanced"),
    ),
    Attack(
        "methodcaller-built-dunder",
        "audit-evasion",
        src(
            """
            import operator
            d = '_' * 2
            walk = operator.methodcaller(d + 'subclasses' + d)
            print(len(walk(operator.attrgetter(d + 'base' + d)(int))) > 10)
            """
        ),
        ok("True\n"),
        audit="misses",
        guard=("strict", "balanced"),
    ),
    Attack(
        "format-string-walk",
        "audit-evasion",
        "import random\nprint('{0.__init__.__globals__[_os].environ}'.format(random.Random()))\n",
        ok("environ({})\n"),
    ),
    Attack(
        "format-string-built-walk",
        "audit-evasion",
        src(
            """
            import random
            d = '_' * 2
            spec = '{0.' + d + 'init' + d + '.' + d + 'globals' + d + '[_os].environ}'
            print(spec.format(random.Random()))
            """
        ),
        ok("environ({})\n"),
        audit="misses",
    ),
    Attack(
        "string-formatter-get-field",
        "audit-evasion",
        src(
            """
            import random, string
            d = '_' * 2
            field = '0.' + d + 'init' + d + '.' + d + 'globals' + d + '[_os]'
            os_module, _ = string.Formatter().get_field(field, [random.Random()], {})
            print(dict(os_module.environ), os_module.listdir('/'))
            """
        ),
        ok("{} " + TREE_ROOT),
        audit="misses",
    ),
    Attack(
        "generator-frame-globals",
        "audit-evasion",
        src(
            """
            def gen():
                yield 1
            g = gen()
            b = g.gi_frame.f_globals['__builtins__']
            print(b.open('@CANARY_FILE@').read())
            """
        ),
        NOT_FOUND,
    ),
    Attack(
        "coroutine-frame-globals",
        "audit-evasion",
        src(
            """
            async def co():
                pass
            c = co()
            b = c.cr_frame.f_globals['__builtins__']
            c.close()
            print(b.open('@CANARY_FILE@').read())
            """
        ),
        NOT_FOUND,
    ),
    Attack(
        "traceback-frame-walk",
        "audit-evasion",
        src(
            """
            try:
                1 / 0
            except ZeroDivisionError as exc:
                frame = exc.__traceback__.tb_frame
            while frame.f_back is not None:
                frame = frame.f_back
            print(frame.f_builtins['open']('@CANARY_FILE@').read())
            """
        ),
        NOT_FOUND,
    ),
    Attack(
        "function-globals-builtins",
        "audit-evasion",
        "f = lambda: 0\nprint(f.__globals__['__builtins__'].open('@CANARY_FILE@').read())\n",
        NOT_FOUND,
    ),
    Attack(
        "decorator-returns-open",
        "audit-evasion",
        src(
            """
            def swap(_):
                return open
            @swap
            def reader(): pass
            print(reader('@CANARY_FILE@').read())
            """
        ),
        NOT_FOUND,
    ),
    Attack(
        "decorator-eval",
        "audit-evasion",
        src(
            f"""
            @eval
            @(lambda _: {_PAYLOAD!r})
            def f(): pass
            """
        ),
        NOT_FOUND,
    ),
    Attack(
        "lambda-returns-open",
        "audit-evasion",
        "print((lambda: open)()('@CANARY_FILE@').read())\n",
        NOT_FOUND,
    ),
    Attack(
        "comprehension-hides-open",
        "audit-evasion",
        "print([f('@CANARY_FILE@').read() for f in [open]])\n",
        NOT_FOUND,
    ),
    Attack(
        "type-built-class-reduce",
        "audit-evasion",
        src(
            """
            import copy, io
            d = '_' * 2
            gadget = lambda self: (io.open, ('@CANARY_FILE@',))
            Gadget = type('Gadget', (), {d + 'reduce' + d: gadget})
            print(copy.copy(Gadget()).read())
            """
        ),
        NOT_FOUND,
        audit="misses",
    ),
    Attack(
        "metaclass-getitem-modules",
        "audit-evasion",
        src(
            """
            import typing
            class Meta(type):
                def __getitem__(cls, name):
                    return typing.sys.modules[name]
            class Modules(metaclass=Meta):
                pass
            print(Modules['os'].listdir('/'))
            """
        ),
        LISTS_THE_TREE,
        audit="misses",
    ),
    Attack(
        "nfkc-eval",
        "audit-evasion",
        f"\uff45\uff56\uff41\uff4c({_PAYLOAD!r})\n",  # ｅｖａｌ, NFKC-normalised to eval
        NOT_FOUND,
    ),
    Attack(
        "nfkc-dunder-walk",
        "audit-evasion",
        # ().__ｃｌａｓｓ__.__ｂａｓｅ__.__ｓｕｂｃｌａｓｓｅｓ__()
        "print(len(().__\uff43\uff4c\uff41\uff53\uff53__.__\uff42\uff41\uff53\uff45__"
        ".__\uff53\uff55\uff42\uff43\uff4c\uff41\uff53\uff53\uff45\uff53__()) > 10)\n",
        ok("True\n"),
    ),
    Attack(
        "nfkc-import-os",
        "audit-evasion",
        "import \uff4f\uff53\nprint(\uff4f\uff53.listdir('/'))\n",  # import ｏｓ
        LISTS_THE_TREE,
    ),
    Attack(
        "alias-eval",
        "audit-evasion",
        f"run = eval\nrun({_PAYLOAD!r})\n",
        NOT_FOUND,
    ),
    Attack(
        "alias-import-as",
        "audit-evasion",
        "import os as maths\nprint(maths.listdir('/'))\n",
        LISTS_THE_TREE,
    ),
    Attack(
        "star-import-os",
        "audit-evasion",
        "from os import *\nprint(listdir('/'))\n",
        LISTS_THE_TREE,
    ),
    Attack(
        "star-import-builtins",
        "audit-evasion",
        "from builtins import *\nprint(open('@CANARY_FILE@').read())\n",
        NOT_FOUND,
    ),
    Attack(
        "base64-exec-payload",
        "audit-evasion",
        "import base64\nexec(base64.b64decode('@PAYLOAD_B64@'))\n",
        NOT_FOUND,
    ),
    Attack(
        "codecs-rot13-exec",
        "audit-evasion",
        src(
            """
            import codecs
            exec(codecs.decode("@PAYLOAD_ROT13@", 'rot13'))
            """
        ),
        NOT_FOUND,
    ),
    Attack(
        "module-attr-builtins-exec-base64",
        "audit-evasion",
        src(
            """
            import base64, typing
            typing.sys.modules['builtins'].exec(base64.b64decode('@PAYLOAD_B64@'))
            """
        ),
        NOT_FOUND,
        audit="misses",
        # The payload opens a file: strict's `open` is refused in code compiled at run time.
        guard=("strict",),
    ),
    Attack(
        "coding-cookie-unicode-escape",
        "audit-evasion",
        # The source is decoded with unicode_escape, so `\x65val` *is* `eval` to the parser.
        "# -*- coding: unicode_escape -*-\n\\x65val(" + repr(_PAYLOAD) + ")\n",
        NOT_FOUND,
    ),
    Attack(
        "pickle-reduce-gadget",
        "audit-evasion",
        src(
            """
            import pickle, io
            class Gadget:
                def __reduce__(self):
                    return (io.open, ('@CANARY_FILE@',))
            print(pickle.loads(pickle.dumps(Gadget())).read())
            """
        ),
        NOT_FOUND,
    ),
    Attack(
        "copy-reduce-gadget",
        "audit-evasion",
        src(
            """
            import copy, io
            class Gadget:
                def __reduce__(self):
                    return (io.open, ('@CANARY_FILE@',))
            print(copy.copy(Gadget()).read())
            """
        ),
        NOT_FOUND,
        audit="misses",
    ),
    Attack(
        "marshal-code-object",
        "audit-evasion",
        src(
            f"""
            import marshal
            code = marshal.loads(marshal.dumps(compile({_PAYLOAD!r}, 'x', 'exec')))
            exec(code)
            """
        ),
        NOT_FOUND,
    ),
    Attack(
        "module-attr-typing-sys-os",
        "audit-evasion",
        "import typing\nos_ = typing.sys.modules['os']\nprint(os_.listdir('/'))\n",
        LISTS_THE_TREE,
        audit="misses",
    ),
    Attack(
        "module-attr-random-os",
        "audit-evasion",
        "import random\nprint(random._os.listdir('/'))\n",
        LISTS_THE_TREE,
        audit="misses",
    ),
    Attack(
        "module-attr-import-socket",
        "audit-evasion",
        src(
            """
            import operator, typing
            imp = operator.attrgetter('_' * 2 + 'import' + '_' * 2)(typing.sys.modules['builtins'])
            s = imp('socket').socket()
            s.connect(('127.0.0.1', @PORT@))
            """
        ),
        fails("OSError"),
        audit="misses",
        guard=("strict", "balanced"),
    ),
]


HOST_FILES = [
    Attack("read-etc-passwd", "host-files", "print(open('/etc/passwd').read())\n", NOT_FOUND),
    Attack("read-canary-file", "host-files", "print(open('@CANARY_FILE@').read())\n", NOT_FOUND),
    Attack(
        "read-canary-io-open",
        "host-files",
        "import io\nprint(io.open('@CANARY_FILE@').read())\n",
        NOT_FOUND,
        audit="misses",
    ),
    Attack(
        "read-canary-fileio",
        "host-files",
        "import io\nprint(io.FileIO('@CANARY_FILE@').read())\n",
        NOT_FOUND,
        audit="misses",
    ),
    Attack(
        "read-canary-json-codecs",
        "host-files",
        "import json\nprint(json.codecs.open('@CANARY_FILE@').read())\n",
        NOT_FOUND,
        audit="misses",
    ),
    Attack(
        "traversal-relative",
        "host-files",
        "print(open('../../../../../..@CANARY_FILE@').read())\n",
        LEAVES_NO_ROOT,
    ),
    Attack(
        "traversal-out-of-a-stdlib-path",
        "host-files",
        "import io\nprint(io.open('/usr/local/lib/python3.12/../../../../etc/passwd').read())\n",
        fails("FileNotFoundError", "NotADirectoryError"),
        audit="misses",
    ),
    Attack(
        "write-into-canary-dir",
        "host-files",
        "open('@CANARY_DIR@/pwned.txt', 'w').write('pwned')\n",
        NOT_FOUND,
    ),
    Attack(
        "overwrite-canary-file",
        "host-files",
        "import io\nio.open('@CANARY_FILE@', 'w').write('pwned')\n",
        NOT_FOUND,
        audit="misses",
    ),
    Attack(
        "write-host-tmp",
        "host-files",
        "import io\nio.open('/tmp/sandbox-wasm-pwned.txt', 'w').write('pwned')\n",
        WRITES_THE_TREE,
        audit="misses",
    ),
    Attack(
        "write-a-stdlib-path",
        "host-files",
        "import io\nio.open('/usr/local/lib/python3.12/json/__init__.py', 'a').write('x')\n",
        NOT_FOUND,
        audit="misses",
    ),
    Attack("list-root", "host-files", "import os\nprint(os.listdir('/'))\n", LISTS_THE_TREE),
    # Our runtime's working directory is its own (empty) /output.
    Attack("list-cwd", "host-files", "import os\nprint(os.getcwd(), os.listdir('.'))\n",
           ok("/output []\n")),
    Attack("list-canary-dir", "host-files", "import os\nprint(os.listdir('@CANARY_DIR@'))\n",
           NOT_FOUND),
    Attack(
        "walk-from-root",
        "host-files",
        "import os\nprint([p for p, _, _ in os.walk('/') if not p.startswith('/usr')])\n",
        ok("['/', '/input', '/output', '/tmp']\n"),
    ),
    Attack("proc-self-environ", "host-files", "print(open('/proc/self/environ').read())\n",
           NOT_FOUND),
    Attack("proc-self-mem", "host-files", "print(open('/proc/self/mem', 'rb').read(16))\n",
           NOT_FOUND),
    Attack("proc-self-fd", "host-files", "import os\nprint(os.listdir('/proc/self/fd'))\n",
           NOT_FOUND),
    Attack(
        "read-unopened-fds",
        "host-files",
        src(
            """
            import os
            readable = []
            for fd in range(3, 64):
                try:
                    os.read(fd, 1)
                    readable.append(fd)
                except OSError:
                    pass
            print(readable)
            """
        ),
        ok("[]\n"),
    ),
    Attack(
        "symlink-to-host",
        "host-files",
        "import os\nos.symlink('/etc/passwd', '/usr/local/lib/p')\n",
        fails("FileNotFoundError", "PermissionError", "OSError", "NotImplementedError"),
    ),
    Attack(
        "sqlite-opens-canary",
        "host-files",
        "import sqlite3\nprint(sqlite3.connect('@CANARY_FILE@').execute('select 1').fetchall())\n",
        # Every runtime has sqlite3 now; each opens files of its own tree only.
        fails("OperationalError"),
    ),
]


ENV_SECRETS = [
    Attack("environ-dump", "env-secrets", "import os\nprint(dict(os.environ))\n", ok("{}\n")),
    Attack("getenv-canary", "env-secrets", "import os\nprint(os.getenv('@CANARY_ENV@'))\n",
           ok("None\n")),
    Attack(
        "environ-via-module-attr",
        "env-secrets",
        "import typing\nprint(dict(typing.sys.modules['os'].environ))\n",
        ok("{}\n"),
        audit="misses",
    ),
    Attack("posix-environ", "env-secrets", "import posix\nprint(posix.environ)\n", ok("{}\n")),
    Attack(
        "environ-after-putenv",
        "env-secrets",
        "import os\nos.putenv('@CANARY_ENV@', 'x')\nprint(os.environ.get('@CANARY_ENV@'))\n",
        ok("None\n"),
    ),
    Attack(
        "stdin-holds-nothing",
        "env-secrets",
        "import os\nprint(os.read(0, 1 << 16))\n",
        ok("b''\n"),
    ),
    Attack("argv-is-fixed", "env-secrets", "import sys\nprint(sys.argv)\n", ok("['-c']\n")),
    Attack(
        "home-and-user",
        "env-secrets",
        "import os\n"
        "print(os.path.expanduser('~'), os.environ.get('USER'), os.environ.get('HOME'))\n",
        ok("~ None None\n"),
    ),
    Attack(
        "sysconfig-build-vars",
        "env-secrets",
        "import sysconfig\nprint('@CANARY_ENV@' in str(sysconfig.get_config_vars()))\n",
        ok("False\n"),
    ),
]


NETWORK = [
    Attack(
        "socket-connect-host-listener",
        "network",
        "import socket\ns = socket.socket()\ns.connect(('127.0.0.1', @PORT@))\n",
        fails("OSError"),
    ),
    Attack(
        "socket-create-connection",
        "network",
        "import socket\nsocket.create_connection(('127.0.0.1', @PORT@), timeout=1)\n",
        fails("OSError", "gaierror", "AttributeError"),
    ),
    Attack(
        "udp-sendto",
        "network",
        "import socket\n"
        "socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b'x', ('127.0.0.1', @PORT@))\n",
        fails("OSError"),
    ),
    Attack(
        "urllib-urlopen",
        "network",
        "import urllib.request\nurllib.request.urlopen('http://127.0.0.1:@PORT@/', timeout=1)\n",
        fails("URLError", "OSError", "AttributeError"),
    ),
    Attack(
        "http-client",
        "network",
        "import http.client\n"
        "c = http.client.HTTPConnection('127.0.0.1', @PORT@, timeout=1)\n"
        "c.request('GET', '/')\n",
        # Without a network policy the host refuses the request: PermissionError.
        fails("OSError", "ConnectionError", "PermissionError", "AttributeError"),
    ),
    Attack(
        "dns-gethostbyname",
        "network",
        "import socket\nprint(socket.gethostbyname('localhost'))\n",
        fails("OSError", "gaierror", "AttributeError"),
    ),
    Attack(
        "dns-getaddrinfo",
        "network",
        "import socket\nprint(socket.getaddrinfo('example.com', 80))\n",
        fails("OSError", "gaierror", "AttributeError"),
    ),
    Attack("ssl-context", "network", "import ssl\nssl.create_default_context()\n",
           fails("ModuleNotFoundError", "ImportError")),
]


def fill(code: str | bytes, *, canary_file: str, canary_dir: str, canary_env: str,
         port: int) -> str | bytes:
    """The attack's code with the placeholders replaced by this host's canary set-up."""
    if isinstance(code, bytes):
        return code
    payload = _PAYLOAD.replace("@CANARY_FILE@", canary_file)
    for token, value in (
        ("@PAYLOAD_B64@", base64.b64encode(payload.encode()).decode()),
        ("@PAYLOAD_ROT13@", codecs.encode(payload, "rot13")),
        ("@CANARY_FILE@", canary_file),
        ("@CANARY_DIR@", canary_dir),
        ("@CANARY_ENV@", canary_env),
        ("@PORT@", str(port)),
    ):
        code = code.replace(token, value)
    return code


def _facts_source(facts: int) -> str:
    """Valid code whose audit lists exactly `facts` constructs: one name per assignment
    target, and the call to print."""
    return "=".join(f"v{i}" for i in range(facts - 1)) + "=0\nprint('RAN')\n"


def _nested(depth: int, opener: str, closer: str) -> str:
    return "x = " + opener * depth + closer * depth + "\n"


RESOURCE_EXHAUSTION = [
    Attack("busy-loop", "resource", "while True:\n    pass\n", times_out(), "allows", RESOURCE),
    Attack(
        "busy-loop-fuel",
        "resource",
        "i = 0\nwhile True:\n    i += 1\n",
        Expect("fuel_exhausted", 124, error=("FuelExhausted",)),
        "allows",
        {"timeout_ms": 5_000, "fuel": 300_000_000},
    ),
    Attack(
        "loop-in-finally",
        "resource",
        src(
            """
            while True:
                try:
                    while True:
                        pass
                finally:
                    continue
            """
        ),
        times_out(),
        "allows",
        RESOURCE,
    ),
    Attack(
        "loop-swallowing-all-exceptions",
        "resource",
        src(
            """
            while True:
                try:
                    while True:
                        1 / 0
                except BaseException:
                    pass
            """
        ),
        times_out(),
        "allows",
        RESOURCE,
    ),
    Attack("sleep-long", "resource", "import time\ntime.sleep(3600)\n", times_out(), "allows",
           RESOURCE),
    Attack(
        "sleep-swallowing-exceptions",
        "resource",
        src(
            """
            import time
            while True:
                try:
                    time.sleep(60)
                except BaseException:
                    pass
            """
        ),
        times_out(),
        "allows",
        RESOURCE,
    ),
    Attack(
        "sleep-in-finally",
        "resource",
        "import time\ntry:\n    1 / 0\nfinally:\n    time.sleep(3600)\n",
        times_out(),
        "allows",
        RESOURCE,
    ),
    Attack(
        "atexit-busy-loop",
        "resource",
        "import atexit\n@atexit.register\ndef spin():\n    while True:\n        pass\n",
        times_out(),
        limits=RESOURCE,
    ),
    Attack(
        "recursion-raised-limit",
        "resource",
        src(
            """
            import sys
            sys.setrecursionlimit(10**8)
            def f(n):
                return f(n + 1)
            f(0)
            """
        ),
        fails("MemoryError", "RecursionError", "SystemError"),
        limits={"timeout_ms": 5_000, "memory_mb": 48},
    ),
    Attack(
        "recursion-through-c-raised-limit",
        "resource",
        src(
            """
            import functools, sys
            sys.setrecursionlimit(10**6)
            @functools.lru_cache(maxsize=None)
            def f(n):
                return 0 if n == 0 else f(n - 1) + 1
            print(f(100_000))
            """
        ),
        fails("RecursionError"),
        limits={"timeout_ms": 2_000},
    ),
    Attack(
        "memory-list-of-chunks",
        "resource",
        "chunks = []\nwhile True:\n    chunks.append(bytearray(1 << 20))\n",
        fails("MemoryError"),
        "allows",
        SMALL_MEMORY,
    ),
    Attack("memory-one-huge-bytearray", "resource", "x = bytearray(1 << 30)\n",
           fails("MemoryError"), "allows", SMALL_MEMORY),
    Attack("memory-huge-list", "resource", "x = [0] * 10**9\n", fails("MemoryError"), "allows",
           SMALL_MEMORY),
    Attack("memory-string-over-address-space", "resource", "x = 'a' * (1 << 31)\n",
           fails("OverflowError", "MemoryError"), "allows", SMALL_MEMORY),
    Attack(
        "memory-string-doubling",
        "resource",
        "s = 'ab'\nwhile True:\n    s = s + s\n",
        fails("MemoryError"),
        "allows",
        SMALL_MEMORY,
    ),
    Attack(
        "memory-dict-growth",
        "resource",
        "d = {}\ni = 0\nwhile True:\n    d[i] = str(i)\n    i += 1\n",
        fails("MemoryError"),
        "allows",
        # A deadline with room (filling 64 MiB a small entry at a time takes a while on a
        # loaded machine), so the outcome is the memory cap's.
        {**SMALL_MEMORY, "timeout_ms": 5_000},
    ),
    Attack(
        "memory-swallowing-memoryerror",
        "resource",
        src(
            """
            hoard = []
            while True:
                try:
                    hoard.append(bytearray(1 << 20))
                except MemoryError:
                    pass
            """
        ),
        times_out(),
        "allows",
        {"timeout_ms": RESOURCE_TIMEOUT_MS, "memory_mb": 64},
    ),
    Attack("huge-int-power", "resource", "x = 10 ** 10 ** 9\n", times_out(), "allows", RESOURCE),
    Attack(
        "huge-int-str",
        "resource",
        "print(len(str(10 ** 100_000)))\n",
        fails("ValueError"),
        "allows",
        RESOURCE,
    ),
    Attack(
        "huge-int-str-unlimited-digits",
        "resource",
        "import sys\nsys.set_int_max_str_digits(0)\nprint(len(str(7 ** 3_000_000)))\n",
        times_out(),
        limits=RESOURCE,
    ),
    Attack(
        "catastrophic-regex",
        "resource",
        "import re\nre.match(r'(a+)+$', 'a' * 64 + 'b')\n",
        times_out(),
        "allows",
        RESOURCE,
    ),
    Attack(
        "thread-bomb",
        "resource",
        "import threading\nwhile True:\n    threading.Thread(target=lambda: None).start()\n",
        fails("RuntimeError"),
    ),
    Attack(
        "fork-and-subprocess",
        "resource",
        "import subprocess\nsubprocess.run(['sh', '-c', 'echo pwned'])\n",
        fails("OSError"),
    ),
    Attack(
        "flood-large-writes",
        "resource",
        "while True:\n    print('x' * 100_000)\n",
        times_out(stdout_truncated=True),
        "allows",
        RESOURCE,
    ),
    Attack(
        "flood-many-small-writes",
        "resource",
        "while True:\n    print('x', end='')\n",
        times_out(stdout_truncated=True),
        "allows",
        RESOURCE | {"max_stdout_bytes": 4_096},
    ),
    Attack(
        "flood-stderr",
        "resource",
        "import sys\nwhile True:\n    sys.stderr.write('e' * 1000)\n",
        times_out(stderr_truncated=True),
        limits=RESOURCE,
    ),
    Attack(
        "flood-finite-over-cap",
        "resource",
        "print('x' * 10_000_000)\n",
        ok(stdout_truncated=True),
        "allows",
        RESOURCE | {"timeout_ms": 2_000},
    ),
    Attack(
        # One 120 MiB write is one host call: only what fits under the cap is copied out of
        # the guest (the host's memory is checked as for every attack), and the run ends
        # well. Making the 120 MiB in the guest is ~30,000 page faults (65-125 ms here,
        # past 300 ms on a stalled 2-core VM): the deadline leaves room for that.
        "flood-one-huge-write",
        "resource",
        "import os\nos.write(1, b'x' * (120 << 20))\n",
        ok(stdout_truncated=True),
        limits={"timeout_ms": 2_000},
        exec_bound_ms=2_000 + 100,
    ),
    Attack(
        "flood-huge-writes-forever",
        "resource",
        "import os\nchunk = b'x' * (120 << 20)\nwhile True:\n    os.write(1, chunk)\n",
        times_out(stdout_truncated=True),
        limits={"timeout_ms": 300},
        exec_bound_ms=300 + 100,
    ),
]


HOSTILE_SOURCES = [
    Attack("source-5mib", "hostile-source", b"#" * (5 << 20), raises(sw.SourceTooLargeError)),
    Attack("source-over-default-limit", "hostile-source", "x = 1\n" * 6_000,
           raises(sw.SourceTooLargeError)),
    Attack("source-null-byte", "hostile-source", "print(1)\x00import os\n",
           raises(sw.InvalidRequestError)),
    Attack("source-null-byte-bytes", "hostile-source", b"print(1)\x00",
           raises(sw.InvalidRequestError)),
    Attack("source-invalid-utf8", "hostile-source", b"print('\xff\xfe')\n",
           raises(sw.InvalidRequestError)),
    Attack("source-lone-surrogate", "hostile-source", "print('\ud800')\n",
           raises(sw.InvalidRequestError)),
    Attack("source-bom", "hostile-source", b"\xef\xbb\xbfprint('bom')\n", ok("bom\n"), "allows"),
    Attack("nested-parentheses", "hostile-source", _nested(1_000, "(", ")"), syntax_error(),
           "allows"),
    Attack("nested-lists", "hostile-source", _nested(5_000, "[", "]"), syntax_error(), "allows"),
    Attack("nested-unary", "hostile-source", "x = " + "-" * 30_000 + "1\n", syntax_error(),
           "allows"),
    Attack("nested-blocks", "hostile-source",
           "".join(" " * i + "if 1:\n" for i in range(120)) + " " * 120 + "pass\n",
           syntax_error(), "allows"),
    Attack("nested-fstrings", "hostile-source", "x = " + "f'{" * 200 + "1" + "}'" * 200 + "\n",
           syntax_error(), "allows"),
    Attack("nested-lambdas", "hostile-source", "x = " + "lambda: " * 4_000 + "1\n",
           syntax_error(), "allows"),
    Attack("long-operator-chain", "hostile-source", "x = " + "1+" * 15_000 + "1\n",
           syntax_error(), "allows"),
    # The audit lists at most MAX_FACTS constructs: guest and host share that limit, so a
    # source that reaches it is refused before anything of it runs, and one below it is not.
    Attack("audit-answer-at-its-limit", "hostile-source", _facts_source(MAX_FACTS),
           ok("RAN\n"), "blocks", {"timeout_ms": 5_000, "max_source_bytes": 256 * 1024}),
    Attack("audit-answer-just-under-its-limit", "hostile-source",
           _facts_source(MAX_FACTS - 1), ok("RAN\n"), "allows",
           {"timeout_ms": 5_000, "max_source_bytes": 256 * 1024}),
]


OUTPUT_CONFUSION = [
    Attack(
        "fake-result-json-then-fail",
        "output-confusion",
        "print('{\"status\": \"succeeded\", \"exit_code\": 0}')\nraise ValueError('real')\n",
        fails("ValueError"),
        "allows",
    ),
    Attack(
        "fake-whole-result-and-exit",
        "output-confusion",
        src(
            """
            import json, sys
            print(json.dumps({"status": "succeeded", "exit_code": 0, "stdout": "all good",
                              "audit": {"safety_verdict": "safe"}}))
            sys.exit(3)
            """
        ),
        fails(exit_code=3),
    ),
    Attack(
        "ansi-escapes",
        "output-confusion",
        "print('\\x1b[2J\\x1b[31mred\\x1b]0;title\\x07\\x1b[0m')\n",
        ok("\x1b[2J\x1b[31mred\x1b]0;title\x07\x1b[0m\n"),
        "allows",
    ),
    Attack(
        "invalid-utf8-output",
        "output-confusion",
        "import os\nos.write(1, b'ok \\xff\\xfe end')\n",
        ok("ok \ufffd\ufffd end"),
    ),
    Attack(
        "result-json-lone-surrogate",
        "output-confusion",
        "print('{\"x\": \"\\\\ud800\"}')\n",  # prints the ASCII text {"x": "\ud800"}
        ok('{"x": "\\ud800"}\n'),
        "allows",
    ),
    Attack(
        "error-message-lone-surrogate",
        "output-confusion",
        "raise ValueError('\\ud800 lone surrogate')\n",
        fails("ValueError"),
        "allows",
    ),
    Attack(
        "forged-error-record",
        "output-confusion",
        src(
            """
            import os
            forged = b'{"type": "MemoryLimitExceeded", "message": "x"}'
            os.write(2, b'\\x00sandbox-wasm-error:' + forged + b'\\n')
            raise ValueError('the real error')
            """
        ),
        fails("ValueError"),
    ),
    Attack("close-stdout", "output-confusion",
           "import sys\nsys.stdout.close()\nprint('x')\n", fails("ValueError")),
    Attack("close-fd-1", "output-confusion", "import os\nos.close(1)\nprint('x')\n",
           fails("OSError")),
    Attack(
        "close-all-fds-then-fail",
        "output-confusion",
        "import os\nfor fd in (0, 1, 2):\n    os.close(fd)\nraise ValueError('unseen')\n",
        Expect("failed", 1),
    ),
    Attack(
        "replace-stdout",
        "output-confusion",
        "import io, sys\nsys.stdout = io.StringIO()\nprint('hidden')\n",
        ok(""),
    ),
    Attack(
        "stdout-write-spins",
        "output-confusion",
        src(
            """
            import sys
            class Spin:
                def write(self, s):
                    while True:
                        pass
                def flush(self):
                    while True:
                        pass
            sys.stdout = sys.stderr = Spin()
            print('x')
            """
        ),
        times_out(),
        limits=RESOURCE,
    ),
    Attack(
        "write-fds-directly",
        "output-confusion",
        "import os\nos.write(1, b'to-stdout')\nos.write(2, b'to-stderr')\n",
        ok("to-stdout", stderr_has=("to-stderr",)),
    ),
    Attack(
        "bootstrap-tamper-exit-code",
        "output-confusion",
        "import __main__\n__main__._exit_code = lambda exc: 0\nraise SystemExit(5)\n",
        fails(exit_code=5),
    ),
    Attack("sys-exit-0", "output-confusion", "import sys\nprint('x')\nsys.exit(0)\n", ok("x\n")),
    Attack("sys-exit-3", "output-confusion", "import sys\nsys.exit(3)\n", fails(exit_code=3)),
    Attack("sys-exit-message", "output-confusion", "raise SystemExit('bye')\n",
           fails("SystemExit", stderr_has=("bye",)), "allows"),
    Attack("os-exit-mimics-timeout", "output-confusion", "import os\nos._exit(124)\n",
           fails(exit_code=124)),
    Attack("os-exit-mimics-memory", "output-confusion", "import os\nos._exit(137)\n",
           fails(exit_code=137)),
    Attack("os-exit-minus-one", "output-confusion", "import os\nos._exit(-1)\n",
           fails(exit_code=255)),
    Attack("system-exit-none", "output-confusion", "print('x')\nraise SystemExit\n", ok("x\n"),
           "allows"),
    Attack(
        "system-exit-huge-code",
        "output-confusion",
        "raise SystemExit(2 ** 40)\n",
        fails(stderr_lacks=("in _r",)),
        "allows",
    ),
    Attack("keyboard-interrupt", "output-confusion", "raise KeyboardInterrupt\n",
           fails("KeyboardInterrupt", exit_code=130), "allows"),
    Attack(
        "exception-huge-message",
        "output-confusion",
        "raise ValueError('m' * 10_000_000)\n",
        fails("ValueError", stderr_truncated=True),
        "allows",
    ),
    Attack(
        "exception-str-raises",
        "output-confusion",
        "class Bad(Exception):\n    def __str__(self):\n        raise RuntimeError\nraise Bad()\n",
        fails("Bad"),
        "allows",
    ),
    Attack(
        "exception-str-spins",
        "output-confusion",
        "class Bad(Exception):\n"
        "    def __str__(self):\n"
        "        while True:\n"
        "            pass\n"
        "raise Bad()\n",
        times_out(),
        "allows",
        RESOURCE,
    ),
    Attack(
        "stdout-json-nested-too-deep",
        "output-confusion",
        "print('[' * 300 + ']' * 300)\n",
        ok("[" * 300 + "]" * 300 + "\n", result_json_dropped=True),
        "allows",
    ),
    Attack(
        "stdout-json-nested-deeper-than-the-host-parser",
        "output-confusion",
        "print('[' * 100_000 + ']' * 100_000)\n",
        ok(result_json_dropped=False),  # json.loads gives up: stdout is not taken as JSON
        "allows",
    ),
    Attack(
        "stdout-json-infinite-number",
        "output-confusion",
        "print('[1e400]')\n",
        ok("[1e400]\n", result_json_dropped=True),
        "allows",
    ),
    Attack(
        "stdout-json-nan",
        "output-confusion",
        "print('{\"x\": NaN}')\n",
        ok('{"x": NaN}\n', result_json_dropped=False),
        "allows",
    ),
    Attack(
        "exception-long-non-ascii-message",
        "output-confusion",
        "raise ValueError('\u00e9\U0001f600' * 3000)\n",
        fails("ValueError", message_has=("\u00e9\U0001f600" * 400,)),
        "allows",
    ),
    Attack(
        "exception-long-type-name",
        "output-confusion",
        "E = type('E' * 5000, (Exception,), {})\nraise E('x')\n",
        fails(error_type_chars=200),
        "allows",
    ),
    Attack(
        "stdout-cap-inside-a-character",
        "output-confusion",
        "print('\u00e9' * 100)\n",
        ok("\u00e9" * 25, stdout_truncated=True),
        "allows",
        {"timeout_ms": 5_000, "max_stdout_bytes": 51},
    ),
    Attack(
        "stderr-cap-inside-a-character",
        "output-confusion",
        "import sys\nprint('\U0001f600' * 100, file=sys.stderr)\n",
        ok(stderr_has=("\U0001f600" * 12,), stderr_truncated=True),
        limits={"timeout_ms": 5_000, "max_stderr_bytes": 50},
    ),
    Attack(
        "stdout-invalid-utf8-at-the-cap",
        "output-confusion",
        "import os\nos.write(1, b'\\xff' * 50)\n",
        ok(stdout_truncated=True),
        limits={"timeout_ms": 5_000, "max_stdout_bytes": 50},
    ),
    Attack(
        "exit-code-property-spins",
        "output-confusion",
        src(
            """
            class Exit(SystemExit):
                @property
                def code(self):
                    while True:
                        pass
            raise Exit()
            """
        ),
        times_out(),
        "allows",
        RESOURCE,
    ),
]


# Every host function the guest can call bounds its own work (epoch interruption cannot fire
# in host code): the largest counts and sizes the memory cap allows, in one call or in a loop,
# end within the deadline like a busy loop does.
HOST_CALLS = [
    Attack(
        "writev-millions-of-entries",
        "host-calls",
        "import os\nos.writev(1, [b'x'] * 4_000_000)\n",
        NO_WRITEV,
        limits={"timeout_ms": 1_000, "memory_mb": 512},
    ),
    Attack(
        "writev-largest-accepted-in-a-loop",
        "host-calls",
        "import os\nentries = [b'x' * 65536] * 1024\nwhile True:\n    os.writev(1, entries)\n",
        NO_WRITEV,
        limits={"timeout_ms": 1_000, "memory_mb": 512},
    ),
    Attack(
        "writev-stderr-one-byte-entries-in-a-loop",
        "host-calls",
        "import os\nentries = [b'e'] * 1024\nwhile True:\n    os.writev(2, entries)\n",
        NO_WRITEV,
        limits={"timeout_ms": 1_000},
    ),
    Attack(
        "writev-overlapping-entries-past-4gib",
        "host-calls",
        "import os\nbig = b'x' * (8 << 20)\nprint(os.writev(1, [big] * 1024))\n",
        NO_WRITEV,
        limits={"timeout_ms": 2_000, "memory_mb": 128},
    ),
    Attack(
        "readv-millions-of-entries",
        "host-calls",
        # Two million entries: far past IOV_MAX, and built well within the deadline.
        "import os\nos.readv(0, [bytearray(1)] * 2_000_000)\n",
        NO_READV,
        limits={"timeout_ms": 1_000, "memory_mb": 512},
    ),
    Attack(
        "readv-largest-accepted-in-a-loop",
        "host-calls",
        "import os\nbuffers = [bytearray(65536)] * 1024\nwhile True:\n    os.readv(0, buffers)\n",
        NO_READV,
        limits={"timeout_ms": 1_000, "memory_mb": 512},
    ),
    Attack(
        "print-huge-string-in-a-loop",
        "host-calls",
        "s = 'x' * (64 << 20)\nwhile True:\n    print(s)\n",
        times_out(stdout_truncated=True),
        "allows",
        {"timeout_ms": 1_000, "memory_mb": 1_024},
    ),
    Attack(
        "clock-in-a-loop",
        "host-calls",
        "import time\nwhile True:\n    time.time()\n    time.monotonic()\n",
        times_out(),
        "allows",
        RESOURCE,
    ),
    Attack(
        "short-sleeps-in-a-loop",
        "host-calls",
        "import time\nwhile True:\n    time.sleep(0.0001)\n",
        times_out(),
        "allows",
        RESOURCE,
    ),
    Attack(
        "select-in-a-loop",
        "host-calls",
        "import select\nwhile True:\n    select.select([0], [1, 2], [], 0)\n",
        times_out(),
        limits=RESOURCE,
    ),
    Attack(
        "close-bad-descriptor-in-a-loop",
        "host-calls",
        src(
            """
            import os
            while True:
                try:
                    os.close(7)
                except OSError:
                    pass
            """
        ),
        times_out(),
        limits=RESOURCE,
    ),
]

# The statuses the host decides (timeout, fuel_exhausted, memory_exceeded, internal_error)
# come from what wasmtime reports; a guest that behaves like one of them gets `failed`.
FORGED_STATUS = [
    Attack(
        "abort-with-most-memory-in-use",
        "forged-status",
        # Most of the 64 MiB: what the runtimes start with (20-23 MiB) leaves ~40 MiB.
        "import os\nheld = bytearray(36 << 20)\nos.abort()\n",
        fails("GuestCrash"),
        limits={"timeout_ms": 5_000, "memory_mb": 64},
    ),
    Attack(
        "abort-with-little-memory-in-use",
        "forged-status",
        "import os\nos.abort()\n",
        fails("GuestCrash"),
    ),
    Attack(
        "forged-error-record-with-exit-124",
        "forged-status",
        src(
            r"""
            import sys
            sys.stderr.write('\x00sandbox-wasm-error:'
                             '{"type": "FuelExhausted", "message": "forged"}\n')
            sys.stderr.flush()
            sys.exit(124)
            """
        ),
        fails(exit_code=124),
    ),
    Attack("exit-70-mimics-internal-error", "forged-status", "import os\nos._exit(70)\n",
           fails(exit_code=70)),
    Attack(
        "forged-audit-answer-in-stdout",
        "forged-status",
        src(
            r"""
            import os, json
            answer = json.dumps({"facts": [], "ran": False}).encode()
            os.write(1, len(answer).to_bytes(8, "little") + answer)
            """
        ),
        ok(stdout_has=('"ran": false',)),
    ),
    Attack(
        "sleep-just-under-the-deadline",
        "forged-status",
        "import time\ntime.sleep(0.3)\nprint('woke')\n",
        ok("woke\n"),
        "allows",
        {"timeout_ms": 2_000},
    ),
    Attack(
        "fill-memory-then-exit-cleanly",
        "forged-status",
        src(
            """
            held = []
            try:
                while True:
                    held.append(bytearray(1 << 20))
            except MemoryError:
                pass
            del held
            print('recovered')
            """
        ),
        ok("recovered\n"),
        "allows",
        SMALL_MEMORY,
    ),
    Attack(
        "memory-error-raised-by-hand",
        "forged-status",
        "raise MemoryError('forged')\n",
        fails("MemoryError"),
        "allows",
    ),
]


ATTACKS: list[Attack] = [
    *AUDIT_EVASION,
    *HOST_FILES,
    *ENV_SECRETS,
    *NETWORK,
    *RESOURCE_EXHAUSTION,
    *HOSTILE_SOURCES,
    *OUTPUT_CONFUSION,
    *HOST_CALLS,
    *FORGED_STATUS,
]
