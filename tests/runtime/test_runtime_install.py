"""`wasm-exec runtime install|status|verify|path|pack`, and a pip user's first run that
builds: the wheel built from this checkout, installed in a fresh virtualenv outside it, with
no runtime wheel, builds its runtime into the user data directory and runs code from a
directory outside the clone.

Nothing is mocked. The fresh install reuses the real build cache of our CPython
(~/.cache/sandbox-wasm/cpython-wasi, which scripts/setup.sh fills before the tests), so no
test rebuilds it; pip takes the dependencies from the wheel cache scripts/setup.sh fills
(tests/runtime/test_wheels.py installs the prebuilt runtime wheel instead, as a user without root).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from sandbox_wasm._runtimes.artifacts import runtime_dir
from sandbox_wasm._runtimes.install import build_cache
from sandbox_wasm._runtimes.wheel import RUNTIME_WHEELS, pack_wheel
from sandbox_wasm.cli import main

REPO = Path(__file__).resolve().parents[2]
RECIPE = ["build.sh", "build.py", "sandbox_entry.c", "sandbox_audit.c", "ast_children.py",
          "stdlib_finder.py", "make_stdlib_blob.py",
          "install.py", "data_stack.py", "plot_stack.py", "sci_stack.py",
          "data/wasi-include/mutex",
          *sorted(p.name for p in (REPO / "scripts" / "cpython_wasi").glob("cpython-*.patch"))]


def _run(cmd: list[str | Path], *, env: dict[str, str], cwd: Path,
         timeout: float = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(c) for c in cmd], env=env, cwd=cwd, capture_output=True,
                          text=True, timeout=timeout, check=False)


def _checked(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 0, f"exit {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done.stdout


def _wheel_cache() -> Path:
    configured = os.environ.get("SANDBOX_WASM_WHEEL_CACHE")
    return Path(configured) if configured else Path.home() / ".cache" / "sandbox-wasm" / "wheels"


def _tracked_copy(dest: Path) -> Path:
    """The checkout's tracked and unignored files: the wheel is built from what a clone has,
    and the build writes its build/ and egg-info there, not into the clone."""
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=REPO,
                            capture_output=True, check=True).stdout.decode().split("\0")
    for name in filter(None, listed):
        source = REPO / name
        if source.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / name)
    return dest


def _user_env(home: Path) -> dict[str, str]:
    """A user who has never run sandbox-wasm: their own home and data directory, nothing of
    ours configured but the build cache (so the cold ~7 minute build is not repeated)."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("SANDBOX_WASM_", "PYTHON", "VIRTUAL_ENV", "XDG_", "PIP_"))}
    env.update(HOME=str(home), XDG_DATA_HOME=str(home / "data"),
               SANDBOX_WASM_BUILD_CACHE=str(build_cache()))
    return env


