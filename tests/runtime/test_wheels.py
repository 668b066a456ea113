"""The install story of a machine without a compiler: the package and runtime wheels built
from this clone, installed into a fresh virtualenv outside it by a user who is not root,
with no compiler on PATH and no network, then running code, a session and a file round trip
with no install step. Also: a read-only runtime directory an admin shared, used by that user.

When the tests run as root, the user is `nobody` (setpriv drops every privilege) in a
network namespace of its own (unshare --net: no route anywhere); as another user, that user
(and pip's --no-index keeps it offline). The dependencies come from the wheel cache
scripts/setup.sh fills (~/.cache/sandbox-wasm/wheels, $SANDBOX_WASM_WHEEL_CACHE). Nothing
is mocked.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from sandbox_wasm._runtimes.wheel import read_inventory, wheel_filename

#: Builds the wheels and a fresh virtualenv (~20 s each, the install ~75 s).
pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
NOBODY = 65534
COMPILERS = ("cc", "gcc", "clang", "clang-19", "c++", "g++", "ld", "wasm-ld")
#: What the package needs at run time, as wheels (scripts/setup.sh downloads them).
NEEDED = ("wasmtime", "pydantic", "pydantic_core", "tqdm", "platformdirs", "setuptools")


def wheel_cache() -> Path:
    configured = os.environ.get("SANDBOX_WASM_WHEEL_CACHE")
    return Path(configured) if configured else Path.home() / ".cache" / "sandbox-wasm" / "wheels"


def as_user(cmd: list[str | Path]) -> list[str]:
    """`cmd` as an unprivileged user without a network: as root, `nobody` in a network
    namespace of its own; otherwise the current user."""
    argv = [str(c) for c in cmd]
    if os.geteuid() != 0:
        return argv
    unshare, setpriv = shutil.which("unshare"), shutil.which("setpriv")
    assert unshare and setpriv, "util-linux's unshare and setpriv are needed to drop root"
    return [unshare, "--net", setpriv, f"--reuid={NOBODY}", f"--regid={NOBODY}",
            "--clear-groups", "--inh-caps=-all", "--", *argv]


def user_python(scratch: Path) -> str:
    """An interpreter of this interpreter's version (the cached wheels are built for it) that
    the unprivileged user can make a virtualenv with: the system's first, else this one."""
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    for index, candidate in enumerate((f"/usr/bin/python{version}", "/usr/bin/python3",
                                       shutil.which("python3") or "",
                                       str(Path(sys.executable).resolve()))):
        if not candidate or not Path(candidate).is_file():
            continue
        probe = scratch / f"probe-{index}"
        done = subprocess.run(
            as_user([candidate, "-c", "import sys, venv; venv.create(sys.argv[1]); "
                     "print('%d.%d' % sys.version_info[:2])", probe]),
            capture_output=True, text=True, check=False, cwd="/", env={"PATH": "/usr/bin:/bin"})
        if done.returncode == 0 and done.stdout.strip() == version:
            return candidate
    pytest.fail(f"no Python {version} with venv that an unprivileged user can run "
                "(apt-get install python3-venv)")


@pytest.fixture(scope="module")
def world() -> Iterator[Path]:
    """A directory every user can read, with `user/` owned by the unprivileged user."""
    base = Path(tempfile.mkdtemp(prefix="sandbox-wasm-wheels-"))
    base.chmod(0o755)
    (base / "user").mkdir()
    if os.geteuid() == 0:
        os.chown(base / "user", NOBODY, NOBODY)
    try:
        yield base
    finally:
        shutil.rmtree(base, ignore_errors=True)


