"""Network by permission (`network=`): the guest's urllib, http.client and requests reach
the hosts the caller allows, through the host, and nothing else. Real loopback HTTP and
HTTPS servers (tests/network_servers.py), allowed explicitly; real sandboxes.

Loopback is not a public address: every policy here lists 127.0.0.1, either as a rule's
host or in `private_addresses`, which is how a caller reaches a service on its own machine.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from instance_memory import memory_of
from network_servers import LiveServer, LoopbackCA, http_server, make_test_ca

import sandbox_wasm as sw


@pytest.fixture(scope="module")
def box() -> Iterator[sw.Sandbox]:
    with sw.Sandbox() as sandbox:
        sandbox.warm_up()
        yield sandbox


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    with http_server() as live:
        yield live


@pytest.fixture(scope="module")
def test_ca(tmp_path_factory: pytest.TempPathFactory) -> LoopbackCA:
    ca = make_test_ca(tmp_path_factory.mktemp("ca"))
    if ca is None:
        pytest.skip("the openssl command is needed to make the test CA")
    return ca


@pytest.fixture(scope="module")
def tls_server(test_ca: LoopbackCA) -> Iterator[LiveServer]:
    with http_server(test_ca.server_context()) as live:
        yield live


def allow(server: LiveServer, **policy: object) -> dict[str, object]:
    """A policy allowing the server's address (http, its port)."""
    return {"allow": [{"host": "127.0.0.1", "schemes": ["http"], "ports": [server.port]}],
            **policy}


def test_urllib_get_and_post_reach_an_allowed_server(box: sw.Sandbox, server: LiveServer) -> None:
    result = box.execute(f"""
import json, urllib.request
answer = json.loads(urllib.request.urlopen("{server.url}/echo?token=abc").read())
print(answer["method"], answer["path"])
request = urllib.request.Request("{server.url}/echo", data=b"hello", method="POST",
                                 headers={{"Content-Type": "text/plain"}})
with urllib.request.urlopen(request, timeout=5) as response:
    print(response.status, json.loads(response.read())["body"])
""", network=allow(server))
    assert result.status == "succeeded", result.stderr
    assert result.stdout.splitlines() == ["GET /echo?token=abc", "200 hello"]
    first, second = result.network_calls
    assert (first.method, first.status, first.address) == ("GET", 200, "127.0.0.1")
    # The query's values are not reported (they may be the guest's own secrets).
    assert first.url == f"{server.url}/echo?token=..."
    assert (second.method, second.bytes_sent, second.error) == ("POST", 5, None)
    assert second.bytes_received > 0 and second.duration_ms > 0


def test_http_client_connection_classes(box: sw.Sandbox, server: LiveServer) -> None:
    result = box.execute(f"""
import http.client, json
connection = http.client.HTTPConnection("127.0.0.1", {server.port}, timeout=5)
connection.request("PUT", "/echo", body="data", headers={{"X-Test": "1"}})
response = connection.getresponse()
answer = json.loads(response.read())
print(response.status, answer["method"], answer["body"], answer["headers"]["X-Test"])
connection.putrequest("DELETE", "/echo")
connection.endheaders()
print(connection.getresponse().status)
print(http.client.HTTPSConnection.__name__)
""", network=allow(server))
    assert result.status == "succeeded", result.stderr
    assert result.stdout.splitlines() == ["200 PUT data 1", "200", "HTTPSConnection"]


def test_without_a_policy_every_request_is_refused_naming_the_policy(
    box: sw.Sandbox, server: LiveServer,
) -> None:
    result = box.execute(f"""
import urllib.request
urllib.request.urlopen("{server.url}/echo")
""")
    assert result.status == "failed"
    assert "network policy" in result.error.message and "network=" in result.error.message
    assert result.network_calls == []
    assert [f.name for f in result.audit.network] == ["urllib.request"]
    assert "no network" in result.audit.network[0].reason


def test_a_host_outside_the_rules_is_refused(box: sw.Sandbox, server: LiveServer) -> None:
    result = box.execute("""
import urllib.request, urllib.error
try:
    urllib.request.urlopen("http://example.com/")
except urllib.error.URLError as error:
    print(type(error.reason).__name__, error.reason)
""", network=allow(server))
    assert result.status == "succeeded", result.stderr
    assert result.stdout.startswith("PermissionError network policy: GET http://example.com/ "
                                    "refused: no rule allows host 'example.com'")
    (call,) = result.network_calls
    assert (call.status, call.error, call.address) == (None, "PermissionError", None)
    # The audit names the use of the network as a finding, never a refusal.
    assert result.audit.safety_verdict == "safe"
    assert "127.0.0.1" in result.audit.network[0].reason


