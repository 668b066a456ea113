"""Wheels for the image tests: the real tabulate wheel from PyPI, pinned by version and
SHA-256 and cached outside the clone, and wheels crafted here (pure, native, broken,
hostile)."""

from __future__ import annotations

import base64
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

import pytest

from sandbox_wasm._runtimes.artifacts import cache_dir

TABULATE_VERSION = "0.9.0"
TABULATE_WHEEL = f"tabulate-{TABULATE_VERSION}-py3-none-any.whl"
TABULATE_SHA256 = "024ca478df22e9340661486f85298cff5f6dcdba14f3813e8830015b9ed1948f"
#: What `tabulate([["a", 1], ["bb", 22]], headers=["name", "n"], tablefmt="github")` prints.
TABULATE_TABLE = "| name   |   n |\n|--------|-----|\n| a      |   1 |\n| bb     |  22 |"


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def tabulate_wheel() -> Path:
    """The pinned tabulate wheel: from ~/.cache/sandbox-wasm/wheels, else downloaded with pip
    (PyPI). Skips the test when PyPI cannot be reached; a download with another SHA-256
    fails it."""
    target = cache_dir() / "wheels" / TABULATE_WHEEL
    if target.is_file() and _sha256(target) == TABULATE_SHA256:
        return target
    with tempfile.TemporaryDirectory() as tmp:
        try:
            proc = subprocess.run(
                [sys.executable, "-m", "pip", "download", f"tabulate=={TABULATE_VERSION}",
                 "--no-deps", "--only-binary=:all:", "--disable-pip-version-check", "-q",
                 "-d", tmp],
                capture_output=True, timeout=180, check=False)
        except subprocess.TimeoutExpired:
            pytest.skip("PyPI is unreachable (pip download timed out): the tabulate wheel "
                        "cannot be fetched")
        downloaded = Path(tmp) / TABULATE_WHEEL
        if proc.returncode != 0 or not downloaded.is_file():
            pytest.skip("PyPI is unreachable: pip download tabulate failed: "
                        + proc.stderr.decode("utf-8", "replace").strip()[-300:])
        actual = _sha256(downloaded)
        assert actual == TABULATE_SHA256, f"PyPI served {TABULATE_WHEEL} with SHA-256 {actual}"
        target.parent.mkdir(parents=True, exist_ok=True)
        staged = target.with_name(f".{target.name}.{os.getpid()}")
        shutil.copyfile(downloaded, staged)
        os.replace(staged, target)
    return target


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def make_wheel(
    directory: Path,
    files: dict[str, bytes | str],
    *,
    name: str = "demo",
    version: str = "1.0",
    tag: str = "py3-none-any",
    purelib: str = "true",
    record: bool = True,
    record_override: dict[str, str] | None = None,
    unlisted: dict[str, bytes] | None = None,
    filename: str | None = None,
) -> Path:
    """A wheel holding `files` (name -> content) with a .dist-info (WHEEL, METADATA and,
    with `record`, a RECORD of every file's hash; `record_override` replaces lines,
    `unlisted` adds members RECORD does not list)."""
    dist_info = f"{name}-{version}.dist-info"
    members = {k: v.encode() if isinstance(v, str) else v for k, v in files.items()}
    members[f"{dist_info}/METADATA"] = (
        f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n").encode()
    members[f"{dist_info}/WHEEL"] = (
        f"Wheel-Version: 1.0\nGenerator: tests\nRoot-Is-Purelib: {purelib}\nTag: {tag}\n"
    ).encode()
    if record:
        lines = {m: _record_line(m, data) for m, data in members.items()}
        lines.update(record_override or {})
        lines[f"{dist_info}/RECORD"] = f"{dist_info}/RECORD,,"
        members[f"{dist_info}/RECORD"] = ("\n".join(lines.values()) + "\n").encode()
    members.update(unlisted or {})
    path = directory / (filename or f"{name}-{version}-{tag}.whl")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for member, data in members.items():
            archive.writestr(member, data)
    return path
