"""The host's side of a guest's HTTP request: resolve, check the addresses, connect to the
address checked, TLS, send, read the response within its caps, all before a deadline.

- `fetch`: one request already allowed by a rule (`policy.NetworkPolicy.check`), carried
  out in a worker thread while the calling thread (the one running the guest) waits,
  giving up at the deadline or when the run is interrupted: the worker's socket is then
  closed under it, so a slow server or a hanging DNS answer never holds the run.
- `FetchError`: a failure as the guest will see it (its type name and message).
- `Response`: what came back, with the address the host connected to.
- `fetch_thread_usage`: the worker threads in use and their cap (the gateway's metrics).

The standard library's http.client and ssl do the work: they let the host connect to the
very address it checked (a name that resolves differently a second time cannot switch
it) while TLS checks the certificate against the name, and let every read be bounded by
the time left. They import on the first request, never with `import sandbox_wasm`.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import functools
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import SplitResult

from .policy import DEFAULT_PORTS, HOST_SET_HEADERS, NetworkPolicy, NetworkRule, address_allowed

if TYPE_CHECKING:
    import socket
    import ssl

#: Worker threads for requests, process-wide: a request that cannot get one within its
#: time fails (TimeoutError) instead of queueing behind hung ones.
MAX_FETCH_THREADS = 16
#: Addresses of one name tried in turn when a connection is refused.
MAX_ADDRESSES_TRIED = 4
#: Largest response header block passed to the guest.
MAX_RESPONSE_HEADER_BYTES = 64 * 1024
#: Response headers that describe the host's connection, not the guest's response.
_CONNECTION_HEADERS = frozenset({"transfer-encoding", "connection", "keep-alive",
                                 "proxy-connection", "trailer", "upgrade"})
#: How often the waiting thread looks at the run's interrupt.
_POLL_S = 0.05


class FetchError(Exception):
    """A request that failed or was refused: `kind` is the exception type the guest
    raises (PermissionError, TimeoutError, ConnectionError, OSError, ValueError)."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message


@dataclass
class Response:
    """A response as the guest gets it."""

    status: int
    reason: str
    headers: list[tuple[str, str]]
    body: bytes
    address: str


@dataclass
class _Attempt:
    """One request in progress: the worker's socket, closed by the waiting thread when it
    gives up (the worker's blocking call then fails at once)."""

    sock: socket.socket | None = None
    abandoned: bool = False
    lock: threading.Lock = field(default_factory=threading.Lock)

    def hold(self, sock: socket.socket) -> None:
        with self.lock:
            if self.abandoned:
                sock.close()
                raise FetchError("TimeoutError", "the request was given up")
            self.sock = sock

    def abandon(self) -> None:
        with self.lock:
            self.abandoned = True
            sock, self.sock = self.sock, None
        if sock is not None:
            _close(sock)


def _close(sock: socket.socket) -> None:
    import socket

    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
    sock.close()


_threads = threading.BoundedSemaphore(MAX_FETCH_THREADS)
_in_use = [0]
_pool_lock = threading.Lock()
_pool: list[concurrent.futures.ThreadPoolExecutor] = []


def _executor() -> concurrent.futures.ThreadPoolExecutor:
    with _pool_lock:
        if not _pool:
            _pool.append(concurrent.futures.ThreadPoolExecutor(
                max_workers=MAX_FETCH_THREADS, thread_name_prefix="sandbox-wasm-network"))
        return _pool[0]


def fetch_thread_usage() -> tuple[int, int]:
    """Worker threads held by requests now (also those whose run gave up on them), and
    the cap."""
    return _in_use[0], MAX_FETCH_THREADS


def fetch(
    policy: NetworkPolicy, rule: NetworkRule, parts: SplitResult, port: int, method: str,
    headers: Sequence[tuple[str, str]], body: bytes, timeout_s: float,
    interrupted: Callable[[], bool],
) -> Response:
    """Carry out one allowed request within `timeout_s` (the caller has taken the run's
    deadline into it); raises FetchError."""
    deadline = time.monotonic() + timeout_s
    if not _threads.acquire(timeout=max(timeout_s, 0.0)):
        raise FetchError("TimeoutError", f"all {MAX_FETCH_THREADS} host threads for network "
                         "requests are busy")
    with _pool_lock:
        _in_use[0] += 1
    attempt = _Attempt()
    try:
        future = _executor().submit(_exchange, policy, rule, parts, port, method, headers,
                                    body, deadline, attempt)
    except BaseException:
        _give_back(None)
        raise
    future.add_done_callback(_give_back)
    while True:
        left = deadline - time.monotonic()
        if left <= 0 or interrupted():
            attempt.abandon()
            raise FetchError("TimeoutError", "the request did not complete in time "
                             f"({timeout_s * 1000:.0f} ms, within the run's deadline)"
                             if left <= 0 else "the run was interrupted")
        try:
            return future.result(timeout=min(left, _POLL_S))
        except concurrent.futures.TimeoutError:
            continue


def _give_back(_future: object) -> None:
    with _pool_lock:
        _in_use[0] -= 1
    _threads.release()


def _left(deadline: float) -> float:
    left = deadline - time.monotonic()
    if left <= 0:
        raise FetchError("TimeoutError", "the request did not complete in time")
    return left