@pytest.mark.parametrize(("rule", "request_line"), [
    pytest.param({"methods": ["GET"]}, "POST /echo", id="method"),
    pytest.param({"ports": [1]}, "GET /echo", id="port"),
    pytest.param({"schemes": ["https"]}, "GET /echo", id="scheme"),
])
def test_a_method_port_or_scheme_outside_the_rule_is_refused(
    box: sw.Sandbox, server: LiveServer, rule: dict[str, object], request_line: str,
) -> None:
    method, path = request_line.split()
    policy = {"allow": [{"host": "127.0.0.1", "schemes": ["http"], "ports": [server.port],
                         **rule}]}
    result = box.execute(f"""
import urllib.request
urllib.request.urlopen(urllib.request.Request("{server.url}{path}", method="{method}",
                                              data=b"x" if "{method}" == "POST" else None))
""", network=policy)
    assert result.status == "failed"
    assert "is outside the rules for '127.0.0.1'" in result.error.message
    assert result.network_calls[0].error == "PermissionError"


def test_a_redirect_to_a_host_outside_the_rules_is_refused(
    box: sw.Sandbox, server: LiveServer,
) -> None:
    # localhost is the same server, but no rule names it.
    target = f"http://localhost:{server.port}/echo"
    result = box.execute(f"""
import urllib.request
urllib.request.urlopen("{server.url}/redirect?to={target}")
""", network=allow(server))
    assert result.status == "failed"
    assert "no rule allows host 'localhost'" in result.error.message
    hop, refused = result.network_calls
    assert (hop.status, refused.error) == (302, "PermissionError")


def test_a_redirect_inside_the_rules_is_followed(box: sw.Sandbox, server: LiveServer) -> None:
    result = box.execute(f"""
import urllib.request
response = urllib.request.urlopen("{server.url}/redirect?to=/echo")
print(response.status, response.geturl())
""", network=allow(server))
    assert result.status == "succeeded", result.stderr
    assert result.stdout.strip() == f"200 {server.url}/echo"
    assert [c.status for c in result.network_calls] == [302, 200]


def test_a_name_resolving_to_a_private_address_is_refused_unless_listed(
    box: sw.Sandbox, server: LiveServer,
) -> None:
    code = f"""
import urllib.request
print(urllib.request.urlopen("http://localhost:{server.port}/echo").status)
"""
    by_name = {"allow": [{"host": "localhost", "schemes": ["http"], "ports": [server.port]}]}
    refused = box.execute(code, network=by_name)
    assert refused.status == "failed"
    assert "localhost resolves to" in refused.error.message
    assert "not a public address" in refused.error.message
    assert refused.network_calls[0].error == "PermissionError"
    listed = box.execute(code, network={**by_name, "private_addresses": ["127.0.0.0/8", "::1"]})
    assert listed.status == "succeeded", listed.stderr
    assert listed.stdout.strip() == "200"


def test_an_oversized_response_is_cut_off_at_the_cap(box: sw.Sandbox, server: LiveServer) -> None:
    result = box.execute(f"""
import urllib.request
print(len(urllib.request.urlopen("{server.url}/bytes?n=1000").read()))
try:
    urllib.request.urlopen("{server.url}/bytes?n=5000")
except OSError as error:
    print(error)
""", network=allow(server, max_response_bytes=2000))
    assert result.status == "succeeded", result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "1000"
    assert "over the policy's max_response_bytes (2000 bytes)" in lines[1]
    assert result.network_calls[1].error == "OSError"


def test_an_oversized_request_body_is_refused_before_it_is_sent(
    box: sw.Sandbox, server: LiveServer,
) -> None:
    before = len(server.seen)
    result = box.execute(f"""
import urllib.request
urllib.request.urlopen("{server.url}/echo", data=b"x" * 5000)
""", network=allow(server, max_request_bytes=4096))
    assert result.status == "failed"
    assert "over the policy's max_request_bytes (4096)" in result.error.message
    assert len(server.seen) == before  # nothing reached the server


