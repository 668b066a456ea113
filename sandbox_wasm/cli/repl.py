"""`wasm-exec repl`: an interactive Python prompt whose state lives in one `Session`.

Each complete input (a line, or a block) is one `Session.execute()` call, audited and run
under its own deadline; globals, imports and functions stay for the next input. A call that
traps (deadline, fuel, a crash) is rolled back, and the prompt says so; with
`--on-trap close` it closes the session instead, and the REPL exits with that call's status.

Whether an input is complete is decided on the host, as `code.InteractiveConsole` does
(`code.compile_command`): a block goes on at the "... " prompt until a blank line. An
unindented line that is not a clause of the block (else, elif, except, finally) also ends
it, where Python's prompt would refuse it, so a pasted or piped script needs no blank line
after each block. The host only decides where an input ends: an input its grammar refuses is
sent as it is (a block it opens, up to a blank line), and the guest's grammar (its Python
may be newer than the host's) has the last word on syntax.

An input whose last statement is an expression shows its value, as Python's prompt does:
the session reports it (`result.value`, see `Session.execute`), the REPL prints its repr
when it is not None, and the guest binds it to `_` in the session's builtins (a global `_`
of the session's own shadows it, as at Python's prompt). Unlike Python's prompt, an
expression inside a block (`for`, `if`) shows nothing.

Lines starting with "%" are the REPL's own commands (`%help` lists them); `exit` and `quit`
leave, as Ctrl-D (EOF) does, with status 0. Ctrl-C drops the input being typed; during a
call it interrupts the call, which is rolled back (the session is as it was before the
input) and the prompt comes back at once. History is kept in ~/.wasm_exec_history (or the file
$WASM_EXEC_HISTORY names; empty: none) when readline is available.

When stdin is not a terminal, its lines are read as the same REPL input, with no banner and
no prompts: `wasm-exec repl < script` runs a script as if it were typed.
"""

from __future__ import annotations

import argparse
import code
import contextlib
import os
import re
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Literal

from .._audit.policy import AuditPolicy
from .._errors import InvalidRequestError, SandboxError, SessionClosedError
from .._models import ExecutionResult, Limits
from .._request import resolve_limits
from .._sandbox import Sandbox
from .._session.session import Session
from .._version import __version__
from ._common import (
    EXIT_FAILED,
    EXIT_OK,
    OneLineParser,
    UsageError,
    add_limit_args,
    add_network_args,
    add_runtime_arg,
    interruptible,
    limits_from_args,
    list_output_files,
    network_from_args,
    open_input,
    policy_from_args,
    report_failure,
    save_output_files,
    write_output,
    write_result,
)

PROG = "wasm-exec repl"
PS1, PS2 = ">>> ", "... "
HISTORY_ENV = "WASM_EXEC_HISTORY"
DEFAULT_HISTORY = "~/.wasm_exec_history"
HISTORY_LENGTH = 1_000
# Lines that go on a block although they are not indented.
_CLAUSE = re.compile(r"(else|elif|except|finally)\b")
_OPENS_BLOCK = re.compile(r":\s*(#.*)?$")
_QUIT_WORDS = ("exit", "quit", "exit()", "quit()")

HELP = """\
%help          this list
%save FILE     write a snapshot of the session to FILE (restore it with --load FILE)
%load FILE     replace the session by the one saved in FILE
%reset         a fresh session (same limits and policy)
%quit          leave (also exit, quit, or Ctrl-D)
An expression shows its value and binds it to _. A block ends at a blank line."""


