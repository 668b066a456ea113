"""What every `wasm-exec` subcommand shares: exit codes, one-line usage errors, the limit
flags, opening the input a user named, input files and saving output files, writing a result
out, and the one table that maps library errors to exit statuses and messages."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import secrets
import signal
import sys
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, NoReturn, TypeVar

from .._audit.policy import DEFAULT_POLICY, PRESETS, REPORT_ONLY_POLICY, AuditPolicy
from .._errors import InvalidRequestError, SandboxError
from .._fs.tree import MAX_DEPTH, MAX_PATH_BYTES
from .._models import (
    INVALID_REQUEST_EXIT_CODE,
    STATUS_EXIT_CODES,
    TIMEOUT_PROFILES,
    ExecutionResult,
    Limits,
    OutputChunk,
)
from .._request import coerce_files, resolve_limits
from .._runtimes.artifacts import RUNTIME_NAMES

if TYPE_CHECKING:
    from .._network.policy import NetworkPolicy

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = INVALID_REQUEST_EXIT_CODE
EXIT_RUNTIME = STATUS_EXIT_CODES["internal_error"]
EXIT_INTERRUPTED = 130
PROFILES = tuple(TIMEOUT_PROFILES)
#: The guest directory whose files `--output-dir` saves (their names are relative to it).
OUTPUT_ROOT = "output"


class UsageError(Exception):
    """A usage error: printed as one line, exit status 2."""


class OneLineParser(argparse.ArgumentParser):
    """argparse prints its whole usage block and exits; we promise one line and exit 2."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def open_input(name: str) -> IO[bytes]:
    """The file a user named (or stdin for "-"), with one-line errors for the usual
    mistakes."""
    if name == "-":
        return sys.stdin.buffer
    path = Path(name)
    shown = name if len(name) <= 80 and "\n" not in name else repr(name[:60]) + "..."
    try:
        if path.is_dir():
            raise UsageError(f"{shown}: is a directory")
        return path.open("rb")
    except FileNotFoundError:
        hint = " (to run code given on the command line, use -c CODE)" if (
            "\n" in name or " " in name or "(" in name) else ""
        raise UsageError(f"{shown}: no such file{hint}") from None
    except OSError as exc:  # e.g. a name too long for a path: code given as a script
        hint = " (to run code given on the command line, use -c CODE)"
        raise UsageError(f"{shown}: cannot read ({exc.strerror}){hint}") from None


def add_runtime_arg(parser: argparse.ArgumentParser) -> None:
    """--runtime, spelt the same in every subcommand that runs Python."""
    parser.add_argument(
        "--runtime", choices=tuple(RUNTIME_NAMES),
        help="Python runtime: python (the default: the standard library) or python-data "
        "(numpy and pandas, already imported)",
    )


def add_limit_args(
    parser: argparse.ArgumentParser, *, all_limits: bool = True, scope: str = ""
) -> None:
    """The limit flags, spelt the same in every subcommand: --profile, --timeout-ms and
    --memory-mb, and with `all_limits` the output caps, --fuel and --max-source-bytes.
    `scope` qualifies the help ("for lines that set none")."""
    suffix = f" {scope}" if scope else ""
    parser.add_argument("--profile", choices=PROFILES, help="timeout profile" + suffix)
    parser.add_argument("--timeout-ms", type=int, help="wall-clock deadline (ms)" + suffix)
    parser.add_argument("--memory-mb", type=int, help="memory cap (MiB)" + suffix)
    if all_limits:
        parser.add_argument("--max-stdout-bytes", type=int, help="captured stdout cap")
        parser.add_argument("--max-stderr-bytes", type=int, help="captured stderr cap")
        parser.add_argument("--fuel", type=int, help="instruction budget")
        parser.add_argument("--max-source-bytes", type=int, help="largest accepted source")
    parser.add_argument(
        "--policy", choices=tuple(PRESETS), default=DEFAULT_POLICY.name,
        help=f"audit policy (default {DEFAULT_POLICY.name}; report lists findings and runs)",
    )
    parser.add_argument(
        "--report-only", action="store_true",
        help="list audit findings but run the code anyway (the sandbox still contains it); "
        "the same as --policy report",
    )