@pytest.fixture(scope="module")
def dist(world: Path) -> Path:
    """The package wheel and the runtime wheel built from this clone (offline: setuptools
    from the wheel cache), and the cached dependency wheels, in a world-readable directory."""
    cache = wheel_cache()
    have = {path.name.split("-")[0].lower() for path in cache.glob("*.whl")}
    missing = [name for name in NEEDED if name not in have]
    assert not missing, (f"{cache} lacks wheels of {missing}: run scripts/setup.sh (it "
                         "downloads them once)")
    out = world / "dist"
    done = subprocess.run(
        [sys.executable, REPO / "scripts" / "build_wheels.py", "--out", out, "--find-links",
         cache], capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    for wheel in cache.glob("*.whl"):
        shutil.copyfile(wheel, out / wheel.name)
    for path in out.iterdir():
        path.chmod(0o644)
    return out


def test_runtime_wheel_is_reproducible_and_carries_its_inventory(dist: Path,
                                                                 tmp_path: Path) -> None:
    wheel = dist / wheel_filename("sandbox-wasm-runtime")
    again = subprocess.run(
        [sys.executable, REPO / "scripts" / "build_wheels.py", "--no-package", "--out",
         tmp_path], capture_output=True, text=True, timeout=600, check=False)
    assert again.returncode == 0, again.stderr
    assert (tmp_path / wheel.name).read_bytes() == wheel.read_bytes()  # byte for byte
    inventory = read_inventory(wheel)
    assert set(inventory["files"]) == {  # type: ignore[arg-type]
        "cpython313/manifest.json", "cpython313/python-snapshot.wasm",
        "cpython313/image-base/manifest.json", "cpython313/image-base/python-sandbox.wasm",
        "cpython313/image-base/stdlib.blob", "cpython313/image-base/stdlib_finder.py",
        "quickjs.wasm"}
    import zipfile

    with zipfile.ZipFile(wheel) as archive:
        infos = archive.infolist()
        names = [info.filename for info in infos]
        assert names[-1].endswith(".dist-info/RECORD")
        assert {info.date_time for info in infos} == {(1980, 1, 1, 0, 0, 0)}
        assert {info.external_attr >> 16 for info in infos} == {0o100644}
        assert b"Tag: py3-none-any" in archive.read(
            next(n for n in names if n.endswith(".dist-info/WHEEL")))


def _user_env(world: Path, **extra: str) -> dict[str, str]:
    """A user who never ran sandbox-wasm: their own home, PATH with the virtualenv only (no
    compiler), none of our variables, no pip configuration from this machine."""
    venv_bin = world / "user" / "venv" / "bin"
    env = {"HOME": str(world / "user" / "home"), "PATH": str(venv_bin), "LANG": "C.UTF-8",
           "PIP_DISABLE_PIP_VERSION_CHECK": "1", "PIP_NO_INPUT": "1"}
    env.update(extra)
    return env


def _run(cmd: list[str | Path], env: dict[str, str], cwd: Path,
         timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(as_user(cmd), env=env, cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, check=False)


def _ok(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 0, f"exit {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done.stdout


SESSION_AND_FILES = r"""
import sandbox_wasm as sw
with sw.Session() as session:
    session.execute("import csv, io\nrows = list(csv.reader(open('/input/data.csv')))",
                    files={"data.csv": "a,1\nb,2\n"})
    result = session.execute(
        "open('/output/total.txt', 'w').write(str(sum(int(v) for _, v in rows)))")
    assert result.status == "succeeded", result.error
    print(result.files["total.txt"].decode(), result.session.call)
reversed_ = sw.execute("print(open('/input/x.bin', 'rb').read()[::-1])", files={"x.bin": b"abc"})
print(reversed_.stdout, end="")
"""


@pytest.fixture(scope="module")
def venv(world: Path, dist: Path) -> Path:
    """A fresh virtualenv of the unprivileged user, outside the clone, with the runtime wheel
    (and so the package and its dependencies) installed offline from `dist`."""
    python = user_python(world / "user")
    user = world / "user"
    env = _user_env(world)
    (user / "home").mkdir(exist_ok=True)
    if os.geteuid() == 0:
        os.chown(user / "home", NOBODY, NOBODY)
    for tool in COMPILERS:
        assert shutil.which(tool, path=env["PATH"]) is None, tool
    _ok(_run([python, "-m", "venv", user / "venv"], env, user))
    pip = [user / "venv" / "bin" / "python", "-m", "pip", "install", "--quiet", "--no-index",
           "--find-links", dist]
    _ok(_run([*pip, "sandbox-wasm-runtime"], env, user, timeout=600))
    return user / "venv"


def test_a_user_installs_the_wheels_offline_and_runs_code(world: Path, venv: Path) -> None:
    user = world / "user"
    env = _user_env(world)
    wasm_exec = venv / "bin" / "wasm-exec"
    ran = _run([wasm_exec, "-c", "print(6 * 7)"], env, user)  # no install step
    assert (ran.returncode, ran.stdout) == (0, "42\n"), ran.stderr
    assert "panic" not in ran.stderr and "Warning" not in ran.stderr
    where = _ok(_run([wasm_exec, "runtime", "path"], env, user)).strip()
    assert where.startswith(str(venv)) and where.endswith("sandbox_wasm_runtimes")
    _ok(_run([wasm_exec, "runtime", "verify"], env, user))
    imported = _ok(_run([venv / "bin" / "python", "-c",
                         "import sandbox_wasm; print(sandbox_wasm.__file__)"], env, user))
    assert imported.startswith(str(venv)), imported  # not the clone

    done = _ok(_run([venv / "bin" / "python", "-c", SESSION_AND_FILES], env, user))
    assert done == "3 2\nb'cba'\n"
    js = _run([wasm_exec, "--language", "javascript", "-c", "console.log(6 * 7)"], env, user)
    assert (js.returncode, js.stdout) == (0, "42\n"), js.stderr
    # `runtime install` takes an installed runtime wheel first: no build, no network.
    copied = user / "copied-runtime"
    installed = _ok(_run([wasm_exec, "runtime", "install", "--dir", copied], env, user))
    assert "taking the runtimes of the installed runtime wheel" in installed, installed
    assert "cpython-wasi" not in installed  # the build recipe never ran
    _ok(_run([wasm_exec, "runtime", "verify", "--dir", copied], env, user))


def test_a_read_only_shared_runtime_directory_serves_every_user(world: Path, dist: Path,
                                                               venv: Path) -> None:
    """An admin installs the runtimes into a shared directory; a user who cannot write to
    it points SANDBOX_WASM_RUNTIME_DIR at it (which wins over their installed wheel)."""
    shared = world / "shared"
    admin = subprocess.run(
        [sys.executable, "-m", "sandbox_wasm", "runtime", "install", "--dir", shared, "--from",
         dist / wheel_filename("sandbox-wasm-runtime")],
        capture_output=True, text=True, timeout=300, check=False,
        env={k: v for k, v in os.environ.items() if k != "SANDBOX_WASM_RUNTIME_DIR"})
    assert admin.returncode == 0, admin.stdout + admin.stderr
    for path in [shared, *shared.rglob("*")]:  # read-only for everyone, the admin included
        path.chmod(0o555 if path.is_dir() else 0o444)
    user = world / "user"
    env = _user_env(world, SANDBOX_WASM_RUNTIME_DIR=str(shared))
    code = ("import sandbox_wasm as sw\n"
            "print(sw.execute('print(6 * 7)').runtime.name)\n"
            "with sw.Session() as s:\n"
            "    s.execute('x = 41')\n"
            "    print(s.execute('print(x + 1)').stdout, end='')\n")
    done = _run([venv / "bin" / "python", "-c", code], env, user)
    assert (done.returncode, done.stdout) == (0, "cpython313-wasi-snapshot\n42\n"), done.stderr
    where = _ok(_run([venv / "bin" / "wasm-exec", "runtime", "path"], env, user)).strip()
    assert where == str(shared)
    status = _run([venv / "bin" / "wasm-exec", "runtime", "status", "--json"], env, user)
    assert status.returncode == 0, status.stdout + status.stderr
    states = {row["name"]: row["state"] for row in json.loads(status.stdout)}
    assert {name: states[name] for name in ("cpython313", "cpython313/image-base",
                                            "quickjs")} == dict.fromkeys(
        ("cpython313", "cpython313/image-base", "quickjs"), "ok")
    _ok(_run([venv / "bin" / "wasm-exec", "runtime", "verify"], env, user))
