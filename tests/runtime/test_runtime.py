"""Runtime location, verification (no fallback: a missing or altered runtime is an error
naming the command that fixes it) and the compile cache."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import sandbox_wasm as sw
from sandbox_wasm._host import engine as _engine
from sandbox_wasm._runtimes import artifacts as _artifacts
from sandbox_wasm._runtimes.artifacts import QUICKJS_WASM_NAME, QUICKJS_WASM_SHA256, runtime_dir


@pytest.fixture(scope="module")
def pinned_runtime() -> Path:
    """The pinned QuickJS file: a small module, so the compile-cache tests compile fast."""
    path = runtime_dir() / QUICKJS_WASM_NAME
    assert path.is_file(), "run scripts/setup.sh first"
    return path


def test_pinned_runtime_verifies(pinned_runtime: Path) -> None:
    assert _artifacts.file_sha256(pinned_runtime) == QUICKJS_WASM_SHA256
    assert _artifacts.javascript_runtime_file(pinned_runtime.parent).sha256 == QUICKJS_WASM_SHA256


def test_missing_runtime_is_a_clear_error(tmp_path: Path) -> None:
    box = sw.Sandbox(runtime_directory=tmp_path)
    with pytest.raises(sw.RuntimeNotFoundError,
                       match=r"'cpython313' is not installed in .*`wasm-exec runtime install "
                       r"--dir .*`") as error:
        box.execute("print(1)")
    assert str(tmp_path) in str(error.value)
    missing = tmp_path / "nowhere"
    with pytest.raises(sw.RuntimeNotFoundError, match="does not exist"):
        sw.Sandbox(runtime_directory=missing).warm_up()


def test_tampered_runtime_is_refused(tmp_path: Path, pinned_runtime: Path) -> None:
    tampered = tmp_path / QUICKJS_WASM_NAME
    shutil.copyfile(pinned_runtime, tampered)
    with tampered.open("r+b") as handle:
        handle.seek(1_000_000)
        byte = handle.read(1)
        handle.seek(1_000_000)
        handle.write(bytes([byte[0] ^ 0xFF]))
    box = sw.Sandbox(runtime_directory=tmp_path)
    with pytest.raises(sw.RuntimeIntegrityError, match=r"SHA-256.*`wasm-exec runtime install"):
        box.execute("console.log(1)", language="javascript")


def test_truncated_runtime_is_refused(tmp_path: Path, pinned_runtime: Path) -> None:
    (tmp_path / QUICKJS_WASM_NAME).write_bytes(pinned_runtime.read_bytes()[:1000])
    with pytest.raises(sw.RuntimeIntegrityError):
        sw.Sandbox(runtime_directory=tmp_path).warm_up("javascript")


def test_runtime_dir_override(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("SANDBOX_WASM_RUNTIME_DIR", str(tmp_path))
    assert runtime_dir() == tmp_path


def test_compile_cache_written_atomically_and_reused(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, pinned_runtime: Path
) -> None:
    monkeypatch.setenv("SANDBOX_WASM_CACHE_DIR", str(tmp_path))
    host = _engine.EngineHost()
    try:
        _, compiled = host.module(pinned_runtime, QUICKJS_WASM_SHA256)
        entries = sorted(tmp_path.iterdir())
        # The compiled module, and its facts (the C stack pointer of the verified bytes).
        assert compiled and [entry.suffix for entry in entries] == [".cwasm", ".json"]
        assert not any(p.name.endswith(".tmp") for p in tmp_path.iterdir())
        other = _engine.EngineHost()
        try:
            _, compiled_again = other.module(pinned_runtime, QUICKJS_WASM_SHA256)
            assert not compiled_again  # loaded from the on-disk cache
        finally:
            other.close()
    finally:
        host.close()


def test_corrupt_cache_entry_is_replaced(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, pinned_runtime: Path
) -> None:
    monkeypatch.setenv("SANDBOX_WASM_CACHE_DIR", str(tmp_path))
    host = _engine.EngineHost()
    try:
        cache_file = host._cache_path(QUICKJS_WASM_SHA256)
        cache_file.parent.mkdir(parents=True, exist_ok=True)
        cache_file.write_bytes(b"not a module")
        module, compiled = host.module(pinned_runtime, QUICKJS_WASM_SHA256)
        assert compiled and module is not None
        assert cache_file.stat().st_size > 1_000_000
    finally:
        host.close()


def test_the_compile_cache_keeps_only_the_most_recently_used_modules(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, pinned_runtime: Path
) -> None:
    monkeypatch.setenv("SANDBOX_WASM_CACHE_DIR", str(tmp_path))
    old = []
    for index in range(_engine.MAX_CACHED_MODULES + 3):
        entry = tmp_path / f"module-old{index:02d}.cwasm"
        entry.write_bytes(b"x")
        os.utime(entry, (1_000_000 + index, 1_000_000 + index))
        old.append(entry)
    unrelated = tmp_path / "notes.txt"
    unrelated.write_text("kept")
    host = _engine.EngineHost()
    try:
        _, compiled = host.module(pinned_runtime, QUICKJS_WASM_SHA256)
    finally:
        host.close()
    assert compiled
    kept = sorted(p.name for p in tmp_path.glob("module-*.cwasm"))
    assert len(kept) == _engine.MAX_CACHED_MODULES
    assert host._cache_path(QUICKJS_WASM_SHA256).name in kept  # the one just written
    assert not old[0].exists() and old[-1].exists()  # the least recently used went first
    assert unrelated.read_text() == "kept"


def test_cache_key_depends_on_flags_and_runtime(monkeypatch: pytest.MonkeyPatch) -> None:
    plain = _engine.EngineHost()
    no_fuel = _engine.EngineHost(_engine.EngineFlags(consume_fuel=False))
    try:
        assert plain._cache_path("a" * 64) != no_fuel._cache_path("a" * 64)
        assert plain._cache_path("a" * 64) != plain._cache_path("b" * 64)
    finally:
        plain.close()
        no_fuel.close()


def test_the_engine_s_flags_are_chosen_before_its_first_use() -> None:
    _engine.engine_host()  # this process's, made by the tests before
    with pytest.raises(RuntimeError, match="engine exists already"):
        _engine.use_engine_flags(_engine.EngineFlags(consume_fuel=False))


def test_a_measurement_engine_without_fuel_runs_the_audit_and_the_code() -> None:
    # benchmarks/cpu.py --engines: the same runs, fuel's own cost left out. A new process,
    # since the engine is the process's; the module is compiled for it once (then cached).
    code = (
        "from sandbox_wasm._host import engine\n"
        "engine.use_engine_flags(engine.EngineFlags(consume_fuel=False))\n"
        "import json, sandbox_wasm as sw\n"
        "box = sw.Sandbox(limits={'timeout_ms': 30_000})\n"
        "results = [box.execute('print(sum(range(10**5)))'),\n"
        "           box.execute('import gc'),\n"
        "           box.execute('while True: pass', limits={'timeout_ms': 300})]\n"
        "print(json.dumps([(r.status, r.stdout, r.metrics.fuel_consumed) for r in results]))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    # Audited and run; refused by the audit; the deadline (epochs) still ends a loop.
    assert json.loads(done.stdout) == [["succeeded", "4999950000\n", 0], ["blocked", "", 0],
                                       ["timeout", "", 0]]


def test_write_atomically_leaves_no_temp_on_failure(tmp_path: Path) -> None:
    target = tmp_path / "sub" / "x.bin"
    _artifacts.write_atomically(target, b"data")
    assert target.read_bytes() == b"data"
    assert os.listdir(target.parent) == ["x.bin"]


def test_the_default_is_our_own_runtime() -> None:
    own = _artifacts.python_runtime_file()
    assert (own.name, own.version, own.kind) == ("cpython313-wasi-snapshot", "3.13.15", "snapshot")
    assert own.path == runtime_dir() / "cpython313" / "python-snapshot.wasm"
    assert _artifacts.python_runtime_file(variant="cpython313") == own


@pytest.mark.parametrize("name", ["auto", "snapshot", "plain", "bigstack"])
def test_the_retired_runtimes_are_unknown_names(name: str,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(sw.InvalidRequestError, match=r"unknown runtime") as error:
        sw.Sandbox(runtime=name)
    assert error.value.field == "runtime"
    monkeypatch.setenv("SANDBOX_WASM_PYTHON_RUNTIME", name)
    with pytest.raises(sw.InvalidRequestError, match="unknown runtime"):
        _artifacts.python_runtime_file()


def test_result_names_the_runtime_that_ran() -> None:
    own = sw.Sandbox(python_runtime="cpython313").execute("import sys; print(sys.version)")
    assert own.runtime.version == "3.13.15" and own.stdout.startswith("3.13.15 ")
    assert own.runtime.name == "cpython313-wasi-snapshot"


def test_results_name_the_installed_wasmtime() -> None:
    # Read from its .dist-info directory's name (not importlib.metadata, slow at start-up):
    # the same answer.
    from importlib import metadata

    _artifacts.wasmtime_version.cache_clear()
    assert _artifacts.wasmtime_version() == metadata.version("wasmtime")
    assert sw.execute("pass").runtime.wasmtime == metadata.version("wasmtime")


def _copy_runtime_dir(tmp_path: Path, *copied: str) -> Path:
    """A runtime directory of symlinks to the real one, with `copied` files real copies
    (so a test can edit them)."""
    for entry in runtime_dir().iterdir():
        (tmp_path / entry.name).symlink_to(entry)
    for name in copied:
        target = tmp_path / name
        if target.parent.is_symlink():
            target.parent.unlink()
            target.parent.mkdir()
            for entry in (runtime_dir() / target.parent.name).iterdir():
                (target.parent / entry.name).symlink_to(entry)
        target.unlink()
        shutil.copyfile(runtime_dir() / name, target)
    return tmp_path


def _flip_a_byte(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[-100] ^= 0x01
    path.write_bytes(bytes(data))


def test_tampered_snapshot_is_refused_and_nothing_else_runs(tmp_path: Path) -> None:
    directory = _copy_runtime_dir(tmp_path, "cpython313/python-snapshot.wasm")
    _flip_a_byte(directory / "cpython313" / "python-snapshot.wasm")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a clean error, never a warning and another runtime
        with pytest.raises(sw.RuntimeIntegrityError, match=r"SHA-256.*tampered") as error:
            sw.Sandbox(runtime_directory=directory).execute("print(1)")
    assert f"`wasm-exec runtime install --dir {directory}`" in str(error.value)


def test_stale_snapshot_is_refused(tmp_path: Path) -> None:
    directory = _copy_runtime_dir(tmp_path, "cpython313/manifest.json")
    path = directory / "cpython313" / "manifest.json"
    data = json.loads(path.read_text())
    data["guest_boot_sha256"] = "0" * 64
    path.write_text(json.dumps(data))
    with pytest.raises(sw.RuntimeIntegrityError, match=r"bootstrap.*`wasm-exec runtime install"):
        _artifacts.python_runtime_file(directory)


def test_memory_cap_below_what_the_audit_needs(python_runtime: str) -> None:
    box = sw.Sandbox(python_runtime=python_runtime, limits=sw.Limits(max_source_bytes=1 << 20))
    result = box.execute("x = 1\n" * 20_000, memory_mb=32)
    assert (result.status, result.exit_code) == ("memory_exceeded", 137)
    assert result.error is not None and "32 MiB" in result.error.message
    assert result.stdout == ""


def test_smallest_memory_cap_runs_code(python_runtime: str) -> None:
    result = sw.Sandbox(python_runtime=python_runtime).execute("print('small')", memory_mb=32)
    assert (result.status, result.stdout) == ("succeeded", "small\n")
    with pytest.raises(sw.InvalidRequestError, match="memory_mb"):
        sw.Sandbox(python_runtime=python_runtime).execute("print(1)", memory_mb=16)


@pytest.mark.parametrize("size", [0, 16_300, 16_384, 32_768 + 7, 70_000, 300_000, 1_000_000])
def test_requests_of_every_size_reach_the_guest_whole(python_runtime: str, size: int) -> None:
    # The bootstrap reads its request in doubling chunks (16 KiB first): sizes around the
    # chunk boundaries must arrive byte for byte.
    box = sw.Sandbox(python_runtime=python_runtime, limits=sw.Limits(max_source_bytes=1 << 20))
    filler = "x = '" + "a" * max(size - 40, 0) + "'\n"
    result = box.execute(filler + "print(len(x))\n")
    assert result.status == "succeeded", result.error
    assert result.stdout == f"{max(size - 40, 0)}\n"


def test_a_trivial_run_does_not_grow_the_guests_memory() -> None:
    """A run pays for each page it touches: `print('hi')` must fit in the snapshot's memory
    (the bootstrap once read its request into a 4 MiB buffer, growing every run by 4 MiB)."""
    from sandbox_wasm._guest.bootstrap import MODE_EXEC
    from sandbox_wasm._request import audit_budget
    from sandbox_wasm._wire import policy_line

    box = sw.Sandbox(python_runtime="cpython313")
    payload = b"\n".join((MODE_EXEC, policy_line(box.policy), b"print('hi')"))
    outcome = box._program("python").run(payload, sw.Limits(), audit_budget=audit_budget(256))
    assert outcome.exit_code == 0 and outcome.stdout_text == "hi\n"
    assert outcome.peak_memory_bytes == outcome.initial_memory_bytes


def test_start_up_objects_are_immortal_on_our_runtime() -> None:
    code = (
        "import sys, json\n"
        "print(sys.getrefcount(json) == sys.getrefcount(json.dumps) > 10**9)\n"
        "fresh = object()\n"
        "print(sys.getrefcount(fresh))\n"
    )
    result = sw.Sandbox(python_runtime="cpython313", policy="report").execute(code)
    assert (result.status, result.stdout) == ("succeeded", "True\n2\n"), result.error


def test_the_path_of_every_run_is_specialised_in_the_snapshot(python_runtime: str) -> None:
    # The snapshot served requests at init (`_warm_up_serving`): the adaptive instructions
    # of the functions each run executes once are specialised already. Unspecialised, every
    # run would execute their generic forms and rewrite their code objects' pages. Looked
    # at from the user's code, before this run reaches them (a run that executes them
    # specialises them itself).
    code = (
        "import dis, opcode, sys\n"
        "specialised = {name for names in opcode._specializations.values() for name in names}\n"
        "bootstrap = sys._getframe(1).f_globals\n"
        "for name in ('_compile_known', '_flush', '_disarm', '_come_to_rest'):\n"
        "    ops = dis.get_instructions(bootstrap[name], adaptive=True)\n"
        "    print(name, sum(op.opname in specialised for op in ops) > 0)\n"
    )
    result = sw.Sandbox(python_runtime=python_runtime, policy="report").execute(code)
    assert result.status == "succeeded", result.error
    assert result.stdout.split() == [
        "_compile_known", "True", "_flush", "True", "_disarm", "True", "_come_to_rest", "True"]