def add_file_args(parser: argparse.ArgumentParser) -> None:
    """--file and --output-dir: the code's input files and where its output files go."""
    parser.add_argument(
        "--file", dest="files", action="append", default=[], metavar="PATH[=NAME]",
        help="give the code PATH, read-only, as /input/NAME (NAME defaults to PATH's "
        "basename; the first '=' splits them); repeatable",
    )
    parser.add_argument(
        "--output-dir", metavar="DIR",
        help="save the files the code wrote under /output into DIR (created if needed; "
        "never outside it); without it they are only listed",
    )


def add_network_args(parser: argparse.ArgumentParser, *, scope: str = "") -> None:
    """The network flags, spelt the same in every subcommand: --allow-host (a rule:
    [http|https://]host[:port], host a name, *.domain or an address), --allow-address (a
    non-public address or network the rules may reach, e.g. 127.0.0.1) and
    --network-policy (a JSON file of the whole NetworkPolicy: methods, pinned headers,
    budgets). Default: no network. `scope` qualifies the help."""
    suffix = f"; {scope}" if scope else ""
    parser.add_argument(
        "--allow-host", dest="allow_hosts", action="append", metavar="[SCHEME://]HOST[:PORT]",
        help="let the code's urllib/http.client/requests reach this host through the host "
        "(https and port 443 unless given; *.domain for its subdomains); repeatable" + suffix)
    parser.add_argument(
        "--allow-address", dest="allow_addresses", action="append", metavar="ADDRESS[/BITS]",
        help="a loopback/private address the allowed hosts may resolve to (refused "
        "otherwise); repeatable" + suffix)
    parser.add_argument(
        "--network-policy", metavar="FILE",
        help="a JSON file holding a NetworkPolicy (rules with methods and pinned headers, "
        "private_addresses, budgets); the flags above add to it" + suffix)


def network_from_args(args: argparse.Namespace) -> NetworkPolicy | None:
    """The network policy the flags of `add_network_args` ask for (None: no network)."""
    from .._network.policy import NetworkPolicy, NetworkRule  # only when asked for

    hosts = args.allow_hosts or []
    addresses = args.allow_addresses or []
    if args.network_policy is None and not hosts and not addresses:
        return None
    try:
        base: dict[str, object] = {}
        if args.network_policy is not None:
            try:
                with open(args.network_policy, "rb") as handle:
                    base = json.loads(handle.read(1 << 20))
            except (OSError, ValueError) as exc:
                raise UsageError(f"--network-policy {args.network_policy}: cannot read a "
                                 f"JSON object ({exc})") from None
            if not isinstance(base, dict):
                raise UsageError(f"--network-policy {args.network_policy}: not a JSON object")
        rules = [NetworkRule.parse(host).model_dump() for host in hosts]
        return NetworkPolicy.model_validate({
            **base, "allow": [*base.get("allow", []), *rules],  # type: ignore[misc]
            "private_addresses": [*base.get("private_addresses", []),  # type: ignore[misc]
                                  *addresses]})
    except InvalidRequestError as exc:
        raise UsageError(str(exc)) from None
    except ValueError as exc:  # pydantic's ValidationError
        raise UsageError(f"--network-policy: {str(exc).splitlines()[0]}") from None


def read_input_files(specs: Sequence[str], max_bytes: int) -> dict[str, bytes]:
    """The files of `--file PATH[=NAME]` flags by name, at most `max_bytes` in all (more
    is not read), with their names checked as the library checks them."""
    files: dict[str, bytes] = {}
    room = max_bytes
    for spec in specs:
        path, given, name = spec.partition("=")
        if not path or path == "-":
            raise UsageError(f"--file {spec}: give the path of a file")
        if not given:
            name = os.path.basename(path.rstrip("/"))
        if name in files:
            raise UsageError(f"--file {spec}: the name {name!r} is given twice")
        try:
            handle = open_input(path)
        except UsageError as exc:
            raise UsageError(f"--file {exc}") from None
        with handle:
            data = handle.read(room + 1)
        if len(data) > room:
            raise UsageError(
                f"--file {spec}: input files are over the limit of {max_bytes} bytes in all")
        room -= len(data)
        files[name] = data
    try:
        return coerce_files(files, max_bytes)
    except InvalidRequestError as exc:
        raise UsageError(f"--file: {exc}") from None


