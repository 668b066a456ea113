"""`wasm-exec repl` as a user runs it: the real command with input piped in (no terminal:
the same REPL semantics without prompts), and once on a pseudo-terminal for the prompts,
Ctrl-C and the history file."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def repl(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sandbox_wasm", "repl", *args],
        input=stdin, capture_output=True, text=True, timeout=120, cwd=ROOT,
    )


@pytest.mark.parametrize(
    ("lines", "stdout"),
    [
        pytest.param("x = 40\nx += 2\nprint(x)", "42\n", id="state-persists"),
        pytest.param("1 + 1", "2\n", id="expression-shows-repr"),
        pytest.param("'text'", "'text'\n", id="repr-not-str"),
        pytest.param("None\nprint('hi')\nx = 3", "hi\n", id="none-and-statements-quiet"),
        pytest.param("7\n_ * 6", "7\n42\n", id="underscore-is-last-value"),
        pytest.param("8\nNone\n_", "8\n8\n", id="none-keeps-underscore"),
        pytest.param("(1 +\n 2)", "3\n", id="multi-line-expression"),
        pytest.param("1  # one", "1\n", id="trailing-comment"),
        pytest.param("1\n'_wasm_exec_value' in dir()", "1\nFalse\n", id="no-name-left-behind"),
        pytest.param("def double(a):\n    return a * 2\n\ndouble(21)", "42\n",
                     id="def-blank-line-call"),
        pytest.param("def double(a):\n    return a * 2\ndouble(21)", "42\n",
                     id="def-then-call-without-blank-line"),
        pytest.param("if False:\n    print(1)\nelse:\n    print(2)\nprint(3)", "2\n3\n",
                     id="else-goes-on-with-the-block"),
        pytest.param("x = (1,\n\n2)\nx", "(1, 2)\n", id="blank-line-inside-brackets"),
        pytest.param("def first[T](items: list[T]) -> T:\n    return items[0]\nfirst([3, 4])",
                     "3\n", id="block-in-syntax-newer-than-the-hosts"),
        pytest.param("for i in range(3):\n    print(i)", "0\n1\n2\n", id="eof-ends-block"),
        pytest.param("1/0\nprint('next')", "next\n", id="error-then-next-input"),
    ],
)
def test_inputs(lines: str, stdout: str) -> None:
    done = repl(stdin=lines + "\n")
    assert (done.returncode, done.stdout) == (0, stdout), done.stderr


def test_charts_go_to_the_output_dir(tmp_path: Path) -> None:
    out = tmp_path / "charts"
    # A new process's first data-runtime input pages the runtime in: the long profile (see
    # test_server_mcp's chart test).
    done = repl("--runtime", "python-data", "--profile", "extended_30s",
                "--output-dir", str(out), stdin=(
        "import matplotlib.pyplot as plt\n"
        "plt.plot([1, 2, 3])\n"
        "plt.bar(['a'], [1]); plt.show()\n"
        "x = 1\n"))
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in out.iterdir()) == ["figure-1.png", "figure-2.png"]
    assert (out / "figure-1.png").read_bytes().startswith(b"\x89PNG")
    assert done.stderr.count(f"wasm-exec repl: wrote {out}/figure-") == 2
    assert done.stdout.startswith("[<matplotlib.lines.Line2D object at ")  # the value


def test_output_files_are_listed_without_an_output_dir() -> None:
    done = repl(stdin="open('a.txt', 'w').write('hi')\nx = 1\n")
    assert (done.returncode, done.stdout) == (0, "2\n")
    assert "output file a.txt (2 bytes; not saved: use --output-dir DIR)" in done.stderr


def test_errors_are_reported_and_the_session_goes_on() -> None:
    done = repl(stdin="import gc\n1/0\nraise SystemExit(3)\nprint('still here')\n")
    assert done.returncode == 0 and done.stdout == "still here\n"
    assert "blocked" in done.stderr and "import gc" in done.stderr
    assert "ZeroDivisionError: division by zero" in done.stderr
    assert "exited with status 3" in done.stderr


def test_timeout_rolls_back_and_earlier_state_stays() -> None:
    done = repl("--timeout-ms", "300", stdin="x = 1\nwhile True:\n    x += 1\n\nx\n")
    assert done.returncode == 0 and done.stdout == "1\n"
    assert "timeout: execution exceeded the 300 ms deadline" in done.stderr
    assert "rolled back" in done.stderr


def test_on_trap_close_leaves_with_the_calls_status(tmp_path: Path) -> None:
    saved = tmp_path / "s.snap"
    done = repl("--timeout-ms", "300", "--on-trap", "close", "--save", str(saved),
                stdin="y = 1\nwhile True: pass\nprint('unreached')\n")
    assert done.returncode == 124 and done.stdout == ""
    assert "timeout" in done.stderr and "closed" in done.stderr
    assert "not saved" in done.stderr and not saved.exists()


def test_save_then_load_restores_state(tmp_path: Path) -> None:
    saved, at_exit = tmp_path / "mid.snap", tmp_path / "end.snap"
    done = repl("--save", str(at_exit),
                stdin=f"data = {{'k': [1, 2]}}\n%save {saved}\nlater = 5\n")
    assert done.returncode == 0, done.stderr
    assert f"saved the session to {saved}" in done.stderr and at_exit.exists()
    assert repl("--load", str(saved), stdin="data\n").stdout == "{'k': [1, 2]}\n"
    done = repl("--load", str(saved), stdin="later\n")
    assert "NameError" in done.stderr
    assert repl("--load", str(at_exit), stdin="data['k'], later\n").stdout == "([1, 2], 5)\n"
    done = repl(stdin=f"%load {at_exit}\nlater\n")
    assert done.stdout == "5\n", done.stderr


def test_load_keeps_the_snapshots_limits_unless_flags_say_otherwise(tmp_path: Path) -> None:
    saved = tmp_path / "s.snap"
    assert repl("--timeout-ms", "300", "--save", str(saved), stdin="n = 1\n").returncode == 0
    loop = "while True: pass\n\nn\n"
    kept = repl("--load", str(saved), stdin=loop)
    assert "300 ms deadline" in kept.stderr and kept.stdout == "1\n"
    overridden = repl("--load", str(saved), "--timeout-ms", "400", stdin=loop)
    assert "400 ms deadline" in overridden.stderr and overridden.stdout == "1\n"


def test_signed_snapshots_need_their_key(tmp_path: Path) -> None:
    key, other, saved = tmp_path / "key", tmp_path / "other", tmp_path / "s.snap"
    key.write_bytes(b"0123456789abcdef\n")
    other.write_bytes(b"fedcba9876543210\n")
    assert repl("--key-file", str(key), "--save", str(saved), stdin="v = 9\n").returncode == 0
    assert repl("--key-file", str(key), "--load", str(saved), stdin="v\n").stdout == "9\n"
    for flags, fragment in (([], "needs its key"), (["--key-file", str(other)], "integrity")):
        done = repl(*flags, "--load", str(saved))
        assert done.returncode == 2 and fragment in done.stderr


def test_meta_commands() -> None:
    done = repl(stdin="a = 1\n%reset\na\n%help\n%bogus\n%save\nprint('before')\nexit\n"
                "print('after')\n")
    assert done.returncode == 0
    assert "NameError: name 'a' is not defined" in done.stderr
    assert "%save FILE" in done.stdout and done.stdout.endswith("before\n")
    assert "unknown command %bogus" in done.stderr and "%save needs a file name" in done.stderr


def test_eof_at_once_exits_0() -> None:
    done = repl()
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        pytest.param(["--bogus"], "unrecognized arguments: --bogus", id="bad-flag"),
        pytest.param(["--on-trap", "ignore"], "invalid choice", id="bad-on-trap"),
        pytest.param(["--timeout-ms", "0"], "timeout_ms", id="out-of-range"),
        pytest.param(["--load", "missing.snap"], "no such file", id="missing-snapshot"),
        pytest.param(["--load", "README.md"], "not a sandbox-wasm session snapshot",
                     id="not-a-snapshot"),
    ],
)
def test_usage_errors_exit_2_with_one_line(args: list[str], fragment: str) -> None:
    done = repl(*args)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("wasm-exec repl: error:"), done.stderr
    assert fragment in lines[0]


# Run in a process of its own, which makes the terminal its controlling one (so that Ctrl-C
# is a SIGINT) and becomes the REPL.
_ON_TERMINAL = (
    "import os, sys; os.login_tty(int(sys.argv[1])); "
    "os.execv(sys.executable, [sys.executable, '-m', 'sandbox_wasm', 'repl', *sys.argv[2:]])"
)


def test_on_a_terminal(tmp_path: Path) -> None:
    """Prompts, the continuation prompt, Ctrl-C dropping the line being typed, Ctrl-D
    leaving with 0, and the history file."""
    pty = pytest.importorskip("pty")
    history = tmp_path / "history"
    master, slave = pty.openpty()
    child = subprocess.Popen(
        [sys.executable, "-c", _ON_TERMINAL, str(slave)], pass_fds=(slave,), cwd=ROOT,
        env={**os.environ, "WASM_EXEC_HISTORY": str(history)},
    )
    os.close(slave)
    seen = ""

    def expect(text: str, *, again: bytes = b"") -> None:
        """Read until `text` came; send `again` each time 5 s pass without it."""
        nonlocal seen
        deadline, nudge = time.monotonic() + 60, time.monotonic() + 5
        while text not in seen:
            assert time.monotonic() < deadline, f"{text!r} never came; got {seen!r}"
            if again and time.monotonic() > nudge:
                os.write(master, again)
                nudge = time.monotonic() + 5
            if select.select([master], [], [], 0.5)[0]:
                seen += os.read(master, 4096).decode(errors="replace")
        seen = seen[seen.index(text) + len(text):]

    try:
        expect("%help lists commands")
        expect(">>> ")
        os.write(master, b"def f(a):\r")
        expect("... ")
        os.write(master, b"    return a + 1\r\r")
        expect(">>> ")
        os.write(master, b"never = 1")
        expect("never = 1")  # echoed: readline waits for keys, ready for Ctrl-C
        # CPython's readline loop now and then misses a Ctrl-C typed right after an echo
        # (plain input() does too; a person never types that fast): a second one, if needed.
        os.write(master, b"\x03")
        expect("KeyboardInterrupt", again=b"\x03")
        expect(">>> ")
        os.write(master, b"f(41), 'never' in dir()\r")
        expect("(42, False)")
        expect(">>> ")
        os.write(master, b"\x04")
        assert child.wait(timeout=60) == 0
    finally:
        child.kill()
        os.close(master)
    assert "return a + 1" in history.read_text()


def test_ctrl_c_interrupts_a_call_and_the_session_stays() -> None:
    """Ctrl-C during a call stops it at once (not at its 20 s deadline): the call is rolled
    back, the prompt comes back, and the session still holds what came before."""
    pty = pytest.importorskip("pty")
    master, slave = pty.openpty()
    child = subprocess.Popen(
        [sys.executable, "-c", _ON_TERMINAL, str(slave), "--timeout-ms", "20000"],
        pass_fds=(slave,), cwd=ROOT, env={**os.environ, "WASM_EXEC_HISTORY": ""},
    )
    os.close(slave)
    seen = ""

    def expect(text: str, within: float = 60) -> None:
        nonlocal seen
        deadline = time.monotonic() + within
        while text not in seen:
            assert time.monotonic() < deadline, f"{text!r} never came; got {seen!r}"
            if select.select([master], [], [], 0.2)[0]:
                seen += os.read(master, 4096).decode(errors="replace")
        seen = seen[seen.index(text) + len(text):]

    try:
        expect(">>> ")
        os.write(master, b"x = 5\r")
        expect(">>> ")
        os.write(master, b"while True: x = 6\r\r")
        expect("... ")
        time.sleep(1)  # the call is running
        os.write(master, b"\x03")
        expect("interrupted", within=10)
        expect("rolled back", within=10)
        expect(">>> ", within=10)
        os.write(master, b"x\r")
        expect("5")
        expect(">>> ")
        os.write(master, b"\x04")
        assert child.wait(timeout=60) == 0
    finally:
        child.kill()
        os.close(master)
