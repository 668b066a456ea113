"""`wasm-exec doctor`: prove on this host that the sandbox's limits and isolation hold.

Every check runs a real guest and looks at what came back (and, for isolation, at host-side
bait: a canary environment variable, a canary file, a TCP listener). The report has one line
per check; the exit status is 0 only when every check holds.
"""

from __future__ import annotations

import json
import os
import socket
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from .._audit.policy import REPORT_ONLY_POLICY
from .._errors import SandboxError
from .._models import ExecutionResult, Limits
from .._runtimes.artifacts import MANIFEST_NAME, PYTHON_VARIANTS, read_manifest
from .._sandbox import Sandbox
from ._common import EXIT_FAILED, EXIT_OK, EXIT_USAGE, OneLineParser, UsageError

# Deadlines are epoch ticks driven by a host thread: allow the guest this much past its
# deadline before calling the deadline broken (scheduling on a loaded host included).
DEADLINE_GRACE = 1.5
DEADLINE_GRACE_MS = 250
CANARY_ENV = "SANDBOX_WASM_DOCTOR_CANARY"


@dataclass
class Check:
    """The outcome of one check."""

    name: str
    ok: bool
    detail: str
    data: dict[str, object] = field(default_factory=dict)


class _Failed(Exception):
    """A check did not hold; the message says what was seen."""


def _expect(condition: bool, message: str) -> None:
    if not condition:
        raise _Failed(message)


def _describe(result: ExecutionResult) -> str:
    error = f" {result.error.type}: {result.error.message[:120]}" if result.error else ""
    return f"status={result.status} exit={result.exit_code}{error}"


def _within_deadline(result: ExecutionResult, timeout_ms: int) -> None:
    bound = timeout_ms * DEADLINE_GRACE + DEADLINE_GRACE_MS
    _expect(result.status == "timeout" and result.exit_code == 124,
            f"expected a timeout, got {_describe(result)}")
    _expect(result.metrics.execution_time_ms <= bound,
            f"stopped after {result.metrics.execution_time_ms:.0f} ms (bound {bound:.0f} ms)")