def _exchange(
    policy: NetworkPolicy, rule: NetworkRule, parts: SplitResult, port: int, method: str,
    headers: Sequence[tuple[str, str]], body: bytes, deadline: float, attempt: _Attempt,
) -> Response:
    import http.client
    import ssl

    host = (parts.hostname or "").rstrip(".")
    try:
        sock, address = _connect(policy, host, port, deadline, attempt)
        if parts.scheme == "https":
            sock.settimeout(_left(deadline))
            sock = _tls_context(policy.ca_file).wrap_socket(sock, server_hostname=host)
            attempt.hold(sock)
        connection = http.client.HTTPConnection(host, port)
        connection.sock = sock
        try:
            return _send(connection, sock, rule, parts, port, method, headers, body, deadline,
                         policy.max_response_bytes, address)
        finally:
            connection.close()
            attempt.abandon()
    except FetchError:
        raise
    except ssl.SSLCertVerificationError as error:
        raise FetchError("ConnectionError", f"TLS: the certificate of {host} was refused "
                         f"({error.verify_message})") from None
    except ssl.SSLError as error:
        raise FetchError("ConnectionError", f"TLS with {host} failed ({error.reason})") from None
    except TimeoutError:
        raise FetchError("TimeoutError", f"{host}:{port} did not answer in time") from None
    except http.client.HTTPException as error:
        raise FetchError("ConnectionError", f"{host}:{port} sent an unusable response "
                         f"({type(error).__name__})") from None
    except OSError as error:
        if attempt.abandoned:
            raise FetchError("TimeoutError", "the request was given up") from None
        raise FetchError("ConnectionError", f"{host}:{port}: {error.strerror or error}") from None


def _connect(
    policy: NetworkPolicy, host: str, port: int, deadline: float, attempt: _Attempt,
) -> tuple[socket.socket, str]:
    """A connected socket to an address of `host` the policy allows, and that address."""
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                   proto=socket.IPPROTO_TCP)
    except (socket.gaierror, UnicodeError):
        raise FetchError("ConnectionError", f"cannot resolve host {host!r}") from None
    _left(deadline)
    addresses = list(dict.fromkeys(str(info[4][0]) for info in infos))
    allowed = [a for a in addresses if address_allowed(policy, a)]
    if not allowed:
        raise FetchError(
            "PermissionError", f"network policy: {host} resolves to {', '.join(addresses)}, "
            "not a public address: the policy must list it (private_addresses) to reach it")
    last: OSError | None = None
    for address in allowed[:MAX_ADDRESSES_TRIED]:
        family = socket.AF_INET6 if ":" in address else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        attempt.hold(sock)
        try:
            sock.settimeout(_left(deadline))
            sock.connect((address, port))
            return sock, address
        except TimeoutError:
            sock.close()
            raise
        except OSError as error:
            sock.close()
            last = error
    raise FetchError("ConnectionError", f"cannot connect to {host}:{port} "
                     f"({last.strerror if last is not None else 'no address'})")


@functools.lru_cache(maxsize=16)
def _tls_context(ca_file: str | None) -> ssl.SSLContext:
    """Certificates checked, host names checked (the ssl module's defaults for a client),
    against `ca_file`, else certifi's bundle when installed, else the system's."""
    import ssl

    if ca_file is None:
        try:
            import certifi

            ca_file = certifi.where()
        except ImportError:
            pass
    try:
        context = ssl.create_default_context(cafile=ca_file)
    except (OSError, ssl.SSLError) as error:
        raise FetchError("ConnectionError", f"the CA file {ca_file} cannot be read "
                         f"({error})") from None
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    return context


def _send(
    connection: Any, sock: socket.socket, rule: NetworkRule, parts: SplitResult, port: int,
    method: str, headers: Sequence[tuple[str, str]], body: bytes, deadline: float,
    max_bytes: int, address: str,
) -> Response:
    import http.client

    host = (parts.hostname or "").rstrip(".")
    shown = f"[{host}]" if ":" in host else host
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    pinned = {name.lower() for name in rule.headers}
    try:
        connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        connection.putheader(
            "Host", shown if port == DEFAULT_PORTS[parts.scheme] else f"{shown}:{port}")
        for name, value in headers:
            if name.lower() not in HOST_SET_HEADERS and name.lower() not in pinned:
                connection.putheader(name, value)
        for name, value in rule.headers.items():
            connection.putheader(name, value)
        connection.putheader("Accept-Encoding", "identity")
        connection.putheader("Connection", "close")
        if body or method in ("POST", "PUT", "PATCH"):
            connection.putheader("Content-Length", str(len(body)))
    except (ValueError, http.client.InvalidURL) as error:  # control characters, spaces
        raise FetchError("ValueError", f"invalid request: {error}") from None
    sock.settimeout(_left(deadline))
    connection.endheaders(body or None)
    sock.settimeout(_left(deadline))
    response = connection.getresponse()
    chunks, total = [], 0
    if method != "HEAD":
        while True:
            sock.settimeout(_left(deadline))
            chunk = response.read1(64 * 1024)
            if not chunk:
                break
            total += len(chunk)
            if total > max_bytes:
                raise FetchError("OSError", f"the response body is over the policy's "
                                 f"max_response_bytes ({max_bytes} bytes)")
            chunks.append(chunk)
    body_in = b"".join(chunks)
    kept, size = [], 0
    for name, value in response.getheaders():
        lowered = name.lower()
        if lowered in _CONNECTION_HEADERS or (lowered == "content-length" and method != "HEAD"):
            continue
        value = value.replace("\r", " ").replace("\n", " ")
        size += len(name) + len(value) + 4
        if size > MAX_RESPONSE_HEADER_BYTES:
            raise FetchError("OSError", "the response headers are over "
                             f"{MAX_RESPONSE_HEADER_BYTES} bytes")
        kept.append((name, value))
    if method != "HEAD" and response.status not in (204, 304) and response.status >= 200:
        kept.append(("Content-Length", str(len(body_in))))
    return Response(response.status, response.reason.replace("\r", " ").replace("\n", " "),
                    kept, body_in, address)
