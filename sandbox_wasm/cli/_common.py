"""What every `wasm-exec` subcommand shares: exit codes, one-line usage errors, the limit
flags, opening the input a user named, writing a result out, and the one table that maps
library errors to exit statuses and messages."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import IO, NoReturn

from .._errors import InvalidRequestError, SandboxError
from .._models import (
    INVALID_REQUEST_EXIT_CODE,
    STATUS_EXIT_CODES,
    TIMEOUT_PROFILES,
    ExecutionResult,
    Limits,
)
from .._policy import DEFAULT_POLICY, PRESETS, REPORT_ONLY_POLICY, AuditPolicy
from .._request import resolve_limits

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = INVALID_REQUEST_EXIT_CODE
EXIT_RUNTIME = STATUS_EXIT_CODES["internal_error"]
EXIT_INTERRUPTED = 130
PROFILES = tuple(TIMEOUT_PROFILES)


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
    if not path.exists():
        raise UsageError(f"{name}: no such file")
    if path.is_dir():
        raise UsageError(f"{name}: is a directory")
    try:
        return path.open("rb")
    except OSError as exc:
        raise UsageError(f"{name}: cannot read ({exc.strerror})") from None


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


def write_result(result: ExecutionResult, prefix: str) -> None:
    """Write what the code printed (its stdout, then its stderr) and, on stderr, what its
    own output does not say: truncated streams, and the error of any status but `failed`
    (whose traceback is already in the code's stderr), with the audit's findings. Host
    lines start with `prefix` (none when it is empty)."""
    lead = f"{prefix}: " if prefix else ""
    sys.stdout.write(result.stdout)
    sys.stdout.flush()
    sys.stderr.write(result.stderr)
    if result.stdout_truncated:
        sys.stderr.write(f"{lead}stdout truncated at {result.limits.max_stdout_bytes} bytes\n")
    if result.stderr_truncated:
        sys.stderr.write(f"{lead}stderr truncated at {result.limits.max_stderr_bytes} bytes\n")
    if result.status not in ("succeeded", "failed") and result.error is not None:
        sys.stderr.write(f"{lead}{result.status}: {result.error.message}\n")
        for finding in result.audit.flagged_calls:
            sys.stderr.write(
                f"  line {finding.line}:{finding.col} {finding.kind} {finding.name}: "
                f"{finding.reason}\n"
            )
    sys.stderr.flush()


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