def test_the_request_count_is_capped(box: sw.Sandbox, server: LiveServer) -> None:
    result = box.execute(f"""
import urllib.request
for i in range(3):
    try:
        print(urllib.request.urlopen("{server.url}/echo").status)
    except OSError as error:
        print(error)
""", network=allow(server, max_requests=2))
    assert result.status == "succeeded", result.stderr
    lines = result.stdout.splitlines()
    assert lines[:2] == ["200", "200"]
    assert "at most 2 requests" in lines[2]


def test_a_slow_server_times_out_within_the_request_timeout(
    box: sw.Sandbox, server: LiveServer,
) -> None:
    result = box.execute(f"""
import urllib.request
try:
    urllib.request.urlopen("{server.url}/slow?s=3")
except OSError as error:
    print(type(error.reason).__name__)
print("still running")
""", network=allow(server, request_timeout_ms=300), timeout_ms=5_000)
    assert result.status == "succeeded", result.stderr
    assert result.stdout.splitlines() == ["TimeoutError", "still running"]
    assert result.network_calls[0].error == "TimeoutError"


def test_a_slow_server_cannot_hold_the_run_past_its_deadline(
    box: sw.Sandbox, server: LiveServer,
) -> None:
    result = box.execute(f"""
import urllib.request
urllib.request.urlopen("{server.url}/slow?s=10")
""", network=allow(server), timeout_ms=1_000)
    assert result.status == "timeout"
    # Loose bound: the deadline is 1 s, the server would answer after 10 s.
    assert result.metrics.execution_time_ms < 5_000
    assert result.network_calls[0].error == "TimeoutError"


def test_pinned_headers_reach_the_server_and_never_the_guest(server: LiveServer) -> None:
    secret = "sk-pinned-3f9a2c41d8e7b605"
    policy = {"allow": [{"host": "127.0.0.1", "schemes": ["http"], "ports": [server.port],
                         "headers": {"X-Api-Key": secret}}]}
    with sw.Session(network=policy) as session:
        result = session.execute(f"""
import urllib.request
request = urllib.request.Request("{server.url}/secret-check",
                                 headers={{"X-Api-Key": "guessed"}})
response = urllib.request.urlopen(request)
kept = (response.read(), dict(response.headers))
print(kept[0])
""")
        assert result.status == "succeeded", result.stderr
        assert server.seen[-1]["X-Api-Key"] == secret  # the host's, never the guest's guess
        memory = memory_of(session._instance)
    assert secret.encode() not in memory
    assert b"guessed" in memory  # the scan sees what the guest did hold
    assert secret not in result.model_dump_json()


def test_https_with_the_callers_ca(
    box: sw.Sandbox, tls_server: LiveServer, test_ca: LoopbackCA,
) -> None:
    code = f"""
import json, urllib.request
print(json.loads(urllib.request.urlopen("https://localhost:{tls_server.port}/echo").read())["path"])
"""
    rule = {"host": "localhost", "schemes": ["https"], "ports": [tls_server.port]}
    trusted = box.execute(code, network={"allow": [rule], "private_addresses": ["127.0.0.1"],
                                         "ca_file": str(test_ca.ca_file)})
    assert trusted.status == "succeeded", trusted.stderr
    assert trusted.stdout.strip() == "/echo"
    # The default bundle does not know the test CA: the certificate is refused.
    untrusted = box.execute(code, network={"allow": [rule], "private_addresses": ["127.0.0.1"]})
    assert untrusted.status == "failed"
    assert "TLS: the certificate of localhost was refused" in untrusted.error.message


def test_a_session_keeps_its_network_policy_per_call(server: LiveServer) -> None:
    code = f"import urllib.request\nprint(urllib.request.urlopen('{server.url}/echo').status)"
    with sw.Session(network=allow(server)) as session:
        assert session.execute(code).stdout.strip() == "200"
        refused = session.execute(code, network=[])
        assert refused.status == "failed" and "no rule allows host" in refused.error.message


@pytest.mark.parametrize(("value", "message"), [
    pytest.param("https://example.com", "list of rules", id="one-string"),
    pytest.param(["ftp://example.com"], "give [http|https://]host", id="scheme"),
    pytest.param(["https://example.com/path"], "give [http|https://]host", id="path"),
    pytest.param({"allow": [{"host": "bad host"}]}, "not a host name", id="host"),
    pytest.param({"allow": [{"host": "*.10.0.0.1"}]}, "a wildcard takes a domain",
                 id="wildcard-ip"),
    pytest.param({"allow": [{"host": "a.com", "headers": {"Host": "b"}}]}, "sets Host itself",
                 id="pinned-host"),
    pytest.param({"max_requests": 10_000}, "less than or equal", id="budget"),
    pytest.param({"private_addresses": ["nope"]}, "not an address", id="address"),
])
def test_invalid_policies_are_refused(box: sw.Sandbox, value: object, message: str) -> None:
    with pytest.raises(sw.InvalidRequestError, match=re.escape(message)):
        box.execute("pass", network=value)  # type: ignore[arg-type]


