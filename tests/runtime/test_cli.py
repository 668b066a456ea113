"""wasm-exec as a user runs it: real subprocesses, exit codes and messages."""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import sandbox_wasm as sw

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


def wasm_exec(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """wasm-exec with `stdin` piped in (None: /dev/null, which is never read)."""
    return subprocess.run(
        [sys.executable, "-m", "sandbox_wasm", *args],
        input=stdin, stdin=subprocess.DEVNULL if stdin is None else None,
        capture_output=True, text=True, timeout=120, cwd=ROOT,
    )


def test_safe_example() -> None:
    done = wasm_exec(str(EXAMPLES / "safe_computation.py"))
    assert done.returncode == 0
    assert done.stdout == "25 primes below 100, summing to 1060\n"
    assert "panic" not in done.stderr


def test_blocked_example_exit_1() -> None:
    done = wasm_exec(str(EXAMPLES / "blocked_injection.py"))
    assert done.returncode == 1 and done.stdout == ""
    assert "blocked" in done.stderr and "__subclasses__" in done.stderr


def test_infinite_loop_example_times_out() -> None:
    done = wasm_exec("--profile", "fast_1s", str(EXAMPLES / "infinite_loop.py"))
    assert done.returncode == 124 and "timeout" in done.stderr


def test_json_output() -> None:
    done = wasm_exec("--json", str(EXAMPLES / "json_result.py"))
    assert done.returncode == 0
    result = json.loads(done.stdout)
    assert result["status"] == "succeeded" and set(result["result_json"]) == {"mean", "stdev"}


def test_code_flag_and_stdin() -> None:
    assert wasm_exec("-c", "print(6 * 7)").stdout == "42\n"
    assert wasm_exec("-", stdin="print('from stdin')").stdout == "from stdin\n"


def test_a_syntax_error_is_reported_as_one_not_as_blocked() -> None:
    done = wasm_exec("--json", "-c", "def broken(:\n    pass")
    assert done.returncode == 1
    result = json.loads(done.stdout)
    assert (result["status"], result["syntax_valid"]) == ("syntax_error", False)
    assert result["audit"]["safety_verdict"] == "safe"
    plain = wasm_exec("-c", "print('unclosed'")
    assert plain.returncode == 1 and "syntax_error: '(' was never closed" in plain.stderr
    assert "blocked" not in plain.stderr


READ_STDIN = "import sys\nprint(repr(sys.stdin.read()))"


def test_piped_stdin_reaches_the_code(tmp_path: Path) -> None:
    script = tmp_path / "echo_stdin.py"
    script.write_text(READ_STDIN)
    assert wasm_exec(str(script), stdin="hi\n").stdout == "'hi\\n'\n"
    assert wasm_exec("-c", READ_STDIN, stdin="é\n").stdout == "'é\\n'\n"
    # A redirected file too; /dev/null (or --no-stdin) gives the code an empty stdin.
    data = tmp_path / "data.txt"
    data.write_text("from a file\n")
    with data.open("rb") as handle:
        done = subprocess.run([sys.executable, "-m", "sandbox_wasm", str(script)],
                              stdin=handle, capture_output=True, text=True, timeout=120)
    assert done.stdout == "'from a file\\n'\n"
    assert wasm_exec(str(script)).stdout == "''\n"
    assert wasm_exec("--no-stdin", str(script), stdin="hi\n").stdout == "''\n"
    # With "-" stdin is the source itself, not the code's input.
    assert wasm_exec("-", stdin=READ_STDIN).stdout == "''\n"


def test_a_terminal_stdin_is_not_read(tmp_path: Path) -> None:
    """A terminal is never read: the run does not wait for input."""
    import pty

    script = tmp_path / "echo_stdin.py"
    script.write_text(READ_STDIN)
    controller, terminal = pty.openpty()
    try:
        done = subprocess.run([sys.executable, "-m", "sandbox_wasm", str(script)],
                              stdin=terminal, capture_output=True, text=True, timeout=60)
    finally:
        os.close(terminal)
        os.close(controller)
    assert (done.returncode, done.stdout) == (0, "''\n")


def test_stdin_past_the_input_cap_fails_the_read(tmp_path: Path) -> None:
    """stdin and the --file files share max_input_bytes (32 MiB): the code gets what fits,
    and a read past it fails (OSError, EIO) instead of holding more."""
    cap = sw.Limits().max_input_bytes
    big = tmp_path / "big.bin"
    big.write_bytes(b"x" * (cap - 10))
    fits = wasm_exec("--file", str(big), "-c", READ_STDIN, stdin="y" * 10)
    assert (fits.returncode, fits.stdout) == (0, "'yyyyyyyyyy'\n")
    over = wasm_exec("--file", str(big), "-c",
                     "import sys\ntry:\n    sys.stdin.buffer.read()\n"
                     "except OSError as e:\n    print('refused', e.errno)", stdin="y" * 11)
    assert (over.returncode, over.stdout) == (0, "refused 29\n")


def test_code_that_does_not_read_stdin_never_waits_for_it() -> None:
    """An open pipe nobody writes to (a parent that inherited one, an MCP server's own
    stdin): the run takes nothing from it and ends; code that reads it waits within its
    deadline."""
    command = [sys.executable, "-m", "sandbox_wasm"]
    with subprocess.Popen([*command, "-c", "print('did not read')"], stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as done:
        assert done.wait(timeout=60) == 0  # its stdin is still open
        assert done.stdout is not None and done.stdout.read() == "did not read\n"
        assert done.stdin is not None
        done.stdin.close()
    with subprocess.Popen([*command, "--timeout-ms", "1500", "-c", READ_STDIN],
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True) as waiting:
        assert waiting.wait(timeout=60) == 124
        assert waiting.stderr is not None and "timeout" in waiting.stderr.read()
        assert waiting.stdin is not None
        waiting.stdin.close()


def test_guest_exit_code_and_stderr_pass_through() -> None:
    done = wasm_exec("-c", "raise ValueError('bad value')")
    assert done.returncode == 1 and "ValueError: bad value" in done.stderr


def test_limit_flags() -> None:
    done = wasm_exec("--json", "--timeout-ms", "1234", "--memory-mb", "64", "-c", "pass")
    limits = json.loads(done.stdout)["limits"]
    assert (limits["timeout_ms"], limits["memory_mb"]) == (1234, 64)


def test_report_only_runs_flagged_code_in_the_sandbox() -> None:
    done = wasm_exec("--report-only", "-c", "import os\nprint(os.listdir('/etc'))")
    assert done.returncode == 1 and "FileNotFoundError" in done.stderr


def test_report_only_lists_its_findings_without_json() -> None:
    done = wasm_exec("--policy", "report", "-c", "import gc\nprint('ran')")
    assert done.stdout == "ran\n"
    assert "audit (report-only): " in done.stderr and "the code ran" in done.stderr
    assert "import gc" in done.stderr


@pytest.mark.parametrize("flag", ["--version", "-V"])
def test_version(flag: str) -> None:
    done = wasm_exec(flag)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"wasm-exec (sandbox-wasm) {sw.__version__}, wasmtime ")


def test_help_names_the_runtime_subcommand_and_the_repl_its_quit() -> None:
    assert "'wasm-exec runtime install'" in wasm_exec("--help").stdout
    repl_help = wasm_exec("repl", "--help").stdout
    assert "%quit" in repl_help and "%%quit" not in repl_help


@pytest.mark.parametrize("subcommand", ["serve", "mcp"])
def test_server_subcommands_without_the_server_extra(tmp_path: Path, subcommand: str) -> None:
    for package in ("fastapi", "mcp", "uvicorn"):  # as if the extra were not installed
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text(
            f"raise ModuleNotFoundError('No module named {package}', name='{package}')\n")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "sandbox_wasm", subcommand, *args],
                              capture_output=True, text=True, timeout=60, cwd=ROOT, env=env,
                              stdin=subprocess.DEVNULL)

    helped = cli("--help")
    assert helped.returncode == 0, helped.stderr
    assert "usage: wasm-exec " + subcommand in helped.stdout
    started = cli()
    assert started.returncode == 2, started.stderr
    assert "pip install 'sandbox-wasm[server]'" in started.stderr
    assert "Traceback" not in started.stderr


