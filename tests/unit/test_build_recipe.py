"""The runtime build recipe (scripts/cpython_wasi/build.py): per-stage cache keys, and the
toolchain stage run by a user without root, from the Debian packages alone."""

from __future__ import annotations

import dataclasses
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

RECIPE = Path(__file__).resolve().parents[2] / "scripts" / "cpython_wasi"
sys.path.insert(0, str(RECIPE))
import build  # noqa: E402  (the recipe is a directory of scripts, not a package)


def test_stage_keys_are_stable_and_distinct() -> None:
    first, second = build.Ctx(), build.Ctx()
    keys = {name: first.key(name) for name in build.STAGE_TABLE}
    assert keys == {name: second.key(name) for name in build.STAGE_TABLE}
    assert len(set(keys.values())) == len(keys)
    assert all(len(key) == 64 for key in keys.values())
    assert first.recipe == second.recipe and len(first.recipe) == 64


def test_a_bootstrap_change_rebuilds_only_the_snapshot(tmp_path: Path) -> None:
    """The guest bootstrap is read by the snapshot stage alone: another bootstrap changes
    that stage's key and no other (the compiler, CPython and the link are reused)."""
    other_guest = tmp_path / "guest.py"
    other_guest.write_bytes(build.GUEST_FILE.read_bytes() + b"\n# another bootstrap\n")
    table = dict(build.STAGE_TABLE)
    snapshot = table["snapshot"]
    table["snapshot"] = dataclasses.replace(
        snapshot, files=tuple(str(other_guest) if f == str(build.GUEST_FILE) else f
                              for f in snapshot.files))
    before, after = build.Ctx(), build.Ctx(stages=table)
    changed = {name for name in table if before.key(name) != after.key(name)}
    assert changed == {"snapshot"}


def test_an_entry_change_rebuilds_the_link_and_what_follows() -> None:
    table = dict(build.STAGE_TABLE)
    table["link"] = dataclasses.replace(table["link"], settings=lambda: "another link")
    before, after = build.Ctx(), build.Ctx(stages=table)
    changed = {name for name in table if before.key(name) != after.key(name)}
    assert changed == {"link", "snapshot"}


def test_the_order_puts_prerequisites_first() -> None:
    order = build.order(build.Ctx(), "snapshot")
    assert order.index("toolchain") < order.index("sdk") < order.index("cross")
    assert order.index("cross") < order.index("link") < order.index("snapshot")
    assert order[-1] == "snapshot"


def _as_unprivileged(command: list[str]) -> list[str]:
    """`command` as the user nobody when this runs as root; as is otherwise."""
    if os.geteuid() != 0:
        return command
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.fail("running as root without setpriv: cannot test the build as a user")
    return [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", *command]


@pytest.fixture
def user_dir() -> Iterator[Path]:
    """A directory the unprivileged user can reach (pytest's own tmp_path is root's 0700)."""
    path = Path(tempfile.mkdtemp(prefix="sandbox-wasm-recipe-"))
    path.chmod(0o777)
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.mark.slow  # ~16-36 s
def test_the_toolchain_stage_needs_no_root(user_dir: Path) -> None:
    """A user without root builds the compiler stage and the SDK (whose smoke test compiles
    and links a C program for wasm32) from the pinned Debian packages, unpacked into its own
    cache; nothing is installed on the machine."""
    cache = build.Ctx().downloads
    needed = [build.toolchain_deb_path(build.Ctx(), name) for name in build.TOOLCHAIN_DEBS]
    needed.append(build.Ctx().input_path("wasi-libc"))
    missing = [path.name for path in needed if not path.is_file()]
    assert not missing, f"scripts/setup.sh fetches these into {cache}: {missing}"
    user_cache = user_dir / "cache"
    downloads = user_cache / "downloads"
    downloads.mkdir(parents=True)
    for key in build.INPUTS:  # the fetch step checks every input: give it the pinned files
        shutil.copyfile(build.Ctx().input_path(key), downloads / build.INPUTS[key]["file"])
    for path in needed:
        shutil.copyfile(path, downloads / path.name)
    for path in (user_cache, downloads, *downloads.iterdir()):
        path.chmod(0o777 if path.is_dir() else 0o644)
    # The recipe as the user can read it (a clone in root's 0700 temp directory is not):
    # scripts/cpython_wasi/ and the guest files its keys name, in the same layout.
    repo = user_dir / "repo"
    shutil.copytree(RECIPE, repo / "scripts" / "cpython_wasi")
    (repo / "sandbox_wasm" / "_guest").mkdir(parents=True)
    for name in ("bootstrap.py", "package_finder.py"):
        shutil.copyfile(RECIPE.parent.parent / "sandbox_wasm" / "_guest" / name,
                        repo / "sandbox_wasm" / "_guest" / name)
    for path in (repo, *repo.rglob("*")):
        path.chmod(0o755 if path.is_dir() else 0o644)
    python = shutil.which("python3", path="/usr/bin:/bin") or sys.executable
    env = {"PATH": "/usr/bin:/bin", "HOME": str(user_dir), "LANG": "C.UTF-8",
           "SANDBOX_WASM_BUILD_CACHE": str(user_cache)}
    done = subprocess.run(
        _as_unprivileged([python, str(repo / "scripts" / "cpython_wasi" / "build.py"),
                          "--stage", "sdk"]),
        env=env, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "toolchain: Debian clang version 19.1.7" in done.stdout
    assert "sdk: finished" in done.stdout
    stages = sorted(p.name.rsplit("-", 1)[0] for p in (user_cache / "stages").iterdir())
    assert stages == ["sdk", "toolchain"]
    if os.geteuid() == 0:
        owners = {p.stat().st_uid for p in (user_cache / "stages").rglob("*")}
        assert owners == {65534}, "the build ran as root"