def _parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog=PROG,
        description="An interactive Python prompt in the WebAssembly sandbox: every input "
        "is audited and runs under the deadline in one session, whose state lives on. The "
        "limit flags apply to each input; the memory cap to the whole session.",
        epilog="Without a terminal on stdin, its lines are run as REPL input (no prompts). "
        "Exit status: 0 at EOF or %quit, the call's status when a trap closes the session "
        "(--on-trap close), 2 usage error, 70 runtime error.",
    )
    parser.add_argument("--load", metavar="SNAPSHOT",
                        help="start from a snapshot saved with %%save or --save (with its "
                        "limits and policy, unless flags here say otherwise)")
    parser.add_argument("--save", metavar="FILE",
                        help="save a snapshot of the session to FILE on leaving")
    parser.add_argument("--key-file", metavar="FILE",
                        help="sign saved snapshots and check loaded ones (HMAC-SHA256) with "
                        "the key in FILE (a trailing newline is not part of it)")
    parser.add_argument("--on-trap", choices=("rollback", "close"), default="rollback",
                        help="what a call that traps does to the session: rollback (the "
                        "default) puts back its state before the call; close ends it")
    parser.add_argument(
        "--output-dir", metavar="DIR",
        help="save the files each input writes under /output (charts it shows or leaves "
        "open included) into DIR (created if needed; never outside it); without it they "
        "are only listed",
    )
    add_runtime_arg(parser)
    add_limit_args(parser)
    add_network_args(parser)
    # No default policy here: a loaded snapshot keeps its own unless --policy is given.
    parser.set_defaults(policy=None)
    return parser


@dataclass
class _Opener:
    """How this REPL opens its sessions (at start, on %reset and on %load)."""

    sandbox: Sandbox
    #: The limits the flags set (unset fields: the defaults, or a snapshot's own).
    limits: Limits
    policy: AuditPolicy | None
    on_trap: Literal["rollback", "close"]
    key: bytes | None

    def fresh(self, like: Session | None = None) -> Session:
        """A new empty session, under the limits and policy of `like` if given."""
        return Session(
            limits=like.limits if like else self.limits,
            policy=like.policy if like else self.policy,
            on_trap=self.on_trap, sandbox=self.sandbox,
            # The person at the prompt is the session's owner: it lives as long as the REPL.
            idle_timeout_s=None,
        )

    def restore(self, path: str) -> Session:
        """The session saved in `path`; limit flags override the snapshot's limits."""
        data = _read_file(path)
        session = self._restore(data, None)
        given = self.limits.model_dump(exclude_unset=True)
        if given:
            merged = resolve_limits({**session.limits.model_dump(exclude_unset=True), **given})
            session.close()
            session = self._restore(data, merged)
        return session

    def _restore(self, data: bytes, limits: Limits | None) -> Session:
        return Session.restore(data, key=self.key, limits=limits, policy=self.policy,
                               on_trap=self.on_trap, sandbox=self.sandbox,
                               idle_timeout_s=None)

    def save(self, session: Session, path: str) -> str:
        """Write the session's snapshot to `path`; a line saying so."""
        data = session.snapshot(key=self.key)
        target = Path(path).expanduser()
        try:
            target.write_bytes(data)
        except OSError as exc:
            raise UsageError(f"{path}: cannot write ({exc.strerror})") from None
        signed = ", signed" if self.key is not None else ""
        return f"saved the session to {path} ({len(data) / 1024:.0f} KiB{signed})"


def _read_file(name: str) -> bytes:
    if name == "-":
        raise UsageError("a snapshot or key is read from a file, not from stdin")
    with open_input(str(Path(name).expanduser())) as handle:
        return handle.read()


def _needs_more(source: str) -> bool:
    """Whether `source` is the start of a statement that goes on (by the host's grammar)."""
    try:
        return code.compile_command(source, "<input>", "single") is None
    except (SyntaxError, ValueError, OverflowError):
        # Perhaps syntax newer than the host's (`def first[T](items):`): a block that such
        # a line opens goes on to a blank line, and the guest judges it.
        return not source.endswith("\n") and any(map(_OPENS_BLOCK.search, source.split("\n")))


def _ends_block(lines: list[str], line: str) -> bool:
    """Whether the unindented `line` starts a new input after the block in `lines`, which is
    complete without it (Python's prompt would want a blank line in between)."""
    if not line.strip() or line[0] in " \t#" or _CLAUSE.match(line):
        return False
    return not _needs_more("\n".join(lines) + "\n")


