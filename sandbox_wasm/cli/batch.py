"""`wasm-exec batch`: a JSONL file of requests in, a JSONL file of results out, in order."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, NoReturn

from .._errors import SandboxError
from .._json import loads_strict_json
from ..batch import (
    BatchResult,
    InvalidRequest,
    Job,
    default_workers,
    invalid,
    prepare,
    run_prepared,
    shutdown_ray,
)
from ._common import (
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_RUNTIME,
    OneLineParser,
    UsageError,
    add_limit_args,
    add_network_args,
    add_runtime_arg,
    limits_from_args,
    network_from_args,
    open_input,
    policy_from_args,
    report_failure,
)

if TYPE_CHECKING:  # imported when the bar is made: batches without one never load tqdm
    from tqdm import tqdm

PROG = "wasm-exec batch"
# How many invalid lines the summary quotes (all of them are in the output file).
QUOTED_INVALID_LINES = 5


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {value}")
    return value


def _build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog=PROG,
        description="Run a JSONL file of requests ({\"code\": ..., \"language\": ..., "
        "\"limits\": {...}, \"files\": {name: base64}, \"id\": ...} per line) and write "
        "one JSON result per line (its files in base64), in input order. Invalid lines are "
        "reported in place and the batch goes on.",
        epilog="Exit status: 0 when the batch ran (whatever the items' statuses), 2 for a "
        "usage error, 70 when the sandbox cannot run at all, 130 when interrupted.",
    )
    parser.add_argument("input", help="JSONL file of requests, or - for stdin")
    parser.add_argument(
        "-o", "--output", default="-", help="JSONL file for the results (default: stdout)"
    )
    add_runtime_arg(parser)
    parser.add_argument("--backend", choices=("local", "ray"), default="local",
                        help="local processes (default) or a Ray cluster")
    parser.add_argument("--workers", type=_positive,
                        help="parallel executions (default: local cores, or the Ray "
                        "cluster's CPUs)")
    parser.add_argument("--ray-address", metavar="ADDR",
                        help="Ray cluster to use (default: the one ray.init() finds or "
                        "starts locally); needs --backend ray")
    add_limit_args(parser, all_limits=False, scope="(default for lines that set none)")
    add_network_args(parser, scope="for every line")
    parser.add_argument("--no-progress", action="store_true",
                        help="no progress bar (there is none when stderr is not a terminal)")
    return parser


# -- input ------------------------------------------------------------------------------------
def _parse_line(
    index: int, raw: bytes, defaults: dict[str, Any], ids: dict[int, Any]
) -> Job | InvalidRequest:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return invalid(index, f"line is not valid UTF-8 (byte {exc.start}: {exc.reason})")
    if not text.strip():
        return invalid(index, "empty line (expected one JSON request per line)")
    try:
        data = loads_strict_json(text)
    except RecursionError:
        return invalid(index, "invalid JSON: nested too deeply")
    except ValueError as exc:
        return invalid(index, f"invalid JSON: {exc}")
    if not isinstance(data, dict):
        return invalid(index, f"expected a JSON object, got {type(data).__name__}")
    if "id" in data:
        request_id = data.pop("id")
        problem = _unencodable(request_id)
        if problem is not None:
            return invalid(index, f"invalid id: {problem}")
        ids[index] = request_id
    try:
        return prepare(index, data, defaults)
    except RecursionError:
        return invalid(index, "invalid request: nested too deeply")


def _unencodable(value: object) -> str | None:
    """Why `value` cannot be written back as strict JSON in UTF-8, or None."""
    try:
        _strict_json(value).encode("utf-8")
    except RecursionError:
        return "nested too deeply"
    except UnicodeEncodeError:
        return "not valid Unicode (lone surrogate)"
    except ValueError as exc:
        return str(exc)
    return None


def _strict_json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, allow_nan=False)


def _read_requests(
    handle: IO[bytes], defaults: dict[str, Any], ids: dict[int, Any]
) -> Iterator[Any]:
    for index, raw in enumerate(handle):
        yield _parse_line(index, raw.rstrip(b"\r\n"), defaults, ids)


def _count_lines(path: Path) -> int | None:
    """Lines in a regular file, for the progress bar's total (None if not a regular file)."""
    if not path.is_file():
        return None
    count = 0
    last = b"\n"
    with path.open("rb") as handle:
        while chunk := handle.read(1 << 20):
            count += chunk.count(b"\n")
            last = chunk[-1:]
    return count + (last != b"\n")


# -- output -----------------------------------------------------------------------------------
def _record(result: BatchResult, ids: dict[int, Any], index: int) -> dict[str, Any]:
    record: dict[str, Any] = {}
    if index in ids:
        record["id"] = ids.pop(index)
    if isinstance(result, InvalidRequest):
        record["line"] = index + 1
        record.update(result.model_dump(mode="json", exclude={"index"}))
    else:
        record.update(result.model_dump(mode="json"))
    return record


