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


@pytest.fixture(scope="module")
def box() -> Iterator[sw.Sandbox]:
    with sw.Sandbox(python_runtime="cpython313", tools=[echo, secret_holder, hang]) as sandbox:
        yield sandbox


@pytest.fixture(params=list(POLICIES))
def policy(request: pytest.FixtureRequest) -> sw.AuditPolicy:
    return POLICIES[str(request.param)]


# Raw channel access: what a guest could do without the stubs (report-only only; the
# strict policy refuses `os`).
_RAW = (
    "import os, json\n"
    "def raw(payload):\n"
    "    os.write(4, payload)\n"
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


def test_forged_requests_on_the_raw_channel(box: sw.Sandbox) -> None:
    hits.clear()
    result = box.execute(_RAW + (
        "for payload in (b'{\"tool\": \"exec\", \"args\": [], \"kwargs\": {}}',\n"
        "                b'{\"tool\": \"__import__\", \"args\": [\"os\"], \"kwargs\": {}}',\n"
        "                b'not json at all', b'\\xff\\xfe', b'[]', b'{\"tool\": 1}',\n"
        "                b'{\"tool\": \"echo\", \"args\": \"x\", \"kwargs\": {}}',\n"
        "                b'{\"tool\": \"echo\", \"args\": [], \"kwargs\": {\"text\": 5,'\n"
        "                b' \"extra\": 1}}'):\n"
        "    print(raw(payload)['error']['type'])\n"
    ), policy=sw.REPORT_ONLY_POLICY)
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
