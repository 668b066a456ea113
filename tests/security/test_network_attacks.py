"""Attacks on the network channel (`network=`): the guest writes to the channel's descriptor
itself, bypassing the libraries, with malformed, oversized and hostile requests; URLs that
try to reach another host than the rules allow; headers that try to smuggle a second
request or a secret out; names that resolve to private addresses. Real sandboxes, real
loopback servers (tests/network_servers.py). The host's resolver is replaced in a few tests
(`monkeypatch` on socket.getaddrinfo, the host's own DNS; the sandbox itself is real), to
give names the answers an attacker's DNS would.
"""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator

import pytest
from network_servers import LiveServer, http_server

import sandbox_wasm as sw

#: The guest's raw request on the channel (the bootstrap's wire format, spelled out so
#: that the test fails if it drifts).
RAW = """
import json, os
def raw(head, body=b"", length=None):
    data = json.dumps(head).encode() if isinstance(head, dict) else head
    size = len(data) if length is None else length
    os.write(5, size.to_bytes(4, "little") + data + body)
    answer = os.read(5, 1 << 20)
    head_length = int.from_bytes(answer[8:12], "little")
    return json.loads(answer[12:12 + head_length]), answer[12 + head_length:]
def get(url, headers=(), method="GET", body=b""):
    meta, _ = raw({"method": method, "url": url, "headers": [list(h) for h in headers],
                   "timeout": None}, body)
    return meta.get("status") or meta["error"]["type"] + ": " + meta["error"]["message"]
"""


@pytest.fixture(scope="module")
def box() -> Iterator[sw.Sandbox]:
    with sw.Sandbox() as sandbox:
        sandbox.warm_up()
        yield sandbox


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    with http_server() as live:
        yield live


def allow(server: LiveServer, **policy: object) -> dict[str, object]:
    return {"allow": [{"host": "127.0.0.1", "schemes": ["http"], "ports": [server.port]}],
            **policy}


def run(box: sw.Sandbox, code: str, network: object) -> list[str]:
    result = box.execute(RAW + code, network=network)  # type: ignore[arg-type]
    assert result.status == "succeeded", (result.error, result.stderr[-2000:])
    return result.stdout.splitlines()


@pytest.mark.parametrize("head", [
    pytest.param("b'not json'", id="not-json"),
    pytest.param("b'[1, 2]'", id="not-an-object"),
    pytest.param("json.dumps({'method': 'GET / HTTP/1.1', 'url': 'http://x/', 'headers': []})"
                 ".encode()", id="method-with-a-request-line"),
    pytest.param("json.dumps({'method': 'GET', 'url': 5, 'headers': []}).encode()",
                 id="url-not-text"),
    pytest.param("json.dumps({'method': 'GET', 'url': 'http://x/', 'headers': [[1, 2]]})"
                 ".encode()", id="header-not-text"),
    pytest.param("json.dumps({'method': 'GET', 'url': 'http://x/', "
                 "'headers': [['a', 'b']] * 101}).encode()", id="too-many-headers"),
    pytest.param("b'[' * 100000 + b']' * 100000", id="nested-deeply"),
])
def test_malformed_requests_are_answered_not_crashed(
    box: sw.Sandbox, server: LiveServer, head: str,
) -> None:
    lines = run(box, f"""
meta, _ = raw({head})
print(meta["error"]["type"], meta["error"]["message"][:40])
print(get("{server.url}/echo"))
""", allow(server))
    assert lines[0].startswith("ValueError malformed request")
    assert lines[1] == "200"  # the channel still works


def test_a_head_length_that_lies_is_refused(box: sw.Sandbox, server: LiveServer) -> None:
    lines = run(box, """
for length in (2**32 - 1, 10**6, 0):
    meta, _ = raw(b'{"method": "GET"}', length=length)
    print(meta["error"]["type"])
""", allow(server))
    assert lines == ["ValueError"] * 3


def test_an_oversized_write_is_refused_without_being_read(
    box: sw.Sandbox, server: LiveServer,
) -> None:
    before = len(server.seen)
    lines = run(box, f"""
print(get("{server.url}/echo", method="POST", body=b"x" * 300_000))
""", allow(server, max_request_bytes=1024))
    assert lines[0].startswith("OSError: the request is ")
    assert "over the policy's max_request_bytes (1024)" in lines[0]
    assert len(server.seen) == before


