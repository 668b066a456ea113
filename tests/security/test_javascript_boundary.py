"""JavaScript under the same boundary: the syntax check runs under the request's memory cap,
and QuickJS's `qjs:std` and `qjs:os` modules, which a script can import, reach nothing of
the host (no preopened directory, no environment, no process or network functions)."""

from __future__ import annotations

import pytest
from bait import Canary, Listener
from host_probe import MIB, HostSnapshot, peak_rss_bytes, reset_peak_rss

import sandbox_wasm as sw

# What the host may add on top of the request's memory cap for one execution (the guest's
# own pages are part of the cap; this is buffers and allocator slack).
HOST_SLACK = 24 * MIB


@pytest.fixture(scope="module")
def js() -> sw.Sandbox:
    box = sw.Sandbox(limits=sw.Limits(max_source_bytes=1 << 20))
    box.warm_up("python", "javascript")
    for _ in range(3):
        box.execute("console.log(1)", language="javascript")
    return box


def test_the_syntax_check_stays_under_the_requests_memory_cap(js: sw.Sandbox) -> None:
    # Compiling (not running) this 1 MB class needs ~100 MiB of QuickJS memory.
    source = "class A {" + "m() {}" * 160_000 + "}"
    before = HostSnapshot.take()
    reset_peak_rss()
    result = js.execute(source, language="javascript", memory_mb=32)
    peak = peak_rss_bytes()
    assert result.status == "memory_exceeded", result.error
    assert result.error is not None and "checking the syntax" in result.error.message
    if before.rss is not None and peak is not None:
        assert peak - before.rss <= 32 * MIB + HOST_SLACK, (
            f"host peak RSS grew by {(peak - before.rss) / MIB:.0f} MiB for a 32 MiB request"
        )
    # The same source under a cap it fits in is checked and run.
    assert js.execute(source, language="javascript", memory_mb=256).status == "succeeded"


STD_AND_OS = r"""
import * as std from 'qjs:std';
import * as os from 'qjs:os';
const out = {};
const attempt = (name, f) => {
  try { out[name] = f() ?? null; } catch (e) { out[name] = 'threw'; }
};
attempt('file', () => std.loadFile('@CANARY_FILE@'));
attempt('passwd', () => std.loadFile('/etc/passwd'));
attempt('open', () => std.open('@CANARY_FILE@', 'r'));
attempt('create', () => std.open('/tmp/sandbox-wasm-pwned.txt', 'w'));
attempt('env', () => std.getenv('@CANARY_ENV@'));
attempt('environ', () => Object.keys(std.getenviron()).length);
attempt('readdir', () => os.readdir('@CANARY_DIR@')[0].length);
attempt('root', () => os.readdir('/')[0].length);
attempt('stat', () => os.stat('@CANARY_FILE@')[0]);
attempt('exec', () => os.exec(['/bin/sh', '-c', 'echo pwned > /tmp/sandbox-wasm-pwned.txt']));
attempt('popen', () => std.popen('id', 'r'));
attempt('urlGet', () => std.urlGet('http://127.0.0.1:@PORT@/'));
console.log(JSON.stringify(out));
"""


def test_std_and_os_modules_reach_nothing_of_the_host(
    js: sw.Sandbox, canary: Canary, listener: Listener
) -> None:
    code = (STD_AND_OS.replace("@CANARY_FILE@", str(canary.file))
            .replace("@CANARY_DIR@", str(canary.directory)).replace("@CANARY_ENV@", canary.env)
            .replace("@PORT@", str(listener.port)))
    before = canary.state()
    result = js.execute(code, language="javascript")
    assert result.status == "succeeded", (result.error, result.stderr)
    assert result.result_json == {
        "file": None, "passwd": None, "open": None, "create": None, "env": None,
        "environ": 0, "readdir": 0, "root": 0, "stat": None, "exec": "threw",
        "popen": "threw", "urlGet": "threw",
    }
    canary.assert_not_in(result.model_dump_json())
    assert canary.state() == before
    assert listener.connections() == 0
