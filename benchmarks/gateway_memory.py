"""The gateway's memory under a bounded, hostile load on loopback: concurrent large bodies,
async jobs that write large /output files, sessions given large input files, and a flood of
requests the server must refuse. The server's RSS is sampled all along (/proc) and compared
with what its settings allow it to hold: its idle size plus the request-body budget, the job
store's budget, the sessions' budget and one guest memory cap per worker.

    .venv/bin/python benchmarks/gateway_memory.py

Prints a table and writes benchmarks/results/gateway_memory.json. A figure, not a test: the
tests assert the refusals (tests/security/test_host_resources.py).
"""

from __future__ import annotations

import base64
import json
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
from load_check import free_port, wait_for_server

HERE = Path(__file__).resolve().parent
MIB = 2**20
SETTINGS = {
    "workers": 1, "queue": 2, "rate-limit": 0, "max-request-memory-mb": 192,
    "max-job-store-mb": 64, "session-memory-mb": 768, "max-sessions": 4,
}
GUEST_MEMORY_MB = 256  # the default memory cap of one execution


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


class Sampler:
    """RSS of a process every 20 ms, in a thread."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.peak = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, rss_mb(self.pid))
            time.sleep(0.02)

    def stop(self) -> float:
        self._stop.set()
        self._thread.join()
        return self.peak


def large_bodies(url: str) -> dict[str, int]:
    """12 concurrent bodies of 40 MiB (30 MiB of input files in base64)."""
    code = "import time\ntime.sleep(0.5)\nprint(len(open('/input/f', 'rb').read()))"
    body = json.dumps({"code": code,
                       "files": {"f": base64.b64encode(b"z" * (30 * MIB)).decode()}})
    with ThreadPoolExecutor(12) as pool:
        codes = list(pool.map(lambda _: httpx.post(
            url + "/v1/tools/safe-exec", content=body, timeout=120,
            headers={"content-type": "application/json"}).status_code, range(12)))
    return {str(code): codes.count(code) for code in sorted(set(codes))}


def async_jobs(url: str) -> dict[str, int]:
    """12 async jobs each writing 4 x 8 MiB to /output, then polled until done or gone."""
    code = "for i in range(4):\n    open(f'/output/{i}', 'wb').write(b'x' * (8 * 2**20))\n"
    answers = [httpx.post(url + "/v1/tools/safe-exec/async", json={"code": code}, timeout=60)
               for _ in range(12)]
    ids = [a.json()["job_id"] for a in answers if a.status_code == 202]
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        states = [httpx.get(f"{url}/v1/jobs/{job_id}", timeout=60) for job_id in ids]
        if all(s.status_code == 404 or s.json()["status"] == "done" for s in states):
            break
        time.sleep(0.5)
    codes = [a.status_code for a in answers]
    return {**{str(c): codes.count(c) for c in sorted(set(codes))},
            "kept": sum(1 for job_id in ids
                        if httpx.get(f"{url}/v1/jobs/{job_id}", timeout=60).status_code == 200)}


def sessions_with_files(url: str) -> dict[str, int]:
    """6 sessions asked for, each given 16 MiB of input files and writing 16 MiB."""
    opened = [httpx.post(url + "/v1/sessions", json={"memory_mb": 64}, timeout=60)
              for _ in range(6)]
    ids = [o.json()["id"] for o in opened if o.status_code == 201]
    for session_id in ids:
        httpx.post(f"{url}/v1/sessions/{session_id}/execute", timeout=120, json={
            "code": "open('/tmp/w', 'wb').write(b'w' * (16 * 2**20))",
            "files": {"f": base64.b64encode(b"s" * (16 * MIB)).decode()}})
    codes = [o.status_code for o in opened]
    return {str(c): codes.count(c) for c in sorted(set(codes))}


def refused_flood(url: str) -> dict[str, int]:
    """500 requests the server refuses: invalid JSON, bodies over the cap, unknown sessions."""
    bad = [("/v1/tools/safe-exec", b"{not json"), ("/v1/tools/safe-exec", b"x" * (300 * 1024)),
           ("/v1/sessions/0123/execute", b'{"code": "print(1)"}')]
    codes: list[int] = []
    with httpx.Client(base_url=url, timeout=60) as client:
        for index in range(500):
            path, body = bad[index % len(bad)]
            codes.append(client.post(path, content=body,
                                     headers={"content-type": "application/json"}).status_code)
    return {str(c): codes.count(c) for c in sorted(set(codes))}


def main() -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    flags = [f"--{name}={value}" for name, value in SETTINGS.items()]
    process = subprocess.Popen([sys.executable, "-m", "sandbox_wasm", "serve", "--host",
                                "127.0.0.1", "--port", str(port), "--log-level", "warning",
                                *flags])
    try:
        wait_for_server(url, process)
        httpx.post(url + "/v1/tools/safe-exec", json={"code": "print(1)"}, timeout=60)
        idle = rss_mb(process.pid)
        budget = (idle + SETTINGS["max-request-memory-mb"] + SETTINGS["max-job-store-mb"]
                  + SETTINGS["session-memory-mb"] + SETTINGS["workers"] * GUEST_MEMORY_MB)
        rows = []
        for name, phase in (("large bodies", large_bodies), ("async jobs", async_jobs),
                            ("sessions with files", sessions_with_files),
                            ("refused flood", refused_flood)):
            sampler = Sampler(process.pid)
            started = time.monotonic()
            answers = phase(url)
            peak = sampler.stop()
            time.sleep(1.0)
            rows.append({"phase": name, "answers": answers, "peak_rss_mb": round(peak, 1),
                         "rss_after_mb": round(rss_mb(process.pid), 1),
                         "seconds": round(time.monotonic() - started, 1)})
        metrics = httpx.get(url + "/metrics", timeout=60).text
    finally:
        process.terminate()
        process.wait(timeout=30)
    held = {line.split()[0]: float(line.split()[1]) for line in metrics.splitlines()
            if line.startswith(("sandbox_request_memory_bytes", "sandbox_job_store_bytes ",
                                "sandbox_session_reserved_bytes"))}
    report = {"settings": SETTINGS, "idle_rss_mb": round(idle, 1),
              "budget_mb": round(budget, 1), "phases": rows, "held_at_end": held}
    print(f"idle RSS {idle:.0f} MiB; budget (idle + bodies + jobs + sessions + one guest cap "
          f"per worker) {budget:.0f} MiB")
    print(f"{'phase':<22}{'peak MiB':>10}{'after MiB':>11}{'  answers'}")
    for row in rows:
        print(f"{row['phase']:<22}{row['peak_rss_mb']:>10}{row['rss_after_mb']:>11}  "
              f"{row['answers']}")
    (HERE / "results" / "gateway_memory.json").write_text(json.dumps(report, indent=2) + "\n")


if __name__ == "__main__":
    main()
