"""The network policy: which requests the host carries out for the guest, and the budgets
that bound them.

- `NetworkRule`: one allowed destination: a host (exact, or `*.domain` for its subdomains),
  schemes, ports, methods, and the headers the host pins on its requests (an API key the
  guest never sees).
- `NetworkPolicy`: the rules, the non-public addresses the caller lists explicitly, and the
  budgets of one run (requests, bytes each way, time per request); `NetworkPolicy.check`
  decides one request and names the rule that allows it.
- `resolve_network`: what `network=` accepts (None, a policy, a mapping, rule strings such
  as "https://api.example.com" or "http://localhost:8080") as a policy or None.
- `address_allowed`: whether the host may connect to an address the name resolved to
  (public unicast, or listed).
"""

from __future__ import annotations

import functools
import ipaddress
from collections.abc import Iterable, Mapping
from typing import Literal
from urllib.parse import SplitResult, urlsplit

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError, field_validator

from .._errors import InvalidRequestError

KIB = 1024
MIB = 1024 * KIB
Scheme = Literal["http", "https"]
DEFAULT_PORTS = {"http": 80, "https": 443}
#: The methods a rule allows unless it names its own.
STANDARD_METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")
#: Headers the host sets itself on every request: what the guest sends under these names is
#: dropped (Host is the URL's, the body's length is counted by the host, the connection is
#: the host's, and responses are asked for without compression so that the size cap counts
#: the bytes the guest gets).
HOST_SET_HEADERS = frozenset({
    "host", "content-length", "transfer-encoding", "connection", "keep-alive",
    "proxy-connection", "proxy-authorization", "te", "trailer", "upgrade", "accept-encoding",
    "expect",
})
MAX_RULES = 256
MAX_PINNED_HEADERS = 32


class NetworkRefused(Exception):
    """A request the policy does not allow; its message names the rule it missed."""


class NetworkRule(BaseModel):
    """One destination the guest may reach through the host.

    `host` is a DNS name ("api.example.com"), a `*.`-prefixed domain ("*.example.com": its
    subdomains, not the domain itself) or an IP address ("127.0.0.1", "::1"). `ports`
    defaults to the schemes' standard ports. `headers` are set by the host on every request
    this rule allows, replacing the guest's of the same name; they never cross into the
    guest and are never reported.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    host: str = Field(min_length=1, max_length=253)
    schemes: tuple[Scheme, ...] = ("https",)
    ports: tuple[int, ...] | None = None
    methods: tuple[str, ...] = STANDARD_METHODS
    headers: Mapping[str, str] = Field(default_factory=dict)

    @field_validator("host")
    @classmethod
    def _host(cls, value: str) -> str:
        host = value.strip().lower().rstrip(".")
        if host.startswith("[") and host.endswith("]"):
            host = host[1:-1]
        name = host[2:] if host.startswith("*.") else host
        if _ip(name) is None and not all(
            label and len(label) <= 63 and label.replace("-", "").replace("_", "").isalnum()
            and label.isascii() for label in name.split(".")
        ):
            raise ValueError(f"not a host name, *.domain or IP address: {value!r}")
        if host.startswith("*.") and _ip(name) is not None:
            raise ValueError(f"a wildcard takes a domain, not an address: {value!r}")
        return host

    @field_validator("ports")
    @classmethod
    def _ports(cls, value: tuple[int, ...] | None) -> tuple[int, ...] | None:
        if value is not None and not all(1 <= port <= 65535 for port in value):
            raise ValueError("ports are 1..65535")
        return value

    @field_validator("methods")
    @classmethod
    def _methods(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        methods = tuple(m.upper() for m in value)
        if not all(m.isascii() and m.isalpha() and len(m) <= 16 for m in methods):
            raise ValueError("methods are HTTP method names (GET, POST, ...)")
        return methods

    @field_validator("headers")
    @classmethod
    def _headers(cls, value: Mapping[str, str]) -> Mapping[str, str]:
        if len(value) > MAX_PINNED_HEADERS:
            raise ValueError(f"at most {MAX_PINNED_HEADERS} pinned headers")
        for name, text in value.items():
            if not name or not all(c.isascii() and (c.isalnum() or c in "-_") for c in name):
                raise ValueError(f"not a header name: {name!r}")
            if name.lower() in HOST_SET_HEADERS:
                raise ValueError(f"the host sets {name} itself")
            if any(c in text for c in "\r\n\0") or len(text) > 8 * KIB:
                raise ValueError(f"header {name}: no line breaks, at most 8 KiB")
        return dict(value)

    def matches_host(self, host: str) -> bool:
        """Whether `host` (lower case, no trailing dot) is this rule's host."""
        if self.host.startswith("*."):
            return host.endswith(self.host[1:]) and _ip(host) is None
        literal = _ip(self.host)
        return host == self.host if literal is None else _ip(host) == literal

    def allowed_ports(self) -> tuple[int, ...]:
        return self.ports if self.ports is not None else tuple(
            DEFAULT_PORTS[s] for s in self.schemes)

    def describe(self) -> str:
        """The rule in one line, without its pinned headers' values."""
        ports = ",".join(str(p) for p in self.allowed_ports())
        return f"{'/'.join(self.schemes)}://{self.host}:{ports} {','.join(self.methods)}"

    @classmethod
    def parse(cls, text: str) -> NetworkRule:
        """A rule from a string: `[scheme://]host[:port]` ("api.example.com": https on 443;
        "http://localhost:8080"; "*.example.com"); every standard method, no headers."""
        raw = text.strip()
        if "://" not in raw:
            raw = "https://" + raw
        try:
            parts = urlsplit(raw)
            port = parts.port
        except ValueError as error:
            raise InvalidRequestError(f"network rule {text!r}: {error}", field="network") from None
        if parts.scheme not in DEFAULT_PORTS or not parts.hostname or parts.username \
                or parts.path not in ("", "/") or parts.query or parts.fragment:
            raise InvalidRequestError(
                f"network rule {text!r}: give [http|https://]host[:port] (host: a name, "
                "*.domain or an IP address)", field="network")
        # urlsplit lowercases and unbrackets the host; keep a wildcard's star.
        host = parts.netloc.rpartition("@")[2]
        host = host.rsplit(":", 1)[0] if port is not None else host
        return cls(host=host, schemes=(parts.scheme,),  # type: ignore[arg-type]
                   ports=(port,) if port is not None else None)


