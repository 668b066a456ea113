"""The overhead of one HTTP request made by the guest through the host (`network=`), against
the host's own request to the same loopback server, in the same process and interleaved
(these machines are noisy: compare within a run).

Per-request time in the guest: (a run making N urllib GETs - the same run making none) / N.
The host's: N `urllib.request.urlopen` GETs of its own (a new connection each, as the
guest's requests get). Both read a small JSON answer from tests/network_servers.py's
server on 127.0.0.1.

    .venv/bin/python benchmarks/network.py [--quick]

Prints a table and writes benchmarks/results/network.json.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

from network_servers import http_server  # noqa: E402

import sandbox_wasm as sw  # noqa: E402

REQUESTS = 50


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run (5 rounds)")
    rounds = 5 if parser.parse_args().quick else 30
    with http_server() as server, sw.Sandbox() as box:
        url = f"{server.url}/echo"
        network = {"allow": [{"host": "127.0.0.1", "schemes": ["http"], "ports": [server.port]}],
                   "max_requests": REQUESTS}
        fetching = (f"import urllib.request\nfor _ in range({REQUESTS}):\n"
                    f"    urllib.request.urlopen({url!r}).read()\n")
        baseline = (f"import urllib.request\nfor _ in range({REQUESTS}):\n"
                    "    pass\n")
        for code in (fetching, baseline):
            result = box.execute(code, network=network)
            assert result.ok, (result.error, result.stderr)
        guest_runs, empty_runs, host_runs = [], [], []
        for _ in range(rounds):
            started = time.perf_counter()
            result = box.execute(fetching, network=network)
            guest_runs.append((time.perf_counter() - started) * 1000)
            assert result.ok and len(result.network_calls) == REQUESTS, result.error
            started = time.perf_counter()
            assert box.execute(baseline, network=network).ok
            empty_runs.append((time.perf_counter() - started) * 1000)
            started = time.perf_counter()
            for _ in range(REQUESTS):
                with urllib.request.urlopen(url) as response:
                    response.read()
            host_runs.append((time.perf_counter() - started) * 1000)
        host_fetch_ms = [c.duration_ms for c in result.network_calls]
    guest_ms = (statistics.median(guest_runs) - statistics.median(empty_runs)) / REQUESTS
    host_ms = statistics.median(host_runs) / REQUESTS
    report = {
        "requests_per_run": REQUESTS,
        "rounds": rounds,
        "guest_request_ms": round(guest_ms, 3),
        "host_request_ms": round(host_ms, 3),
        "ratio": round(guest_ms / host_ms, 2),
        "overhead_ms": round(guest_ms - host_ms, 3),
        "host_side_fetch_ms_p50": round(statistics.median(host_fetch_ms), 3),
        "run_with_requests_ms_p50": round(statistics.median(guest_runs), 3),
        "run_without_requests_ms_p50": round(statistics.median(empty_runs), 3),
    }
    print(f"{'case':<44}{'ms per request':>16}")
    print(f"{'guest urllib GET through the host':<44}{guest_ms:>16.3f}")
    print(f"{'  of which the host fetch (recorded)':<44}{report['host_side_fetch_ms_p50']:>16.3f}")
    print(f"{'host urllib GET (same server, same moment)':<44}{host_ms:>16.3f}")
    print(f"ratio {report['ratio']}x, overhead {report['overhead_ms']} ms per request")
    out = HERE / "results" / "network.json"
    out.write_text(json.dumps(report, indent=2) + "\n")
    print(f"wrote {out.relative_to(HERE.parent)}")


if __name__ == "__main__":
    main()
