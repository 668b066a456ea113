"""The WebAssembly boundary alone (audit in report-only mode) keeps the host out of reach."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import sandbox_wasm as sw

CANARY_ENV = "SANDBOX_WASM_CANARY_SECRET"
CANARY_VALUE = "canary-7f3a9c-do-not-leak"


@pytest.fixture
def canary_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(CANARY_ENV, CANARY_VALUE)
    path = tmp_path / "canary.txt"
    path.write_text(CANARY_VALUE)
    return path


def _no_leak(result: sw.ExecutionResult) -> None:
    assert CANARY_VALUE not in result.stdout and CANARY_VALUE not in result.stderr


def test_cannot_read_host_files(open_sandbox: sw.Sandbox, canary_file: Path) -> None:
    for target in ("/etc/passwd", str(canary_file), "/proc/self/environ"):
        result = open_sandbox.execute(f"print(open({target!r}).read())")
        assert result.status == "failed" and result.error is not None
        assert result.error.type in ("FileNotFoundError", "PermissionError", "OSError")
        assert "root:" not in result.stdout
        _no_leak(result)


def test_cannot_write_host_files(open_sandbox: sw.Sandbox, tmp_path: Path) -> None:
    target = tmp_path / "written.txt"
    result = open_sandbox.execute(f"open({str(target)!r}, 'w').write('pwned')")
    assert result.status == "failed"
    assert not target.exists()


def test_cannot_list_host_directories(open_sandbox: sw.Sandbox) -> None:
    result = open_sandbox.execute("import os\nprint(os.listdir('/'))")
    # The guest's root is the in-memory tree: its own three directories, no host entry.
    assert (result.status, result.stdout) == ("succeeded", "['input', 'output', 'tmp']\n")


def test_environment_is_empty(open_sandbox: sw.Sandbox, canary_file: Path) -> None:
    result = open_sandbox.execute("import os\nprint(dict(os.environ))")
    assert (result.status, result.stdout) == ("succeeded", "{}\n")
    assert os.environ[CANARY_ENV] == CANARY_VALUE  # the host's own environment is untouched
    assert canary_file.read_text() == CANARY_VALUE


def test_sockets_are_unavailable(open_sandbox: sw.Sandbox) -> None:
    code = (
        "import socket\n"
        "s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)\n"
        "s.connect(('127.0.0.1', 22))\n"
    )
    result = open_sandbox.execute(code)
    assert result.status == "failed" and result.error is not None
    assert result.error.type in ("OSError", "AttributeError", "ModuleNotFoundError")


def test_dns_is_unavailable(open_sandbox: sw.Sandbox) -> None:
    result = open_sandbox.execute("import socket\nprint(socket.gethostbyname('localhost'))")
    assert result.status == "failed"