class NetworkPolicy(BaseModel):
    """The requests one run may have the host make, and their budgets. Every budget is
    checked before what it bounds is taken (a body over the cap is never copied out of the
    guest, a response over the cap is cut off when the cap is reached).

    Addresses that are not public unicast (loopback, private, link-local, multicast,
    reserved: 127.0.0.1, 10.0.0.0/8, 169.254.169.254, ...) are refused after DNS, whatever
    name led there, unless `private_addresses` lists them (addresses or networks) or a
    rule's host is that very address. The host connects to the address it checked, so a
    name that resolves differently the second time cannot switch it.

    Example:
        NetworkPolicy(allow=[NetworkRule(host="api.example.com", methods=("GET",),
                                         headers={"Authorization": "Bearer ..."})])
    """

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    allow: tuple[NetworkRule, ...] = Field(default=(), max_length=MAX_RULES)
    private_addresses: tuple[str, ...] = Field(default=(), max_length=MAX_RULES)
    max_requests: int = Field(20, ge=0, le=1_000, description="Requests per run.")
    max_request_bytes: int = Field(
        MIB, ge=0, le=16 * MIB, description="Largest request body the guest may send.")
    max_response_bytes: int = Field(
        4 * MIB, ge=0, le=64 * MIB,
        description="Largest response body (headers aside) a request may bring back.")
    request_timeout_ms: int = Field(
        10_000, ge=1, le=30_000,
        description="Time one request may take, DNS to the last byte; the run's deadline "
        "bounds it too.")
    ca_file: str | None = Field(
        None, description="A PEM file of the CA certificates HTTPS servers are checked "
        "against, instead of certifi's (or the system's) bundle: e.g. a test CA.")

    #: The operator's policy this one must also pass (`bounded_by`): a gateway's.
    _ceiling: NetworkPolicy | None = PrivateAttr(default=None)

    @field_validator("private_addresses")
    @classmethod
    def _networks(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for text in value:
            try:
                ipaddress.ip_network(text, strict=False)
            except ValueError:
                raise ValueError(f"not an address or network: {text!r}") from None
        return value

    def bounded_by(self, ceiling: NetworkPolicy) -> NetworkPolicy:
        """This policy (a gateway client's) within `ceiling` (the operator's): a request
        must pass both, an address be allowed by both, each budget is the smaller, the CA
        file is the operator's, and the operator's pinned headers win over the client's."""
        bounded = self.model_copy(update={
            "max_requests": min(self.max_requests, ceiling.max_requests),
            "max_request_bytes": min(self.max_request_bytes, ceiling.max_request_bytes),
            "max_response_bytes": min(self.max_response_bytes, ceiling.max_response_bytes),
            "request_timeout_ms": min(self.request_timeout_ms, ceiling.request_timeout_ms),
            "ca_file": ceiling.ca_file,
        })
        bounded._ceiling = ceiling
        return bounded

    def check(self, method: str, url: str) -> tuple[NetworkRule, SplitResult, int]:
        """The rule that allows `method url` (with the ceiling's pinned headers, when this
        policy is bounded), the URL's parts and its port; raises NetworkRefused naming what
        is missing."""
        rule, parts, port = self._own_check(method, url)
        if self._ceiling is None:
            return rule, parts, port
        try:
            outer, _, _ = self._ceiling.check(method, url)
        except NetworkRefused as error:
            raise NetworkRefused(f"the server's network policy: {error}") from None
        if not outer.headers:
            return rule, parts, port
        return rule.model_copy(update={"headers": {**rule.headers, **outer.headers}}), parts, port

    def _own_check(self, method: str, url: str) -> tuple[NetworkRule, SplitResult, int]:
        try:
            parts = urlsplit(url)
            port = parts.port
        except ValueError as error:
            raise NetworkRefused(f"not a URL: {error}") from None
        if parts.scheme not in DEFAULT_PORTS:
            raise NetworkRefused(f"only http and https URLs, not {parts.scheme or 'none'!r}")
        host = (parts.hostname or "").rstrip(".")
        if not host:
            raise NetworkRefused("the URL has no host")
        port = port if port is not None else DEFAULT_PORTS[parts.scheme]
        candidates = [rule for rule in self.allow if rule.matches_host(host)]
        if not candidates:
            raise NetworkRefused(f"no rule allows host {host!r}")
        for rule in candidates:
            if parts.scheme in rule.schemes and port in rule.allowed_ports() \
                    and method in rule.methods:
                return rule, parts, port
        allowed = "; ".join(rule.describe() for rule in candidates)
        raise NetworkRefused(f"{method} {parts.scheme}://{host}:{port} is outside the rules "
                             f"for {host!r} ({allowed})")

    def listed_networks(self) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
        return _listed(self.private_addresses, tuple(rule.host for rule in self.allow))

    def summary(self) -> list[str]:
        """The rules in one line each, without pinned headers' values (for reports)."""
        return [rule.describe() for rule in self.allow]


@functools.lru_cache(maxsize=64)
def _listed(
    addresses: tuple[str, ...], hosts: tuple[str, ...]
) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    networks = [ipaddress.ip_network(text, strict=False) for text in addresses]
    networks += [ipaddress.ip_network(host) for host in hosts if _ip(host) is not None]
    return tuple(networks)


def _ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


def address_allowed(policy: NetworkPolicy, address: str) -> bool:
    """Whether the host may connect to `address`: a public unicast address (not loopback,
    private, link-local, multicast, reserved or unspecified; an IPv4-mapped IPv6 address is
    judged as its IPv4 address), or one the policy lists."""
    ip = _ip(address.split("%", 1)[0])
    if ip is None:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    ceiling = policy._ceiling  # a gateway's policy: the address must pass it too
    if ceiling is not None and not address_allowed(ceiling, address):
        return False
    if any(ip in network for network in policy.listed_networks()):
        return True
    return ip.is_global and not ip.is_multicast


#: What `network=` accepts: a policy, its JSON-like mapping, or rule strings.
NetworkLike = NetworkPolicy | Mapping[str, object] | Iterable[str | NetworkRule]


def resolve_network(network: NetworkLike | None) -> NetworkPolicy | None:
    """`network=` as a policy (None: no network). Raises InvalidRequestError for anything
    else, with pydantic's reason."""
    if network is None:
        return None
    if isinstance(network, NetworkPolicy):
        return network
    try:
        if isinstance(network, Mapping):
            return NetworkPolicy.model_validate(network)
        if isinstance(network, (str, bytes)):
            raise InvalidRequestError("network= takes a list of rules (or a NetworkPolicy), "
                                      "not one string", field="network")
        rules = [item if isinstance(item, NetworkRule) else
                 NetworkRule.parse(item) if isinstance(item, str) else
                 NetworkRule.model_validate(item) for item in network]
        return NetworkPolicy(allow=tuple(rules))
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise InvalidRequestError(f"network{'.' + where if where else ''}: {first['msg']}",
                                  field="network") from None
    except TypeError:
        raise InvalidRequestError("network= takes a NetworkPolicy, a mapping or a list of "
                                  "rules", field="network") from None