@contextlib.contextmanager
def _sigint_deferred() -> Iterator[list[bool]]:
    """Hold Ctrl-C back while a call runs: a KeyboardInterrupt raised in the middle of the
    session's bookkeeping (checkpoint, rollback) could leave it half updated. Yields a list
    that holds True once Ctrl-C was pressed."""
    pressed = [False]
    if threading.current_thread() is not threading.main_thread():
        yield pressed
        return

    def note(signum: int, frame: FrameType | None) -> None:
        pressed[0] = True

    previous = signal.signal(signal.SIGINT, note)
    try:
        yield pressed
    finally:
        signal.signal(signal.SIGINT, previous)


class Repl:
    """The read-eval-print loop over one session (replaced by %reset and %load)."""

    def __init__(self, opener: _Opener, session: Session, *, interactive: bool,
                 output_dir: str | None = None) -> None:
        self.opener = opener
        self.session = session
        self.interactive = interactive
        #: Where the files a call writes under /output (charts included) are saved.
        self.output_dir = output_dir
        self._lines: list[str] = []

    def run(self, read: Callable[[str], str | None]) -> int:
        """Read lines (`read(prompt)`, None at EOF) until EOF or a quit; the exit status."""
        while True:
            try:
                line = read(PS2 if self._lines else PS1)
            except KeyboardInterrupt:
                sys.stdout.write("\n")
                _note("KeyboardInterrupt")
                self._lines = []
                continue
            if line is None:
                status = self._submit()
                return EXIT_OK if status is None else status
            status = self.push(line)
            if status is not None:
                return status

    def push(self, line: str) -> int | None:
        """Take one line; an exit status when the REPL is to stop, else None."""
        if not self._lines:
            command = line.strip()
            if command.startswith("%"):
                with _sigint_deferred():  # a %load or %reset is not left half done
                    return self._command(command[1:])
            if command in _QUIT_WORDS:
                return EXIT_OK
            if not command:
                return None
        elif _ends_block(self._lines, line):
            status = self._submit()
            return status if status is not None else self.push(line)
        self._lines.append(line)
        if _needs_more("\n".join(self._lines)):
            return None
        return self._submit()

    def _submit(self) -> int | None:
        """Run the input gathered so far; an exit status if the session closed."""
        source, self._lines = "\n".join(self._lines), []
        if not source.strip():
            return None
        session = self.session
        try:
            # Ctrl-C interrupts the call (rolled back); the session's bookkeeping runs on
            # in the worker thread, out of the signal's way.
            result, interrupted = interruptible(
                lambda cancel: session.execute(source, cancel=cancel, on_output=write_output))
        except SessionClosedError as exc:
            _note(f"{exc}; leaving")
            return EXIT_FAILED
        except InvalidRequestError as exc:
            _note(f"error: {exc}")
            return None
        self._show(result)
        if interrupted:
            if not self.interactive:
                raise KeyboardInterrupt
            if result.status != "interrupted":  # pressed as the call was ending
                _note("KeyboardInterrupt")
        if result.session is not None and result.session.closed:
            _note("the session is closed (on-trap close); leaving")
            return result.exit_code or EXIT_FAILED
        return None

    def _show(self, result: ExecutionResult) -> None:
        write_result(result, "", streamed=True)
        if result.value is not None:
            sys.stdout.write(result.value.repr + ("...\n" if result.value.repr_truncated
                                                  else "\n"))
        sys.stdout.flush()
        if self.output_dir is not None:
            save_output_files(result.files, self.output_dir, PROG)
        else:
            list_output_files(result.files, PROG)
        for dropped in result.files_dropped:
            _note(f"write refused: {dropped}")
        if result.status == "failed" and not result.stderr and result.error is not None:
            _note(result.error.message)  # SystemExit: no traceback says it
        if result.session is not None and result.session.rolled_back:
            _note("rolled back: the session is as it was before this input")

    def _command(self, text: str) -> int | None:
        name, _, argument = text.partition(" ")
        argument = argument.strip()
        try:
            if name in ("quit", "exit"):
                return EXIT_OK
            if name == "help":
                print(HELP)
            elif name == "reset":
                fresh = self.opener.fresh(like=self.session)
                self.session.close()
                self.session = fresh
                _note("a fresh session")
            elif name in ("save", "load") and not argument:
                _note(f"%{name} needs a file name")
            elif name == "save":
                _note(self.opener.save(self.session, argument))
            elif name == "load":
                loaded = self.opener.restore(argument)
                self.session.close()
                self.session = loaded
                _note(f"loaded the session saved in {argument}")
            else:
                _note(f"unknown command %{name}; %help lists them")
        except (UsageError, InvalidRequestError, SessionClosedError) as exc:
            _note(f"error: {exc}")
        return None


