"""Attacks on the tool channel (the guest's only way to call the host's tools), under the
strict policy and with the audit in report-only mode: calling what was not registered,
forged and malformed requests written straight to the channel, floods, oversized and deeply
nested payloads, a tool that hangs, and what a tool's failure may tell the guest."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

import sandbox_wasm as sw

CANARY = "tool-canary-5e2f-do-not-leak"
POLICIES = {"strict": sw.STRICT_POLICY, "report": sw.REPORT_ONLY_POLICY}
hits: list[str] = []


def echo(text: str) -> str:
    """Say it back."""
    hits.append(text)
    return text


def secret_holder() -> str:
    raise PermissionError(f"denied for token {CANARY[:4]}... at /home/ops/.config/token")


def hang(seconds: float) -> str:
    time.sleep(seconds)
    return "woke"


def exits(how: str) -> str:
    """A tool that raises what is not an Exception, as argparse or a Ctrl-C would."""
    if how == "argparse":
        import argparse

        parser = argparse.ArgumentParser(prog="lookup")
        parser.add_argument("--n", type=int, required=True)
        parser.parse_args(["--n", "nope"])
    if how == "interrupt":
        raise KeyboardInterrupt
    raise SystemExit(3)


async def exits_async() -> str:
    raise SystemExit("async tool quit")


def leaks_paths(which: int) -> str:
    paths = ["/home/ops/My Secrets/api-token.txt", "/srv/app:v2/deploy/key.pem",
             "/opt-secret-token-abc", "C:\\Users\\ops\\secret token.txt"]
    raise ValueError(f"cannot read {paths[which]} (see '{paths[which]}')")


def nested(depth: int) -> object:
    value: object = "bottom"
    for _ in range(depth):
        value = [value]
    return value


@pytest.fixture(scope="module")
def box() -> Iterator[sw.Sandbox]:
    with sw.Sandbox(python_runtime="cpython313",
                    tools=[echo, secret_holder, hang, exits, exits_async, leaks_paths,
                           nested]) as sandbox:
        yield sandbox


@pytest.fixture(params=list(POLICIES))
def policy(request: pytest.FixtureRequest) -> sw.AuditPolicy:
    return POLICIES[str(request.param)]


# Raw channel access: what a guest could do without the stubs (report-only only; the
# strict policy refuses `os`). An answer that fits the runtime's answer area is left there
# during the write; a longer one is read from the channel, framed.
_RAW = (
    "import os, json, _sandbox_entry\n"
    "def raw(payload):\n"
    "    os.write(4, payload)\n"
    "    data = _sandbox_entry.take_answer()\n"
    "    if data is not None:\n"
    "        return json.loads(data)\n"
    "    size = int.from_bytes(os.read(4, 8), 'little')\n"
    "    data = b''\n"
    "    while len(data) < size:\n"
    "        data += os.read(4, size - len(data))\n"
    "    return json.loads(data)\n"
)


def test_only_registered_tools_can_be_called(box: sw.Sandbox, policy: sw.AuditPolicy) -> None:
    result = box.execute(
        "import tools\nprint(hasattr(tools, 'execute'), hasattr(tools, 'open'))\n"
        "try:\n    tools.nope()\nexcept AttributeError:\n    print('no such stub')\n",
        policy=policy,
    )
    assert result.stdout == "False False\nno such stub\n"


@pytest.mark.parametrize("inline", [False, True])
def test_forged_requests_on_the_raw_channel(box: sw.Sandbox, inline: bool) -> None:
    hits.clear()
    tools = [sw.tool(echo, inline=True)] if inline else None
    result = box.execute(_RAW + (
        "for payload in (b'{\"tool\": \"exec\", \"args\": [], \"kwargs\": {}}',\n"
        "                b'{\"tool\": \"__import__\", \"args\": [\"os\"], \"kwargs\": {}}',\n"
        "                b'not json at all', b'\\xff\\xfe', b'[]', b'{\"tool\": 1}',\n"
        "                b'{\"tool\": \"echo\", \"args\": \"x\", \"kwargs\": {}}',\n"
        "                b'{\"tool\": \"echo\", \"args\": [], \"kwargs\": {\"text\": 5,'\n"
        "                b' \"extra\": 1}}'):\n"
        "    print(raw(payload)['error']['type'])\n"
    ), policy=sw.REPORT_ONLY_POLICY, tools=tools)
    assert result.status == "succeeded", (result.error, result.stderr)
    assert result.stdout.splitlines() == ["NameError", "NameError", "ValueError", "ValueError",
                                          "ValueError", "ValueError", "ValueError",
                                          "TypeError"]
    assert hits == []  # no request reached a tool


def test_a_deeply_nested_request_is_refused(box: sw.Sandbox) -> None:
    result = box.execute(_RAW + (
        "deep = b'[' * 500 + b']' * 500\n"
        "print(raw(b'{\"tool\": \"echo\", \"args\": ' + deep + b', \"kwargs\": {}}')['error'])\n"
    ), policy=sw.REPORT_ONLY_POLICY)
    assert result.status == "succeeded", (result.error, result.stderr)
    assert "nested at most 64 deep" in result.stdout


def test_an_oversized_request_is_refused_without_being_read(
    box: sw.Sandbox, policy: sw.AuditPolicy
) -> None:
    hits.clear()
    result = box.execute(
        "import tools\ntry:\n    tools.echo('z' * (8 * 1024 * 1024))\n"
        "except ValueError as exc:\n    print(str(exc)[:30])\n",
        policy=policy, limits={"memory_mb": 256},
    )
    assert result.stdout.startswith("tool arguments are 83886")
    assert hits == []


def test_a_flood_of_calls_stops_at_the_cap(box: sw.Sandbox, policy: sw.AuditPolicy) -> None:
    hits.clear()
    started = time.monotonic()
    result = box.execute(
        "import tools\ncount = 0\ntry:\n    while True:\n        tools.echo('a')\n"
        "        count += 1\nexcept RuntimeError:\n    print(count)\n",
        policy=policy,
    )
    assert result.stdout == "100\n" and len(hits) == 100
    assert len(result.tool_calls) == 100
    assert time.monotonic() - started < 10


def test_a_hanging_tool_cannot_hold_the_run_past_its_deadline(
    box: sw.Sandbox, policy: sw.AuditPolicy
) -> None:
    started = time.monotonic()
    result = box.execute("import tools\ntools.hang(30)\nprint('after')", policy=policy,
                         timeout_ms=400)
    assert result.status == "timeout" and "after" not in result.stdout
    assert time.monotonic() - started < 3


def test_hung_tools_cannot_take_every_worker(box: sw.Sandbox, policy: sw.AuditPolicy) -> None:
    # Each timed-out sync call keeps its thread (Python cannot stop one): a run gets one
    # such call at a time, and the process a few, so other tools keep their workers.
    started = time.monotonic()
    result = box.execute(
        "import tools\nseen = []\nfor _ in range(50):\n    try:\n        tools.hang(3)\n"
        "    except (TimeoutError, RuntimeError) as exc:\n        seen.append(type(exc).__name__)\n"
        "print(seen.count('TimeoutError'), seen.count('RuntimeError'))\n",
        policy=policy, limits={"tool_timeout_ms": 50, "timeout_ms": 5_000},
    )
    assert result.stdout == "1 49\n"
    assert time.monotonic() - started < 4
    assert box.execute("import tools\nprint(tools.echo('free'))", policy=policy).stdout == \
        "free\n"


def test_a_tools_failure_tells_no_host_secret(box: sw.Sandbox, policy: sw.AuditPolicy) -> None:
    result = box.execute(
        "import tools\ntry:\n    tools.secret_holder()\nexcept PermissionError as exc:\n"
        "    print(exc)\n",
        policy=policy,
    )
    assert result.stdout == "denied for token tool... at <path>\n"
    serialised = result.model_dump_json()
    assert "/home/ops" not in serialised and "Traceback" not in serialised


def test_the_channel_does_not_exist_without_tools(policy: sw.AuditPolicy) -> None:
    with sw.Sandbox(python_runtime="cpython313") as plain:
        result = plain.execute("import tools", policy=policy)
        assert result.status == "failed" and result.error is not None
        assert result.error.type == "ModuleNotFoundError"
        raw = plain.execute("import os\ntry:\n    os.write(4, b'{}')\nexcept OSError as e:\n"
                            "    print(e.errno)", policy=sw.REPORT_ONLY_POLICY)
        assert raw.stdout == "8\n"  # EBADF


def test_reading_the_channel_without_a_request_gives_nothing(box: sw.Sandbox) -> None:
    result = box.execute("import os\nprint(os.read(4, 100))", policy=sw.REPORT_ONLY_POLICY)
    assert result.stdout == "b''\n"


def test_the_answer_area_holds_only_the_answer_to_the_last_request(box: sw.Sandbox) -> None:
    # The host leaves an answer that fits in the guest's answer area and nothing on the
    # channel; a longer one goes on the channel and empties the area, so an answer the
    # guest never took is never taken for a later request's.
    result = box.execute(_RAW + (
        "request = lambda text: json.dumps({'tool': 'echo', 'args': [text], 'kwargs': {}})\n"
        "os.write(4, request('first').encode())\n"
        "print(os.read(4, 100))\n"  # nothing on the channel: the answer is in the area
        "os.write(4, request('x' * 70_000).encode())\n"  # over the area: on the channel
        "print(_sandbox_entry.take_answer())\n"  # 'first' was not left behind
        "print(len(raw(request('y' * 70_000).encode())['result']))\n"
        "print(raw(request('z').encode()), _sandbox_entry.take_answer())\n"
    ), policy=sw.REPORT_ONLY_POLICY)
    assert result.status == "succeeded", (result.error, result.stderr)
    assert result.stdout.splitlines() == ["b''", "None", "70000", "{'result': 'z'} None"]


def test_an_answer_left_in_the_area_is_gone_for_the_next_run(box: sw.Sandbox) -> None:
    # A raw request whose answer the run never takes leaves it in the guest's memory; the
    # next run in the same (reused) instance, with tools or without, finds nothing there.
    leave = box.execute(
        "import os, json\n"
        "os.write(4, json.dumps({'tool': 'echo', 'args': ['" + CANARY + "'],"
        " 'kwargs': {}}).encode())\n", policy=sw.REPORT_ONLY_POLICY)
    assert leave.status == "succeeded", (leave.error, leave.stderr)
    for tools in (None, [echo]):
        later = box.execute("import _sandbox_entry\nprint(_sandbox_entry.take_answer())",
                            policy=sw.REPORT_ONLY_POLICY, tools=tools)
        assert later.stdout == "None\n", later.stdout


@pytest.mark.parametrize("how", ["argparse", "interrupt", "exit"])
def test_a_tool_raising_systemexit_or_an_interrupt_fails_as_an_exception(
    box: sw.Sandbox, policy: sw.AuditPolicy, how: str
) -> None:
    # The guest catches it like any failure; the run ends normally and the host survives.
    result = box.execute(
        "import tools\ntry:\n    tools.exits(" + repr(how) + ")\nexcept Exception as exc:\n"
        "    print(type(exc).__name__, '|', exc)\nprint('after')\n", policy=policy)
    assert result.status == "succeeded", result.error
    # Not a built-in exception of the guest's own: it arrives as tools.ToolError, named.
    kind = {"argparse": "SystemExit", "interrupt": "KeyboardInterrupt", "exit": "SystemExit"}
    assert result.stdout.startswith(f"ToolError | {kind[how]}: tool raised {kind[how]}")
    assert result.stdout.endswith("after\n")
    assert box.execute("import tools\nprint(tools.echo('still'))", policy=policy).stdout \
        == "still\n"


def test_an_async_tool_raising_systemexit_leaves_the_loop_running(
    box: sw.Sandbox, policy: sw.AuditPolicy
) -> None:
    code = ("import tools\ntry:\n    tools.exits_async()\nexcept Exception as exc:\n"
            "    print(type(exc).__name__, exc)\n")
    for _ in range(2):  # the second call proves the tools' event loop survived the first
        result = box.execute(code, policy=policy)
        assert result.stdout == ("ToolError SystemExit: tool raised SystemExit: async tool "
                                 "quit\n")


@pytest.mark.parametrize("which", range(4))
def test_host_paths_with_spaces_colons_or_one_component_are_redacted(
    box: sw.Sandbox, policy: sw.AuditPolicy, which: int
) -> None:
    result = box.execute(
        f"import tools\ntry:\n    tools.leaks_paths({which})\nexcept ValueError as exc:\n"
        "    print(exc)\n", policy=policy)
    assert result.stdout == "cannot read <path> (see '<path>')\n"
    for fragment in ("Secrets", "api-token", "app:v2", "opt-secret", "Users", "secret token"):
        assert fragment not in result.model_dump_json()


def test_a_tools_answer_is_depth_capped_like_its_request(
    box: sw.Sandbox, policy: sw.AuditPolicy
) -> None:
    result = box.execute(
        "import tools\nprint(len(str(tools.nested(60))) > 0)\ntry:\n    tools.nested(100)\n"
        "except ValueError as exc:\n    print(exc)\ntry:\n    tools.nested(100000)\n"
        "except ValueError as exc:\n    print(exc)\n", policy=policy)
    assert result.stdout == ("True\n" + "tool 'nested' answered a value nested more than 64 "
                             "deep\n" * 2)


def test_hung_calls_hold_at_most_their_tools_share_of_host_threads(
    policy: sw.AuditPolicy,
) -> None:
    # 24 runs at once each call a tool that blocks past its time: its timed-out calls keep
    # their threads, at most MAX_THREADS_PER_TOOL of them; the rest are told why at once
    # (or when their time is up), and another tool still gets a thread meanwhile.
    import threading

    from sandbox_wasm import _tools

    release = threading.Event()
    peak = [0]

    def blocker() -> str:
        """Blocks until the test lets it go."""
        peak[0] = max(peak[0], _tools._threads.held_by(blocker))
        release.wait(60)
        return "released"

    def quick() -> str:
        """Answers at once."""
        return "quick"

    results: list[sw.ExecutionResult] = []
    with sw.Sandbox(python_runtime="cpython313", tools=[blocker, quick]) as sandbox:
        def run() -> None:
            results.append(sandbox.execute(
                "import tools\ntry:\n    tools.blocker()\nexcept Exception as exc:\n"
                "    print(type(exc).__name__, exc)\n",
                policy=policy, limits={"tool_timeout_ms": 300, "timeout_ms": 4_000}))

        try:
            threads = [threading.Thread(target=run) for _ in range(24)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(60)
            # Threads of other tests' hung tools may still be counted process-wide.
            assert _tools._threads.held_by(blocker) <= _tools.MAX_THREADS_PER_TOOL
            assert _tools.tool_thread_usage()[0] <= _tools.WORKER_THREADS
            assert peak[0] <= _tools.MAX_THREADS_PER_TOOL
            timed_out = [r for r in results if r.stdout.startswith("TimeoutError")]
            refused = [r for r in results if r.stdout.startswith("RuntimeError no host thread "
                                                                 "free for tool 'blocker'")]
            assert len(results) == 24 and len(timed_out) + len(refused) == 24
            assert 1 <= len(timed_out) <= _tools.MAX_THREADS_PER_TOOL
            other = sandbox.execute("import tools\nprint(tools.quick())", policy=policy)
            assert other.stdout == "quick\n"
        finally:
            release.set()
    deadline = time.monotonic() + 10
    while _tools._threads.held_by(blocker) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _tools._threads.held_by(blocker) == 0  # every slot given back when they returned


# Inline tools (`sw.tool(..., inline=True)`) run on the thread running the guest.
INLINE = [sw.tool(echo, inline=True), sw.tool(exits, inline=True),
          sw.tool(secret_holder, inline=True)]


def test_inline_tools_take_the_same_attacks(box: sw.Sandbox) -> None:
    # (Forged requests: test_forged_requests_on_the_raw_channel.)
    hits.clear()
    flood = box.execute("import tools\ncount = 0\ntry:\n    while True:\n"
                        "        tools.echo('a')\n        count += 1\nexcept RuntimeError:\n"
                        "    print(count)\n", tools=INLINE)
    assert flood.stdout == "100\n"
    # A tool's exit or interrupt reaches the guest as a failure; the host thread, which is
    # the guest's own here, goes on.
    exited = box.execute("import tools\nfor how in ('exit', 'interrupt'):\n    try:\n"
                         "        tools.exits(how)\n    except Exception as exc:\n"
                         "        print(type(exc).__name__)\nprint(tools.secret_holder.__name__)\n"
                         "try:\n    tools.secret_holder()\nexcept PermissionError as exc:\n"
                         "    print(exc)\n", tools=INLINE)
    assert exited.stdout.splitlines()[:3] == ["ToolError", "ToolError", "secret_holder"]
    assert CANARY not in exited.stdout and "/home/ops" not in exited.stdout


def test_a_run_started_from_inside_a_run_is_refused_not_a_crash(box: sw.Sandbox) -> None:
    # A run started on the thread of a run in progress (by an inline tool, or the caller's
    # on_output callback) would take over that thread's run state, and wasmtime aborts the
    # whole process when a Store is entered inside another's call ("object used with the
    # wrong store"). It raises RuntimeError instead: the guest sees it from the tool, the
    # caller from `execute`, and the run that was in progress ends as it should.
    def nested_run(code: str) -> str:
        return sw.execute(code).stdout

    def nested_session(code: str) -> str:
        with sw.Session() as session:
            return session.execute(code).stdout

    for tool in (nested_run, nested_session):
        result = box.execute("import tools\ntry:\n    tools." + tool.__name__ + "('print(1)')\n"
                             "except RuntimeError as exc:\n    print(exc)\n",
                             tools=[sw.tool(tool, inline=True)])
        assert result.stdout.startswith("a sandbox run cannot start on the thread of a run "
                                        "in progress"), result.error

    def on_output(chunk: sw.OutputChunk) -> None:
        sw.execute("print(2)")

    with pytest.raises(RuntimeError, match="cannot start on the thread of a run in progress"):
        box.execute("print('x')\nwhile True: pass", on_output=on_output, timeout_ms=5_000)
    with sw.Session() as session, pytest.raises(RuntimeError, match="run in progress"):
        session.execute("print('y')", on_output=on_output)
    assert sw.execute("print(3)").stdout == "3\n"
    assert box.execute("print(4)").stdout == "4\n"