def test_an_oversized_file_is_reported_by_its_size(tmp_path: Path) -> None:
    script = tmp_path / "big.py"
    script.write_text("x = 1\n" * 20_000)
    done = wasm_exec(str(script))
    assert done.returncode == 2
    assert "source is 120000 bytes, over the limit of 32768 bytes" in done.stderr


def test_audit_subcommand(tmp_path: Path) -> None:
    script = tmp_path / "s.py"
    script.write_text("import gc\nprint(1)\n")
    done = wasm_exec("audit", str(script))
    assert done.returncode == 1 and "'gc'" in done.stdout and "blocked" in done.stdout
    script.write_text("print(1)\n")
    assert wasm_exec("audit", str(script)).returncode == 0
    report = json.loads(wasm_exec("audit", "--json", str(script)).stdout)
    assert report["safety_verdict"] == "safe"


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        pytest.param(["missing.py"], "no such file", id="missing-file"),
        pytest.param(["examples"], "is a directory", id="directory"),
        pytest.param(["print('hi')"], "no such file (to run code given on the command line, "
                     "use -c CODE)", id="code-as-script"),
        pytest.param(["print(1)\n" * 100], "cannot read (File name too long) (to run code",
                     id="long-code-as-script"),
        pytest.param(["--bogus", "x.py"], "unrecognized arguments", id="bad-flag"),
        pytest.param(["--timeout-ms", "abc", "x.py"], "invalid int value", id="bad-int"),
        pytest.param(["--timeout-ms", "0", "-c", "pass"], "timeout_ms", id="out-of-range"),
        pytest.param(["--profile", "slow", "-c", "pass"], "invalid choice", id="bad-profile"),
        pytest.param([], "no script given", id="nothing"),
        pytest.param(["-c", "pass", "x.py"], "not both", id="both"),
        pytest.param(["-c", "print(1)\x00"[:-1] + "\\x00", "--max-source-bytes", "3"],
                     "over the limit", id="too-large"),
    ],
)
def test_usage_errors_exit_2_with_one_line(args: list[str], fragment: str) -> None:
    done = wasm_exec(*args)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and fragment in lines[0], done.stderr
    assert "Traceback" not in done.stderr


