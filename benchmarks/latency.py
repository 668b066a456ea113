"""Latency, cold start, CPU ratio, throughput and memory of sandbox-wasm, with baselines
measured in the same run (these machines are noisy: compare ratios, not absolute times).
"snapshot" rows run the default runtime (our CPython 3.13 snapshot), whose one-shot runs
reuse instances put back to the image; "fresh instance" rows the same runtime with reuse
off (an instance per run), interleaved call by call with it.

    .venv/bin/python benchmarks/latency.py [--quick]

Prints a table and writes benchmarks/results/latency.json.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import shutil
import site
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import venv
from pathlib import Path

from _timing import milliseconds, summary

import sandbox_wasm as sw
from sandbox_wasm._audit.report import build_report
from sandbox_wasm._guest.bootstrap import MODE_EXEC
from sandbox_wasm._host.memory import OS_PAGE
from sandbox_wasm._request import audit_budget
from sandbox_wasm._wire import parse_audit_answer, policy_line, request_payload

HERE = Path(__file__).resolve().parent
HELLO = "print('hi')"
JSON_RE = (
    "import json, re\n"
    "data = json.loads('{\"items\": [\"a1\", \"b22\", \"c333\"]}')\n"
    "print(json.dumps([int(re.sub(r'\\\\D', '', s)) for s in data['items']]))\n"
)
BLOCKED = "print(().__class__.__base__.__subclasses__())"
CPU = (
    "import time\nt = time.perf_counter()\nsum(i * i for i in range(3_000_000))\n"
    "print(time.perf_counter() - t)"
)


def timed(fn, n: int) -> dict[str, float]:  # type: ignore[no-untyped-def]
    return summary([milliseconds(fn) for _ in range(n)])


def interleaved(first, second, n: int) -> tuple[dict[str, float], dict[str, float]]:  # type: ignore[no-untyped-def]
    """Time two callables alternately, so a busy moment of the machine hits both alike."""
    pairs = [(milliseconds(first), milliseconds(second)) for _ in range(n)]
    return summary([a for a, _ in pairs]), summary([b for _, b in pairs])


def smallest_memory_cap(box: sw.Sandbox) -> int:
    """The smallest memory cap (whole MiB) at which print('hi') is audited and runs.

    Below the public floor (`Limits.memory_mb >= 32`), so it drives the sandbox's guest
    program directly with the request the library would send."""
    program = box._program("python")
    payload = b"\n".join((MODE_EXEC, policy_line(box.policy), HELLO.encode()))

    def below_floor(limits: sw.Limits, memory_mb: int) -> sw.Limits:
        return sw.Limits.model_construct(**{**limits.model_dump(), "memory_mb": memory_mb})

    def starts(memory_mb: int) -> bool:
        limits = below_floor(sw.Limits(), memory_mb)
        budget = below_floor(audit_budget(sw.Limits().memory_mb), memory_mb)
        try:
            outcome = program.run(payload, limits, audit_budget=budget)
        except sw.InvalidRequestError:  # below the memory the runtime's image starts with
            return False
        return outcome.trap is None and outcome.exit_code == 0 and outcome.stdout_text == "hi\n"

    low, high = 1, 64
    while low < high:
        middle = (low + high) // 2
        if starts(middle):
            high = middle
        else:
            low = middle + 1
    return low


def faults_per_run(box: sw.Sandbox, n: int) -> float:
    """Minor page faults per `print('hi')` (each page a run first reads or writes in a
    fresh copy-on-write instance is one; a reused instance has its pages mapped already)."""
    import resource

    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(n):
        box.execute(HELLO)
    return round((resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before) / n, 1)


def pages_written() -> int:
    """Pages of linear memory `print('hi')` writes in an instance of its own: what a reuse
    copies back (an instance's set only grows: one that ran bigger code copies back more)."""
    with sw.Sandbox() as box:
        for _ in range(3):
            box.execute(HELLO)
        idle = box._program("python").idle_instances()
        return idle[0][1].written_bytes // OS_PAGE if idle else -1


def audit_split(box: sw.Sandbox, n: int) -> dict[str, float]:
    """The audit's two halves for `print('hi')`: the guest's parse, compile and facts (ms
    from entering the guest to its answer, p50) and the host's re-derivation of the verdict
    from that answer (µs, p50)."""
    guest = [box.execute(HELLO).metrics.audit_time_ms for _ in range(n)]
    payload = request_payload(MODE_EXEC, {}, policy_line(box.policy), HELLO, rest=True)
    outcome = box._program("python").run(payload, box.limits,
                                         audit_budget=audit_budget(box.limits.memory_mb))
    host = []
    for _ in range(n):
        start = time.perf_counter()
        build_report(box.policy, parse_audit_answer(outcome.audit_answer) or {})
        host.append((time.perf_counter() - start) * 1e6)
    return {"guest_ms_p50": round(statistics.median(guest), 3),
            "host_us_p50": round(statistics.median(host), 1)}


def execute_many_rate(count: int, workers: int, *, distinct: bool) -> float:
    """Executions per second of `count` print('hi') through one `execute_many` call (worker
    processes; their start-up included, as a caller pays it). `distinct`: each snippet is
    `print('hi', i)`, so no audit answer comes from the cache."""
    list(sw.execute_many([HELLO] * (workers * 4), workers=workers))  # the compile cache
    codes = [f"print('hi', {i})" for i in range(count)] if distinct else [HELLO] * count
    started = time.perf_counter()
    results = list(sw.execute_many(codes, workers=workers))
    elapsed = time.perf_counter() - started
    assert all(r.status == "succeeded" for r in results)
    return count / elapsed


def native_spawn(code: str) -> None:
    subprocess.run([sys.executable, "-I", "-S", "-c", code], check=True, capture_output=True)


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


# A new process's first result, and where its time went (the child's own clock).
COLD_START = """\
import time
started = time.perf_counter()
import sandbox_wasm as sw
imported = time.perf_counter()
from sandbox_wasm._sandbox import default_sandbox
box = default_sandbox()
box.warm_up()  # the runtime's hash check and the compiled module's deserialisation
loaded = time.perf_counter()
result = box.execute("print(1)")
assert result.stdout == "1\\n", result
ran = time.perf_counter()
print(round((imported - started) * 1000, 1), round((loaded - imported) * 1000, 1),
      round((ran - loaded) * 1000, 1), flush=True)
"""


def installed_layout(root: Path) -> Path:
    """A virtual environment laid out as a user's install of the package is, and its
    interpreter: the package and its dependencies on sys.path through a plain `.pth` file.
    The checkout's own environment installs the package in editable mode, whose `.pth`
    runs an import finder at every interpreter start (pathlib, urllib.parse, ...: ~12 ms
    here), a cost only a development checkout pays."""
    venv.create(root, with_pip=False, symlinks=True)
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    site_packages = root / "lib" / version / "site-packages"
    paths = [str(Path(sw.__file__).resolve().parents[1]), *site.getsitepackages()]
    (site_packages / "sandbox_wasm_benchmark.pth").write_text("\n".join(paths) + "\n")
    return root / "bin" / "python"


def cold_start(cache_dir: str, python: Path | None = None) -> dict[str, float]:
    """ms from spawning a process to its first result (it prints it), and of the whole
    process (its exit included), with the child's split: import, runtime load, first run.
    `python`: the interpreter to start (this one by default; `installed_layout`'s for the
    figure a user's install sees). The package's bytecode is brought up to date first, as
    installing it does: a checkout run with PYTHONDONTWRITEBYTECODE (as CI is) would
    otherwise time the compilation of every module edited since its bytecode was written
    (~25 ms for the guest bootstrap)."""
    compileall.compile_dir(Path(sw.__file__).parent, quiet=1)
    env = {**os.environ, "SANDBOX_WASM_CACHE_DIR": cache_dir}
    start = time.perf_counter()
    child = subprocess.Popen([str(python or sys.executable), "-c", COLD_START], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert child.stdout is not None
    line = child.stdout.readline()
    first = (time.perf_counter() - start) * 1000
    _, errors = child.communicate()
    whole = (time.perf_counter() - start) * 1000
    if child.returncode != 0 or not line:
        raise SystemExit(f"the cold-start child failed: {errors[-500:]}")
    imports, load, run = (float(part) for part in line.split())
    return {"to_first_result_ms": first, "whole_process_ms": whole, "import_ms": imports,
            "runtime_load_ms": load, "first_execute_ms": run}


def throughput(box: sw.Sandbox, threads: int, seconds: float) -> float:
    count = [0] * threads
    stop = time.monotonic() + seconds

    def work(slot: int) -> None:
        while time.monotonic() < stop:
            assert box.execute(HELLO).status == "succeeded"
            count[slot] += 1

    workers = [threading.Thread(target=work, args=(i,)) for i in range(threads)]
    started = time.monotonic()
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return sum(count) / (time.monotonic() - started)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer samples")
    args = parser.parse_args()
    n = 50 if args.quick else 300
    hello_n = 100 if args.quick else 1000
    report: dict[str, object] = {"python": sys.version.split()[0], "cpus": os.cpu_count()}

    snapshot = sw.Sandbox()
    fresh = sw.Sandbox()
    fresh._program("python").reuses_instances = False  # an instance per run
    snapshot.warm_up("python", "javascript")
    report["runtime"] = snapshot.runtime_info.model_dump()
    for _ in range(20):
        snapshot.execute(HELLO)
        fresh.execute(HELLO)

    rows: dict[str, dict[str, float]] = {}
    few = 10 if args.quick else 40
    rows["native python3 -I -S -c spawn"] = timed(lambda: native_spawn(HELLO), few)
    rows["snapshot print('hi')"], rows["fresh instance print('hi')"] = interleaved(
        lambda: snapshot.execute(HELLO), lambda: fresh.execute(HELLO), hello_n
    )
    rows["snapshot json/re script"] = timed(lambda: snapshot.execute(JSON_RE), n)
    rows["snapshot blocked script"] = timed(lambda: snapshot.execute(BLOCKED), n)
    rows["javascript console.log(1)"] = timed(
        lambda: snapshot.execute("console.log(1)", language="javascript"), n
    )
    report["latency"] = rows
    report["page_faults_per_run"] = {
        "snapshot": faults_per_run(snapshot, n), "fresh instance": faults_per_run(fresh, n),
    }
    report["pages_written_per_run"] = {"snapshot": pages_written()}
    report["audit_split"] = audit_split(snapshot, n)
    report["smallest_memory_cap_mb"] = {
        "snapshot": smallest_memory_cap(snapshot),
    }

    with tempfile.TemporaryDirectory() as empty_cache, \
            tempfile.TemporaryDirectory() as install_root:
        installed = installed_layout(Path(install_root))
        first = cold_start(empty_cache)  # compiles and fills the cache
        warm: list[dict[str, float]] = []
        warm_installed: list[dict[str, float]] = []
        for _ in range(3 if args.quick else 7):  # the two layouts alternated
            warm.append(cold_start(empty_cache))
            warm_installed.append(cold_start(empty_cache, installed))
    report["first_run_with_compile_ms"] = round(first["to_first_result_ms"], 1)
    report["cold_start_warm_cache_ms"] = round(
        statistics.median(w["to_first_result_ms"] for w in warm), 1)
    report["cold_start_installed_ms"] = round(
        statistics.median(w["to_first_result_ms"] for w in warm_installed), 1)
    report["cold_start_warm_cache"] = {
        key: round(statistics.median(w[key] for w in warm), 1) for key in warm[0]}
    report["cold_start_installed"] = {
        key: round(statistics.median(w[key] for w in warm_installed), 1)
        for key in warm_installed[0]}
    native_start = statistics.median(
        [timed(lambda: native_spawn("pass"), 1)["p50_ms"] for _ in range(5)]
    )
    report["native_interpreter_start_ms"] = round(native_start, 1)

    native_cpu = float(subprocess.run([sys.executable, "-I", "-S", "-c", CPU], check=True,
                                      capture_output=True, text=True).stdout)
    sandbox_cpu = float(snapshot.execute(CPU, timeout_ms=30_000).stdout)
    report["cpu_bound_s"] = {"native": round(native_cpu, 3), "sandbox": round(sandbox_cpu, 3),
                             "ratio": round(sandbox_cpu / native_cpu, 1)}

    js_loop = (
        "const t = Date.now(); let s = 0; for (let i = 0; i < 3000000; i++) s += i * i;"
        " console.log((Date.now() - t) / 1000);"
    )
    node = shutil.which("node")
    js_report: dict[str, object] = {
        "sandbox": float(snapshot.execute(js_loop, language="javascript",
                                          timeout_ms=30_000).stdout)
    }
    if node:
        js_report["node"] = float(subprocess.run([node, "-e", js_loop], check=True,
                                                 capture_output=True, text=True).stdout)
        js_report["ratio"] = round(js_report["sandbox"] / max(js_report["node"], 1e-3), 1)  # type: ignore[operator]
    report["javascript_cpu_loop_s"] = js_report

    seconds = 1.5 if args.quick else 4.0
    many = 2000 if args.quick else 10_000
    report["throughput_per_s"] = {
        "1 thread": round(throughput(snapshot, 1, seconds), 1),
        "2 threads": round(throughput(snapshot, 2, seconds), 1),
        "fresh instance, 2 threads": round(throughput(fresh, 2, seconds), 1),
        "execute_many, 2 processes": round(execute_many_rate(many, 2, distinct=False), 1),
        "execute_many, 2 processes, distinct": round(
            execute_many_rate(many, 2, distinct=True), 1),
    }

    for _ in range(10):
        snapshot.execute(HELLO)
    rss_10 = rss_mb()
    for _ in range(1000):
        snapshot.execute(HELLO)
    report["rss_mb"] = {"after_10": round(rss_10, 1), "after_1010": round(rss_mb(), 1)}

    native_p50 = rows["native python3 -I -S -c spawn"]["p50_ms"]
    hello = rows["snapshot print('hi')"]
    report["ratios"] = {
        "native_spawn / snapshot (p50)": round(native_p50 / hello["p50_ms"], 1),
        "fresh instance / snapshot (p50)": round(
            rows["fresh instance print('hi')"]["p50_ms"] / hello["p50_ms"], 2),
        "snapshot p95 / p50": round(hello["p95_ms"] / hello["p50_ms"], 2),
    }

    print(f"{'case':38} {'p50 ms':>9} {'p95 ms':>9}")
    for name, row in rows.items():
        print(f"{name:38} {row['p50_ms']:9.2f} {row['p95_ms']:9.2f}")
    for key in ("first_run_with_compile_ms", "cold_start_warm_cache_ms",
                "cold_start_installed_ms", "native_interpreter_start_ms"):
        print(f"{key:38} {report[key]:9}")
    for section in ("cold_start_warm_cache", "cold_start_installed", "page_faults_per_run",
                    "pages_written_per_run", "audit_split", "smallest_memory_cap_mb",
                    "cpu_bound_s", "javascript_cpu_loop_s", "throughput_per_s", "rss_mb",
                    "ratios"):
        for key, value in report[section].items():  # type: ignore[union-attr]
            print(f"{section + ': ' + key:38} {value:9}")
    out = HERE / "results" / "latency.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(report, indent=2) + "\n")
    print(f"wrote {out.relative_to(HERE.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
