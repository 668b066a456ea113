"""The MCP bridge against real MCP servers (tests/server/mcp_catalog_server.py on the official SDK,
over stdio and over streamable HTTP) and the real sandbox: bridged tools called from the
guest's loops, their failures as guest exceptions, schemas as signatures, name clashes,
time-outs, lost servers and clean shutdown; `wasm-exec mcp --bridge` driven by a real MCP
client; and `wasm-exec serve` offering --tools entry points and bridged tools to the
requests that name them."""

from __future__ import annotations

import asyncio
import json
import os
import shlex
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from live_server import wait_for_port
from mcp.types import Tool as McpTool
from test_server_mcp import StdioMcp

import sandbox_wasm as sw
from sandbox_wasm.server.bridge.mcp import BridgeError, McpBridge, McpServerSpec, mcp_tool
from sandbox_wasm.server.bridge.tools import ToolConfigError, signature_text

TESTS = Path(__file__).resolve().parent
CATALOG = TESTS / "mcp_catalog_server.py"
CATALOG_COMMAND = shlex.join([sys.executable, str(CATALOG)])
CATALOG_TOOLS = ["lookup", "add", "shout_text", "fail", "wait", "crash", "pid"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def process_gone(pid: int, timeout: float = 15) -> bool:
    """Whether process `pid` has ended (and been reaped) within `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


def children_running(marker: str) -> list[int]:
    """Our child processes whose command line contains `marker` (Linux /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == os.getpid() and marker in cmdline:
            found.append(int(entry.name))
    return found


def call_host(bridge: McpBridge, name: str, *args: Any) -> Any:
    """Call a bridged tool from the host, as the tools' loop would."""
    return asyncio.run(bridge.tools[name].function(*args))


@pytest.fixture(scope="module")
def box() -> Iterator[sw.Sandbox]:
    with sw.Sandbox(python_runtime="cpython313") as sandbox:
        yield sandbox


@pytest.fixture(scope="module")
def bridge() -> Iterator[McpBridge]:
    with McpBridge([McpServerSpec.command(CATALOG_COMMAND)]) as started:
        yield started


@pytest.fixture(scope="module")
def catalog_url() -> Iterator[str]:
    """The catalogue over streamable HTTP on 127.0.0.1."""
    port = free_port()
    process = subprocess.Popen([sys.executable, str(CATALOG), "--http", str(port)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_port(port, process)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        process.wait(timeout=30)


def run(box: sw.Sandbox, bridge: McpBridge, code: str, **options: Any) -> sw.ExecutionResult:
    result = box.execute(code, tools=bridge.tools.values(), **options)
    assert result.status == "succeeded", (result.error, result.stderr)
    return result


# -- the bridge in the library ----------------------------------------------------------
def test_a_script_calls_bridged_tools_in_a_loop(box: sw.Sandbox, bridge: McpBridge) -> None:
    result = run(box, bridge, (
        "import json, tools\n"
        "rows = [tools.lookup(sku) for sku in ['A-1', 'B-2', 'C-3']]\n"
        "in_stock = [row['name'] for row in rows if row['stock'] > 0]\n"
        "value = sum(row['price'] * row['stock'] for row in rows)\n"
        "print(json.dumps({'in_stock': in_stock, 'value': value, 'sum': tools.add(2, b=40),\n"
        "                  'loud': tools.shout_text('hi', times=2)}))\n"
    ))
    assert result.result_json == {"in_stock": ["anvil", "chisel"], "value": 117.25,
                                  "sum": 42, "loud": "HI HI"}
    assert [(call.name, call.ok) for call in result.tool_calls] == [
        ("lookup", True), ("lookup", True), ("lookup", True), ("add", True),
        ("shout_text", True)]


def test_stubs_carry_the_mcp_tools_names_signatures_and_descriptions(
    box: sw.Sandbox, bridge: McpBridge
) -> None:
    assert list(bridge.tools) == CATALOG_TOOLS
    assert bridge.origins["shout_text"] == ("catalog", "shout-text")
    assert signature_text(bridge.tools["lookup"]) == "lookup(sku: str) -> dict"
    assert signature_text(bridge.tools["add"]) == "add(a: int, b: int = 1) -> int"
    assert signature_text(bridge.tools["shout_text"]) == (
        "shout_text(text: str, times: int = 1) -> str")
    result = run(box, bridge, (
        "import tools\n"
        "print(sorted(tools.__all__))\n"
        "print(tools.lookup.__name__, tools.lookup.__doc__)\n"
        "print(tools.add.__defaults__, tools.shout_text.__doc__)\n"
    ))
    assert result.stdout.splitlines() == [
        str(sorted(CATALOG_TOOLS)),
        "lookup Look up a product by its SKU: name, price and stock.",
        "(1,) Upper-case `text`, repeated `times` times.",
    ]


def test_an_mcp_error_becomes_a_guest_exception_with_its_text(
    box: sw.Sandbox, bridge: McpBridge
) -> None:
    result = run(box, bridge, (
        "import tools\n"
        "for call in (lambda: tools.lookup('Z-9'), lambda: tools.fail('on fire')):\n"
        "    try:\n"
        "        call()\n"
        "    except tools.ToolError as exc:\n"
        "        print(type(exc).__name__, '|', exc)\n"
        "print(tools.lookup('A-1')['name'])\n"
    ))
    lines = result.stdout.splitlines()
    assert lines[0].startswith("ToolError | McpToolError: ") and "no product Z-9" in lines[0]
    assert "the catalogue is on fire" in lines[1]
    assert lines[2] == "anvil"
    assert [(c.name, c.ok, c.error) for c in result.tool_calls] == [
        ("lookup", False, "McpToolError"), ("fail", False, "McpToolError"),
        ("lookup", True, None)]


def test_an_uncaught_mcp_error_fails_the_run(box: sw.Sandbox, bridge: McpBridge) -> None:
    result = box.execute("import tools\ntools.fail()", tools=bridge.tools.values())
    assert result.status == "failed"
    assert result.error is not None and result.error.type == "ToolError"
    assert "the catalogue is broken" in result.error.message


def test_bad_arguments_raise_type_and_value_errors(box: sw.Sandbox, bridge: McpBridge) -> None:
    result = run(box, bridge, (
        "import tools\n"
        "for call in (lambda: tools.add(), lambda: tools.add(1, 2, 3),\n"
        "             lambda: tools.add('x'), lambda: tools.lookup(sku=7),\n"
        "             lambda: tools.add(1, c=2)):\n"
        "    try:\n"
        "        call()\n"
        "    except (TypeError, ValueError) as exc:\n"
        "        print(type(exc).__name__, exc)\n"
    ))
    lines = result.stdout.splitlines()
    assert [line.split()[0] for line in lines] == [
        "TypeError", "TypeError", "ValueError", "ValueError", "TypeError"]
    assert "'x' is not of type 'integer'" in lines[2]
    assert "7 is not of type 'string'" in lines[3]


def test_a_call_over_its_time_is_abandoned_and_the_bridge_keeps_working(
    box: sw.Sandbox, bridge: McpBridge
) -> None:
    result = run(box, bridge, (
        "import tools\n"
        "try:\n"
        "    tools.wait(30)\n"
        "except TimeoutError as exc:\n"
        "    print('timeout', exc)\n"
        "print(tools.wait(0.01), tools.add(1))\n"
    ), limits={"tool_timeout_ms": 300})
    lines = result.stdout.splitlines()
    assert lines[0].startswith("timeout") and lines[1] == "awake 2"
    assert result.metrics.execution_time_ms < 10_000


def test_schemas_become_python_parameters_and_calls_carry_the_servers_names(
    box: sw.Sandbox,
) -> None:
    """Names that are not identifiers are mapped; a required property after an optional
    one is keyword-only; an optional one without a default is left out of the call."""
    remote = McpTool(
        name="get-user", description="Fetch a user.",
        input_schema={"type": "object", "properties": {
            "user-id": {"type": "integer", "description": "The user's number."},
            "class": {"type": "string", "default": "basic"},
            "limit": {"type": ["integer", "null"]},
            "tag": {"type": "string"},
        }, "required": ["user-id", "tag"]},
    )
    sent: list[tuple[str, dict[str, Any]]] = []

    async def call_remote(name: str, arguments: dict[str, Any], wrapped: bool) -> Any:
        sent.append((name, arguments))
        return arguments

    tool = mcp_tool(remote, "get_user", call_remote)
    assert signature_text(tool) == (
        "get_user(user_id: int, class_: str = 'basic', limit: int | None = ..., *, "
        "tag: str) -> str")
    assert "user_id (`user-id` on the server): The user's number." in tool.description
    result = box.execute((
        "import json, tools\n"
        "print(json.dumps(tools.get_user(7, tag='t')))\n"
        "print(json.dumps(tools.get_user(7, 'gold', 3, tag='t')))\n"
        "for call in (lambda: tools.get_user(7), lambda: tools.get_user('x', tag='t')):\n"
        "    try:\n"
        "        call()\n"
        "    except (TypeError, ValueError) as exc:\n"
        "        print(type(exc).__name__)\n"
    ), tools=[tool])
    assert result.status == "succeeded", result.stderr
    assert result.stdout.splitlines() == [
        '{"user-id": 7, "class": "basic", "tag": "t"}',
        '{"user-id": 7, "class": "gold", "limit": 3, "tag": "t"}',
        "TypeError", "ValueError",
    ]
    assert [name for name, _ in sent] == ["get-user", "get-user"]


def test_names_that_clash_across_servers_are_prefixed_with_the_servers_names(
    box: sw.Sandbox, catalog_url: str
) -> None:
    specs = [McpServerSpec.command("local=" + CATALOG_COMMAND),
             McpServerSpec.url("web=" + catalog_url)]
    with McpBridge(specs) as both:
        assert [server.name for server in both.servers] == ["local", "web"]
        assert set(both.tools) == {f"{server}_{name}" for server in ("local", "web")
                                   for name in CATALOG_TOOLS}
        result = run(box, both, (
            "import tools\n"
            "print(tools.local_add(1), tools.web_add(2), tools.web_lookup('C-3')['name'])\n"
            "print(tools.local_pid() != tools.web_pid())\n"
        ))
    assert result.stdout.splitlines() == ["2 3 chisel", "True"]


def test_reserved_names_are_prefixed_and_the_rest_kept(catalog_url: str) -> None:
    with McpBridge([McpServerSpec.url(catalog_url)], reserved={"add", "pid"}) as bridged:
        assert bridged.servers[0].name == "catalog"  # the name the server reports
        assert set(bridged.tools) == {"lookup", "catalog_add", "shout_text", "fail", "wait",
                                      "crash", "catalog_pid"}


def test_close_stops_the_servers_it_started() -> None:
    bridged = McpBridge([McpServerSpec.command(CATALOG_COMMAND)]).start()
    try:
        pid = call_host(bridged, "pid")
        assert not process_gone(pid, timeout=0.2)
    finally:
        bridged.close()
    assert process_gone(pid)
    with pytest.raises(ConnectionError):
        call_host(bridged, "add", 1)


def test_a_crashed_server_is_a_connection_error_in_the_guest(box: sw.Sandbox) -> None:
    with McpBridge([McpServerSpec.command(CATALOG_COMMAND)]) as bridged:
        result = run(box, bridged, (
            "import tools\n"
            "for call in (tools.crash, lambda: tools.add(1)):\n"
            "    try:\n"
            "        call()\n"
            "    except ConnectionError as exc:\n"
            "        print('ConnectionError', exc)\n"
        ))
    assert result.stdout.splitlines() == [
        "ConnectionError the MCP server 'catalog' closed the connection"] * 2


@pytest.mark.parametrize(
    ("spec", "timeout", "message"),
    [
        pytest.param(McpServerSpec.command("/nonexistent/mcp-server --x"), 30,
                     "could not be started or reached: FileNotFoundError", id="no-such-command"),
        pytest.param(McpServerSpec.command("true"), 30, "could not be started or reached",
                     id="exits-at-once"),
        pytest.param(McpServerSpec.command("sleep 61"), 1, "did not answer within 1 s",
                     id="never-answers"),
        pytest.param(McpServerSpec.url("http://user:secret@127.0.0.1:9/mcp?token=secret"), 30,
                     "could not be started or reached", id="nothing-listening"),
    ],
)
def test_a_server_that_cannot_be_bridged_is_a_bridge_error_and_leaves_no_process(
    spec: McpServerSpec, timeout: float, message: str
) -> None:
    running = set(children_running(str(CATALOG)))  # the module's own servers
    with pytest.raises(BridgeError) as caught:
        McpBridge([spec, McpServerSpec.command(CATALOG_COMMAND)],
                  connect_timeout_s=timeout).start()
    assert message in str(caught.value)
    assert "secret" not in str(caught.value)
    deadline = time.monotonic() + 15
    while children_running("sleep 61") or set(children_running(str(CATALOG))) - running:
        assert time.monotonic() < deadline, "a started server was left running"
        time.sleep(0.05)


@pytest.mark.parametrize(
    ("make", "spec", "message"),
    [
        pytest.param(McpServerSpec.command, "", "give a command line", id="empty-command"),
        pytest.param(McpServerSpec.command, "python '-m", "quotation", id="bad-quoting"),
        pytest.param(McpServerSpec.url, "ftp://host/mcp", "http:// or https://", id="not-http"),
        pytest.param(McpServerSpec.url, "name=", "http:// or https://", id="empty-url"),
    ],
)
def test_bad_specs_are_refused(make: Any, spec: str, message: str) -> None:
    with pytest.raises(ToolConfigError, match=message):
        make(spec)


def test_a_name_prefix_names_the_server() -> None:
    spec = McpServerSpec.command("shop=python -m shop --port 1")
    assert (spec.name, spec.target, spec.is_url) == ("shop", "python -m shop --port 1", False)
    assert McpServerSpec.url("https://h/mcp?a=b").name is None


# -- wasm-exec mcp --bridge -------------------------------------------------------------
@pytest.fixture(scope="module")
def bridged_mcp() -> Iterator[StdioMcp]:
    client = StdioMcp(["--bridge", CATALOG_COMMAND])
    try:
        yield client
    finally:
        client.close()


def test_the_mcp_servers_execute_tool_lists_the_bridged_tools(bridged_mcp: StdioMcp) -> None:
    listed = bridged_mcp.run(bridged_mcp.session.list_tools())
    execute = next(tool for tool in listed.tools if tool.name == "execute_python_sandbox")
    description = execute.description or ""
    assert "import tools" in description
    assert ("- tools.lookup(sku: str) -> dict: Look up a product by its SKU: name, price and "
            "stock.") in description
    assert "- tools.shout_text(text: str, times: int = 1) -> str" in description
    assert execute.annotations is not None and execute.annotations.open_world_hint is True


def test_the_mcp_server_runs_code_that_calls_bridged_tools(bridged_mcp: StdioMcp) -> None:
    result = bridged_mcp.call("execute_python_sandbox", {"python_script": (
        "import json, tools\n"
        "print(json.dumps({sku: tools.lookup(sku)['stock'] for sku in ['A-1', 'C-3']}))\n"
        "try:\n"
        "    tools.fail()\n"
        "except tools.ToolError as exc:\n"
        "    print('failed:', exc)\n"
    )})
    assert result.is_error is False
    content = result.structured_content
    assert content is not None and content["exit_code"] == 0, content
    lines = content["simulated_stdout"].splitlines()
    assert json.loads(lines[0]) == {"A-1": 3, "C-3": 11}
    assert "the catalogue is broken" in lines[1]
    assert [(c["name"], c["ok"]) for c in content["tool_calls"]] == [
        ("lookup", True), ("lookup", True), ("fail", False)]


def test_the_mcp_servers_sessions_can_call_bridged_tools(bridged_mcp: StdioMcp) -> None:
    opened = bridged_mcp.call("open_python_session", {})
    assert opened.structured_content is not None
    session_id = opened.structured_content["session_id"]
    try:
        for script, expected in [("import tools\nstock = tools.lookup('A-1')['stock']", ""),
                                 ("print(stock + tools.add(1))", "5\n")]:
            result = bridged_mcp.call("execute_python_sandbox",
                                      {"python_script": script, "session_id": session_id})
            assert result.structured_content is not None
            assert result.structured_content["simulated_stdout"] == expected
    finally:
        bridged_mcp.call("close_python_session", {"session_id": session_id})


def test_wasm_exec_mcp_with_a_server_that_cannot_start_exits_with_a_usage_error() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "sandbox_wasm", "mcp", "--bridge", "/nonexistent/server"],
        capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 2
    assert "wasm-exec mcp: error: MCP server /nonexistent/server could not be started" in (
        done.stderr)


# -- wasm-exec serve --tools / --bridge --------------------------------------------------
class Gateway:
    """`wasm-exec serve` as a subprocess, with an httpx client."""

    def __init__(self, flags: list[str]) -> None:
        self.port = free_port()
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(
            [str(TESTS), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "sandbox_wasm", "serve", "--port", str(self.port),
             "--log-level", "warning", *flags],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env,
        )
        wait_for_port(self.port, self.process)
        self.client = httpx.Client(base_url=f"http://127.0.0.1:{self.port}", timeout=60)

    def safe_exec(self, code: str, **body: Any) -> httpx.Response:
        return self.client.post("/v1/tools/safe-exec", json={"code": code, **body})

    def stop(self) -> None:
        self.client.close()
        if self.process.poll() is None:
            self.process.terminate()
        self.process.wait(timeout=60)
        assert self.process.stderr is not None
        self.process.stderr.close()


@pytest.fixture(scope="module")
def gateway() -> Iterator[Gateway]:
    server = Gateway(["--tools", "gateway_tools_example:TOOLS", "--bridge", CATALOG_COMMAND])
    try:
        yield server
    finally:
        server.stop()


def test_the_gateway_lists_its_host_tools(gateway: Gateway) -> None:
    response = gateway.client.get("/v1/host-tools")
    assert response.status_code == 200
    tools = {tool["name"]: tool for tool in response.json()["tools"]}
    assert list(tools) == ["quote", "convert", *CATALOG_TOOLS]
    assert tools["quote"] == {
        "name": "quote", "signature": "quote(unit_price: float, qty: int = 1) -> dict[str, float]",
        "description": "Price of `qty` units at `unit_price`.", "source": "python"}
    assert tools["lookup"]["signature"] == "lookup(sku: str) -> dict"
    assert tools["lookup"]["source"] == "mcp:catalog"


def test_a_request_naming_tools_runs_code_calling_them(gateway: Gateway) -> None:
    response = gateway.safe_exec((
        "import json, tools\n"
        "rows = [tools.lookup(sku) for sku in ['A-1', 'C-3']]\n"
        "quotes = [tools.quote(row['price'], qty=2)['total'] for row in rows]\n"
        "print(json.dumps({'eur': quotes, 'usd': [tools.convert(q) for q in quotes]}))\n"
    ), tools=["lookup", "quote", "convert"])
    assert response.status_code == 200, response.text
    result = response.json()
    assert result["status"] == "succeeded", result
    assert json.loads(result["stdout"]) == {"eur": [25.0, 14.5], "usd": [27.5, 15.95]}
    assert [(c["name"], c["ok"]) for c in result["tool_calls"]] == [
        ("lookup", True), ("lookup", True), ("quote", True), ("quote", True),
        ("convert", True), ("convert", True)]


def test_a_request_gets_only_the_tools_it_names(gateway: Gateway) -> None:
    result = gateway.safe_exec("import tools\nprint(tools.__all__)\ntools.lookup('A-1')",
                               tools=["quote"]).json()
    assert result["stdout"] == "['quote']\n"
    assert result["error"]["type"] == "AttributeError"


@pytest.mark.parametrize("body", [
    pytest.param({}, id="no-tools-field"),
    pytest.param({"tools": []}, id="empty-list"),
])
def test_a_request_not_naming_tools_cannot_import_them(
    gateway: Gateway, body: dict[str, Any]
) -> None:
    result = gateway.safe_exec("import tools", **body).json()
    assert result["status"] == "failed"
    assert result["error"]["type"] == "ModuleNotFoundError"
    assert result["tool_calls"] == []


def test_an_unknown_tool_name_is_a_400_naming_it(gateway: Gateway) -> None:
    response = gateway.safe_exec("print(1)", tools=["lookup", "launch_missiles"])
    assert response.status_code == 400
    error = response.json()["error"]
    assert (error["code"], error["field"]) == ("unknown_tool", "tools")
    assert "'launch_missiles'" in error["message"] and "lookup" in error["message"]


def test_a_tools_failure_over_http_is_a_guest_exception(gateway: Gateway) -> None:
    result = gateway.safe_exec((
        "import tools\n"
        "try:\n"
        "    tools.convert(1.0, 'XYZ')\n"
        "except KeyError as exc:\n"
        "    print('KeyError', exc)\n"
    ), tools=["convert"]).json()
    assert result["stdout"] == "KeyError 'no rate for XYZ'\n"
    assert result["tool_calls"][0]["error"] == "KeyError"


def test_async_jobs_and_forms_name_tools_too(gateway: Gateway) -> None:
    accepted = gateway.client.post("/v1/tools/safe-exec/async", json={
        "code": "import tools\nprint(tools.add(40, 2))", "tools": ["add"]})
    assert accepted.status_code == 202, accepted.text
    deadline = time.monotonic() + 60
    while (job := gateway.client.get(accepted.headers["Location"]).json())["status"] != "done":
        assert time.monotonic() < deadline
        time.sleep(0.05)
    assert job["result"]["stdout"] == "42\n"
    form = gateway.client.post("/v1/tools/safe-exec", data={
        "code": "import tools\nqty = int(open('/input/qty.txt').read())\n"
                "print(tools.quote(2.5, qty)['total'])",
        "tools": '["quote"]'}, files={"files": ("qty.txt", b"4")})
    assert form.status_code == 200, form.text
    assert form.json()["stdout"] == "10.0\n"


def test_session_calls_get_the_tools_they_name(gateway: Gateway) -> None:
    opened = gateway.client.post("/v1/sessions", json={})
    assert opened.status_code == 201, opened.text
    path = f"/v1/sessions/{opened.json()['id']}/execute"
    try:
        first = gateway.client.post(path, json={
            "code": "import tools\nstock = tools.lookup('C-3')['stock']", "tools": ["lookup"]})
        assert first.json()["status"] == "succeeded", first.text
        # The next call names no tools: the module the first call imported stays in the
        # session, but nothing answers it.
        second = gateway.client.post(path, json={"code": "print(stock)\ntools.lookup('A-1')"})
        assert second.json()["stdout"] == "11\n"
        assert second.json()["status"] == "failed" and second.json()["tool_calls"] == []
        unknown = gateway.client.post(path, json={"code": "1", "tools": ["nope"]})
        assert unknown.status_code == 400 and unknown.json()["error"]["code"] == "unknown_tool"
    finally:
        gateway.client.delete(path.rsplit("/", 1)[0])


def test_stopping_the_gateway_stops_its_bridged_servers() -> None:
    server = Gateway(["--bridge", CATALOG_COMMAND])
    try:
        result = server.safe_exec("import tools\nprint(tools.pid())", tools=["pid"]).json()
        pid = int(result["stdout"])
    finally:
        server.stop()  # SIGTERM: uvicorn shuts the app down, then re-raises the signal
    assert process_gone(pid)


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        pytest.param(["--tools", "no_such_module:TOOLS"], "cannot import no_such_module",
                     id="entry-point-not-importable"),
        pytest.param(["--tools", "json:dumps.nothing"], "json has no dumps.nothing",
                     id="entry-point-missing"),
        pytest.param(["--tools", "json"], "give module:attribute", id="entry-point-malformed"),
        pytest.param(["--bridge", "/nonexistent/server"],
                     "MCP server /nonexistent/server could not be started", id="bridge"),
        pytest.param(["--bridge-url", "ftp://example.com/mcp"], "http:// or https://",
                     id="bridge-url"),
    ],
)
def test_tools_that_cannot_be_set_up_are_a_usage_error_of_serve(
    flags: list[str], message: str
) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "sandbox_wasm", "serve", "--port", "0", *flags],
        capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("wasm-exec serve: error:") and message in done.stderr
    assert "Traceback" not in done.stderr