def list_output_files(files: Mapping[str, bytes], prefix: str) -> None:
    """One stderr line per output file (name and size), for a run without --output-dir."""
    for name, data in files.items():
        sys.stderr.write(f"{prefix}: output file {name} ({len(data)} bytes; not saved: "
                         "use --output-dir DIR)\n")


def save_output_files(files: Mapping[str, bytes], directory: str, prefix: str) -> int:
    """Write `files` (names from the guest, so untrusted) under `directory`, one stderr line
    per file written or skipped; the number skipped.

    The directory is walked by file descriptor, each step opened with O_NOFOLLOW, and each
    file is written to a fresh temporary name and renamed into place: a symlink (or a hard
    link) already inside the directory can neither lead a write out of it nor have a file
    outside it overwritten through it. Names that are absolute or hold '.', '..', empty
    parts, NUL or a backslash are skipped, and so are names deeper or longer than the
    guest's tree allows (`_fs.tree.MAX_DEPTH`, `MAX_PATH_BYTES`)."""
    try:
        os.makedirs(directory, exist_ok=True)
        root = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    except OSError as exc:
        raise UsageError(f"--output-dir {directory}: {exc.strerror}") from None
    skipped = 0
    try:
        for name, data in files.items():
            problem = unsafe_output_name(name)
            if problem is None:
                try:
                    _write_below(root, name.split("/"), data)
                except OSError as exc:
                    problem = exc.strerror or type(exc).__name__
            if problem is None:
                shown = os.path.join(directory, name)
                sys.stderr.write(f"{prefix}: wrote {shown} ({len(data)} bytes)\n")
            else:
                skipped += 1
                sys.stderr.write(f"{prefix}: skipped output file {name!r}: {problem}\n")
    finally:
        os.close(root)
    return skipped


def unsafe_output_name(name: str) -> str | None:
    """Why an output file's name cannot be written below the output directory, or None."""
    if not name or name.startswith("/"):
        return "not a relative name"
    if "\x00" in name or "\\" in name:
        return "contains NUL or a backslash"
    parts = name.split("/")
    if any(part in ("", ".", "..") for part in parts):
        return "has '.', '..' or empty parts"
    # The guest's tree keeps every path within these bounds; a name past them did not
    # come from it, and a host path is not made deeper or longer than the guest's own.
    try:
        length = len(f"{OUTPUT_ROOT}/{name}".encode())
    except UnicodeEncodeError:
        return "is not valid UTF-8"
    if len(parts) + 1 > MAX_DEPTH or length > MAX_PATH_BYTES:
        return (f"its path /{OUTPUT_ROOT}/... is over the sandbox's limits of {MAX_DEPTH} "
                f"levels and {MAX_PATH_BYTES} bytes")
    return None


def _write_below(root: int, parts: list[str], data: bytes) -> None:
    opened: list[int] = []
    where = root
    try:
        for part in parts[:-1]:
            with contextlib.suppress(FileExistsError):
                os.mkdir(part, dir_fd=where)
            # ELOOP or ENOTDIR for a symlink: it is never followed.
            where = os.open(part, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=where)
            opened.append(where)
        temporary = f".wasm-exec-{secrets.token_hex(8)}.tmp"
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o666,
                     dir_fd=where)
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(data)
            os.rename(temporary, parts[-1], src_dir_fd=where, dst_dir_fd=where)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary, dir_fd=where)
            raise
    finally:
        for fd in reversed(opened):
            os.close(fd)


def policy_from_args(args: argparse.Namespace) -> AuditPolicy:
    """The audit policy the flags of `add_limit_args` ask for."""
    return REPORT_ONLY_POLICY if args.report_only else PRESETS[args.policy]


