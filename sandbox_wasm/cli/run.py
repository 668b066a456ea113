"""`wasm-exec [run] SCRIPT | -c CODE`: audit and run one file or snippet."""

from __future__ import annotations

import argparse
import io
import os
import stat
import sys
from collections.abc import Sequence
from typing import IO

from .._errors import SourceTooLargeError
from .._models import ExecutionResult
from .._request import LANGUAGES
from .._sandbox import Sandbox
from ._common import (
    OneLineParser,
    UsageError,
    add_file_args,
    add_limit_args,
    add_network_args,
    add_runtime_arg,
    interruptible,
    limits_from_args,
    list_output_files,
    network_from_args,
    open_input,
    policy_from_args,
    read_input_files,
    save_output_files,
    write_output,
    write_result,
)

PROG = "wasm-exec"


def _parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog=PROG,
        description="Audit and run untrusted Python in a fresh WebAssembly sandbox.",
        epilog="Subcommands: 'wasm-exec runtime install' installs the runtimes (the first "
        "step after pip install; 'runtime status' checks them); 'audit FILE' audits without "
        "running; 'repl' (an interactive session), 'batch' (JSONL batches), 'serve' (HTTP), "
        "'mcp' (MCP server), 'doctor' (self-test), 'image' (bake wheels into a runtime); "
        "'wasm-exec SUBCOMMAND --help' for each. "
        "Exit status: the code's own status (0 ok, 1 error/blocked/syntax, 124 timeout or "
        "fuel, 137 memory, 130 interrupted by Ctrl-C), 2 usage error, 70 internal or "
        "runtime error.",
    )
    parser.add_argument("script", nargs="?", help="Python file to run, or - for stdin")
    parser.add_argument("-V", "--version", action="store_true",
                        help="print the version and exit")
    parser.add_argument("-c", dest="code", metavar="CODE", help="run CODE instead of a file")
    parser.add_argument("--json", action="store_true", help="print the whole result as JSON")
    parser.add_argument(
        "--language", choices=LANGUAGES,
        help="language of the code (default: javascript for .js/.mjs files, else python)",
    )
    parser.add_argument(
        "--image", metavar="IMAGE",
        help="run in an image built by 'wasm-exec image build' (its packages are importable "
        "and allowed by the audit)",
    )
    parser.add_argument(
        "--no-stdin", action="store_true",
        help="do not pass this process's stdin to the code (by default the code reads a "
        "piped or redirected stdin from sys.stdin, as it asks for it, up to the input cap; "
        "a terminal is never read)",
    )
    add_runtime_arg(parser)
    add_limit_args(parser)
    add_file_args(parser)
    add_network_args(parser)
    return parser


def _size(handle: IO[bytes]) -> int | None:
    """The size of the file behind `handle`, if it is a regular file."""
    try:
        status = os.fstat(handle.fileno())
    except (OSError, ValueError, io.UnsupportedOperation):
        return None
    return status.st_size if stat.S_ISREG(status.st_mode) else None


def read_source(script: str | None, code: str | None, max_bytes: int) -> bytes:
    """The source a user gave: -c CODE, a file, or stdin ("-"); at most `max_bytes` + 1
    bytes are read, so an oversized file is refused without reading it all."""
    if code is not None:
        if script is not None:
            raise UsageError("give either a script or -c CODE, not both")
        return code.encode("utf-8", "surrogateescape")
    if script is None:
        raise UsageError("no script given (use a file, - for stdin, or -c CODE)")
    handle = open_input(script)
    try:
        source = handle.read(max_bytes + 1)
        if len(source) > max_bytes:  # say how large it is, not how much was read
            size = _size(handle)
            raise SourceTooLargeError(
                f"source is {'over ' + str(max_bytes) if size is None else size} bytes, over "
                f"the limit of {max_bytes} bytes (--max-source-bytes)")
        return source
    finally:
        if handle is not sys.stdin.buffer:
            handle.close()


def piped_stdin() -> int | None:
    """This process's stdin for the code, when it is a pipe or a regular file (`echo hi |
    wasm-exec s.py`, `wasm-exec s.py < data`): its descriptor, which the run reads from as
    the code asks (code that never reads stdin takes nothing from it and never waits on
    it). A terminal, /dev/null or a socket is not given (None): the code sees no input."""
    try:
        fd = sys.stdin.fileno()
        mode = os.fstat(fd).st_mode
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        return None
    if not (stat.S_ISFIFO(mode) or stat.S_ISREG(mode)) or os.isatty(fd):
        return None
    return fd


def _print_result(result: ExecutionResult, as_json: bool) -> None:
    if as_json:
        print(result.model_dump_json(indent=2))
    else:
        write_result(result, PROG, streamed=True)


def _output_files(result: ExecutionResult, args: argparse.Namespace) -> None:
    """Save (or, without --output-dir, list) the files the code wrote, and say which
    writes the file caps refused; with --json the JSON already holds them all."""
    if args.output_dir is not None:
        save_output_files(result.files, args.output_dir, PROG)
    elif not args.json:
        list_output_files(result.files, PROG)
    if not args.json:
        for dropped in result.files_dropped:
            sys.stderr.write(f"{PROG}: write refused: {dropped}\n")


def main(argv: Sequence[str]) -> int:
    """`wasm-exec [run]`; returns the code's exit status (errors propagate to the
    dispatcher, which maps them)."""
    args = _parser().parse_args(list(argv))
    if args.version:
        from . import version_line

        print(version_line())
        return 0
    limits = limits_from_args(args)
    source = read_source(args.script, args.code, limits.max_source_bytes)
    files = read_input_files(args.files, limits.max_input_bytes)
    stdin = None
    if not args.no_stdin and args.script != "-":  # with "-", stdin was the source
        stdin = piped_stdin()
    policy = policy_from_args(args)
    language = args.language
    if language is None:
        is_js = args.script is not None and args.script.endswith((".js", ".mjs"))
        language = "javascript" if is_js else "python"
    if language != "python":
        stdin = None  # JavaScript code has no stdin module to read it with
    network = network_from_args(args)
    with Sandbox(policy=policy, limits=limits, image=args.image,
                 runtime=args.runtime, network=network) as sandbox:
        # Ctrl-C interrupts the run: it ends at once with status interrupted (exit 130).
        # Without --json the output is written as the code writes it (stdout and stderr
        # interleaved as written), and the result adds only what the output does not say.
        result, _ = interruptible(lambda cancel: sandbox.execute(
            source, language=language, files=files or None, cancel=cancel, stdin=stdin,
            on_output=None if args.json else write_output))
    _print_result(result, args.json)
    _output_files(result, args)
    return result.exit_code
