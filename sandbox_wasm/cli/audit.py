"""`wasm-exec audit FILE`: audit without running anything."""

from __future__ import annotations

from collections.abc import Sequence

from .._models import MIB
from .._request import resolve_limits
from .._sandbox import Sandbox
from ._common import EXIT_FAILED, EXIT_OK, OneLineParser
from .run import read_source


def main(argv: Sequence[str]) -> int:
    """`wasm-exec audit`; exit 0 when the source is valid and safe, else 1."""
    parser = OneLineParser(prog="wasm-exec audit", description="Audit a file without running it.")
    parser.add_argument("script", help="Python file to audit, or - for stdin")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args(list(argv))
    source = read_source(args.script, None, MIB)
    with Sandbox(limits=resolve_limits({"max_source_bytes": MIB})) as sandbox:
        report = sandbox.audit(source)
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
    return EXIT_OK if report.syntax_valid and report.safety_verdict == "safe" else EXIT_FAILED