def limits_from_args(args: argparse.Namespace) -> Limits:
    """The limits the flags of `add_limit_args` ask for (invalid ones are usage errors)."""
    overrides = {
        name: getattr(args, name, None)
        for name in ("max_stdout_bytes", "max_stderr_bytes", "fuel", "max_source_bytes")
    }
    try:
        return resolve_limits(
            {k: v for k, v in overrides.items() if v is not None},
            profile=args.profile, timeout_ms=args.timeout_ms, memory_mb=args.memory_mb,
        )
    except InvalidRequestError as exc:
        raise UsageError(str(exc)) from None


def write_output(chunk: OutputChunk) -> None:
    """Write a piece of the code's output where it belongs, as it comes (`on_output=`)."""
    stream = sys.stdout if chunk.stream == "stdout" else sys.stderr
    stream.write(chunk.text)
    stream.flush()


def write_result(result: ExecutionResult, prefix: str, *, streamed: bool = False) -> None:
    """Write what the code printed (its stdout, then its stderr; nothing when it was
    `streamed` as it was written) and, on stderr, what its own output does not say:
    truncated streams, and the error of any status but `failed` (whose traceback is already
    in the code's stderr), with the audit's findings. Host lines start with `prefix` (none
    when it is empty)."""
    lead = f"{prefix}: " if prefix else ""
    if not streamed:
        sys.stdout.write(result.stdout)
        sys.stdout.flush()
        sys.stderr.write(result.stderr)
    if result.stdout_truncated:
        sys.stderr.write(f"{lead}stdout truncated at {result.limits.max_stdout_bytes} bytes\n")
    if result.stderr_truncated:
        sys.stderr.write(f"{lead}stderr truncated at {result.limits.max_stderr_bytes} bytes\n")
    findings = result.audit.flagged_calls
    if result.status not in ("succeeded", "failed") and result.error is not None:
        sys.stderr.write(f"{lead}{result.status}: {result.error.message}\n")
    elif findings:  # the code ran although flagged: a report-only policy lists, not refuses
        sys.stderr.write(f"{lead}audit ({result.audit.policy}): {len(findings)} finding"
                         f"{'s' if len(findings) != 1 else ''}; the code ran\n")
    for finding in findings:
        sys.stderr.write(
            f"  line {finding.line}:{finding.col} {finding.kind} {finding.name}: "
            f"{finding.reason}\n"
        )
    sys.stderr.flush()


_Result = TypeVar("_Result")


def interruptible(call: Callable[[threading.Event], _Result]) -> tuple[_Result, bool]:
    """`call(cancel)` with Ctrl-C setting `cancel` (a run given it stops at once, status
    interrupted), and whether Ctrl-C was pressed. On the main thread the call runs in a
    worker thread while this one waits, so SIGINT is handled at once and never lands in the
    middle of the call's own bookkeeping (a session's checkpoint or rollback)."""
    cancel = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        return call(cancel), False
    pressed = False
    outcome: list[_Result] = []
    failure: list[BaseException] = []

    def work() -> None:
        try:
            outcome.append(call(cancel))
        except BaseException as exc:  # raised again on the main thread
            failure.append(exc)

    def on_sigint(signum: int, frame: object) -> None:
        nonlocal pressed
        pressed = True
        cancel.set()

    worker = threading.Thread(target=work, name="wasm-exec-run", daemon=True)
    previous = signal.signal(signal.SIGINT, on_sigint)
    try:
        worker.start()
        worker.join()  # signal handlers run while this waits
    finally:
        signal.signal(signal.SIGINT, previous)
    if failure:
        raise failure[0]
    return outcome[0], pressed


def report_failure(prog: str, exc: BaseException) -> int:
    """Print why `prog` could not run (one line on stderr) and return its exit status: the
    one mapping of errors to exit statuses that every subcommand uses."""
    if isinstance(exc, (UsageError, InvalidRequestError)):
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    if isinstance(exc, SandboxError):
        print(f"{prog}: runtime error: {exc}", file=sys.stderr)
        return EXIT_RUNTIME
    if isinstance(exc, KeyboardInterrupt):
        print(f"{prog}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    raise exc