@pytest.mark.parametrize("url", [
    pytest.param("http://127.0.0.1:{port}@evil.example/", id="userinfo"),
    pytest.param("http://evil.example#@127.0.0.1:{port}/", id="fragment"),
    pytest.param("http://2130706433:{port}/", id="decimal-ip"),
    pytest.param("http://0x7f.0.0.1:{port}/", id="hex-ip"),
    pytest.param("http://[::ffff:127.0.0.1]:{port}/", id="ipv4-mapped"),
    pytest.param("http://127.0.0.1.nip.io:{port}/", id="suffix"),
    pytest.param("http://localhost:{port}/", id="another-name-same-server"),
    pytest.param("file:///etc/passwd", id="file"),
    pytest.param("ftp://127.0.0.1:{port}/", id="ftp"),
    pytest.param("gopher://127.0.0.1:{port}/_GET", id="gopher"),
    pytest.param("http:///echo", id="no-host"),
    pytest.param("http://127.0.0.1:99999/", id="bad-port"),
])
def test_urls_that_point_elsewhere_are_refused(
    box: sw.Sandbox, server: LiveServer, url: str,
) -> None:
    before = len(server.seen)
    lines = run(box, f"print(get({url.format(port=server.port)!r}))", allow(server))
    assert lines[0].startswith("PermissionError: network policy:"), lines
    assert len(server.seen) == before


@pytest.mark.parametrize(("headers", "seen"), [
    pytest.param([("Host", "evil.example")], {"Host": "127.0.0.1:{port}"}, id="host"),
    pytest.param([("Transfer-Encoding", "chunked")], {"Transfer-Encoding": None},
                 id="transfer-encoding"),
    pytest.param([("Connection", "keep-alive, Upgrade")], {"Connection": "close"},
                 id="connection"),
    pytest.param([("Accept-Encoding", "gzip")], {"Accept-Encoding": "identity"},
                 id="compression"),
])
def test_headers_the_host_owns_cannot_be_set_by_the_guest(
    box: sw.Sandbox, server: LiveServer, headers: list[tuple[str, str]],
    seen: dict[str, str | None],
) -> None:
    lines = run(box, f"print(get({server.url + '/secret-check'!r}, headers={headers!r}))",
                allow(server))
    assert lines == ["200"]
    received = server.seen[-1]
    for name, value in seen.items():
        assert received.get(name) == (value.format(port=server.port) if value else None)


@pytest.mark.parametrize("header", [
    pytest.param(("X-A", "1\r\nX-Injected: 1"), id="crlf-in-value"),
    pytest.param(("X-A\r\nX-Injected", "1"), id="crlf-in-name"),
    pytest.param(("X-A", "1\nGET /second HTTP/1.1"), id="lf-request-smuggling"),
])
def test_header_injection_is_refused(
    box: sw.Sandbox, server: LiveServer, header: tuple[str, str],
) -> None:
    before = len(server.seen)
    lines = run(box, f"print(get({server.url + '/echo'!r}, headers=[{header!r}]))",
                allow(server))
    assert lines[0].startswith("ValueError: invalid request"), lines
    assert len(server.seen) == before


def test_a_path_with_a_line_break_is_refused(box: sw.Sandbox, server: LiveServer) -> None:
    lines = run(box, f"print(get({server.url + '/a HTTP/1.1' + chr(13) + chr(10) + 'X: y'!r}))",
                allow(server))
    assert lines[0].startswith("ValueError: invalid request"), lines


def test_a_pinned_header_does_not_follow_a_redirect_to_another_rule(
    box: sw.Sandbox, server: LiveServer,
) -> None:
    secret = "pinned-only-for-127"
    policy = {"allow": [
        {"host": "127.0.0.1", "schemes": ["http"], "ports": [server.port],
         "headers": {"Authorization": f"Bearer {secret}"}},
        {"host": "localhost", "schemes": ["http"], "ports": [server.port]},
    ], "private_addresses": ["127.0.0.1", "::1"]}
    target = f"http://localhost:{server.port}/secret-check"
    result = box.execute(f"""
import urllib.request
print(urllib.request.urlopen("{server.url}/redirect?to={target}").read())
""", network=policy)
    assert result.status == "succeeded", result.stderr
    first, second = server.seen[-2:]
    assert first["Authorization"] == f"Bearer {secret}"
    assert "Authorization" not in second


def test_the_channel_does_not_exist_without_a_policy(box: sw.Sandbox) -> None:
    result = box.execute("""
import os
try:
    os.write(5, b"x")
except OSError as error:
    print(error.errno)
""")
    assert result.stdout.strip() == "8"  # EBADF


