"""Real HTTP and HTTPS servers on loopback for the network tests and benchmark, and a test
CA made with the `openssl` command (the HTTPS server's certificate names `localhost` and
127.0.0.1; the sandbox trusts it through `NetworkPolicy(ca_file=...)`).

Routes: `/echo` answers JSON {method, path, headers, body}; `/redirect?to=URL` answers 302
to URL; `/bytes?n=N` answers N bytes; `/slow?s=S` waits S seconds before answering;
`/secret-check` answers "ok" and keeps the request's headers on the server (`seen`), never
echoing them. Every request's headers are kept in `seen`.
"""

from __future__ import annotations

import json
import shutil
import ssl
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit


@dataclass
class LiveServer:
    """A running server: its base URL on 127.0.0.1 and the headers of what it received."""

    url: str
    port: int
    seen: list[dict[str, str]] = field(default_factory=list)


def _handler(seen: list[dict[str, str]]) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def _answer(self, status: int, body: bytes, headers: dict[str, str] | None = None) -> None:
            self.send_response(status)
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)

        def _route(self) -> None:
            parts = urlsplit(self.path)
            query = {k: v[0] for k, v in parse_qs(parts.query).items()}
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            seen.append(dict(self.headers))
            if parts.path == "/redirect":
                self._answer(302, b"", {"Location": query["to"]})
            elif parts.path == "/bytes":
                self._answer(200, b"x" * int(query["n"]), {"Content-Type": "text/plain"})
            elif parts.path == "/slow":
                time.sleep(float(query["s"]))
                self._answer(200, b"late")
            elif parts.path == "/secret-check":
                self._answer(200, b"ok")
            else:
                echo = {"method": self.command, "path": self.path,
                        "headers": dict(self.headers), "body": body.decode("latin-1")}
                self._answer(200, json.dumps(echo).encode(),
                             {"Content-Type": "application/json"})

        do_GET = do_POST = do_PUT = do_DELETE = do_HEAD = do_PATCH = _route

        def log_message(self, *args: object) -> None:
            pass

    return Handler


@contextmanager
def http_server(context: ssl.SSLContext | None = None) -> Iterator[LiveServer]:
    """A threading HTTP server on 127.0.0.1 (HTTPS with `context`) for the block."""
    seen: list[dict[str, str]] = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(seen))
    server.daemon_threads = True
    server.block_on_close = False  # a slow route must not hold the teardown
    # A client that gave up (a timeout test) breaks the pipe: expected, not an error.
    server.handle_error = lambda request, address: None  # type: ignore[method-assign]
    if context is not None:
        server.socket = context.wrap_socket(server.socket, server_side=True)
    port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield LiveServer(f"{'https' if context else 'http'}://127.0.0.1:{port}", port, seen)
    finally:
        server.shutdown()
        server.server_close()


@dataclass(frozen=True)
class LoopbackCA:
    """A CA certificate (PEM) and a server certificate and key it signed."""

    ca_file: Path
    cert_file: Path
    key_file: Path

    def server_context(self) -> ssl.SSLContext:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(self.cert_file, self.key_file)
        return context


def make_test_ca(directory: Path) -> LoopbackCA | None:
    """A CA and a server certificate for localhost and 127.0.0.1, made with `openssl`
    (None when the command is missing)."""
    openssl = shutil.which("openssl")
    if openssl is None:
        return None
    ca_key, ca_file = directory / "ca.key", directory / "ca.pem"
    key, csr, cert = directory / "server.key", directory / "server.csr", directory / "server.pem"
    ext = directory / "server.ext"
    ext.write_text("subjectAltName=DNS:localhost,IP:127.0.0.1\n"
                   "basicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\n"
                   "extendedKeyUsage=serverAuth\n")

    def run(*args: str | Path) -> None:
        subprocess.run([openssl, *map(str, args)], check=True, capture_output=True)

    run("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", ca_key, "-out", ca_file,
        "-days", "2", "-subj", "/CN=sandbox-wasm test CA",
        "-addext", "basicConstraints=critical,CA:TRUE",
        "-addext", "keyUsage=critical,keyCertSign,cRLSign")
    run("req", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", csr,
        "-subj", "/CN=localhost")
    run("x509", "-req", "-in", csr, "-CA", ca_file, "-CAkey", ca_key, "-CAcreateserial",
        "-out", cert, "-days", "2", "-extfile", ext)
    return LoopbackCA(ca_file, cert, key)
