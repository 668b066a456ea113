"""What the Python runtime is given: no preopened host directory (file descriptor 3 is the
root of the in-memory tree the host serves, `sandbox_wasm/_fs/tree.py`, and nothing else
exists), no environment, no argv beyond `-c`, and a module that exports only its memory and
the run entry. Run in the report-only sandbox, so the WebAssembly boundary alone is tested."""

from __future__ import annotations

import json

import pytest
import wasmtime

import sandbox_wasm as sw
from sandbox_wasm._runtimes import artifacts as _artifacts

PROBE = """\
import errno, json, os, sys
open_fds = []
for fd in range(3, 1024):
    try:
        os.fstat(fd)
        open_fds.append(fd)
    except OSError as exc:
        if exc.errno != errno.EBADF:
            open_fds.append((fd, exc.errno))
listed = []
for path in ("/", ".", "/usr", "/usr/local/lib", "/tmp", "/root", "/proc", "/init"):
    try:
        listed.append((path, os.listdir(path)))
    except OSError:
        pass
print(json.dumps({"open_fds": open_fds, "listed": listed, "environ": dict(os.environ),
                  "argv": sys.argv, "path": sys.path, "cwd_ok": os.path.exists(os.getcwd())}))
"""


def test_no_preopened_directory_no_environment(open_sandbox: sw.Sandbox) -> None:
    result = open_sandbox.execute(PROBE)
    assert result.status == "succeeded", (result.error, result.stderr)
    seen = json.loads(result.stdout)
    assert seen["environ"] == {}
    assert seen["argv"] == ["-c"]  # what `python -c` gives a script
    # fd 3 is the in-memory tree's root: "/" lists its three directories, "." (the cwd: its
    # own empty /output) and /tmp list nothing; no host path lists.
    assert seen["open_fds"] == [3]
    tree = ["input", "output", "tmp"]
    assert seen["listed"] == [["/", tree], [".", []], ["/tmp", []]]
    assert seen["cwd_ok"] is True
    # The stdlib is served from memory: there is no path to import from.
    assert seen["path"] == []


def test_the_stdlib_imports_without_any_directory(open_sandbox: sw.Sandbox) -> None:
    code = (
        "import json, re, decimal, statistics, datetime, zlib, xml.etree.ElementTree as ET\n"
        "print(json.dumps(sorted({json.__name__, re.__name__, decimal.__name__})))\n"
        "print(zlib.decompress(zlib.compress(b'x' * 100)) == b'x' * 100)\n"
    )
    result = open_sandbox.execute(code)
    assert result.status == "succeeded", (result.error, result.stderr)
    assert result.stdout == '["decimal", "json", "re"]\nTrue\n'


@pytest.mark.slow  # ~20-28 s
def test_our_runtime_exports_only_memory_and_its_entry() -> None:
    runtime = _artifacts.python_runtime_file(variant="cpython313")
    module = wasmtime.Module(wasmtime.Engine(), runtime.path.read_bytes())
    exports = {export.name: export.type for export in module.exports}
    assert sorted(exports) == ["memory", "sandbox_answer", "sandbox_request", "sandbox_resume"]
    # The request and answer areas' exports are their addresses: constants, nothing the host
    # can call.
    for name in ("sandbox_request", "sandbox_answer"):
        area = exports[name]
        assert isinstance(area, wasmtime.GlobalType)
        assert str(area.content) == "i32" and not area.mutable
    # It asks the host for WASI preview 1 functions only; none of them gives it a directory
    # unless the host preopens one, and the host never does.
    assert {imp.module for imp in module.imports} == {"wasi_snapshot_preview1"}


@pytest.fixture(scope="module")
def our_open_sandbox() -> sw.Sandbox:
    return sw.Sandbox(policy=sw.REPORT_ONLY_POLICY, python_runtime=_artifacts.OWN_PYTHON_VARIANT)


@pytest.mark.parametrize("fd", [4, 5, 100])
def test_guessing_a_preopen_descriptor_finds_nothing(our_open_sandbox: sw.Sandbox, fd: int) -> None:
    code = (
        "import os\n"
        f"for call in (lambda: os.listdir({fd}), lambda: os.open('x', os.O_RDONLY, dir_fd={fd}),\n"
        f"             lambda: os.stat('.', dir_fd={fd})):\n"
        "    try:\n"
        "        call()\n"
        "        print('reached')\n"
        "    except (OSError, NotImplementedError, TypeError) as exc:\n"
        "        print(type(exc).__name__)\n"
    )
    result = our_open_sandbox.execute(code)
    assert result.status == "succeeded", (result.error, result.stderr)
    assert "reached" not in result.stdout and len(result.stdout.splitlines()) == 3


def test_descriptor_3_is_the_in_memory_tree(our_open_sandbox: sw.Sandbox) -> None:
    code = (
        "import os\n"
        "print(sorted(os.listdir('/')), os.stat('.', dir_fd=3).st_ino > 0)\n"
        "for name in ('etc/passwd', 'proc/self/environ', '../etc', 'input/../../etc'):\n"
        "    try:\n"
        "        os.open(name, os.O_RDONLY, dir_fd=3)\n"
        "        print('reached', name)\n"
        "    except OSError as exc:\n"
        "        print(exc.errno)\n"
    )
    result = our_open_sandbox.execute(code)
    assert result.status == "succeeded", (result.error, result.stderr)
    assert result.stdout.splitlines() == ["['input', 'output', 'tmp'] True", "44", "44", "76",
                                          "76"]
