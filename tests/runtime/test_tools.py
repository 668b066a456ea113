"""Host tools in the guest ("code mode") on the real runtime: the `tools` module's functions
keep their tools' names, signatures and docstrings; arguments are bound and validated; a
tool's failure, time-out or limit becomes a guest exception; calls are listed in the
result; sessions, async tools and a tool that itself runs the sandbox."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import sandbox_wasm as sw


def lookup(sku: str) -> dict[str, object]:
    """Find a product by its SKU."""
    return {"sku": sku, "price": 2.5 if sku == "A1" else 10.0}


def price(unit: float, qty: int = 1, *, discount: float = 0.0) -> float:
    """Total price of `qty` units, after a discount."""
    return round(unit * qty * (1 - discount), 2)


def gather(first: int, /, *rest: int, scale: int = 1, **labels: str) -> dict[str, object]:
    return {"values": [first, *rest], "scale": scale, "labels": labels}


class InventoryError(Exception):
    pass


def failing(kind: str) -> None:
    if kind == "key":
        raise KeyError("sku-9 not found in /srv/inventory/db.sqlite")
    if kind == "custom":
        raise InventoryError("stock exhausted")
    raise FileNotFoundError(2, "No such file or directory", "/etc/host/secret.conf")


cancelled = threading.Event()


async def slow(seconds: float) -> str:
    try:
        await asyncio.sleep(seconds)
    except asyncio.CancelledError:
        cancelled.set()
        raise
    return "done"


async def async_double(value: int) -> int:
    await asyncio.sleep(0)
    return value * 2


TOOLS = [lookup, price, gather, failing, slow, async_double]


@pytest.fixture(scope="module")
def box() -> Iterator[sw.Sandbox]:
    with sw.Sandbox(python_runtime="cpython313", tools=TOOLS) as sandbox:
        yield sandbox


def run(box: sw.Sandbox, code: str, **options: object) -> sw.ExecutionResult:
    result = box.execute(code, **options)  # type: ignore[arg-type]
    assert result.status == "succeeded", (result.error, result.stderr)
    return result


def test_a_model_style_script_loops_over_tools(box: sw.Sandbox) -> None:
    result = run(box, (
        "import json\nfrom tools import lookup, price\n"
        "totals = {sku: price(lookup(sku)['price'], qty=3, discount=0.1) for sku in ['A1', 'B2']}\n"
        "print(json.dumps(totals))\n"
    ))
    assert result.result_json == {"A1": 6.75, "B2": 27.0}
    assert [(c.name, c.ok) for c in result.tool_calls] == [
        ("lookup", True), ("price", True), ("lookup", True), ("price", True)]
    assert all(c.duration_ms >= 0 for c in result.tool_calls)
    assert result.audit.safety_verdict == "safe" and not result.audit.flagged_calls


def test_stubs_keep_names_signatures_and_docstrings(box: sw.Sandbox) -> None:
    result = run(box, (
        "import tools\n"
        "print(sorted(tools.__all__))\n"
        "print(tools.lookup.__name__, tools.lookup.__doc__)\n"
        "print(tools.price.__doc__)\n"
        "print(tools.price.__defaults__, tools.price.__kwdefaults__)\n"
    ))
    assert result.stdout.splitlines() == [
        "['async_double', 'failing', 'gather', 'lookup', 'price', 'slow']",
        "lookup Find a product by its SKU.",
        "Total price of `qty` units, after a discount.",
        "(1,) {'discount': 0.0}",
    ]


def test_every_kind_of_parameter_crosses(box: sw.Sandbox) -> None:
    result = run(box, (
        "import json, tools\n"
        "print(json.dumps(tools.gather(1, 2, 3, scale=2, unit='kg')))\n"
        "print(json.dumps(tools.gather(7)))\n"
    ))
    assert result.stdout.splitlines() == [
        '{"values": [1, 2, 3], "scale": 2, "labels": {"unit": "kg"}}',
        '{"values": [7], "scale": 1, "labels": {}}',
    ]


def test_bad_arguments_raise_type_and_value_errors(box: sw.Sandbox) -> None:
    result = run(box, (
        "import tools\n"
        "for call in (lambda: tools.price(), lambda: tools.price(1, 2, 3),\n"
        "             lambda: tools.price('many'), lambda: tools.price(1, qty='x'),\n"
        "             lambda: tools.price(1, colour='red'), lambda: tools.lookup({1, 2})):\n"
        "    try:\n"
        "        call()\n"
        "    except (TypeError, ValueError) as exc:\n"
        "        print(type(exc).__name__, str(exc)[:60])\n"
    ))
    lines = result.stdout.splitlines()
    assert [line.split()[0] for line in lines] == [
        "TypeError", "TypeError", "ValueError", "ValueError", "TypeError", "TypeError"]
    assert "valid number" in lines[2] and "valid integer" in lines[3]
    assert "JSON" in lines[5]


def test_a_tools_failure_becomes_a_guest_exception_without_host_paths(
    box: sw.Sandbox,
) -> None:
    result = run(box, (
        "import tools\n"
        "for kind in ('key', 'custom', 'file'):\n"
        "    try:\n"
        "        tools.failing(kind)\n"
        "    except Exception as exc:\n"
        "        print(type(exc).__name__, '|', exc)\n"
    ))
    assert result.stdout.splitlines() == [
        "KeyError | 'sku-9 not found in <path>'",
        "ToolError | InventoryError: stock exhausted",
        "FileNotFoundError | No such file or directory",
    ]
    assert "Traceback" not in result.stdout and "/srv" not in result.model_dump_json()
    assert [c.error for c in result.tool_calls] == ["KeyError", "InventoryError",
                                                   "FileNotFoundError"]


def test_async_tools_run_and_are_cancelled_when_late(box: sw.Sandbox) -> None:
    cancelled.clear()
    result = run(box, (
        "import tools\n"
        "print(tools.async_double(21))\n"
        "try:\n"
        "    tools.slow(30)\n"
        "except TimeoutError as exc:\n"
        "    print('late:', exc)\n"
        "print('still running')\n"
    ), limits={"tool_timeout_ms": 300, "timeout_ms": 5_000})
    assert result.stdout.splitlines()[0] == "42"
    assert result.stdout.splitlines()[1].startswith("late: tool 'slow' did not answer")
    assert result.stdout.endswith("still running\n")
    deadline = time.monotonic() + 5
    while not cancelled.is_set() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert cancelled.is_set()


def test_a_timeout_error_the_tool_raises_is_its_answer_at_once() -> None:
    # Not taken for the tool running late: the guest gets the tool's own TimeoutError as
    # soon as it is raised (the host once waited for the run's deadline, polling).
    def upstream(n: int) -> int:
        raise TimeoutError(f"upstream {n} took too long")

    async def upstream_async(n: int) -> int:
        raise TimeoutError(f"async upstream {n} took too long")

    started = time.monotonic()
    result = sw.execute(
        "import tools\n"
        "for call in (tools.upstream, tools.upstream_async):\n"
        "    try:\n"
        "        call(7)\n"
        "    except TimeoutError as exc:\n"
        "        print(type(exc).__name__, '|', exc)\n",
        tools=[upstream, upstream_async], timeout_ms=5_000)
    assert result.status == "succeeded", result.stderr
    assert result.stdout.splitlines() == ["TimeoutError | upstream 7 took too long",
                                          "TimeoutError | async upstream 7 took too long"]
    assert [c.error for c in result.tool_calls] == ["TimeoutError", "TimeoutError"]
    assert all(c.duration_ms < 1_000 for c in result.tool_calls)
    assert time.monotonic() - started < 3


def test_time_inside_tools_counts_against_the_deadline(box: sw.Sandbox) -> None:
    started = time.monotonic()
    result = box.execute("import tools\ntools.slow(20)", timeout_ms=500)
    assert result.status == "timeout"
    assert time.monotonic() - started < 3
    assert result.tool_calls[0].error == "TimeoutError"


def test_the_number_of_calls_is_capped(box: sw.Sandbox) -> None:
    result = run(box, (
        "import tools\n"
        "done = 0\n"
        "try:\n"
        "    while True:\n"
        "        tools.async_double(done)\n"
        "        done += 1\n"
        "except RuntimeError as exc:\n"
        "    print(done, exc)\n"
    ), limits={"max_tool_calls": 5})
    assert result.stdout == "5 this run may call tools at most 5 times\n"
    assert len(result.tool_calls) == 5


def test_oversized_arguments_and_answers_are_refused(box: sw.Sandbox) -> None:
    def echo(text: str) -> str:
        return text * 10

    result = run(box, (
        "import tools\n"
        "for size in (100, 5_000):\n"
        "    try:\n"
        "        print(len(tools.echo('x' * size)))\n"
        "    except ValueError as exc:\n"
        "        print('refused:', str(exc)[:40])\n"
    ), tools=[echo], limits={"max_tool_bytes": 4_096})
    lines = result.stdout.splitlines()
    assert lines[0] == "1000" and lines[1].startswith("refused: tool arguments are")
    result = run(box, "import tools\ntry:\n    tools.echo('y' * 1000)\nexcept ValueError as e:\n"
                 "    print(e)", tools=[echo], limits={"max_tool_bytes": 4_096})
    assert result.stdout.startswith("tool 'echo' answered 100")
    assert result.stdout.endswith("bytes, over the limit of 4096\n")


def test_results_that_are_not_json_are_refused(box: sw.Sandbox) -> None:
    def make() -> object:
        return object()

    result = run(box, "import tools\ntry:\n    tools.make()\nexcept TypeError as e:\n"
                 "    print('refused')", tools=[make])
    assert result.stdout == "refused\n"


def test_tools_per_call_replace_the_sandboxs(box: sw.Sandbox) -> None:
    def only(x: int) -> int:
        return x + 1

    result = run(box, "import tools\nprint(tools.__all__, tools.only(1))", tools=[only])
    assert result.stdout == "['only'] 2\n"
    plain = sw.Sandbox(python_runtime="cpython313")
    missing = plain.execute("import tools")
    assert missing.status == "failed" and missing.error is not None
    assert missing.error.type == "ModuleNotFoundError"
    plain.close()


def test_tools_in_a_session_and_after_restore(box: sw.Sandbox) -> None:
    with sw.Session(sandbox=box) as session:
        session.execute("import tools\nbase = tools.lookup('A1')['price']")
        result = session.execute("print(tools.price(base, 4))")
        assert result.stdout == "10.0\n" and [c.name for c in result.tool_calls] == ["price"]
        data = session.snapshot()
    with sw.Session.restore(data, sandbox=box, tools=[price]) as restored:
        assert restored.execute("print(tools.price(base, 2))").stdout == "5.0\n"


def test_a_tool_may_itself_run_the_sandbox(box: sw.Sandbox) -> None:
    inner = sw.Sandbox(python_runtime="cpython313")

    def compute(expression: str) -> str:
        return inner.execute(f"print({expression})").stdout.strip()

    result = run(box, "import tools\nprint(tools.compute('6 * 7'), tools.compute('2 ** 10'))",
                 tools=[compute])
    assert result.stdout == "42 1024\n"
    inner.close()


def test_concurrent_runs_get_their_own_answers(box: sw.Sandbox) -> None:
    outputs: dict[int, str] = {}

    def worker(n: int) -> None:
        outputs[n] = box.execute(
            f"import tools\nprint(sum(tools.async_double({n}) for _ in range(20)))"
        ).stdout

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert outputs == {n: f"{40 * n}\n" for n in range(6)}


def test_the_strict_policy_allows_tools_and_lists_the_calls(box: sw.Sandbox) -> None:
    result = box.execute("from tools import lookup\nprint(lookup('A1')['price'])",
                         policy="strict")
    assert (result.status, result.stdout) == ("succeeded", "2.5\n")
    assert result.audit.safety_verdict == "safe"
    assert json.loads(result.model_dump_json())["tool_calls"][0]["name"] == "lookup"


@pytest.mark.parametrize(("tools", "message"), [
    pytest.param([lambda x: x], "identifier", id="lambda-name"),
    pytest.param([3], "callable", id="not-callable"),
    pytest.param({"class": lookup}, "keyword", id="keyword-name"),
    pytest.param({"_hidden": lookup}, "identifier", id="underscore"),
    pytest.param([lookup, lookup], "two tools", id="duplicate"),
])
def test_bad_tool_definitions_are_refused(tools: object, message: str) -> None:
    with pytest.raises(sw.InvalidRequestError, match=message) as error:
        sw.Sandbox(python_runtime="cpython313", tools=tools)  # type: ignore[arg-type]
    assert error.value.field == "tools"


def test_a_parameter_name_the_stub_cannot_use_is_refused() -> None:
    def bad(_secret: int) -> int:
        return _secret

    with pytest.raises(sw.InvalidRequestError, match="parameter"):
        sw.Sandbox(python_runtime="cpython313", tools=[bad])


def test_the_code_mode_example_runs() -> None:
    example = Path(__file__).resolve().parents[2] / "examples" / "code_mode.py"
    done = subprocess.run([sys.executable, str(example)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    printed = json.loads(done.stdout[: done.stdout.rindex("}") + 1])
    assert printed["total"] == 130.0
    assert printed["problems"] == ["C-300 out of stock", "unknown SKU Z-999"]
    assert done.stdout.rstrip().endswith("lookup_product KeyError")


def test_the_audit_lists_the_tools_the_source_uses(box: sw.Sandbox) -> None:
    result = box.execute("from tools import lookup\nimport tools\n"
                         "print(lookup('A1')['sku'], tools.price(1.0))", policy="strict")
    assert result.status == "succeeded"
    assert result.audit.tools == ["lookup", "price"] and result.audit.flagged_calls == []
    plain = box.execute("print(1)")
    assert plain.audit.tools == []


def test_a_session_call_without_tools_says_so(box: sw.Sandbox) -> None:
    with sw.Session(sandbox=box) as session:
        session.execute("import tools\nkept = tools.async_double")
        later = session.execute(
            "try:\n    kept(1)\nexcept RuntimeError as exc:\n    print(exc)\n"
            "try:\n    import tools\nexcept ModuleNotFoundError:\n    print('no module')\n",
            tools=[],
        )
        assert later.stdout == ("async_double(): no host tools are offered in this call\n"
                                "no module\n")


INLINE_TOOLS = [sw.tool(lookup, inline=True), sw.tool(price, inline=True),
                sw.tool(failing, inline=True), sw.tool(gather, name="collect", inline=True)]


def test_inline_tools_answer_as_worker_thread_tools_do(box: sw.Sandbox) -> None:
    script = (
        "import json, tools\n"
        "print(tools.price(tools.lookup('A1')['price'], 3, discount=0.1))\n"
        "print(json.dumps(tools.collect(1, 2, scale=2, unit='kg')))\n"
        "print(tools.price.__doc__, tools.collect.__name__)\n"
        "for call in (lambda: tools.price('many'), lambda: tools.price(1, colour='red'),\n"
        "             lambda: tools.failing('key'), lambda: tools.failing('custom')):\n"
        "    try:\n"
        "        call()\n"
        "    except Exception as exc:\n"
        "        print(type(exc).__name__, '|', str(exc)[:40])\n"
    )
    inline = run(box, script, tools=INLINE_TOOLS)
    threaded = run(box, script, tools=[lookup, price, failing, sw.tool(gather, name="collect")])
    assert inline.stdout == threaded.stdout
    assert inline.stdout.splitlines()[:3] == [
        "6.75", '{"values": [1, 2], "scale": 2, "labels": {"unit": "kg"}}',
        "Total price of `qty` units, after a discount. collect"]
    assert [(c.name, c.ok, c.error) for c in inline.tool_calls] == [
        (c.name, c.ok, c.error) for c in threaded.tool_calls]
    assert "<path>" in inline.stdout and "/srv" not in inline.model_dump_json()


def text_of(size: int, accented: bool = False) -> str:
    return (("abc\u00e9" if accented else "abcd") * size)[:size]


@pytest.mark.parametrize("inline", [False, True])
def test_answers_of_every_size_cross_whole(box: sw.Sandbox, inline: bool) -> None:
    # An answer that fits the runtime's 64 KiB answer area is left there, a longer one read
    # from the channel: both sides of the boundary, in one run. {"result": "<text>"} is 14
    # bytes around the text; an accented letter takes 6 (\u00e9).
    area = 64 * 1024
    plain = [0, 1, area - 14 - 1, area - 14, area - 14 + 1, 300_000]
    accented = [29_000, 30_000]  # 65,264 and 67,514 bytes of JSON
    result = run(box, (
        "import tools\n"
        f"for size, accented in {[(n, False) for n in plain] + [(n, True) for n in accented]}:\n"
        "    text = tools.text_of(size, accented)\n"
        "    expected = (('abc\\u00e9' if accented else 'abcd') * size)[:size]\n"
        "    print(size, text == expected)\n"
    ), tools=[sw.tool(text_of, inline=inline)], limits={"max_tool_bytes": 2_000_000})
    assert result.stdout.splitlines() == [f"{n} True" for n in plain + accented]


def test_inline_tools_keep_the_run_s_limits(box: sw.Sandbox) -> None:
    capped = run(box, "import tools\ndone = 0\ntry:\n    while True:\n"
                 "        tools.price(1)\n        done += 1\nexcept RuntimeError as exc:\n"
                 "    print(done, exc)\n", tools=INLINE_TOOLS, limits={"max_tool_calls": 3})
    assert capped.stdout == "3 this run may call tools at most 3 times\n"

    def nap(seconds: float) -> str:
        time.sleep(seconds)
        return "awake"

    # Nothing stops an inline tool: the deadline is checked when it returns.
    started = time.monotonic()
    late = box.execute("import tools\nprint(tools.nap(0.8))\nprint('after')",
                       tools=[sw.tool(nap, inline=True)], timeout_ms=300)
    assert late.status == "timeout" and "after" not in late.stdout
    assert 0.8 <= time.monotonic() - started < 3
    assert box.execute("print('next')").stdout == "next\n"


def test_an_inline_tool_cannot_run_the_sandbox_on_its_callers_thread(box: sw.Sandbox) -> None:
    inner = sw.Sandbox(python_runtime="cpython313")

    def compute(expression: str) -> str:
        return inner.execute(f"print({expression})").stdout.strip()

    result = run(box, "import tools\ntry:\n    tools.compute('6 * 7')\n"
                 "except RuntimeError as exc:\n    print(exc)\nprint(tools.compute.__name__)",
                 tools=[sw.tool(compute, inline=True)])
    assert result.stdout.startswith("a sandbox run cannot start on the thread of a run in "
                                    "progress (from an on_output callback or an inline tool)")
    # The run that called it is whole, and so are the next ones, here and in `inner`.
    assert result.stdout.endswith("compute\n")
    assert inner.execute("print(1)").stdout == "1\n"
    assert box.execute("print(2)").stdout == "2\n"
    inner.close()


def test_an_async_tool_cannot_be_inline() -> None:
    with pytest.raises(sw.InvalidRequestError, match="only a sync tool can be inline"):
        sw.tool(async_double, inline=True)
    made = sw.tool(async_double, name="twice")
    assert (made.name, made.inline, made.is_async) == ("twice", False, True)
