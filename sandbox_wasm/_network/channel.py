"""One run's side of the network channel: the guest's requests in (`_wire.NETWORK_FD`,
answered by the host in `_host/wasi_fs.py`), checked against the run's policy and budgets,
carried out by `fetch`, answered, and recorded.

- `NetworkChannel`: write (one request, handled at once) / read (its answer), the run's
  records; a request over the body cap is answered without its bytes being copied.
- `NetworkCallRecord`: what the result reports of one request (never a pinned header,
  never a query string's values).
- `redacted_url`: a URL as reports show it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import parse_qsl, urlsplit, urlunsplit

from .._wire import decode_network_request, network_answer
from .fetch import FetchError, fetch
from .policy import NetworkPolicy, NetworkRefused

#: The request's own fields (method, URL, headers) may take this much beside the body.
MAX_REQUEST_META_BYTES = 256 * 1024
MAX_URL_CHARS = 8 * 1024
MAX_REQUEST_HEADERS = 100
MAX_HEADER_CHARS = 8 * 1024


@dataclass(frozen=True)
class NetworkCallRecord:
    """One request the guest asked for, as the result reports it."""

    method: str
    url: str
    status: int | None
    bytes_sent: int
    bytes_received: int
    duration_ms: float
    #: The exception type the guest got (refused by the policy: PermissionError).
    error: str | None = None
    #: Why, in one line (no secret: the policy's own words or the failure's).
    message: str | None = None
    #: The address the host connected to.
    address: str | None = None


def redacted_url(url: str) -> str:
    """`url` without user information, fragment or query values (`?key=...`): what a
    report may show of a request that could carry a secret the guest put there."""
    try:
        parts = urlsplit(url)
        netloc = parts.netloc.rpartition("@")[2]
        query = "&".join(f"{key}=..." for key, _ in parse_qsl(parts.query, keep_blank_values=True))
        return urlunsplit((parts.scheme, netloc, parts.path, query, ""))[:MAX_URL_CHARS]
    except ValueError:
        return "<invalid URL>"


@dataclass
class NetworkChannel:
    """One run's network: its policy, the time it has left, its requests so far."""

    policy: NetworkPolicy
    #: Seconds left before the run's deadline (read at each request).
    time_left: Callable[[], float]
    #: Whether the run has been interrupted (polled while a request is out).
    interrupted: Callable[[], bool] = lambda: False
    calls: list[NetworkCallRecord] = field(default_factory=list)
    _answer: bytes = b""

    @property
    def max_request_bytes(self) -> int:
        """The largest write the channel copies out of the guest."""
        return self.policy.max_request_bytes + MAX_REQUEST_META_BYTES

    def refuse_oversized(self, length: int) -> None:
        """A request too large to read: answered with an error, its bytes never copied."""
        self._refuse("?", "?", length, "OSError", f"the request is {length} bytes, over the "
                     f"policy's max_request_bytes ({self.policy.max_request_bytes})")

    def read(self, length: int) -> bytes:
        chunk, self._answer = self._answer[:length], self._answer[length:]
        return chunk

    def write(self, request: bytes) -> None:
        """Handle one request (one whole write); the answer waits for `read`."""
        started = time.perf_counter()
        try:
            meta, body = decode_network_request(request, MAX_REQUEST_META_BYTES)
            method, url, headers, timeout = _fields(meta)
        except ValueError as error:
            self._refuse("?", "?", len(request), "ValueError", f"malformed request: {error}")
            return
        if len(body) > self.policy.max_request_bytes:
            self._refuse(method, url, len(body), "OSError", f"the request body is {len(body)} "
                         f"bytes, over the policy's max_request_bytes "
                         f"({self.policy.max_request_bytes})")
            return
        if len(self.calls) >= self.policy.max_requests:
            self._refuse(method, url, 0, "PermissionError", "network policy: this run may "
                         f"make at most {self.policy.max_requests} requests")
            return
        try:
            rule, parts, port = self.policy.check(method, url)
        except NetworkRefused as error:
            self._refuse(method, url, 0, "PermissionError",
                         f"network policy: {method} {redacted_url(url)} refused: {error}")
            return
        budget = min(self.policy.request_timeout_ms / 1000, self.time_left())
        if timeout is not None:
            budget = min(budget, timeout)
        try:
            if budget <= 0:
                raise FetchError("TimeoutError", "the run's deadline has passed")
            response = fetch(self.policy, rule, parts, port, method, headers, body, budget,
                             self.interrupted)
        except FetchError as error:
            self._refuse(method, url, len(body), error.kind, error.message, started)
            return
        except Exception as error:  # a bug of ours must not become a trap in the guest
            self._refuse(method, url, len(body), "OSError",
                         f"the host could not make the request ({type(error).__name__})", started)
            return
        self._answer = network_answer(
            {"status": response.status, "reason": response.reason,
             "headers": response.headers}, response.body)
        self.calls.append(NetworkCallRecord(
            method, redacted_url(url), response.status, len(body), len(response.body),
            _ms(started), address=response.address))

    def _refuse(self, method: str, url: str, sent: int, kind: str, message: str,
                started: float | None = None) -> None:
        self._answer = network_answer({"error": {"type": kind, "message": message}}, b"")
        self.calls.append(NetworkCallRecord(
            method, redacted_url(url) if url != "?" else url, None, 0, 0,
            _ms(started) if started is not None else 0.0, kind, message[:500]))


def _ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 3)


def _fields(meta: object) -> tuple[str, str, list[tuple[str, str]], float | None]:
    """The request's method, URL, headers and timeout, checked; ValueError otherwise."""
    if not isinstance(meta, dict):
        raise ValueError("not a JSON object")
    method, url, headers, timeout = (meta.get("method"), meta.get("url"), meta.get("headers"),
                                     meta.get("timeout"))
    if not (isinstance(method, str) and method.isascii() and method.isalpha()
            and 0 < len(method) <= 16):
        raise ValueError("method")
    if not isinstance(url, str) or len(url) > MAX_URL_CHARS:
        raise ValueError(f"the URL must be text of at most {MAX_URL_CHARS} characters")
    if not isinstance(headers, list) or len(headers) > MAX_REQUEST_HEADERS:
        raise ValueError(f"at most {MAX_REQUEST_HEADERS} headers")
    pairs = []
    for pair in headers:
        if not (isinstance(pair, list) and len(pair) == 2
                and all(isinstance(p, str) and len(p) <= MAX_HEADER_CHARS for p in pair)):
            raise ValueError("a header is [name, value], each at most 8 KiB")
        pairs.append((pair[0], pair[1]))
    if timeout is not None and not (isinstance(timeout, (int, float)) and timeout > 0):
        raise ValueError("timeout")
    return method.upper(), url, pairs, float(timeout) if timeout is not None else None

