"""Input and output files through the HTTP gateway, on a real uvicorn on a loopback port:
base64 in JSON on safe-exec (sync and async), sessions and the tool endpoint, a multipart
form on safe-exec, and the size caps of bodies and files.

Nothing is mocked: every execution runs in the real sandbox on the pinned runtime.
"""

from __future__ import annotations

import base64
import json
import time
from collections.abc import Iterator

import pytest
from live_server import LiveServer, error_of, serve

import sandbox_wasm as sw
from sandbox_wasm.server import GatewaySettings

SAFE_EXEC = "/v1/tools/safe-exec"
SAFE_EXEC_ASYNC = "/v1/tools/safe-exec/async"
TOOL = "/v1/tools/execute_python_sandbox"
SESSIONS = "/v1/sessions"

CSV = b"region,amount\nnorth,10\nsouth,32\nnorth,5\n"
# Reads /input/data.csv, writes a report and a binary file whose base64 has + and /.
REPORT = """\
import csv
import json
import pathlib
totals = {}
with open('/input/data.csv', newline='') as handle:
    for row in csv.DictReader(handle):
        totals[row['region']] = totals.get(row['region'], 0) + int(row['amount'])
with open('/output/report.json', 'w') as out:
    json.dump(totals, out, sort_keys=True)
pathlib.Path('/output/raw').mkdir()
with open('/output/raw/bytes.bin', 'wb') as out:
    out.write(bytes([0xfb, 0xff, 0xfe, 0x3e]))
print(len(totals), 'regions')
"""
REPORT_FILES = {"report.json": b'{"north": 15, "south": 32}', "raw/bytes.bin": b"\xfb\xff\xfe>"}


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def decoded(files: dict[str, str]) -> dict[str, bytes]:
    """What a client decodes with the standard, strict decoder."""
    return {name: base64.b64decode(text, validate=True) for name, text in files.items()}


@pytest.fixture(scope="module")
def server(gateway_sandbox: sw.Sandbox) -> Iterator[LiveServer]:
    yield from serve(gateway_sandbox, workers=2, queue=4, rate_limit=10_000)


@pytest.fixture(scope="module")
def small_server(gateway_sandbox: sw.Sandbox) -> Iterator[LiveServer]:
    """Input files of at most 4,000 bytes a request."""
    yield from serve(gateway_sandbox, workers=1, queue=4, rate_limit=10_000, max_input_bytes=4_000)


# -- round trips -----------------------------------------------------------------------------
def test_safe_exec_json_round_trip(server: LiveServer) -> None:
    response = server.client.post(SAFE_EXEC, json={"code": REPORT,
                                                   "files": {"data.csv": b64(CSV)}})
    assert response.status_code == 200
    result = response.json()
    assert (result["status"], result["stdout"]) == ("succeeded", "2 regions\n")
    assert decoded(result["files"]) == REPORT_FILES
    assert result["files"]["raw/bytes.bin"] == "+//+Pg=="  # the standard alphabet
    assert result["files_dropped"] == []
    # The library's own model reads the result back.
    assert sw.ExecutionResult.model_validate(result).files == REPORT_FILES


def test_safe_exec_multipart_round_trip(server: LiveServer) -> None:
    response = server.client.post(
        SAFE_EXEC,
        data={"code": REPORT + "print(open('/input/cfg/x.json').read())",
              "limits": json.dumps({"timeout_ms": 3000})},
        files=[("files", ("data.csv", CSV, "text/csv")),
               ("files", ("cfg/x.json", b'{"k": 1}', "application/json"))],
    )
    assert response.status_code == 200, response.text
    result = response.json()
    assert (result["status"], result["stdout"]) == ("succeeded", '2 regions\n{"k": 1}\n')
    assert result["limits"]["timeout_ms"] == 3000
    assert decoded(result["files"]) == REPORT_FILES


def test_async_job_returns_the_files(server: LiveServer) -> None:
    accepted = server.client.post(
        SAFE_EXEC_ASYNC, data={"code": REPORT}, files={"files": ("data.csv", CSV)}
    )
    assert accepted.status_code == 202, accepted.text
    deadline = time.monotonic() + 30
    while (job := server.client.get(f"/v1/jobs/{accepted.json()['job_id']}").json())[
            "status"] != "done":
        assert time.monotonic() < deadline
        time.sleep(0.05)
    assert job["result"]["status"] == "succeeded"
    assert decoded(job["result"]["files"]) == REPORT_FILES