def test_rule_strings(box: sw.Sandbox, server: LiveServer) -> None:
    policy = sw.NetworkPolicy(allow=(sw.NetworkRule.parse(f"http://127.0.0.1:{server.port}"),))
    assert policy.allow[0].schemes == ("http",) and policy.allow[0].ports == (server.port,)
    assert sw.NetworkRule.parse("*.example.com").describe() == (
        "https://*.example.com:443 GET,HEAD,POST,PUT,PATCH,DELETE,OPTIONS")
    result = box.execute(f"import urllib.request\nurllib.request.urlopen('{server.url}/echo')",
                         network=[f"http://127.0.0.1:{server.port}"])
    assert result.status == "succeeded", result.stderr


@pytest.mark.slow
def test_requests_in_the_data_runtime(server: LiveServer) -> None:
    with sw.Sandbox(runtime="python-data") as data_box:
        result = data_box.execute(f"""
import requests
session = requests.Session()
answer = session.get("{server.url}/echo", params={{"q": "a b"}}, timeout=5).json()
print(answer["method"], answer["path"])
posted = session.post("{server.url}/echo", json={{"k": 1}})
print(posted.status_code, posted.json()["body"], posted.headers["Content-Type"])
print(requests.get("{server.url}/redirect?to=/echo").history[0].status_code)
try:
    requests.get("https://example.com/")
except requests.ConnectionError as error:
    print("refused", "network policy" in str(error))
import pandas as pd
print(pd.read_json("{server.url}/echo", typ="series")["method"])
""", network=allow(server))
    assert result.status == "succeeded", result.stderr
    assert result.stdout.splitlines() == [
        "GET /echo?q=a+b", '200 {"k": 1} application/json', "302", "refused True", "GET"]


def test_results_carry_the_calls_as_json(box: sw.Sandbox, server: LiveServer) -> None:
    result = box.execute(f"import urllib.request\nurllib.request.urlopen('{server.url}/echo')",
                         network=allow(server))
    (call,) = json.loads(result.model_dump_json())["network_calls"]
    assert set(call) == {"method", "url", "status", "bytes_sent", "bytes_received",
                         "duration_ms", "error", "message", "address"}



def test_the_cli_flags(server: LiveServer, tmp_path: Path) -> None:
    from test_cli import wasm_exec

    code = f"import urllib.request\nprint(urllib.request.urlopen('{server.url}/echo').status)"
    allowed = wasm_exec("-c", code, "--allow-host", f"http://127.0.0.1:{server.port}")
    assert (allowed.returncode, allowed.stdout.strip()) == (0, "200"), allowed.stderr
    refused = wasm_exec("-c", code)
    assert refused.returncode == 1 and "this run allows no network" in refused.stderr
    policy = tmp_path / "network.json"
    policy.write_text(json.dumps({"allow": [{"host": "localhost", "schemes": ["http"],
                                             "ports": [server.port], "methods": ["GET"]}]}))
    by_name = code.replace("127.0.0.1", "localhost")
    listed = wasm_exec("-c", by_name, "--network-policy", str(policy),
                       "--allow-address", "127.0.0.1", "--allow-address", "::1")
    assert (listed.returncode, listed.stdout.strip()) == (0, "200"), listed.stderr
    bad = wasm_exec("-c", "pass", "--allow-host", "ftp://example.com")
    assert bad.returncode == 2 and "network rule 'ftp://example.com'" in bad.stderr


def test_execute_many_takes_one_policy_for_every_request(server: LiveServer) -> None:
    code = f"import urllib.request\nprint(urllib.request.urlopen('{server.url}/echo').status)"
    results = list(sw.execute_many([code, code], workers=1, network=allow(server)))
    assert [r.stdout.strip() for r in results] == ["200", "200"]
    assert all(len(r.network_calls) == 1 for r in results)


def test_javascript_takes_no_network(box: sw.Sandbox, server: LiveServer) -> None:
    with pytest.raises(sw.InvalidRequestError, match="network is for Python code"):
        box.execute("1", language="javascript", network=allow(server))
