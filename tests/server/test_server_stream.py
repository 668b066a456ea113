"""POST /v1/tools/safe-exec/stream: the output as Server-Sent Events while the code runs,
from a real uvicorn on loopback, read with httpx's streaming client."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import httpx
import pytest
from live_server import LiveServer, error_of, serve

import sandbox_wasm as sw

STREAM = "/v1/tools/safe-exec/stream"


@pytest.fixture(scope="module")
def server(gateway_sandbox: sw.Sandbox) -> Iterator[LiveServer]:
    yield from serve(gateway_sandbox, workers=2, queue=2, rate_limit=10_000)


def events(response: httpx.Response) -> Iterator[tuple[float, str, object]]:
    """(arrival time, event name, data) of each Server-Sent Event."""
    name = None
    for line in response.iter_lines():
        if line.startswith("event: "):
            name = line[len("event: "):]
        elif line.startswith("data: "):
            assert name is not None
            yield time.monotonic(), name, json.loads(line[len("data: "):])
            name = None


def test_output_arrives_as_it_is_written_then_the_result(server: LiveServer) -> None:
    code = ("import sys, time\nprint('before')\nsys.stderr.write('warn\\n')\ntime.sleep(1)\n"
            "print('after')\n'done'")
    with server.client.stream("POST", STREAM, json={"code": code}) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        received = list(events(response))
    names = [name for _, name, _ in received]
    assert names[-1] == "result" and "error" not in names
    texts = [(name, data["text"]) for _, name, data in received[:-1]]  # type: ignore[index]
    assert "".join(t for n, t in texts if n == "stdout") == "before\nafter\n"
    assert "".join(t for n, t in texts if n == "stderr") == "warn\n"
    assert texts.index(("stderr", "warn\n")) < texts.index(("stdout", "after\n"))
    first_at, result_at = received[0][0], received[-1][0]
    assert received[0][1:] == ("stdout", {"text": "before\n"})  # a print is one event
    assert result_at - first_at >= 0.9  # sent when printed, not with the result
    result = sw.ExecutionResult.model_validate(received[-1][2])
    assert result.status == "succeeded" and result.stdout == "before\nafter\n"
    assert result.value is not None and result.value.json_value == "done"


def test_refusals_come_before_the_stream_as_json(server: LiveServer) -> None:
    too_big = server.client.post(STREAM, json={"code": "x = 1\n" * 20_000})
    assert too_big.status_code == 413
    assert error_of(too_big)["code"] == "source_too_large"
    bad = server.client.post(STREAM, json={"code": "print(1)", "limits": {"memory_mb": 1}})
    assert bad.status_code == 400


def test_a_client_that_goes_away_stops_the_run(server: LiveServer) -> None:
    with server.client.stream("POST", STREAM, json={
        "code": "import time\nprint('started', flush=True)\ntime.sleep(60)",
        "limits": {"timeout_ms": 60_000},
    }) as response:
        for _, name, _data in events(response):
            assert name == "stdout"
            break  # leaving closes the connection
    health = server.wait_until(lambda h: h["busy"] == 0, timeout=10)
    assert health["busy"] == 0


def test_the_route_is_in_the_openapi_document(server: LiveServer) -> None:
    document = server.client.get("/openapi.json").json()
    answers = document["paths"][STREAM]["post"]["responses"]
    assert "text/event-stream" in answers["200"]["content"]
    assert {"400", "413", "503"} <= set(answers)