class _Summary:
    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.invalid_lines: list[str] = []
        self.start = time.perf_counter()

    def add(self, result: BatchResult, index: int) -> None:
        self.counts[result.status] += 1
        if isinstance(result, InvalidRequest) and len(self.invalid_lines) < QUOTED_INVALID_LINES:
            self.invalid_lines.append(f"line {index + 1}: {result.error.message}")

    def short(self) -> str:
        return ", ".join(f"{status}: {n}" for status, n in self.counts.most_common())

    def write(self, stream: IO[str], where: str, interrupted: bool) -> None:
        elapsed = time.perf_counter() - self.start
        total = sum(self.counts.values())
        executed = total - self.counts["invalid_request"]
        rate = executed / elapsed if elapsed > 0 else 0.0
        verb = "interrupted after" if interrupted else "ran"
        stream.write(
            f"{PROG}: {verb} {total} request{'s' if total != 1 else ''} in {elapsed:.2f} s, "
            f"{rate:.1f} executions/s ({where})\n"
        )
        if total:
            stream.write(f"  {self.short()}\n")
        for line in self.invalid_lines:
            stream.write(f"  {line}\n")
        hidden = self.counts["invalid_request"] - len(self.invalid_lines)
        if hidden > 0:
            stream.write(f"  ... and {hidden} more invalid line{'s' if hidden > 1 else ''}\n")


def _progress(total: int | None, enabled: bool) -> tqdm[NoReturn]:
    from tqdm import tqdm

    return tqdm(
        total=total, unit="exec", file=sys.stderr, disable=not enabled, dynamic_ncols=True,
        smoothing=0.1,
    )


# -- main -------------------------------------------------------------------------------------
def _open_output(name: str, input_name: str) -> IO[str]:
    if name == "-":
        return sys.stdout
    path = Path(name)
    if input_name != "-" and path.exists() and path.resolve() == Path(input_name).resolve():
        raise UsageError(f"{name}: the output would overwrite the input")
    try:
        return path.open("w", encoding="utf-8", newline="\n")
    except OSError as exc:
        raise UsageError(f"{name}: cannot write ({exc.strerror})") from None


def _output_line(result: BatchResult, ids: dict[int, Any], index: int) -> str:
    """One strict-JSON output line. Ids were checked when read and results always
    serialise; should a record still fail to encode, its line says so instead of the batch
    dying with the lines after it lost."""
    record = _record(result, ids, index)
    try:
        line = _strict_json(record)
        line.encode("utf-8")
    except (ValueError, RecursionError) as exc:  # UnicodeEncodeError is a ValueError
        fallback = {"line": index + 1, "status": "internal_error", "exit_code": 70,
                    "error": {"type": "InternalError",
                              "message": f"the result could not be encoded: {exc}"[:300]}}
        line = _strict_json(fallback)
    return line + "\n"


def _run(args: argparse.Namespace) -> int:
    if args.ray_address is not None and args.backend != "ray":
        raise UsageError("--ray-address needs --backend ray")
    if args.backend == "ray":
        try:
            import ray  # noqa: F401
        except ImportError:
            raise UsageError(
                "--backend ray needs Ray: pip install 'sandbox-wasm[ray]'"
            ) from None
    limits = limits_from_args(args)
    defaults = limits.model_dump(exclude_unset=True)
    policy = policy_from_args(args)

    source = open_input(args.input)
    sink = _open_output(args.output, args.input)
    show_bar = not args.no_progress and sys.stderr.isatty()
    total = _count_lines(Path(args.input)) if show_bar and args.input != "-" else None
    where = args.backend
    if args.backend == "local":
        where += f", {args.workers or default_workers()} workers"
    elif args.workers:
        where += f", {args.workers} workers"

    ids: dict[int, Any] = {}
    summary = _Summary()
    results = run_prepared(
        _read_requests(source, defaults, ids), backend=args.backend, workers=args.workers,
        ray_address=args.ray_address, policy=policy, max_pending=None, runtime=args.runtime,
        network=network_from_args(args),
    )
    interrupted = False
    bar = _progress(total, show_bar)
    try:
        for index, result in enumerate(results):
            sink.write(_output_line(result, ids, index))
            sink.flush()
            summary.add(result, index)
            bar.update(1)
            if index % 16 == 0:
                bar.set_postfix_str(summary.short(), refresh=False)
        bar.set_postfix_str(summary.short(), refresh=False)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        results.close()
        bar.close()
        if sink is not sys.stdout:
            sink.close()
        if source is not sys.stdin.buffer:
            source.close()
        shutdown_ray()
    summary.write(sys.stderr, where, interrupted)
    return EXIT_INTERRUPTED if interrupted else EXIT_OK


def main(argv: Sequence[str]) -> int:
    """Entry point of `wasm-exec batch`; returns the exit status."""
    try:
        return _run(_build_parser().parse_args(list(argv)))
    except ConnectionError as exc:
        print(f"{PROG}: cannot reach the Ray cluster: {exc}", file=sys.stderr)
        return EXIT_RUNTIME
    except (UsageError, SandboxError, KeyboardInterrupt) as exc:
        return report_failure(PROG, exc)