def _note(message: str) -> None:
    """A line from the REPL itself (not from the code), on stderr."""
    sys.stdout.flush()
    print(message, file=sys.stderr, flush=True)


def _read_piped(prompt: str) -> str | None:
    line = sys.stdin.readline()
    return line.rstrip("\r\n") if line else None


def _read_typed(prompt: str) -> str | None:
    try:
        return input(prompt)
    except EOFError:
        sys.stdout.write("\n")
        return None


@contextlib.contextmanager
def _history() -> Iterator[None]:
    """Line editing, and history kept across runs, when readline is available."""
    try:
        import readline
    except ImportError:
        yield
        return
    # Tab indents (there is nothing on the host to complete from: the names live in the guest).
    readline.parse_and_bind("tab: tab-insert")
    name = os.environ.get(HISTORY_ENV, DEFAULT_HISTORY)
    path = Path(name).expanduser() if name else None
    if path is not None:
        with contextlib.suppress(OSError):
            readline.read_history_file(path)
        readline.set_history_length(HISTORY_LENGTH)
    try:
        yield
    finally:
        if path is not None:
            with contextlib.suppress(OSError):
                readline.write_history_file(path)


def _banner(sandbox: Sandbox, session: Session) -> str:
    runtime = sandbox.runtime_info
    limits = session.limits
    return (
        f"sandbox-wasm {__version__} REPL: Python {runtime.version} in WebAssembly "
        f"({runtime.name})\npolicy {session.policy.name}, {limits.timeout_ms} ms per input, "
        f"{limits.memory_mb} MiB, on trap: {session.on_trap}. %help lists commands; "
        "Ctrl-D leaves."
    )


def main(argv: Sequence[str]) -> int:
    """`wasm-exec repl`; the exit status."""
    try:
        return _run(_parser().parse_args(list(argv)))
    except (UsageError, SandboxError, KeyboardInterrupt) as exc:
        return report_failure(PROG, exc)


def _run(args: argparse.Namespace) -> int:
    limits = limits_from_args(args)
    policy = policy_from_args(args) if args.policy or args.report_only else None
    key = _read_file(args.key_file).rstrip(b"\r\n") if args.key_file else None
    if key is not None and not key:
        raise UsageError(f"{args.key_file}: the key file is empty")
    interactive = sys.stdin.isatty()
    with Sandbox(policy=policy, limits=limits, runtime=args.runtime,
                 network=network_from_args(args)) as sandbox:
        opener = _Opener(sandbox, limits, policy, args.on_trap, key)
        session = opener.restore(args.load) if args.load else opener.fresh()
        repl = Repl(opener, session, interactive=interactive, output_dir=args.output_dir)
        try:
            if interactive:
                print(_banner(sandbox, session), file=sys.stderr)
                with _history():
                    status = repl.run(_read_typed)
            else:
                status = repl.run(_read_piped)
            if args.save and repl.session.closed:
                _note(f"not saved to {args.save}: the session is closed")
            elif args.save:
                _note(opener.save(repl.session, args.save))
        finally:
            repl.session.close()
    return status