def test_session_call_takes_files_that_stay_for_later_calls(server: LiveServer) -> None:
    opened = server.client.post(SESSIONS, json={})
    assert opened.status_code == 201
    session = f"{SESSIONS}/{opened.json()['id']}"
    try:
        first = server.client.post(f"{session}/execute", json={
            "code": REPORT, "files": {"data.csv": b64(CSV)},
        }).json()
        assert (first["status"], first["session"]["call"]) == ("succeeded", 1)
        assert decoded(first["files"]) == REPORT_FILES
        # The input is still there; only what this call changed under /output comes back.
        second = server.client.post(f"{session}/execute", json={
            "code": "print(len(open('/input/data.csv').read()))\n"
                    "open('/output/again.txt', 'w').write('x')",
        }).json()
        assert (second["stdout"], decoded(second["files"])) == (f"{len(CSV)}\n",
                                                                {"again.txt": b"x"})
        refused = server.client.post(f"{session}/execute", json={
            "code": "1", "files": {"data.csv": "not base64!"},
        })
        assert refused.status_code == 400
        assert error_of(refused)["field"] == "files.data.csv"
    finally:
        server.client.delete(session)


def test_tool_endpoint_lists_files_and_their_contents(server: LiveServer) -> None:
    response = server.client.post(TOOL, json={"python_script": REPORT,
                                              "files": {"data.csv": b64(CSV)}})
    assert response.status_code == 200
    body = response.json()
    assert body["exit_code"] == 0
    assert sorted(body["files"], key=lambda f: f["name"]) == [
        {"name": "raw/bytes.bin", "size": 4, "mime_type": "application/octet-stream",
         "uri": "sandbox:///output/raw/bytes.bin"},
        {"name": "report.json", "size": 26, "mime_type": "application/json",
         "uri": "sandbox:///output/report.json"},
    ]
    assert decoded(body["file_contents"]) == REPORT_FILES


def test_refused_writes_are_reported(small_server: LiveServer) -> None:
    # The file caps are the library's (8 MiB a file); writing past them is refused, the run
    # goes on, and the result says which write.
    code = ("try:\n    open('/output/big.bin', 'wb').write(b'x' * (9 * 1024 * 1024))\n"
            "except OSError as exc:\n    print(type(exc).__name__)")
    result = small_server.client.post(SAFE_EXEC, json={"code": code}).json()
    assert result["status"] == "succeeded"
    assert result["files_dropped"] and "big.bin" in result["files_dropped"][0]


# -- refusals --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("content", "why"),
    [
        pytest.param("not base64!", "Only base64 data", id="bad-character"),
        pytest.param("YWJj\nZGVm", "Only base64 data", id="newline"),
        pytest.param("YWJ", "padding", id="bad-padding"),
        pytest.param("+_8=", "mixes", id="mixed-alphabets"),
        pytest.param("é", "ASCII", id="not-ascii"),
    ],
)
@pytest.mark.parametrize("path", [SAFE_EXEC, SAFE_EXEC_ASYNC])
def test_bad_base64_is_400_naming_the_file(
    server: LiveServer, path: str, content: str, why: str
) -> None:
    response = server.client.post(path, json={"code": "1", "files": {"in/data.csv": content}})
    assert response.status_code == 400
    error = error_of(response)
    assert (error["code"], error["field"]) == ("invalid_request", "files.in/data.csv")
    assert "files.in/data.csv" in error["message"] and why in error["message"]


@pytest.mark.parametrize(
    ("name", "field"),
    [
        pytest.param("../etc/passwd", "files.../etc/passwd", id="dot-dot"),
        pytest.param("/etc/passwd", "files./etc/passwd", id="absolute"),
        pytest.param("a/./b", "files.a/./b", id="dot"),
        pytest.param("a\\b", "files.a\\b", id="backslash"),
        pytest.param("a\x00b", "files.a\x00b", id="nul"),
    ],
)
def test_unusable_names_are_400_naming_the_file(
    server: LiveServer, name: str, field: str
) -> None:
    response = server.client.post(SAFE_EXEC, json={"code": "1", "files": {name: "YQ=="}})
    assert response.status_code == 400
    error = error_of(response)
    assert (error["code"], error["field"]) == ("invalid_request", field)
    assert repr(name) in error["message"]


def test_unusable_names_in_a_form_are_400(server: LiveServer) -> None:
    response = server.client.post(SAFE_EXEC, data={"code": "1"},
                                  files={"files": ("../x.csv", b"a")})
    assert response.status_code == 400
    assert error_of(response)["field"] == "files.../x.csv"
    both = server.client.post(SAFE_EXEC, data={"code": "1"},
                              files=[("files", ("a", b"1")), ("files", ("a/b", b"2"))])
    assert both.status_code == 400
    assert "also a directory" in error_of(both)["message"]


