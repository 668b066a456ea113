"""What sessions cost, against a one-shot `sandbox_wasm.execute()` measured in the same
process and moment (these machines are noisy: compare ratios, not absolute times):

- the latency of one small call (`x += 1`) on a live session, with on_trap="rollback" (a
  checkpoint of the written pages after every call) and "close" (none), for a session that
  ran one call and one holding ~10 MiB of Python data (the checkpoint copies every page the
  session wrote, so its cost grows with the state; it is taken in the background after the
  call returns), interleaved call by call with a one-shot `execute("x = 1")`, and call after
  call on one session (each call then waits for the previous call's checkpoint), where
  rollback runs twice: with the kernel tracking the pages each call writes (a session
  past TRACK_WRITES_ABOVE checkpoints only those) and with every written page copied;
- the same call 5 ms after the last returned (the checkpoint taken by the checkpoint thread
  in between), rollback and close;
- `snapshot()` and `Session.restore()` (median of repeated rounds, each restore interleaved
  with a one-shot run) and the snapshot's size, by how much data the session holds;
- the host memory an idle session keeps, per session over a group of sessions, for both
  on_trap modes (rollback keeps the checkpoint's copy of the written pages on the host): its
  RSS, and the private part of it. Each instance maps the runtime's memory image from the
  compiled module, so the image pages it reads count in every instance's RSS although the
  page cache holds them once; the private pages (written, and the checkpoints) are what each
  session adds.

    .venv/bin/python benchmarks/session.py [--quick]

Prints markdown tables and writes benchmarks/results/session.json.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import os
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from _timing import milliseconds, summary

import sandbox_wasm as sw
from sandbox_wasm._host.write_tracking import WriteTracker

HERE = Path(__file__).resolve().parent
MIB = 2**20
STEP = "x += 1"
ONE_SHOT = "x = 1"
MODES = ("rollback", "close")
# What the sessions of the snapshot rows hold, after a first call (a 10 MiB row, and the list
# of 200k small dicts the issue names, which takes ~28 MiB of the guest's memory).
STATES = {
    "one call": None,
    "75k small dicts": "data = [{'i': i, 'name': 'x'} for i in range(75_000)]",
    "200k small dicts": "data = [{'i': i, 'name': 'x'} for i in range(200_000)]",
}
# What the sessions of the latency and memory rows hold (a checkpoint copies every page the
# session wrote, so its cost grows with the state).
LATENCY_STATES = ("one call", "75k small dicts")
ONE_SHOT_CASE = f"one-shot execute({ONE_SHOT!r})"








def _session(on_trap: str = "rollback") -> sw.Session:
    # No idle reaper: the benchmark decides when its sessions close.
    return sw.Session(on_trap=on_trap, idle_timeout_s=None)  # type: ignore[arg-type]


def rss_bytes() -> int:
    """The process's resident set now (not its peak, which `resource` gives)."""
    resident_pages = int(Path("/proc/self/statm").read_text().split()[1])
    return resident_pages * os.sysconf("SC_PAGE_SIZE")


def private_bytes() -> int | None:
    """The process's private resident memory (pages no other mapping shares), or None where
    the kernel does not say."""
    try:
        lines = Path("/proc/self/smaps_rollup").read_text().splitlines()[1:]
    except OSError:
        return None
    fields = {name: int(value.split()[0]) for name, value in (line.split(":") for line in lines)}
    return (fields["Private_Clean"] + fields["Private_Dirty"]) * 1024


def _open(mode: str, setup: str | None) -> sw.Session:
    """A session of `mode` after its first call (`x = 1`) and `setup`, if given."""
    session = _session(mode)
    assert session.execute(ONE_SHOT).ok
    if setup is not None:
        assert session.execute(setup, timeout_ms=30_000).ok
    # Its checkpoint taken, as it is after an agent's call (a call right after another
    # leaves it to the session's next use).
    session._settle()
    return session


def rss_per_idle_session(count: int) -> dict[str, dict[str, dict[str, float | None]]]:
    """Host memory growth per session over `count` idle sessions of each mode, by what they
    hold. Every group stays open while the next is measured, so no memory one group freed
    is handed to the next."""
    groups: list[sw.Session] = []
    rows: dict[str, dict[str, dict[str, float | None]]] = {}

    def per_session(after: int | None, before: int | None) -> float | None:
        if after is None or before is None:
            return None
        return round((after - before) / count / MIB, 2)

    try:
        for label in LATENCY_STATES:
            for mode in ("close", "rollback"):
                gc.collect()
                rss_before, private_before = rss_bytes(), private_bytes()
                group = [_open(mode, STATES[label]) for _ in range(count)]
                gc.collect()
                rows.setdefault(label, {})[mode] = {
                    "rss_mib_per_session": per_session(rss_bytes(), rss_before),
                    "private_mib_per_session": per_session(private_bytes(), private_before),
                    "linear_memory_mib": round(group[0].memory_bytes / MIB, 1),
                    "sessions": count,
                }
                groups.extend(group)
    finally:
        for session in groups:
            session.close()
    return rows


