"""API keys: bearer tokens checked against configured SHA-256 hashes.

The server never holds a key, only its hash (`api_key_hashes`: `NAME:SHA256HEX`, or
`NAME:SHA256HEX:SCOPE+SCOPE`), so a leaked configuration does not leak a key. A presented
key is hashed and compared with every configured hash in constant time, and is never
logged. The key's name is the owner of the jobs and sessions it creates.

Answers: no credentials, or a malformed or unknown key -> 401 with `WWW-Authenticate:
Bearer`; a valid key without the scope a path needs -> 403. Scopes: `run` (the /v1 API)
and `metrics` (/healthz and /metrics, when they are not public). A key without scopes has
both.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Send
from starlette.types import Scope as ASGIScope

#: The environment variable of the keys, for both gateways.
KEYS_ENV_VAR = "SANDBOX_WASM_API_KEY_HASHES"

Scope = Literal["run", "metrics"]
SCOPES: tuple[Scope, ...] = ("run", "metrics")
#: Paths answered without a key whatever the settings: the API's own documentation.
DOC_PATHS = ("/docs", "/redoc", "/openapi.json", "/docs/oauth2-redirect")
#: Where the documentation pages' scripts and stylesheets are served, also without a key.
DOC_ASSETS_PREFIX = "/docs/assets/"
#: Paths that need the metrics scope unless `public_health` is set.
HEALTH_PATHS = ("/healthz", "/metrics")

_HEX = re.compile(r"[0-9a-f]{64}")
_NAME = re.compile(r"[A-Za-z0-9_.@-]{1,64}")


def is_loopback(host: str) -> bool:
    """Whether `host` is reachable from this machine only."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def hash_key(key: str) -> str:
    """The SHA-256 hex digest of `key`: what `api_key_hashes` holds."""
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class ApiKey:
    """One configured key: its name (the owner of what it creates), hash and scopes."""

    name: str
    digest: bytes = field(repr=False)
    scopes: frozenset[str]

    @classmethod
    def parse(cls, entry: str) -> ApiKey:
        """`[NAME:]SHA256HEX[:SCOPE+SCOPE]`; ValueError (never repeating the hash) if not."""
        parts = entry.strip().split(":")
        if len(parts) == 1:
            parts = [f"key-{parts[0][:8]}", parts[0]]
        if len(parts) not in (2, 3):
            raise ValueError("each entry must be NAME:SHA256HEX or NAME:SHA256HEX:SCOPE+SCOPE")
        name, digest = parts[0], parts[1].lower()
        if not _NAME.fullmatch(name):
            raise ValueError(f"key name {name!r} must be 1-64 of A-Z a-z 0-9 _ . @ -")
        if not _HEX.fullmatch(digest):
            raise ValueError(f"key {name!r}: the hash must be 64 hex digits (SHA-256); "
                             "compute it with `wasm-exec serve --hash-key`")
        scopes = frozenset(parts[2].split("+")) if len(parts) == 3 else frozenset(SCOPES)
        unknown = scopes - set(SCOPES)
        if unknown:
            raise ValueError(f"key {name!r}: unknown scope {sorted(unknown)[0]!r} "
                             f"(known: {', '.join(SCOPES)})")
        return cls(name=name, digest=bytes.fromhex(digest), scopes=scopes)


def parse_entries(value: object, *, comma_list: bool = True) -> object:
    """Entries from the environment or a file: a JSON array, or else a comma-separated list
    (or, without `comma_list`, one entry)."""
    if isinstance(value, str):
        text = value.strip()
        alternative = "a comma list" if comma_list else "one entry"
        if text.startswith("["):
            try:
                return json.loads(text)
            except ValueError:
                raise ValueError(f"must be a JSON array of strings or {alternative}") from None
        if not comma_list:
            return (text,) if text else ()
        return tuple(part.strip() for part in text.split(",") if part.strip())
    return value


class Authenticator:
    """Checks `Authorization: Bearer <key>` against the configured keys."""

    def __init__(self, keys: Sequence[ApiKey]) -> None:
        self.keys = tuple(keys)

    def owner(self, header: bytes | None) -> ApiKey | None:
        """The key presented in an Authorization header, or None if there is none, it is
        malformed or it matches no configured key."""
        if header is None:
            return None
        scheme, _, token = header.decode("latin-1").strip().partition(" ")
        token = token.strip()
        if scheme.lower() != "bearer" or not token:
            return None
        digest = hashlib.sha256(token.encode("latin-1")).digest()
        found = None
        # Every hash is compared, each in constant time: the answer's timing tells nothing
        # about which hash (or how much of one) a guess matched.
        for key in self.keys:
            if hmac.compare_digest(digest, key.digest):
                found = key
        return found


def needed_scope(path: str, *, public_health: bool) -> Scope | None:
    """The scope `path` needs, or None if it is answered without a key."""
    if path in DOC_PATHS or path.startswith(DOC_ASSETS_PREFIX):
        return None
    if path in HEALTH_PATHS:
        return None if public_health else "metrics"
    return "run"


def owner_tag(owner: str | None) -> str | None:
    """A short fixed-alphabet tag of an owner, used to scope store keys by owner (so one
    key's job or session ids are unknown, not forbidden, to another key)."""
    if owner is None:
        return None
    return hashlib.sha256(owner.encode()).hexdigest()[:16]


class BearerAuthMiddleware:
    """ASGI middleware answering 401 (WWW-Authenticate: Bearer) to any HTTP request
    without one of `auth`'s keys, and 403 to a key without the run scope: the MCP server's
    streamable-HTTP transport, where every path runs code."""

    def __init__(self, app: ASGIApp, auth: Authenticator) -> None:
        self.app = app
        self.auth = auth

    async def __call__(self, scope: ASGIScope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            key = self.auth.owner(dict(scope["headers"]).get(b"authorization"))
            refusal = None
            if key is None:
                refusal = (401, "unauthorized", "this server needs an API key: "
                           "Authorization: Bearer <key>")
            elif "run" not in key.scopes:
                refusal = (403, "forbidden", f"API key {key.name!r} lacks the 'run' scope")
            if refusal is not None:
                status, code, message = refusal
                challenge = {"WWW-Authenticate": 'Bearer realm="sandbox-wasm"'}
                headers = challenge if status == 401 else None
                body = {"error": {"code": code, "message": message}}
                await JSONResponse(body, status_code=status, headers=headers)(
                    scope, receive, send)
                return
        await self.app(scope, receive, send)