@pytest.mark.slow  # ~115 s
def test_wheel_in_a_fresh_venv_installs_its_runtimes_and_runs(tmp_path: Path) -> None:
    source = _tracked_copy(tmp_path / "src")
    pip_env = {k: v for k, v in os.environ.items()
               if not k.startswith(("PYTHON", "VIRTUAL_ENV", "PIP_"))}
    offline = ["--no-index", "--find-links", _wheel_cache()]
    _checked(_run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", *offline,
                   "--disable-pip-version-check", "-w", tmp_path / "dist", source],
                  env=pip_env, cwd=tmp_path))
    (wheel,) = (tmp_path / "dist").glob("sandbox_wasm-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        for name in RECIPE:  # byte for byte: the recipe hash, so the build cache, is the same
            shipped = archive.read(f"sandbox_wasm/_recipe/{name}")
            assert shipped == (REPO / "scripts" / "cpython_wasi" / name).read_bytes(), name
        assert not [n for n in archive.namelist() if n.startswith(("runtime/", "scripts/"))]

    venv = tmp_path / "venv"
    _checked(_run([sys.executable, "-m", "venv", venv], env=pip_env, cwd=tmp_path))
    _checked(_run([venv / "bin" / "python", "-m", "pip", "install", "--quiet", *offline,
                   "--disable-pip-version-check", wheel], env=pip_env, cwd=tmp_path))
    wasm_exec = venv / "bin" / "wasm-exec"
    home = tmp_path / "home"
    elsewhere = tmp_path / "elsewhere"
    for directory in (home, elsewhere):
        directory.mkdir()
    env = _user_env(home)
    data_dir = home / "data" / "sandbox-wasm" / "runtime"

    before = _run([wasm_exec, "-c", "print(1)"], env=env, cwd=elsewhere)
    assert before.returncode == 70 and "`wasm-exec runtime install`" in before.stderr
    assert "sandbox-wasm-runtime" in before.stderr  # the prebuilt way, for a machine without
    assert "Traceback" not in before.stderr and "Warning" not in before.stderr
    assert _checked(_run([wasm_exec, "runtime", "path"], env=env, cwd=elsewhere)).strip() \
        == str(data_dir)

    installed = _checked(_run([wasm_exec, "runtime", "install"], env=env, cwd=elsewhere))
    snapshot = data_dir / "cpython313" / "python-snapshot.wasm"
    assert snapshot.is_file(), installed
    # The same recipe builds the same runtime: a file missing from the wheel's recipe (a
    # CPython patch, say) would build another one, silently.
    assert hashlib.sha256(snapshot.read_bytes()).hexdigest() == hashlib.sha256(
        (runtime_dir() / "cpython313" / "python-snapshot.wasm").read_bytes()).hexdigest()
    ran = _run([wasm_exec, "-c", "print(6*7)"], env=env, cwd=elsewhere)
    assert (ran.returncode, ran.stdout) == (0, "42\n"), ran.stderr

    rows = dict(line.split(None, 1) for line in _checked(
        _run([wasm_exec, "runtime", "status"], env=env, cwd=elsewhere)).splitlines())
    for name in ("cpython313", "cpython313/image-base", "quickjs"):
        assert rows[name].startswith("ok"), rows
    _checked(_run([wasm_exec, "runtime", "verify"], env=env, cwd=elsewhere))
    again = _checked(_run([wasm_exec, "runtime", "install"], env=env, cwd=elsewhere))
    assert "already holds this snapshot" in again


def _small_runtime_dir(tmp_path: Path) -> Path:
    """A copy of the installed runtimes, to alter."""
    directory = tmp_path / "runtime"
    shutil.copytree(runtime_dir() / "cpython313", directory / "cpython313")
    shutil.copyfile(runtime_dir() / "quickjs.wasm", directory / "quickjs.wasm")
    return directory


def _flip(path: Path, at: int = 100) -> None:
    with path.open("r+b") as handle:
        handle.seek(at)
        byte = handle.read(1)
        handle.seek(at)
        handle.write(bytes([byte[0] ^ 1]))


#: The default runtimes' rows of `runtime status` (other variants are optional).
DEFAULT_ROWS = ("cpython313", "cpython313/image-base", "quickjs")


def _rows(capsys: pytest.CaptureFixture[str]) -> dict[str, str]:
    rows = {line.split()[0]: line.split()[1] for line in capsys.readouterr().out.splitlines()
            if line and not line.startswith("runtime:")}
    return {name: state for name, state in rows.items() if name in DEFAULT_ROWS}


def test_verify_exits_1_on_a_tampered_runtime(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    directory = _small_runtime_dir(tmp_path)
    assert main(["runtime", "verify", "--dir", str(directory)]) == 0
    _flip(directory / "quickjs.wasm")
    capsys.readouterr()
    assert main(["runtime", "verify", "--dir", str(directory)]) == 1
    assert _rows(capsys)["quickjs"] == "invalid"


def test_status_exits_1_when_the_default_runtime_is_unusable(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["runtime", "status", "--dir", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "missing" in out and f"`wasm-exec runtime install --dir {tmp_path}`" in out
    assert main(["runtime", "verify", "--dir", str(tmp_path)]) == 1
    directory = _small_runtime_dir(tmp_path)
    _flip(directory / "cpython313" / "python-snapshot.wasm", 5_000_000)
    capsys.readouterr()
    assert main(["runtime", "status", "--dir", str(directory)]) == 1
    assert _rows(capsys)["cpython313"] == "invalid"


def test_install_from_a_wheel_or_a_directory_needs_no_build(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    wheel = pack_wheel(runtime_dir(), tmp_path / "dist", RUNTIME_WHEELS["sandbox-wasm-runtime"])
    target = tmp_path / "from-wheel"
    assert main(["runtime", "install", "--no-build", "--dir", str(target), "--from",
                 str(wheel)]) == 0
    assert _rows(capsys) == dict.fromkeys(DEFAULT_ROWS, "ok")
    assert (target / "cpython313" / "python-snapshot.wasm").stat().st_mode & 0o777 == 0o644
    again = tmp_path / "from-dir"
    again.mkdir()
    (again / "python.wasm").write_bytes(b"a retired runtime")
    assert main(["runtime", "install", "--no-build", "--dir", str(again), "--from",
                 str(target)]) == 0
    assert not (again / "python.wasm").exists()
    assert _rows(capsys) == dict.fromkeys(DEFAULT_ROWS, "ok")
    assert not [p for p in again.rglob("*") if p.name.startswith(".")]  # no temporary left


def test_install_refuses_a_wheel_whose_file_was_altered(tmp_path: Path) -> None:
    wheel = pack_wheel(runtime_dir(), tmp_path / "dist", RUNTIME_WHEELS["sandbox-wasm-runtime"])
    altered = tmp_path / "altered.whl"
    with zipfile.ZipFile(wheel) as src, zipfile.ZipFile(altered, "w") as dst:
        for info in src.infolist():
            data = src.read(info)
            if info.filename.endswith("quickjs.wasm"):
                data = data[:-1] + bytes([data[-1] ^ 1])
            dst.writestr(info, data)
    target = tmp_path / "target"
    done = subprocess.run(
        [sys.executable, "-m", "sandbox_wasm", "runtime", "install", "--no-build", "--dir",
         str(target), "--from", str(altered)], capture_output=True, text=True, timeout=120,
        check=False)
    assert done.returncode == 70, done.stdout + done.stderr
    assert "quickjs.wasm does not match its inventory" in done.stderr
    assert "Traceback" not in done.stderr
    assert not (target / "quickjs.wasm").exists()


def test_a_runtime_wheel_holds_what_status_checks(tmp_path: Path) -> None:
    wheel = pack_wheel(runtime_dir(), tmp_path, RUNTIME_WHEELS["sandbox-wasm-runtime"])
    with zipfile.ZipFile(wheel) as archive:
        inventory = json.loads(archive.read("sandbox_wasm_runtimes/sandbox-wasm-runtime.json"))
        record = archive.read(f"{wheel.name.split('-py3')[0]}.dist-info/RECORD").decode()
    assert inventory["variants"]["cpython313"]["python_version"] == "3.13.15"
    for name in inventory["files"]:
        assert f"sandbox_wasm_runtimes/{name}," in record


def test_path_honours_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("SANDBOX_WASM_RUNTIME_DIR", str(tmp_path))
    assert main(["runtime", "path"]) == 0
    assert capsys.readouterr().out.strip() == str(tmp_path)