def call_latency(n: int) -> dict[str, dict[str, float]]:
    """`x += 1` on live sessions of each mode and a one-shot run, interleaved."""
    sessions = {(label, mode): _open(mode, STATES[label])
                for label in LATENCY_STATES for mode in MODES}
    try:
        cases: dict[str, Callable[[], object]] = {
            f"session {STEP}, {label} (on_trap={mode})": (lambda s=session: s.execute(STEP))
            for (label, mode), session in sessions.items()
        }
        cases[ONE_SHOT_CASE] = lambda: sw.execute(ONE_SHOT)
        for _ in range(50):
            for fn in cases.values():
                fn()
        samples: dict[str, list[float]] = {name: [] for name in cases}
        settle = [session._settle for session in sessions.values()]
        for _ in range(n):
            for name, fn in cases.items():
                samples[name].append(milliseconds(fn))
                # The checkpoint a rollback call leaves is taken in the background; let it
                # finish outside the timed calls, as it would during an agent's next turn,
                # instead of in the middle of another case's call.
                for wait in settle:
                    wait()
        for session in sessions.values():  # every call counted: none was lost or rolled back
            assert session.execute("print(x)").stdout == f"{1 + 50 + n}\n"
    finally:
        for session in sessions.values():
            session.close()
    return {name: summary(values) for name, values in samples.items()}


@contextlib.contextmanager
def _writes_not_tracked() -> Iterator[None]:
    """Sessions checkpoint as where the kernel cannot track writes: every written page
    copied (the baseline of the tracked checkpoints, in the same process and moment)."""
    real = WriteTracker.open
    WriteTracker.open = classmethod(  # type: ignore[method-assign, assignment]
        lambda cls, address, size: None)
    try:
        yield
    finally:
        WriteTracker.open = real  # type: ignore[method-assign]