def fake_resolver(answers: dict[str, list[str]], calls: list[str]) -> object:
    real = socket.getaddrinfo

    def getaddrinfo(host: str, port: int, *args: object, **kwargs: object) -> list[object]:
        calls.append(host)
        if host not in answers:
            return real(host, port, *args, **kwargs)  # type: ignore[arg-type]
        return [(socket.AF_INET6 if ":" in a else socket.AF_INET, socket.SOCK_STREAM, 6, "",
                 (a, port)) for a in answers[host]]

    return getaddrinfo


@pytest.mark.parametrize("addresses", [
    pytest.param(["169.254.169.254"], id="cloud-metadata"),
    pytest.param(["10.0.0.1", "192.168.1.1"], id="private"),
    pytest.param(["127.0.0.1"], id="loopback"),
    pytest.param(["::1"], id="loopback-v6"),
    pytest.param(["::ffff:127.0.0.1"], id="ipv4-mapped-loopback"),
    pytest.param(["0.0.0.0"], id="unspecified"),
    pytest.param(["224.0.0.1"], id="multicast"),
    pytest.param(["100.64.0.1"], id="shared-address-space"),
    pytest.param(["fd00::1"], id="unique-local-v6"),
])
def test_a_public_name_resolving_to_a_private_address_is_refused(
    box: sw.Sandbox, monkeypatch: pytest.MonkeyPatch, addresses: list[str],
) -> None:
    calls: list[str] = []
    monkeypatch.setattr(socket, "getaddrinfo", fake_resolver({"api.example.com": addresses},
                                                             calls))
    lines = run(box, "print(get('https://api.example.com/v1'))", ["api.example.com"])
    assert lines[0].startswith("PermissionError: network policy: api.example.com resolves to "
                               f"{addresses[0]}"), lines
    assert calls == ["api.example.com"]


def test_the_host_connects_to_the_address_it_checked(
    box: sw.Sandbox, server: LiveServer, monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A rebinding name answers the listed address first and a forbidden one after: the
    # host resolves once per request and connects to the address it checked.
    calls: list[str] = []
    answers = iter([["127.0.0.1"], ["169.254.169.254"], ["169.254.169.254"]])

    def rebinding(host: str, port: int, *args: object, **kwargs: object) -> list[object]:
        calls.append(host)
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (a, port)) for a in next(answers)]

    monkeypatch.setattr(socket, "getaddrinfo", rebinding)
    policy = {"allow": [{"host": "rebind.example", "schemes": ["http"], "ports": [server.port]}],
              "private_addresses": ["127.0.0.1"]}
    result = box.execute(RAW + f"""
print(get("http://rebind.example:{server.port}/echo"))
print(get("http://rebind.example:{server.port}/echo"))
""", network=policy)
    assert result.stdout.splitlines()[0] == "200"
    assert result.stdout.splitlines()[1].startswith("PermissionError")
    assert [c.address for c in result.network_calls] == ["127.0.0.1", None]
    assert calls == ["rebind.example"] * 2
    assert server.seen[-1]["Host"] == f"rebind.example:{server.port}"


def test_a_hanging_resolver_cannot_hold_the_run(
    box: sw.Sandbox, monkeypatch: pytest.MonkeyPatch,
) -> None:
    def hanging(*args: object, **kwargs: object) -> list[object]:
        time.sleep(5)
        return []

    monkeypatch.setattr(socket, "getaddrinfo", hanging)
    result = box.execute(RAW + "print(get('https://slow-dns.example/'))",
                         network=["slow-dns.example"], timeout_ms=800)
    assert result.status == "timeout"
    assert result.metrics.execution_time_ms < 4_000  # loose: the resolver takes 5 s


def test_reports_never_carry_pinned_headers_or_query_values(
    box: sw.Sandbox, server: LiveServer,
) -> None:
    secret = "sk-report-7c1e"
    policy = {"allow": [{"host": "127.0.0.1", "schemes": ["http"], "ports": [server.port],
                         "headers": {"X-Key": secret}}]}
    result = box.execute(RAW + f"""
print(get("{server.url}/echo?api_key=guest-secret"))
print(get("http://elsewhere.example/?api_key=guest-secret"))
""", network=policy)
    dumped = result.model_dump_json()
    assert secret not in dumped and "guest-secret" not in dumped
    assert json.loads(dumped)["network_calls"][0]["url"].endswith("/echo?api_key=...")
