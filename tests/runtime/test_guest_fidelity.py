"""The guest behaves as native CPython where model-written code and its tests notice: a
writable working directory, sqlite3, `random` under `unittest.mock.patch`, `os.utime`,
`hashlib.pbkdf2_hmac`. Each case runs natively (this host's Python) and in the sandbox and
compares the two outputs."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import sandbox_wasm as sw

CASES = [
    pytest.param(
        "import os\nwith open('out.csv', 'w') as f:\n    f.write('a,b\\n1,2\\n')\n"
        "os.makedirs('data/raw', exist_ok=True)\nopen('data/raw/x.txt', 'w').write('x')\n"
        "print(sorted(os.listdir('.')), open('out.csv').read().splitlines())\n"
        "print(os.path.exists('data/raw/x.txt'), os.path.isdir('data'))\n",
        id="relative-paths"),
    pytest.param(
        "import tempfile, os, shutil\nwith tempfile.TemporaryDirectory() as d:\n"
        "    p = os.path.join(d, 'a.txt')\n    open(p, 'w').write('hi')\n"
        "    shutil.copy(p, os.path.join(d, 'b.txt'))\n    print(sorted(os.listdir(d)))\n"
        "print(os.path.exists(d))\n", id="tempfile-shutil"),
    pytest.param(
        "import sqlite3\nc = sqlite3.connect(':memory:')\nc.execute('create table t(a, b)')\n"
        "c.executemany('insert into t values (?, ?)', [(1, 'x'), (2, 'y')])\n"
        "print(c.execute('select sum(a), group_concat(b) from t').fetchone())\n",
        id="sqlite3-memory"),
    pytest.param(
        "import sqlite3, os\nc = sqlite3.connect('shop.db')\n"
        "c.execute('create table items(name text primary key, qty int)')\n"
        "with c:\n    c.execute(\"insert into items values ('pen', 3)\")\nc.close()\n"
        "c = sqlite3.connect('shop.db')\nprint(c.execute('select * from items').fetchall())\n"
        "print(os.path.getsize('shop.db') > 0)\n", id="sqlite3-file"),
    pytest.param(
        "import random\nfrom unittest import mock\n"
        "with mock.patch('random.randint', return_value=4):\n    print(random.randint(1, 6))\n"
        "random.seed(7)\nprint(random.randint(1, 100))\n", id="mock-patch-random"),
    pytest.param(
        "import os\nopen('f.txt', 'w').write('x')\nos.utime('f.txt', (1_000_000, 2_000_000))\n"
        "st = os.stat('f.txt')\nprint(int(st.st_mtime))\n", id="os-utime"),
    # Our runtime's sum() keeps an int total in 64 bits (wasm32's Py_ssize_t is 32:
    # scripts/cpython_wasi/cpython-0001-*.patch): every edge of both widths sums as native.
    pytest.param(
        "B = 2 ** 31\nL = 2 ** 63\nprint(sum(i * i for i in range(100_000)))\n"
        "print(sum([B - 1, 1]), sum([B, B]), sum([-B, -B, -1]), sum([B - 1] * 5, -B))\n"
        "print(sum([2 ** 62, 2 ** 62]), sum([L - 1, 1]), sum([-L, -1]), sum([L - 1, -1]))\n"
        "print(sum([-L + 1, -1]), sum([2 ** 62] * 4 + [-2 ** 62] * 4), sum([L - 1], -L))\n"
        "print(sum([1, True, 2 ** 40, False]), sum([2 ** 40], 2 ** 40), sum(range(10), 2 ** 70))\n"
        "print(sum([2 ** 70, -2 ** 70, 5]), sum([2 ** 64], -2 ** 64), sum([], L), sum([-L], 0))\n"
        "print(sum([B, 2.5]), sum([L - 1, 0.5]), sum([1, 2 ** 64]), sum([L, -L]))\n"
        "class I(int):\n    pass\nprint(sum([I(2 ** 40), 1]), sum([1, I(L)]), sum(iter([B] * 3)))\n"
        "print([type(sum(x)).__name__ for x in ([L - 1, 1], [B, B], [True, True])])\n",
        id="sum-of-ints-at-32-and-64-bits"),
    # pymalloc is called directly while it is the allocator (cpython-0002-*.patch); tracemalloc
    # replaces it with its hooks, which then see every allocation and free.
    pytest.param(
        "import tracemalloc\ntracemalloc.start()\nbase = tracemalloc.get_traced_memory()[0]\n"
        "keep = [bytearray(1000) for _ in range(200)] + [list(range(50)) for _ in range(200)]\n"
        "grown = tracemalloc.get_traced_memory()[0] - base\n"
        "del keep\nshrunk = tracemalloc.get_traced_memory()[0] - base\n"
        "stats = tracemalloc.take_snapshot().statistics('lineno')\ntracemalloc.stop()\n"
        "print(grown > 200 * 1000 + 200 * 50 * 4, shrunk < grown // 10, len(stats) > 0,\n"
        "      tracemalloc.is_tracing(), tracemalloc.get_traced_memory())\n",
        id="tracemalloc-sees-allocations"),
    # `%` and `//` of two exact ints call int's own slot directly (cpython-0004-*.patch);
    # anything else (bool, subclasses, floats, other types) takes the usual lookup.
    pytest.param(
        "B = 2 ** 31\nL = 2 ** 100\nvalues = [0, 1, -1, 7, -7, 10, B - 1, B, -B, L, -L, L + 3]\n"
        "print([a % b for a in values for b in values if b])\n"
        "print([a // b for a in values for b in values if b])\n"
        "for a, b in ((1, 0), (L, 0), (0, 0)):\n"
        "    for op in ('%', '//'):\n"
        "        try:\n            eval(f'a {op} b')\n"
        "        except ZeroDivisionError as e:\n            print(op, e)\n"
        "class I(int):\n    def __mod__(self, other):\n        return 'mod'\n"
        "    def __rfloordiv__(self, other):\n        return 'rfloordiv'\n"
        "print(I(7) % 2, 7 // I(2), 7 % I(4), True % 2, 7 // True, 7 % 2.5, -7.5 // 2)\n"
        "print('%d items' % 3, type(7 % 3).__name__, type(True % True).__name__)\n"
        "x = 10 ** 6 + 1\nx %= 97\ny = 10 ** 20\ny //= 7\nprint(x, y)\n",
        id="int-remainder-and-floor-division"),
    pytest.param(
        "import hashlib\nprint(hashlib.pbkdf2_hmac('sha256', b'password', b'salt', 1000).hex())\n"
        "print(hashlib.pbkdf2_hmac('sha1', b'pw', b'NaCl', 10, dklen=50).hex())\n",
        id="pbkdf2-hmac"),
    # The user's print writes a call in one piece to the guest's stdout and stderr; every
    # form of it reads as the real one.
    pytest.param(
        "import sys, io, inspect\nprint('a', 1, None, [2.5], sep='|', end='$\\n')\n"
        "print(sep=None, end=None)\nprint('x', 'y', sep=None)\nprint()\n"
        "print('to err', file=sys.stderr, flush=True)\nprint('flushed', flush=True)\n"
        "class Pieces:\n    def __init__(self):\n        self.writes = []\n"
        "    def write(self, text):\n        self.writes.append(text)\n"
        "p = Pieces(); print('a', 'b', file=p); print(p.writes)\n"
        "buf = io.StringIO(); print(1, 2, file=buf); print(repr(buf.getvalue()))\n"
        "for bad in ({'sep': 1}, {'end': b'x'}):\n"
        "    try:\n        print('x', **bad)\n    except TypeError as e:\n        print(e)\n"
        "class Bad:\n    def __str__(self):\n        raise ValueError('no str')\n"
        "try:\n    print('before', Bad(), 'after')\nexcept ValueError as e:\n"
        "    print('|', e)\n"
        "print(print.__name__, print.__module__, inspect.signature(print))\n"
        "sys.stdout = io.StringIO(); print('captured'); s = sys.stdout.getvalue()\n"
        "sys.stdout = sys.__stdout__; print(repr(s))\n", id="print"),
]


@pytest.fixture(scope="module")
def box() -> Iterator[sw.Sandbox]:
    with sw.Sandbox(python_runtime="cpython313") as sandbox:
        yield sandbox


def _native(code: str, cwd: Path) -> str:
    completed = subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True,
                               text=True, timeout=60, env={"PATH": os.environ["PATH"]})
    assert completed.returncode == 0, completed.stderr
    return completed.stdout


@pytest.mark.parametrize("code", CASES)
def test_the_guest_answers_as_native_python(box: sw.Sandbox, code: str, tmp_path: Path) -> None:
    result = box.execute(code)
    assert result.status == "succeeded", (result.error, result.stderr[-500:])
    assert result.stdout == _native(code, tmp_path)


def test_files_written_in_the_working_directory_come_back(box: sw.Sandbox) -> None:
    result = box.execute("import os\nprint(os.getcwd())\nopen('report.txt', 'w').write('ok')\n"
                         "os.makedirs('sub', exist_ok=True)\nopen('sub/n.txt', 'w').write('n')")
    assert result.stdout == "/output\n"
    assert result.files == {"report.txt": b"ok", "sub/n.txt": b"n"}


def test_a_session_keeps_its_working_directory(box: sw.Sandbox) -> None:
    with sw.Session() as session:
        session.execute("import os\nos.makedirs('work')\nos.chdir('work')")
        assert session.execute("print(os.getcwd())").stdout == "/output/work\n"


def test_writes_in_the_working_directory_count_against_the_caps(box: sw.Sandbox) -> None:
    result = box.execute("with open('big.bin', 'wb') as f:\n    f.write(b'x' * 2048)",
                         limits={"max_file_bytes": 1024})
    assert result.status == "failed" and result.error is not None
    assert result.error.type == "OSError" and "File too large" in result.error.message
    assert result.files_dropped and "/output/big.bin" in result.files_dropped[0]


def test_a_print_that_fails_shows_no_frame_of_its_own(box: sw.Sandbox) -> None:
    """The real print is C: a traceback through it shows the caller and the failing
    __str__, never a frame of print itself. So does ours."""
    code = ("class Bad:\n    def __str__(self):\n        raise ValueError('no str')\n"
            "print('x', Bad())\n")
    result = box.execute(code)
    assert result.status == "failed" and result.stdout == "x "
    assert result.stderr.splitlines()[-1] == "ValueError: no str"
    assert "in print" not in result.stderr and "in __str__" in result.stderr
    native = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=60)
    assert native.stdout == "x "
    assert [line for line in result.stderr.splitlines() if line.startswith("  File")] == [
        line.replace(' "<string>"', ' "<sandbox>"') for line in native.stderr.splitlines()
        if line.startswith("  File")]