def back_to_back(n: int, rounds: int = 4) -> dict[str, dict[str, float]]:
    """`x += 1` on one session at a time, call after call: with rollback each call waits for
    the checkpoint the previous one left to be taken (in the interleaved rows it is taken
    while the other cases run). Rollback runs twice: with the pages each call writes
    tracked by the kernel (sessions past TRACK_WRITES_ABOVE, where it can) and without
    (every written page copied); the cases take turns in `rounds` blocks of calls."""
    results: dict[str, dict[str, float]] = {}
    for label in LATENCY_STATES:
        cases = {
            f"session {STEP} back to back, {label} (on_trap={mode}{variant})": (mode, tracked)
            for mode, variant, tracked in (("rollback", "", True),
                                           ("rollback", ", writes not tracked", False),
                                           ("close", "", True))
        }
        sessions = {}
        for name, (mode, tracked) in cases.items():
            with contextlib.nullcontext() if tracked else _writes_not_tracked():
                sessions[name] = _open(mode, STATES[label])
                for _ in range(20):
                    sessions[name].execute(STEP)
                sessions[name]._settle()
        samples: dict[str, list[float]] = {name: [] for name in cases}
        try:
            for _ in range(rounds):
                for name, (_, tracked) in cases.items():
                    session = sessions[name]
                    with contextlib.nullcontext() if tracked else _writes_not_tracked():
                        samples[name] += [milliseconds(lambda s=session: s.execute(STEP))
                                          for _ in range(n // rounds)]
                        session._settle()
        finally:
            for session in sessions.values():
                session.close()
        results.update({name: summary(values) for name, values in samples.items()})
    return results


def apart(n: int, gap_s: float = 0.005, rounds: int = 4) -> dict[str, dict[str, float]]:
    """`x += 1` on one session at a time, each call `gap_s` after the last returned (the
    checkpoint is then taken by the checkpoint thread meanwhile), rollback and close taking
    turns in `rounds` blocks. On these VMs any pause makes the next call slower (its caches
    are cold again), so compare these rows with each other, not with back to back."""
    results: dict[str, dict[str, float]] = {}
    for label in LATENCY_STATES:
        sessions = {mode: _open(mode, STATES[label]) for mode in MODES}
        samples: dict[str, list[float]] = {mode: [] for mode in MODES}
        try:
            for _ in range(rounds):
                for mode, session in sessions.items():
                    for _ in range(n // rounds):
                        time.sleep(gap_s)
                        samples[mode].append(milliseconds(lambda s=session: s.execute(STEP)))
        finally:
            for session in sessions.values():
                session.close()
        results.update({
            f"session {STEP} {gap_s * 1000:.0f} ms apart, {label} (on_trap={mode})":
            summary(values) for mode, values in samples.items()})
    return results


def snapshot_costs(rounds: int) -> dict[str, dict[str, float]]:
    """snapshot() and restore() times and the snapshot's size, by what the session holds;
    each restore is interleaved with a one-shot run (their ratio is the row's)."""
    rows = {}
    for label, setup in STATES.items():
        with _open("rollback", None) as session:
            fresh_memory = session.memory_bytes
            if setup is not None:
                assert session.execute(setup, timeout_ms=30_000).ok
            held = session.memory_bytes - fresh_memory
            snapshot_ms = [milliseconds(session.snapshot) for _ in range(rounds)]
            data = session.snapshot()
        restore_ms, one_shot_ms = [], []
        for _ in range(rounds):
            started = time.perf_counter()
            restored = sw.Session.restore(data, idle_timeout_s=None)
            restore_ms.append((time.perf_counter() - started) * 1000)
            if setup is not None and len(restore_ms) == 1:
                assert restored.execute("print(len(data))").stdout.strip().isdigit()
            restored.close()
            one_shot_ms.append(milliseconds(lambda: sw.execute(ONE_SHOT)))
        restore = statistics.median(restore_ms)
        rows[label] = {
            "memory_held_mib": round(held / MIB, 1),
            "snapshot_kib": round(len(data) / 1024, 1),
            "snapshot_ms": round(statistics.median(snapshot_ms), 2),
            "restore_ms": round(restore, 2),
            "one_shot_ms": round(statistics.median(one_shot_ms), 3),
            "restore / one-shot": round(restore / statistics.median(one_shot_ms), 1),
            "rounds": rounds,
        }
    return rows


def _table(header: list[str], rows: list[list[object]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer samples (a smoke run)")
    args = parser.parse_args()
    n, rounds, count = (200, 5, 5) if args.quick else (2_000, 20, 20)
    report: dict[str, object] = {"python": sys.version.split()[0], "cpus": os.cpu_count()}
    report["runtime"] = sw.Sandbox().runtime_info.model_dump()

    for mode in MODES:  # load and compile the runtime, start the allocator's arenas
        with _session(mode) as session:
            session.execute(STEP.replace("+=", "="))
    sw.execute(ONE_SHOT)

    # Memory first, on a heap the other measurements have not churned yet.
    rss = rss_per_idle_session(count)
    latency = call_latency(n)
    consecutive = back_to_back(n // 2)
    spaced = apart(n // 4)
    snapshots = snapshot_costs(rounds)

    one_shot = latency[ONE_SHOT_CASE]["p50_ms"]

    def p50(label: str, mode: str) -> float:
        return latency[f"session {STEP}, {label} (on_trap={mode})"]["p50_ms"]

    report["latency"] = latency
    report["back_to_back"] = consecutive
    report["apart"] = spaced
    report["ratios"] = {
        f"session ({label}, {mode}) / one-shot (p50)": round(p50(label, mode) / one_shot, 2)
        for label in LATENCY_STATES for mode in MODES
    } | {
        f"rollback / close, {label} (p50)": round(p50(label, "rollback") / p50(label, "close"), 2)
        for label in LATENCY_STATES
    } | {
        f"back to back, rollback tracked / not tracked, {label} (p50)": round(
            consecutive[f"session {STEP} back to back, {label} (on_trap=rollback)"]["p50_ms"]
            / consecutive[f"session {STEP} back to back, {label} (on_trap=rollback, writes "
                          "not tracked)"]["p50_ms"], 2)
        for label in LATENCY_STATES
    }
    report["snapshot"] = snapshots
    report["memory_per_idle_session"] = rss

    print(_table(["call", "p50 ms", "p95 ms", "p50 / one-shot"], [
        [name, f"{row['p50_ms']:.3f}", f"{row['p95_ms']:.3f}",
         f"{row['p50_ms'] / one_shot:.2f}"]
        for name, row in latency.items()
    ]))
    print()
    print(_table(["call after call on one session", "p50 ms", "p95 ms", "p50 / one-shot"], [
        [name, f"{row['p50_ms']:.3f}", f"{row['p95_ms']:.3f}",
         f"{row['p50_ms'] / one_shot:.2f}"]
        for name, row in consecutive.items()
    ]))
    for name, ratio in report["ratios"].items():
        if name.startswith("back to back"):
            print(f"- {name}: {ratio}")
    print()
    print(_table(["calls apart on one session", "p50 ms", "p95 ms", "p50 / one-shot"], [
        [name, f"{row['p50_ms']:.3f}", f"{row['p95_ms']:.3f}",
         f"{row['p50_ms'] / one_shot:.2f}"]
        for name, row in spaced.items()
    ]))
    print()
    print(_table(
        ["session holds (after x = 1)", "data MiB", "snapshot KiB", "snapshot() ms",
         "restore() ms", "restore / one-shot"],
        [[label, row["memory_held_mib"], row["snapshot_kib"], row["snapshot_ms"],
          row["restore_ms"], row["restore / one-shot"]] for label, row in snapshots.items()],
    ))
    print()
    print(_table(
        ["idle session", "host RSS MiB / session", "of it private MiB", "linear memory MiB"],
        [[f"{label}, on_trap={mode}", row["rss_mib_per_session"],
          row["private_mib_per_session"], row["linear_memory_mib"]]
         for label, modes in rss.items() for mode, row in modes.items()],
    ))
    out = HERE / "results" / "session.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(report, indent=2) + "\n")
    print(f"\nwrote {out.relative_to(HERE.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
