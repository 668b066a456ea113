"""Output as the guest writes it: `on_output=`, `Sandbox.stream()` / `Session.stream()` and
their async forms, and the CLI writing as it goes."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import sandbox_wasm as sw

ROOT = Path(__file__).resolve().parents[2]

INTERLEAVED = ("import sys\n"
               "print('out 1')\n"
               "sys.stderr.write('err 1\\n')\n"
               "print('out 2')\n"
               "sys.stderr.write('err 2\\n')\n")


@pytest.fixture(scope="module")
def box() -> Iterator[sw.Sandbox]:
    with sw.Sandbox() as sandbox:
        yield sandbox


def lines_of(chunks: list[sw.OutputChunk]) -> list[tuple[str, str]]:
    """(stream, line) in the order written: a chunk is one write (a print call is one, a
    `sys.stderr.write` another), so chunks are joined per stream up to each newline."""
    lines: list[tuple[str, str]] = []
    pending = {"stdout": "", "stderr": ""}
    for chunk in chunks:
        pending[chunk.stream] += chunk.text
        while "\n" in pending[chunk.stream]:
            line, _, pending[chunk.stream] = pending[chunk.stream].partition("\n")
            lines.append((chunk.stream, line))
    return lines


def test_chunks_come_in_the_order_written_then_the_result(box: sw.Sandbox) -> None:
    items = list(box.stream(INTERLEAVED))
    result = items[-1]
    assert isinstance(result, sw.ExecutionResult) and result.status == "succeeded"
    chunks = items[:-1]
    assert all(isinstance(item, sw.OutputChunk) for item in chunks)
    assert lines_of(chunks) == [("stdout", "out 1"), ("stderr", "err 1"),  # type: ignore[arg-type]
                                ("stdout", "out 2"), ("stderr", "err 2")]
    # The chunks hold exactly the result's output.
    assert "".join(c.text for c in chunks if c.stream == "stdout") == result.stdout  # type: ignore[union-attr]
    assert "".join(c.text for c in chunks if c.stream == "stderr") == result.stderr  # type: ignore[union-attr]


def test_a_chunk_printed_before_a_sleep_arrives_before_the_sleep_ends(box: sw.Sandbox) -> None:
    arrived: list[tuple[float, object]] = []
    for item in box.stream("import time\nprint('before')\ntime.sleep(1)\nprint('after')"):
        arrived.append((time.monotonic(), item))
    first_at, first = arrived[0]
    end_at, result = arrived[-1]
    assert isinstance(first, sw.OutputChunk) and first.text == "before\n"
    assert isinstance(result, sw.ExecutionResult) and result.stdout == "before\nafter\n"
    assert end_at - first_at >= 0.9  # it came when printed, not with the result


def test_a_print_call_is_one_chunk(box: sw.Sandbox) -> None:
    """The user's print writes its arguments, separators and end in one piece (one host
    call) to the guest's stdout and stderr, not one write per piece."""
    chunks: list[sw.OutputChunk] = []
    result = box.execute("import sys\nprint('a', 'b', 3, sep='-')\n"
                         "print('e', 1, file=sys.stderr)\nprint('x', end='')\nprint('y')",
                         on_output=chunks.append)
    assert result.status == "succeeded", result.stderr
    assert [(c.stream, c.text) for c in chunks] == [
        ("stdout", "a-b-3\n"), ("stderr", "e 1\n"), ("stdout", "x"), ("stdout", "y\n")]


def test_output_past_the_cap_is_not_streamed(box: sw.Sandbox) -> None:
    chunks: list[sw.OutputChunk] = []
    result = box.execute("print('x' * 5000)", limits={"max_stdout_bytes": 100},
                         on_output=chunks.append)
    assert result.stdout_truncated
    assert "".join(c.text for c in chunks) == result.stdout == "x" * 100


def test_leaving_the_loop_early_interrupts_the_run() -> None:
    with sw.Session() as session:
        session.execute("n = 1")
        started = time.monotonic()
        stream = session.stream("n = 2\nprint('going', flush=True)\nimport time\ntime.sleep(30)")
        for item in stream:
            assert isinstance(item, sw.OutputChunk) and item.text == "going\n"
            break
        stream.close()  # type: ignore[attr-defined]
        assert time.monotonic() - started < 10
        value = session.execute("n").value  # rolled back, and usable
        assert value is not None and value.json_value == 1


def test_an_on_output_that_raises_stops_the_run_and_is_raised(box: sw.Sandbox) -> None:
    def refuse(chunk: sw.OutputChunk) -> None:
        raise RuntimeError(f"no room for {chunk.text!r}")

    started = time.monotonic()
    with pytest.raises(RuntimeError, match="no room for 'tick\\\\n'"):
        box.execute("while True:\n    print('tick')", on_output=refuse, timeout_ms=20_000)
    assert time.monotonic() - started < 10


def test_bad_arguments_are_refused(box: sw.Sandbox) -> None:
    with pytest.raises(sw.InvalidRequestError, match="on_output must be callable"):
        box.execute("print(1)", on_output="print")  # type: ignore[arg-type]
    with pytest.raises(sw.InvalidRequestError, match="its own on_output"):
        list(box.stream("print(1)", on_output=print))


def test_the_async_iterator_and_its_cancellation(box: sw.Sandbox) -> None:
    async def main() -> None:
        items = [item async for item in box.stream_async(INTERLEAVED)]
        assert isinstance(items[-1], sw.ExecutionResult)
        assert len(lines_of(items[:-1])) == 4  # type: ignore[arg-type]

        async def read_forever() -> None:
            async for _ in box.stream_async("import time\nprint('a')\ntime.sleep(30)"):
                pass

        task = asyncio.ensure_future(read_forever())
        await asyncio.sleep(0.5)
        started = time.monotonic()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert time.monotonic() - started < 5

    asyncio.run(main())


def test_a_session_streams_and_keeps_its_values() -> None:
    with sw.Session() as session:
        items = list(session.stream("x = 20\nprint(x)\nx * 2"))
        result = items[-1]
        assert isinstance(result, sw.ExecutionResult)
        assert result.value is not None and result.value.json_value == 40
        assert lines_of(items[:-1]) == [("stdout", "20")]  # type: ignore[arg-type]


def test_javascript_streams_too(box: sw.Sandbox) -> None:
    chunks: list[sw.OutputChunk] = []
    result = box.execute("console.log('js out')", language="javascript",
                         on_output=chunks.append)
    assert result.status == "succeeded"
    assert "".join(c.text for c in chunks) == result.stdout == "js out\n"


def test_the_cli_writes_stdout_and_stderr_interleaved_as_written(tmp_path: Path) -> None:
    script = tmp_path / "both.py"
    script.write_text(INTERLEAVED)
    done = subprocess.run(f"{sys.executable} -m sandbox_wasm {script} 2>&1", shell=True,
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0
    assert done.stdout == "out 1\nerr 1\nout 2\nerr 2\n"
