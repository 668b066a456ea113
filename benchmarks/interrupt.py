"""Interrupt latency (issue 32): from the moment another thread sets a run's `cancel` Event
(or calls `Session.interrupt()`) to the moment `execute()` returns the `interrupted` result,
for a guest computing in wasm, one sleeping in a host call and a session call (which is also
rolled back before it returns). And what the per-tick epoch callback that makes this
possible costs a CPU-bound run (the same loop with and without it, interleaved).

    .venv/bin/python benchmarks/interrupt.py [--quick]

Prints a table and writes benchmarks/results/interrupt.json. Target: p50 well under 50 ms.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import threading
import time
from collections.abc import Callable
from pathlib import Path

from _timing import summary

import sandbox_wasm as sw
from sandbox_wasm._host import calls, wasi

HERE = Path(__file__).resolve().parent
DEADLINE_MS = 20_000
CPU_LOOP = "x = 0\nfor i in range(3_000_000):\n    x += i\nprint(x)"


def interrupt_latency_ms(run: Callable[[threading.Event], sw.ExecutionResult],
                         interrupt: Callable[[threading.Event], object]) -> float:
    """Start `run(cancel)`, interrupt it 150-300 ms in from another thread, and return the
    ms from the interrupt to the result."""
    cancel = threading.Event()
    set_at: list[float] = []

    def later() -> None:
        time.sleep(random.uniform(0.15, 0.3))
        set_at.append(time.perf_counter())
        interrupt(cancel)

    thread = threading.Thread(target=later)
    thread.start()
    result = run(cancel)
    ended = time.perf_counter()
    thread.join()
    assert result.status == "interrupted", result
    return (ended - set_at[0]) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run (5 tries)")
    tries = 5 if parser.parse_args().quick else 20
    box = sw.Sandbox(python_runtime="cpython313", timeout_ms=DEADLINE_MS)
    box.warm_up()
    session = sw.Session(sandbox=box, timeout_ms=DEADLINE_MS)
    session.execute("state = 1")

    def one_shot(code: str) -> Callable[[threading.Event], sw.ExecutionResult]:
        return lambda cancel: box.execute(code, cancel=cancel)

    cases: dict[str, tuple[Callable[[threading.Event], sw.ExecutionResult],
                           Callable[[threading.Event], object]]] = {
        "busy loop (in wasm)": (one_shot("while True: pass"), threading.Event.set),
        "time.sleep(30) (in poll_oneoff)": (one_shot("import time\ntime.sleep(30)"),
                                            threading.Event.set),
        "session call, rolled back": (
            lambda cancel: session.execute("state = 2\nwhile True: pass"),
            lambda cancel: session.interrupt()),
    }
    samples: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(tries):
        for name, (run, interrupt) in cases.items():
            samples[name].append(interrupt_latency_ms(run, interrupt))
    assert session.execute("print(state)").stdout == "1\n"
    session.close()

    # The cost of the per-tick callback: a CPU-bound run in Stores with and without it.
    cpu: dict[str, list[float]] = {"with the epoch callback": [],
                                   "without (deadline = whole timeout)": []}
    for _ in range(max(3, tries // 4)):
        for name in cpu:
            calls.EPOCH_CALLBACKS = wasi.EPOCH_CALLBACKS = name.startswith("with ")
            plain = sw.Sandbox(python_runtime="cpython313", timeout_ms=DEADLINE_MS)
            started = time.perf_counter()
            assert plain.execute(CPU_LOOP).ok
            cpu[name].append((time.perf_counter() - started) * 1000)
            plain.close()
    calls.EPOCH_CALLBACKS = wasi.EPOCH_CALLBACKS = True

    rows = [{"case": name, **summary(values)} for name, values in samples.items()]
    print(f"| interrupt -> result ({tries} tries) | p50 ms | p95 ms |")
    print("|---|---|---|")
    for row in rows:
        print(f"| {row['case']} | {row['p50_ms']} | {row['p95_ms']} |")
    cpu_rows = [{"case": name, "median_ms": round(statistics.median(values), 1)}
                for name, values in cpu.items()]
    print("\n| CPU-bound run (3M-iteration loop) | median ms |\n|---|---|")
    for row in cpu_rows:
        print(f"| {row['case']} | {row['median_ms']} |")
    (HERE / "results").mkdir(exist_ok=True)
    (HERE / "results" / "interrupt.json").write_text(json.dumps(
        {"tries": tries, "latency": rows, "cpu_bound": cpu_rows}, indent=2) + "\n")


if __name__ == "__main__":
    main()
