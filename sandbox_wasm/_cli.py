"""The `wasm-exec` command line."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from ._audit import REPORT_ONLY_POLICY, STRICT_POLICY
from ._cli_common import OneLineParser, UsageError, open_input
from ._errors import InvalidRequestError, SandboxError
from ._executor import Sandbox, resolve_limits
from ._models import MIB, ExecutionResult

EXIT_USAGE = 2
EXIT_RUNTIME = 70
_SUBCOMMANDS = ("run", "audit")


def _build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="wasm-exec",
        description="Audit and run untrusted Python in a fresh WebAssembly sandbox.",
        epilog="Subcommands: 'wasm-exec audit FILE' audits without running; 'serve' (HTTP), "
        "'mcp' (MCP server), 'doctor' (self-test), 'batch' (JSONL batches). "
        "Exit status: the code's own status (0 ok, 1 error/blocked/syntax, 124 timeout or "
        "fuel, 137 memory), 2 usage error, 70 internal or runtime error.",
    )
    parser.add_argument("script", nargs="?", help="Python file to run, or - for stdin")
    parser.add_argument("-c", dest="code", metavar="CODE", help="run CODE instead of a file")
    parser.add_argument("--json", action="store_true", help="print the whole result as JSON")
    parser.add_argument(
        "--language", choices=("python", "javascript"),
        help="language of the code (default: javascript for .js/.mjs files, else python)",
    )
    parser.add_argument(
        "--profile", choices=("fast_1s", "standard_5s", "extended_30s"), help="timeout profile"
    )
    parser.add_argument("--timeout-ms", type=int, help="wall-clock deadline (ms)")
    parser.add_argument("--memory-mb", type=int, help="memory cap (MiB)")
    parser.add_argument("--max-stdout-bytes", type=int, help="captured stdout cap")
    parser.add_argument("--max-stderr-bytes", type=int, help="captured stderr cap")
    parser.add_argument("--fuel", type=int, help="instruction budget")
    parser.add_argument("--max-source-bytes", type=int, help="largest accepted source")
    parser.add_argument(
        "--report-only", action="store_true",
        help="list audit findings but run the code anyway (the sandbox still contains it)",
    )
    return parser


def _read_source(args: argparse.Namespace, max_bytes: int) -> bytes:
    if args.code is not None:
        if args.script is not None:
            raise UsageError("give either a script or -c CODE, not both")
        return args.code.encode("utf-8", "surrogateescape")
    if args.script is None:
        raise UsageError("no script given (use a file, - for stdin, or -c CODE)")
    handle = open_input(args.script)
    try:
        return handle.read(max_bytes + 1)
    finally:
        if handle is not sys.stdin.buffer:
            handle.close()


def _limits(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    overrides = {
        "max_stdout_bytes": args.max_stdout_bytes,
        "max_stderr_bytes": args.max_stderr_bytes,
        "fuel": args.fuel,
        "max_source_bytes": args.max_source_bytes,
    }
    return resolve_limits(
        {k: v for k, v in overrides.items() if v is not None},
        profile=args.profile, timeout_ms=args.timeout_ms, memory_mb=args.memory_mb,
    )


def _print_result(result: ExecutionResult, as_json: bool) -> None:
    if as_json:
        print(result.model_dump_json(indent=2))
        return
    sys.stdout.write(result.stdout)
    sys.stdout.flush()
    sys.stderr.write(result.stderr)
    if result.stdout_truncated:
        sys.stderr.write(f"wasm-exec: stdout truncated at {result.limits.max_stdout_bytes} bytes\n")
    if result.stderr_truncated:
        sys.stderr.write(f"wasm-exec: stderr truncated at {result.limits.max_stderr_bytes} bytes\n")
    if result.status not in ("succeeded", "failed") and result.error is not None:
        sys.stderr.write(f"wasm-exec: {result.status}: {result.error.message}\n")
        for finding in result.audit.flagged_calls:
            sys.stderr.write(
                f"  line {finding.line}:{finding.col} {finding.kind} {finding.name}: "
                f"{finding.reason}\n"
            )


def _run(args: argparse.Namespace) -> int:
    limits = _limits(args)
    source = _read_source(args, limits.max_source_bytes)
    policy = REPORT_ONLY_POLICY if args.report_only else STRICT_POLICY
    language = args.language
    if language is None:
        is_js = args.script is not None and args.script.endswith((".js", ".mjs"))
        language = "javascript" if is_js else "python"
    sandbox = Sandbox(policy=policy, limits=limits)
    result = sandbox.execute(source, language=language)
    _print_result(result, args.json)
    return result.exit_code


def _audit(argv: Sequence[str]) -> int:
    parser = OneLineParser(prog="wasm-exec audit", description="Audit a file without running it.")
    parser.add_argument("script", help="Python file to audit, or - for stdin")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args(argv)
    args.code = None
    source = _read_source(args, MIB)
    report = Sandbox(limits=resolve_limits({"max_source_bytes": MIB})).audit(source)
    if args.json:
        print(report.model_dump_json(indent=2))
    else:
        print(f"syntax_valid: {report.syntax_valid}")
        if report.syntax_error:
            print(f"syntax_error: {report.syntax_error}")
        print(f"safety_verdict: {report.safety_verdict} (policy {report.policy})")
        for finding in report.flagged_calls:
            print(f"  line {finding.line}:{finding.col} {finding.kind} {finding.name}: "
                  f"{finding.reason}")
    return 0 if report.syntax_valid and report.safety_verdict == "safe" else 1


# Subcommands implemented in their own modules, imported only when used (the server
# extras are optional). Each module exposes `main(argv) -> int`.
_EXTERNAL_SUBCOMMANDS = {
    "serve": "sandbox_wasm.server._http_cli",
    "mcp": "sandbox_wasm.server._mcp_cli",
    "doctor": "sandbox_wasm._doctor",
    "batch": "sandbox_wasm._batch_cli",
}


def _external(name: str, argv: Sequence[str]) -> int:
    import importlib

    try:
        module = importlib.import_module(_EXTERNAL_SUBCOMMANDS[name])
    except ImportError as exc:
        if (exc.name or "").startswith("sandbox_wasm"):
            raise
        raise UsageError(
            f"'{name}' needs optional dependencies ({exc.name} missing): "
            "pip install 'sandbox-wasm[server]'"
        ) from None
    return int(module.main(list(argv)))


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of `wasm-exec`; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        if argv and argv[0] == "audit":
            return _audit(argv[1:])
        if argv and argv[0] in _EXTERNAL_SUBCOMMANDS:
            return _external(argv[0], argv[1:])
        if argv and argv[0] == "run":
            argv = argv[1:]
        return _run(_build_parser().parse_args(argv))
    except UsageError as exc:
        print(f"wasm-exec: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except InvalidRequestError as exc:
        print(f"wasm-exec: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except SandboxError as exc:
        print(f"wasm-exec: runtime error: {exc}", file=sys.stderr)
        return EXIT_RUNTIME
    except KeyboardInterrupt:
        print("wasm-exec: interrupted", file=sys.stderr)
        return 130


def run() -> None:
    """Console-script wrapper around `main`."""
    code = main()
    sys.stdout.flush()
    sys.stderr.flush()
    # Skip interpreter teardown: wasmtime's runtime threads can print a Rust panic while
    # Python finalises, and nothing is left to clean up that the OS does not reclaim.
    os._exit(code)


if __name__ == "__main__":  # pragma: no cover
    run()