class Doctor:
    """Runs the checks against one sandbox configuration."""

    def __init__(self, python_runtime: str | None = None, samples: int = 20) -> None:
        self.samples = samples
        self.default = Sandbox(python_runtime=python_runtime)
        self.open = Sandbox(policy=REPORT_ONLY_POLICY, python_runtime=python_runtime)
        self.checks: list[Check] = []

    def run(self) -> list[Check]:
        steps: list[tuple[str, Callable[[], tuple[str, dict[str, object]]]]] = [
            ("runtime", self.check_runtime),
            ("hello", self.check_hello),
            ("latency", self.check_latency),
            ("deadline-busy-loop", self.check_deadline_loop),
            ("deadline-sleep", self.check_deadline_sleep),
            ("fuel", self.check_fuel),
            ("fuel-per-second", self.check_fuel_rate),
            ("memory-cap", self.check_memory),
            ("stdout-cap", self.check_stdout_cap),
            ("stderr-cap", self.check_stderr_cap),
            ("no-preopens", self.check_no_preopens),
            ("no-environment", self.check_no_environment),
            ("no-network", self.check_no_network),
            ("isolation", self.check_isolation),
            ("audit-policy", self.check_audit),
        ]
        for name, step in steps:
            try:
                detail, data = step()
                self.checks.append(Check(name, True, detail, data))
            except _Failed as failed:
                self.checks.append(Check(name, False, str(failed)))
            except SandboxError as exc:
                self.checks.append(Check(name, False, f"{type(exc).__name__}: {exc}"))
                if name == "runtime":
                    break  # nothing else can run without a runtime
            except Exception as exc:  # a doctor reports, it never crashes
                self.checks.append(Check(name, False, f"unexpected {type(exc).__name__}: {exc}"))
        return self.checks

    # -- the checks ---------------------------------------------------------------------
    def check_runtime(self) -> tuple[str, dict[str, object]]:
        # Loading verifies the runtime against its build manifest, and raises with the command
        # that fixes a missing or altered one (the check fails with it; nothing else runs).
        info = self.default.runtime_info
        path = self.default._program("python").runtime.path
        data = info.model_dump()
        manifest = read_manifest(path.parent)
        data["path"] = str(path)
        data["recipe_hash"] = manifest.get("recipe_hash")
        data["deterministic_build"] = manifest.get("deterministic")
        _expect(manifest.get("snapshot_sha256") == info.sha256,
                f"{path.parent / MANIFEST_NAME} does not describe {path}")
        source = f"our own build, recipe {str(manifest.get('recipe_hash'))[:16]}..., {path}"
        return (f"{info.name} {info.version} sha256={info.sha256[:16]}... ({source}) "
                f"wasmtime {info.wasmtime}"), data

    def check_hello(self) -> tuple[str, dict[str, object]]:
        result = self.default.execute("print('hello from the sandbox')")
        _expect(result.status == "succeeded" and result.stdout == "hello from the sandbox\n",
                _describe(result))
        return f"{result.metrics.fuel_consumed:,} fuel", {"fuel": result.metrics.fuel_consumed}

    def check_latency(self) -> tuple[str, dict[str, object]]:
        walls, guest = [], []
        for i in range(self.samples):
            started = time.perf_counter()
            result = self.default.execute(f"print({i})")
            walls.append((time.perf_counter() - started) * 1000)
            guest.append(result.metrics.execution_time_ms)
            _expect(result.stdout == f"{i}\n", _describe(result))
        walls.sort()
        p95 = walls[min(len(walls) - 1, int(len(walls) * 0.95))]
        data: dict[str, object] = {
            "samples": len(walls), "median_ms": round(statistics.median(walls), 2),
            "p95_ms": round(p95, 2), "guest_median_ms": round(statistics.median(guest), 2),
        }
        return (f"print(): median {data['median_ms']} ms, p95 {data['p95_ms']} ms end to end "
                f"({len(walls)} runs)"), data

    def check_deadline_loop(self) -> tuple[str, dict[str, object]]:
        result = self.default.execute("while True:\n    pass", timeout_ms=300)
        _within_deadline(result, 300)
        ms = result.metrics.execution_time_ms
        return f"busy loop stopped after {ms:.0f} ms (deadline 300 ms)", {"stopped_ms": ms}

    def check_deadline_sleep(self) -> tuple[str, dict[str, object]]:
        result = self.default.execute("import time\ntime.sleep(3600)", timeout_ms=300)
        _within_deadline(result, 300)
        ms = result.metrics.execution_time_ms
        return f"time.sleep(3600) stopped after {ms:.0f} ms (deadline 300 ms)", {"stopped_ms": ms}

    def check_fuel(self) -> tuple[str, dict[str, object]]:
        # The budget bounds the user's code; start-up and the audit have their own budget
        # and are reported on top.
        budget = 100_000_000
        result = self.default.execute("i = 0\nwhile True:\n    i += 1",
                                     limits={"fuel": budget, "timeout_ms": 10_000})
        _expect(result.status == "fuel_exhausted" and result.exit_code == 124,
                _describe(result))
        before = result.metrics.fuel_consumed - budget
        _expect(before >= 0,
                f"consumed {result.metrics.fuel_consumed:,}, less than the {budget:,} budget")
        return (f"user code stopped at its budget of {budget:,} fuel "
                f"(+{before:,} for start-up and audit)"), {"budget": budget, "before": before}

    def check_fuel_rate(self) -> tuple[str, dict[str, object]]:
        # Two fuel-bounded busy loops: the difference of their budgets over the difference of
        # their run times is the guest's burn rate, start-up cost cancelled out. (Fuel read
        # back after a deadline trap under-counts tight loops, so a timeout cannot measure it.)
        # Budgets far apart and the best of two runs each, so that a stall of the host
        # (a noisy neighbour) cannot turn the difference into nonsense.
        times = []
        budgets = (1_000_000_000, 4_000_000_000)
        for budget in budgets:
            best = float("inf")
            for _ in range(2):
                result = self.default.execute("i = 0\nwhile True:\n    i += 1",
                                             limits={"fuel": budget, "timeout_ms": 30_000})
                _expect(result.status == "fuel_exhausted", _describe(result))
                best = min(best, result.metrics.execution_time_ms / 1000)
            times.append(best)
        _expect(times[1] > times[0], f"run times {times} do not grow with the budget")
        rate = (budgets[1] - budgets[0]) / (times[1] - times[0])
        limits = Limits()
        # The derived budget must leave the wall clock as the limit that normally fires.
        headroom = limits.effective_fuel / (rate * limits.timeout_ms / 1000)
        _expect(headroom > 1, f"the default fuel budget runs out before the default deadline "
                              f"({headroom:.2f}x)")
        return (f"{rate / 1e9:.2f} G fuel/s; the default budget is {headroom:.1f}x what the "
                "default deadline can burn"), {
                    "fuel_per_second": round(rate), "default_budget": limits.effective_fuel,
                    "budget_headroom": round(headroom, 2)}

    def check_memory(self) -> tuple[str, dict[str, object]]:
        cap_mb = 64
        code = "chunks = []\nwhile True:\n    chunks.append(bytearray(1 << 20))"
        result = self.default.execute(code, memory_mb=cap_mb, timeout_ms=10_000)
        contained = (
            (result.status == "failed" and result.error is not None
             and result.error.type == "MemoryError")
            or result.status == "memory_exceeded"
        )
        _expect(contained, _describe(result))
        peak = result.metrics.peak_memory_bytes
        _expect(peak <= cap_mb * 1024 * 1024, f"peak {peak:,} bytes above the {cap_mb} MiB cap")
        return (f"allocation stopped at {peak / 2**20:.0f} MiB of a {cap_mb} MiB cap "
                f"({result.status}, {result.error.type if result.error else ''})"), {
                    "cap_mb": cap_mb, "peak_bytes": peak}

    def _check_cap(self, stream: str, limit_name: str) -> tuple[str, dict[str, object]]:
        cap = 1000
        code = f"import sys\nsys.{stream}.write('x' * 100_000)\nsys.{stream}.flush()"
        result = self.open.execute(code, limits={limit_name: cap})
        text = result.stdout if stream == "stdout" else result.stderr
        truncated = result.stdout_truncated if stream == "stdout" else result.stderr_truncated
        _expect(result.status == "succeeded", _describe(result))
        _expect(len(text.encode()) == cap and truncated,
                f"kept {len(text.encode())} bytes (truncated={truncated}) with a cap of {cap}")
        return f"kept {cap} of 100,000 bytes, marked truncated", {"cap": cap}

    def check_stdout_cap(self) -> tuple[str, dict[str, object]]:
        return self._check_cap("stdout", "max_stdout_bytes")

    def check_stderr_cap(self) -> tuple[str, dict[str, object]]:
        return self._check_cap("stderr", "max_stderr_bytes")

    def check_no_preopens(self) -> tuple[str, dict[str, object]]:
        # A canary this check plants itself, found by its content, not by guessing names:
        # the guest's own in-memory tree has /, /tmp and a working directory of its own,
        # so a host path's name showing up in the guest proves nothing, but the canary's
        # secret or its unique directory would.
        with tempfile.TemporaryDirectory(prefix="sandbox-wasm-doctor-") as tmp:
            canary = Path(tmp) / "canary.txt"
            secret = f"doctor-canary-{os.getpid()}-{time.time_ns()}"
            canary.write_text(secret)
            code = (
                "import os\n"
                f"canary_dir = {tmp!r}\n"
                f"secret = {secret!r}.encode()\n"
                "reached = []\n"
                "for path in (canary_dir, canary_dir + '/canary.txt'):\n"
                "    try:\n"
                "        os.stat(path)\n"
                "        reached.append(path)\n"
                "    except OSError:\n"
                "        pass\n"
                "files = 0\n"
                "for top, _, names in os.walk('/'):\n"
                "    for name in names:\n"
                "        files += 1\n"
                "        try:\n"
                "            with open(os.path.join(top, name), 'rb') as handle:\n"
                "                if secret in handle.read(1 << 20):\n"
                "                    reached.append(os.path.join(top, name))\n"
                "        except OSError:\n"
                "            pass\n"
                "try:\n"
                "    open(canary_dir + '/doctor-write.txt', 'w').write('x')\n"
                "except OSError:\n"
                "    pass\n"
                "fds = []\n"
                "for fd in range(3, 64):\n"
                "    try:\n"
                "        os.read(fd, 1)\n"
                "        fds.append(fd)\n"
                "    except OSError:\n"
                "        pass\n"
                "print(sorted(set(reached)), fds, files)\n"
            )
            result = self.open.execute(code)
            _expect(result.status == "succeeded", _describe(result))
            reached, _, files = result.stdout.rpartition(" ")
            _expect(reached == "[] []", f"the guest reached host paths: {result.stdout}")
            _expect(secret not in result.model_dump_json(), "the canary file leaked")
            _expect(sorted(os.listdir(tmp)) == ["canary.txt"] and canary.read_text() == secret,
                    "the host directory changed")
        return (f"a planted canary unreachable (by its path, and by its content in all "
                f"{files.strip()} files the guest sees); no readable descriptor beyond "
                "stdio"), {"canary_dir": tmp}

    def check_no_environment(self) -> tuple[str, dict[str, object]]:
        secret = f"doctor-env-{os.getpid()}-{time.time_ns()}"
        previous = os.environ.get(CANARY_ENV)
        os.environ[CANARY_ENV] = secret
        try:
            result = self.open.execute("import os\nprint(dict(os.environ), os.getenv("
                                       f"{CANARY_ENV!r}))")
        finally:
            if previous is None:
                os.environ.pop(CANARY_ENV, None)
            else:
                os.environ[CANARY_ENV] = previous
        _expect(result.status == "succeeded" and result.stdout == "{} None\n",
                f"{_describe(result)} stdout={result.stdout[:200]!r}")
        _expect(secret not in result.model_dump_json(), "the canary variable leaked")
        return (f"guest environment is empty (host has {len(os.environ)} variables and a "
                "canary)"), {}

    def check_no_network(self) -> tuple[str, dict[str, object]]:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as listener:
            listener.bind(("127.0.0.1", 0))
            listener.listen(4)
            listener.setblocking(False)
            port = listener.getsockname()[1]
            code = (
                "import socket\n"
                "outcomes = []\n"
                "for attempt in (\n"
                f"    lambda: socket.socket().connect(('127.0.0.1', {port})),\n"
                f"    lambda: socket.create_connection(('127.0.0.1', {port}), timeout=1),\n"
                "    lambda: socket.getaddrinfo('localhost', 80),\n"
                "    lambda: socket.socket(socket.AF_INET, socket.SOCK_DGRAM)"
                f".sendto(b'x', ('127.0.0.1', {port})),\n"
                "):\n"
                "    try:\n"
                "        attempt()\n"
                "        outcomes.append('reached')\n"
                "    except Exception as exc:\n"
                "        outcomes.append(type(exc).__name__)\n"
                "print(outcomes)\n"
            )
            result = self.open.execute(code)
            try:
                listener.accept()
                connected = True
            except BlockingIOError:
                connected = False
        _expect(result.status == "succeeded", _describe(result))
        _expect("reached" not in result.stdout, f"a network call succeeded: {result.stdout}")
        _expect(not connected, "the host listener received a connection")
        return f"connect, DNS and UDP all fail: {result.stdout.strip()}", {}

    def check_isolation(self) -> tuple[str, dict[str, object]]:
        first = self.open.execute("import json, builtins\njson.MARK = 1\nbuiltins.MARK = 1\n"
                                  "GLOBAL_MARK = 1\nprint('set')")
        second = self.open.execute("import json, builtins\nprint(hasattr(json, 'MARK'), "
                                   "hasattr(builtins, 'MARK'), 'GLOBAL_MARK' in globals())")
        _expect(first.stdout == "set\n", _describe(first))
        _expect(second.stdout == "False False False\n",
                f"state survived between executions: {second.stdout!r}")
        return "no module, builtin or global state survives an execution", {}

    def check_audit(self) -> tuple[str, dict[str, object]]:
        result = self.default.execute("print(().__class__.__base__.__subclasses__())")
        _expect(result.status == "blocked" and result.exit_code == 1 and result.stdout == "",
                _describe(result))
        computed = self.default.execute(
            "def f(): pass\nprint(getattr(f, '__glo' + 'bals__'))")
        _expect(computed.error is not None and computed.error.type == "PermissionError"
                and computed.stdout == "", _describe(computed))
        policy = self.default.policy.name
        return (f"the default ({policy}) policy refuses a __subclasses__ walk before running "
                "it, and a computed `__globals__` while it runs"), {}