def test_unreadable_and_invalid_files(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_bytes(b"print('\xff')")
    done = wasm_exec(str(bad))
    assert done.returncode == 2 and "UTF-8" in done.stderr
    nul = tmp_path / "nul.py"
    nul.write_bytes(b"print(1)\x00")
    done = wasm_exec(str(nul))
    assert done.returncode == 2 and "null byte" in done.stderr


def test_missing_runtime_exit_70(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "sandbox_wasm", "-c", "print(1)"],
        capture_output=True, text=True, timeout=60,
        env={"SANDBOX_WASM_RUNTIME_DIR": str(tmp_path), "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 70 and "`wasm-exec runtime install`" in done.stderr
    assert "Traceback" not in done.stderr


def test_tampered_runtime_exit_70_without_a_warning(tmp_path: Path) -> None:
    from sandbox_wasm._runtimes.artifacts import runtime_dir

    shutil.copytree(runtime_dir() / "cpython313", tmp_path / "cpython313")
    snapshot = tmp_path / "cpython313" / "python-snapshot.wasm"
    data = bytearray(snapshot.read_bytes())
    data[-100] ^= 1
    snapshot.write_bytes(bytes(data))
    env = {"SANDBOX_WASM_RUNTIME_DIR": str(tmp_path), "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-W", "always", "-m", "sandbox_wasm", "-c",
                           "print(1)"], capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == 70, done.stderr
    assert "tampered or corrupt runtime" in done.stderr
    assert "`wasm-exec runtime install`" in done.stderr
    assert "Warning" not in done.stderr and "Traceback" not in done.stderr
    assert done.stdout == ""  # nothing else ran


def test_serve_refuses_to_start_without_its_runtime(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "sandbox_wasm", "serve", "--port", "0"], capture_output=True,
        text=True, timeout=60, env={"SANDBOX_WASM_RUNTIME_DIR": str(tmp_path),
                                    "PATH": "/usr/bin:/bin"})
    assert done.returncode == 70, done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith("wasm-exec serve: runtime error:") and "cpython313" in line
    assert "`wasm-exec runtime install`" in line


def test_python_dash_m_sandbox_wasm_is_the_cli() -> None:
    done = subprocess.run([sys.executable, "-m", "sandbox_wasm", "-c", "print(6 * 7)"],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert (done.returncode, done.stdout) == (0, "42\n"), done.stderr
    helped = subprocess.run([sys.executable, "-m", "sandbox_wasm", "--help"],
                            capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert helped.returncode == 0 and "wasm-exec" in helped.stdout


# -- input and output files ----------------------------------------------------------------
REPORT = """\
import json, pathlib
rows = open('/input/data.csv').read().splitlines()
settings = json.loads(open('/input/cfg/settings.json').read())
pathlib.Path('/output/sub').mkdir()
pathlib.Path('/output/report.txt').write_text(f"{len(rows)} rows, {settings['unit']}\\n")
pathlib.Path('/output/sub/raw.bin').write_bytes(bytes(range(4)))
"""


def _inputs(tmp_path: Path) -> tuple[Path, Path]:
    data = tmp_path / "data.csv"
    data.write_text("a,b\n1,2\n3,4\n")
    settings = tmp_path / "local-settings.json"
    settings.write_text('{"unit": "kg"}')
    return data, settings


def test_file_flags_and_output_dir(tmp_path: Path) -> None:
    data, settings = _inputs(tmp_path)
    out = tmp_path / "out" / "deeper"  # created, parents too
    done = wasm_exec("--file", str(data), "--file", f"{settings}=cfg/settings.json",
                     "--output-dir", str(out), "-c", REPORT)
    assert done.returncode == 0, done.stderr
    assert (out / "report.txt").read_text() == "3 rows, kg\n"
    assert (out / "sub" / "raw.bin").read_bytes() == bytes(range(4))
    assert sorted(done.stderr.splitlines()) == [
        f"wasm-exec: wrote {out / 'report.txt'} (11 bytes)",
        f"wasm-exec: wrote {out / 'sub' / 'raw.bin'} (4 bytes)",
    ]


def test_output_files_are_listed_without_output_dir(tmp_path: Path) -> None:
    data, settings = _inputs(tmp_path)
    done = wasm_exec("--file", str(data), "--file", f"{settings}=cfg/settings.json",
                     "-c", REPORT)
    assert done.returncode == 0, done.stderr
    assert sorted(done.stderr.splitlines()) == [
        "wasm-exec: output file report.txt (11 bytes; not saved: use --output-dir DIR)",
        "wasm-exec: output file sub/raw.bin (4 bytes; not saved: use --output-dir DIR)",
    ]
    assert set(tmp_path.iterdir()) == {data, settings}


def test_json_holds_the_output_files(tmp_path: Path) -> None:
    data, settings = _inputs(tmp_path)
    done = wasm_exec("--json", "--file", str(data), "--file", f"{settings}=cfg/settings.json",
                     "-c", REPORT)
    assert done.returncode == 0 and done.stderr == ""
    files = json.loads(done.stdout)["files"]
    assert {name: base64.b64decode(text, validate=True) for name, text in files.items()} == {
        "report.txt": b"3 rows, kg\n", "sub/raw.bin": bytes(range(4))}


def test_refused_writes_are_reported(tmp_path: Path) -> None:
    done = wasm_exec("--output-dir", str(tmp_path), "-c",
                     "try:\n    open('/output/big', 'wb').write(b'x' * (9 << 20))\n"
                     "except OSError as exc:\n    print(exc.strerror)")
    assert done.returncode == 0
    assert "File too large" in done.stdout
    assert "wasm-exec: write refused: " in done.stderr and "big" in done.stderr


@pytest.mark.parametrize(
    ("flag", "fragment"),
    [
        pytest.param("missing.csv", "--file missing.csv: no such file", id="missing-path"),
        pytest.param("missing.csv=data.csv", "--file missing.csv: no such file",
                     id="missing-path-with-name"),
        pytest.param("examples", "--file examples: is a directory", id="directory"),
        pytest.param("=data.csv", "give the path of a file", id="no-path"),
        pytest.param("README.md=../x", "must be relative", id="dot-dot-name"),
        pytest.param("README.md=/etc/x", "must be relative", id="absolute-name"),
        pytest.param("README.md=", "must be relative", id="empty-name"),
    ],
)
def test_bad_file_flags_exit_2_with_one_line(flag: str, fragment: str) -> None:
    done = wasm_exec("--file", flag, "-c", "print(1)")
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and fragment in lines[0], done.stderr
    assert done.stdout == ""


def test_a_name_given_twice_is_a_usage_error(tmp_path: Path) -> None:
    data, _ = _inputs(tmp_path)
    done = wasm_exec("--file", str(data), "--file", f"{data}=data.csv", "-c", "1")
    assert done.returncode == 2 and "'data.csv' is given twice" in done.stderr


def test_output_dir_never_writes_through_links(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "victim.txt").write_text("keep")
    (outside / "hard-victim.txt").write_text("keep")
    out = tmp_path / "out"
    out.mkdir()
    (out / "link").symlink_to(outside, target_is_directory=True)
    (out / "report.txt").symlink_to(outside / "victim.txt")
    os.link(outside / "hard-victim.txt", out / "hard.txt")
    code = ("import pathlib\n"
            "pathlib.Path('/output/link').mkdir()\n"
            "pathlib.Path('/output/link/evil.txt').write_text('evil')\n"
            "pathlib.Path('/output/report.txt').write_text('new')\n"
            "pathlib.Path('/output/hard.txt').write_text('new')\n")
    done = wasm_exec("--output-dir", str(out), "-c", code)
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in outside.iterdir()) == ["hard-victim.txt", "victim.txt"]
    assert (outside / "victim.txt").read_text() == "keep"
    assert (outside / "hard-victim.txt").read_text() == "keep"
    # The links inside DIR were replaced by the files, not written through.
    assert not (out / "report.txt").is_symlink() and (out / "report.txt").read_text() == "new"
    assert (out / "hard.txt").read_text() == "new"
    assert (out / "link").is_symlink()
    assert "skipped output file 'link/evil.txt'" in done.stderr
    assert not [p for p in out.iterdir() if p.name.startswith(".wasm-exec-")]


@pytest.mark.parametrize(
    "name",
    [
        pytest.param("../escape.txt", id="dot-dot"),
        pytest.param("a/../../escape.txt", id="dot-dot-inside"),
        pytest.param("/tmp/escape.txt", id="absolute"),
        pytest.param("./a", id="dot"),
        pytest.param("a//b", id="empty-part"),
        pytest.param("a\x00b", id="nul"),
        pytest.param("..\\escape.txt", id="backslash"),
        pytest.param("", id="empty"),
    ],
)
def test_hostile_output_names_are_skipped(
    tmp_path: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from sandbox_wasm.cli._common import save_output_files

    out = tmp_path / "out"
    skipped = save_output_files({name: b"x", "fine.txt": b"ok"}, str(out), "wasm-exec")
    assert skipped == 1
    assert [p.name for p in tmp_path.iterdir()] == ["out"]
    assert sorted(p.name for p in out.iterdir()) == ["fine.txt"]
    assert f"skipped output file {name!r}" in capsys.readouterr().err


def test_ctrl_c_interrupts_the_run_with_exit_130() -> None:
    """SIGINT (Ctrl-C) during a run ends it at once, status interrupted, not at its
    20 s deadline."""
    import signal
    import time

    child = subprocess.Popen(
        [sys.executable, "-m", "sandbox_wasm", "-c", "while True: pass",
         "--timeout-ms", "20000"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
    )
    try:
        time.sleep(1)
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        _, stderr = child.communicate(timeout=60)
        assert time.monotonic() - sent < 10
    finally:
        child.kill()
    assert child.returncode == 130, stderr
    assert "interrupted" in stderr and "panic" not in stderr