@pytest.mark.parametrize(
    ("data", "files", "field", "fragment"),
    [
        pytest.param({}, {"files": ("a.csv", b"1")}, "code", "Field required",
                     id="no-code"),
        pytest.param({"code": "1", "limits": "{"}, None, "limits", "not a JSON object",
                     id="limits-not-json"),
        pytest.param({"code": "1", "limits": '{"timeout_ms": 0}'}, None, "limits.timeout_ms",
                     "greater than or equal", id="limits-out-of-range"),
        pytest.param({"code": "1", "other": "x"}, None, "other", "unexpected form part",
                     id="unknown-field"),
        pytest.param({"code": "1"}, {"data": ("a.csv", b"1")}, "data",
                     "unexpected form part", id="file-under-another-name"),
        pytest.param({"code": "1", "files": "text"}, None, "files", "must be a file",
                     id="files-not-a-file"),
        pytest.param({"code": "1", "language": "cobol"}, None, "language", "python",
                     id="bad-language"),
    ],
)
def test_bad_forms_are_400_naming_the_part(
    server: LiveServer, data: dict, files: dict | None, field: str, fragment: str
) -> None:
    response = server.client.post(SAFE_EXEC, data=data, files=files)
    if files is None:  # httpx sends a urlencoded body without files: make it multipart
        response = server.client.post(
            SAFE_EXEC, files={k: (None, v) for k, v in data.items()})
    assert response.status_code == 400, response.text
    error = error_of(response)
    assert error["field"] == field and fragment in error["message"], error


def test_files_need_our_python_runtime(server: LiveServer) -> None:
    response = server.client.post(SAFE_EXEC, json={
        "code": "console.log(1)", "language": "javascript", "files": {"a": "YQ=="},
    })
    assert response.status_code == 400
    assert error_of(response)["field"] == "files"


# -- size caps -------------------------------------------------------------------------------
def test_files_over_max_input_bytes_are_413(small_server: LiveServer) -> None:
    client = small_server.client
    fits = client.post(SAFE_EXEC, json={"code": "print(len(open('/input/a').read()))",
                                        "files": {"a": b64(b"x" * 4_000)}})
    assert (fits.status_code, fits.json()["stdout"]) == (200, "4000\n")
    for response in [
        client.post(SAFE_EXEC, json={"code": "1", "files": {"a": b64(b"x" * 2_001),
                                                             "b": b64(b"y" * 2_000)}}),
        client.post(SAFE_EXEC, data={"code": "1"}, files={"files": ("a", b"x" * 4_001)}),
        client.post(f"{TOOL}", json={"python_script": "1", "files": {"a": b64(b"x" * 4_001)}}),
    ]:
        assert response.status_code == 413
        error = error_of(response)
        assert (error["code"], error["field"]) == ("files_too_large", "files")
        assert "4000" in error["message"] and "max_input_bytes" in error["message"]


def test_bodies_over_the_files_cap_are_413_before_parsing(small_server: LiveServer) -> None:
    settings = small_server.settings
    # The cap follows max_input_bytes (base64 grows it by a third) and stays bounded.
    assert settings.max_body_bytes + 4 * 4_000 // 3 < settings.max_files_body_bytes
    assert settings.max_files_body_bytes < settings.max_body_bytes + 2 * 1024 * 1024
    body = b'{"code": "1", "files": {"a": "' + b"QUFB" * (settings.max_files_body_bytes // 4) \
        + b'"}}'
    for path in (SAFE_EXEC, f"{SESSIONS}/0123/execute"):
        response = small_server.client.post(
            path, content=body, headers={"content-type": "application/json"})
        assert response.status_code == 413
        error = error_of(response)
        assert (error["code"], error["field"]) == ("payload_too_large", "body")
        assert "max_input_bytes" in error["message"]
    # Endpoints that take no files keep the source-sized cap.
    opened = small_server.client.post(
        SESSIONS, content=b" " * (settings.max_body_bytes + 1),
        headers={"content-type": "application/json"})
    assert opened.status_code == 413
    assert "max_input_bytes" not in error_of(opened)["message"]


def test_default_cap_admits_the_default_input_limit() -> None:
    settings = GatewaySettings()
    assert settings.max_input_bytes == sw.Limits().max_input_bytes
    assert 4 * settings.max_input_bytes // 3 < settings.max_files_body_bytes
    assert settings.max_files_body_bytes < 2 * settings.max_input_bytes


# -- the OpenAPI document --------------------------------------------------------------------
def test_openapi_says_files_are_base64(server: LiveServer) -> None:
    schema = server.client.get("/openapi.json").json()
    components = schema["components"]["schemas"]
    base64_object = {"type": "object",
                     "additionalProperties": {"type": "string", "contentEncoding": "base64"}}
    for model in ("ExecutionResult", "SafeExecRequest", "SessionExecuteRequest",
                  "SandboxToolRequest"):
        files = components[model]["properties"]["files"]
        assert base64_object.items() <= files.items(), model
    body = schema["paths"][SAFE_EXEC]["post"]["requestBody"]["content"]
    assert body["application/json"]["schema"] == {"$ref": "#/components/schemas/SafeExecRequest"}
    form = body["multipart/form-data"]["schema"]
    assert form["required"] == ["code"]
    assert form["properties"]["files"]["items"]["format"] == "binary"
    assert "SafeExecLimits" in components
    assert "files" in schema["paths"][SAFE_EXEC]["post"]["description"]