def _print_text(checks: Sequence[Check]) -> None:
    width = max(len(check.name) for check in checks)
    for check in checks:
        print(f"{check.name:<{width}}  {'ok' if check.ok else 'FAIL':<4}  {check.detail}")
    failed = [check.name for check in checks if not check.ok]
    print(f"{'doctor':<{width}}  {'FAIL' if failed else 'ok':<4}  "
          + (f"{len(failed)} check(s) failed: {', '.join(failed)}" if failed
             else f"all {len(checks)} checks hold on this host"))


def main(argv: Sequence[str]) -> int:
    """Entry point of `wasm-exec doctor`; returns the exit status."""
    parser = OneLineParser(
        prog="wasm-exec doctor",
        description="Self-test: prove on this host that every limit fires and the sandbox "
        "has no files, environment or network. Exit 0 only when every check holds.",
    )
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--python-runtime", choices=PYTHON_VARIANTS,
                        help=f"which Python runtime variant to test (default: "
                        f"{PYTHON_VARIANTS[0]})")
    parser.add_argument("--samples", type=int, default=20, help="latency samples (default 20)")
    try:
        args = parser.parse_args(list(argv))
        if args.samples < 1:
            raise UsageError("--samples must be at least 1")
    except UsageError as exc:
        print(f"wasm-exec doctor: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except SystemExit as exc:  # --help
        return int(exc.code or 0)
    checks = Doctor(args.python_runtime, args.samples).run()
    ok = all(check.ok for check in checks)
    if args.json:
        print(json.dumps({"ok": ok, "checks": [asdict(check) for check in checks]}, indent=2))
    else:
        _print_text(checks)
    return EXIT_OK if ok else EXIT_FAILED
