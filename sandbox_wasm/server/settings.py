"""Gateway configuration: one pydantic-settings model, filled from (highest first)
command-line flags, `SANDBOX_WASM_*` environment variables, a config file (TOML or JSON,
`--config` / `SANDBOX_WASM_CONFIG`) and the defaults. `wasm-exec serve --help` is made from
the fields' descriptions."""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Literal
from urllib.parse import urlsplit

from pydantic import Field, SecretStr, ValidationInfo, field_validator, model_validator
from pydantic_settings import (
    BaseSettings,
    EnvSettingsSource,
    JsonConfigSettingsSource,
    NoDecode,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

from .._models import KIB, MIB, Limits
from .._network.policy import NetworkPolicy
from .._runtimes.system import usable_cpus
from .ops.auth import ApiKey, is_loopback, parse_entries
from .state.sessions import (
    DEFAULT_MAX_SESSIONS,
    DEFAULT_SESSION_IDLE_SECONDS,
    DEFAULT_SESSION_MEMORY_MB,
    SessionCaps,
)

if TYPE_CHECKING:
    from .bridge.mcp import McpServerSpec

#: Room in a body for the names of its input files and the framing around them (JSON
#: quotes and commas, multipart headers and boundaries): a thousand files with 1 KiB each.
FILES_FRAMING_BYTES = MIB


#: The per-client rate limit (requests a minute) of a gateway with API keys or on a
#: non-loopback host, unless configured.
DEFAULT_RATE_LIMIT = 60

#: Prefix of every setting's environment variable.
ENV_PREFIX = "SANDBOX_WASM_"
#: The environment variable naming a config file (the --config flag wins over it).
CONFIG_ENV_VAR = ENV_PREFIX + "CONFIG"

# Where the settings being built come from besides flags, when not os.environ and no file:
# set by `load_settings` around one construction (a context variable, so that concurrent
# constructions in threads or tasks do not see each other's).
_SOURCES: ContextVar[tuple[Mapping[str, str] | None, Path | None]] = ContextVar(
    "gateway_settings_sources", default=(None, None))


class _MappingEnvSource(EnvSettingsSource):
    """The environment source over a given mapping instead of os.environ."""

    def __init__(self, settings_cls: type[BaseSettings], environ: Mapping[str, str]) -> None:
        self._environ = environ
        super().__init__(settings_cls)

    def _load_env_vars(self) -> Mapping[str, str | None]:
        return {k.lower(): v for k, v in self._environ.items() if v != ""}


class ConfigFileError(ValueError):
    """The config file cannot be read or is neither TOML (.toml) nor JSON (.json)."""


class GatewaySettings(BaseSettings):
    """How the HTTP gateway runs. Every field has a default and bounds."""

    model_config = SettingsConfigDict(
        extra="forbid", frozen=True, env_prefix=ENV_PREFIX, env_ignore_empty=True,
    )

    @classmethod
    def settings_customise_sources(
        cls, settings_cls: type[BaseSettings], init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource, dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        environ, config_file = _SOURCES.get()
        env = env_settings if environ is None else _MappingEnvSource(settings_cls, environ)
        if config_file is None:
            return init_settings, env
        return init_settings, env, _file_source(settings_cls, config_file)

    host: str = Field("127.0.0.1", description="Interface to listen on.")
    port: int = Field(8000, ge=0, le=65_535, description="TCP port (0 picks a free one).")
    processes: int = Field(
        1, ge=1, le=64,
        description="Gateway processes sharing the port (uvicorn workers), each with its own "
        "workers and queue: short executions scale with processes, not threads. More than 1 "
        "needs --redis-url (async jobs and the rate limit's counts must be shared) and "
        "--max-sessions 0 (a session lives in one process and cannot move).",
    )
    policy: Literal["balanced", "strict", "report"] = Field(
        "balanced",
        description="Audit policy of every run (a session may ask for a stricter one): "
        "balanced (refuses what aims at escaping), strict (the seed products' allowlists) or "
        "report (lists findings, refuses nothing; the WebAssembly boundary alone holds).",
    )
    runtime: Literal["python", "python-data"] = Field(
        "python",
        description="Python runtime of requests that name none: python (the standard "
        "library; smallest memory floor) or python-data (numpy and pandas, imported).",
    )
    workers: int = Field(
        default_factory=lambda data: max(1, usable_cpus() // data.get("processes", 1)),
        ge=1, le=256,
        description="Executions running at once in each process (threads; wasm releases "
        "the GIL).",
    )
    queue: int = Field(
        16, ge=0, le=10_000,
        description="Executions that may wait for a worker; beyond that requests get 503.",
    )
    rate_limit: int | None = Field(
        None, ge=0, le=1_000_000,
        description="Requests in any minute per client (its API key, or its address on a "
        "gateway without keys) on /v1/tools/*, /v1/sessions* and /mcp; beyond that 429. "
        "Shared by the replicas of one --redis-url. 0 disables the limit. Unset: "
        f"{DEFAULT_RATE_LIMIT} with API keys or on a non-loopback host, off on a loopback "
        "host without keys (a local dev server: every client there has the one address "
        "127.0.0.1, so a limit per address would only throttle the developer).",
    )
    max_source_bytes: int = Field(
        32 * KIB, ge=1, le=MIB, description="Largest accepted source; larger is 413."
    )
    max_input_bytes: int = Field(
        Limits().max_input_bytes, ge=0, le=256 * MIB,
        description="Bytes of input files one request may give in all; more is 413. Bounds "
        "the body of the endpoints that take files (base64 in JSON: a third more).",
    )
    job_ttl_seconds: float = Field(
        600.0, gt=0, le=7 * 24 * 3600, description="How long finished async jobs are kept."
    )
    max_jobs: int = Field(
        1_000, ge=1, le=1_000_000,
        description="How many finished async jobs are kept (in-process store only).",
    )
    max_job_store_mb: int = Field(
        256, ge=1, le=1_048_576,
        description="Host memory (MiB) the results of finished async jobs may hold together, "
        "their output files included (in-process store only): the oldest are forgotten "
        "first to make room, and a result larger than all of it is kept without its "
        "output (its error says so).",
    )
    redis_url: str | None = Field(
        None,
        description="Keep async jobs, the session directory and the rate limit's counts "
        "in this Redis (redis://, rediss:// or unix://), shared by every replica given it; "
        "unset keeps them in this process.",
    )
    job_lease_seconds: float = Field(
        30.0, ge=0.5, le=3600,
        description="With a Redis URL: an unfinished job whose replica has not renewed it "
        "for this long (the replica crashed or was cut off) is reported lost.",
    )
    max_sessions: int = Field(
        DEFAULT_MAX_SESSIONS, ge=0, le=100_000,
        description="Live sessions at most; beyond that opening one is 503. 0 turns "
        "sessions off.",
    )
    session_memory_mb: int = Field(
        DEFAULT_SESSION_MEMORY_MB, ge=32, le=1_048_576,
        description="Host memory (MiB) live sessions may hold together: each reserves its "
        "memory cap when it opens, twice over with on_trap=rollback; beyond that 503.",
    )
    session_idle_seconds: float = Field(
        DEFAULT_SESSION_IDLE_SECONDS, gt=0, le=7 * 24 * 3600,
        description="A session without a call for this long is closed and forgotten.",
    )
    session_key: SecretStr | None = Field(
        None,
        description="Key (at least 16 characters) signing session snapshots (HMAC-SHA256); "
        "give every replica the same one so snapshots restore on any of them. Unset: a "
        "random key per process, so snapshots restore only where they were taken.",
    )
    max_snapshot_bytes: int = Field(
        64 * MIB, ge=64 * KIB, le=1_024 * MIB,
        description="Largest snapshot POST /v1/sessions/restore accepts; larger is 413.",
    )
    max_request_memory_mb: int = Field(
        384, ge=1, le=1_048_576,
        description="Host memory (MiB) the request bodies being read and handled may take "
        "together, each counted at 3 times its size (the bytes, the parsed body, the "
        "decoded files; an async job's until it has run). A request that does not fit is "
        "refused with 503 before its body is read. At least 3 times the largest body "
        "(files or snapshot).",
    )
    network: NetworkPolicy | None = Field(
        None, description="The most network requests may ask for (`network` in a request, "
        "bounded by this: a request must pass both, budgets are the smaller, pinned headers "
        "and the CA file are this one's); MCP runs get exactly this. Unset: no network. "
        "Flags: --allow-host, --allow-address, --network-policy FILE; env: a JSON "
        "NetworkPolicy.",
    )
    tools: Annotated[tuple[str, ...], NoDecode] = Field(
        (), description="Host tools offered to the requests that name them: Python entry "
        "points module:attribute, each a list of callables or a name -> callable mapping.",
    )
    bridge: Annotated[tuple[str, ...], NoDecode] = Field(
        (), description="MCP servers this gateway starts and speaks to over stdio "
        "([NAME=]command line); their tools are offered to the requests that name them.",
    )
    bridge_url: Annotated[tuple[str, ...], NoDecode] = Field(
        (), description="MCP servers reached over streamable HTTP ([NAME=]URL); their tools "
        "are offered to the requests that name them.",
    )
    api_key_hashes: Annotated[tuple[str, ...], NoDecode] = Field(
        (), description="API keys accepted as `Authorization: Bearer <key>`, as their "
        "SHA-256 hashes: NAME:SHA256HEX (the name owns the jobs and sessions the key "
        "creates), optionally :SCOPE+SCOPE (run, metrics; default both); env: a JSON array "
        "or a comma list. Unset: no authentication, and only a loopback host is allowed.",
    )
    public_health: bool = Field(
        True, description="Answer /healthz and /metrics without a key; false: they need a "
        "key with the metrics scope.",
    )
    insecure_no_auth: bool = Field(
        False, description="Allow a non-loopback host without API keys (anyone who reaches "
        "the port runs code).",
    )
    mcp_max_clients: int = Field(
        256, ge=0, le=100_000,
        description="MCP clients (streamable-HTTP transport sessions) /mcp holds at once, "
        "each forgotten after 10 minutes without a request; 0 turns /mcp off.",
    )
    max_timeout_ms: int = Field(
        30_000, ge=1, le=3_600_000,
        description="Largest timeout_ms a request may ask for; more is a 400 naming the field.",
    )
    log_level: Literal["critical", "error", "warning", "info", "debug"] = Field(
        "info", description="uvicorn log level."
    )

    @field_validator("tools", "bridge", "bridge_url", mode="before")
    @classmethod
    def _entries(cls, value: object) -> object:
        # From the environment: a JSON array of entries, or one entry (a command line or
        # URL may hold commas).
        return parse_entries(value, comma_list=False)

    @field_validator("api_key_hashes", mode="before")
    @classmethod
    def _key_entries(cls, value: object) -> object:
        return parse_entries(value)

    @field_validator("api_key_hashes")
    @classmethod
    def _keys(cls, entries: tuple[str, ...]) -> tuple[str, ...]:
        names = [ApiKey.parse(entry).name for entry in entries]
        duplicate = next((n for n in names if names.count(n) > 1), None)
        if duplicate is not None:
            raise ValueError(f"key name {duplicate!r} is given twice")
        return entries

    @property
    def api_keys(self) -> list[ApiKey]:
        return [ApiKey.parse(entry) for entry in self.api_key_hashes]

    @field_validator("bridge", "bridge_url")
    @classmethod
    def _specs(cls, entries: tuple[str, ...], info: ValidationInfo) -> tuple[str, ...]:
        from .bridge.mcp import McpServerSpec
        from .bridge.tools import ToolConfigError

        parse = McpServerSpec.url if info.field_name == "bridge_url" else McpServerSpec.command
        for entry in entries:
            try:
                parse(entry)
            except ToolConfigError as error:
                raise ValueError(str(error)) from None
        return entries

    @field_validator("redis_url")
    @classmethod
    def _redis_scheme(cls, url: str | None) -> str | None:
        # The message never repeats the URL: it may carry a password.
        if url is not None and urlsplit(url).scheme not in ("redis", "rediss", "unix"):
            raise ValueError("must start with redis://, rediss:// or unix://")
        return url

    @field_validator("session_key")
    @classmethod
    def _key_length(cls, key: SecretStr | None) -> SecretStr | None:
        # A short key is guessable offline from one signed snapshot; the message never
        # repeats the key.
        if key is not None and len(key.get_secret_value()) < 16:
            raise ValueError("must be at least 16 characters (e.g. `openssl rand -hex 32`)")
        return key

    @model_validator(mode="after")
    def _room_for_one_body(self) -> GatewaySettings:
        largest = max(self.max_files_body_bytes, self.max_snapshot_bytes)
        need = -(-3 * largest // MIB)
        if self.max_request_memory_mb < need:
            raise ValueError(
                f"max_request_memory_mb is {self.max_request_memory_mb} MiB: the largest "
                f"accepted body ({largest} bytes, from max_input_bytes or max_snapshot_bytes) "
                f"needs at least {need}")
        return self

    @property
    def effective_rate_limit(self) -> int:
        """The rate limit in force (0: none): `rate_limit`, or when unset DEFAULT_RATE_LIMIT
        unless this is a loopback gateway without API keys."""
        if self.rate_limit is not None:
            return self.rate_limit
        if not self.api_key_hashes and is_loopback(self.host):
            return 0
        return DEFAULT_RATE_LIMIT

    @property
    def session_caps(self) -> SessionCaps:
        return SessionCaps(max_sessions=self.max_sessions, memory_mb=self.session_memory_mb,
                           idle_seconds=self.session_idle_seconds)

    @property
    def bridges(self) -> list[McpServerSpec]:
        """The MCP servers to bridge, stdio ones first."""
        from .bridge.mcp import McpServerSpec

        return ([McpServerSpec.command(entry) for entry in self.bridge]
                + [McpServerSpec.url(entry) for entry in self.bridge_url])

    @property
    def max_body_bytes(self) -> int:
        """Largest accepted request body. JSON escaping can grow source up to six-fold
        (\\u0001); anything beyond that is refused before it is read into memory."""
        return 6 * self.max_source_bytes + 64 * KIB

    @property
    def max_files_body_bytes(self) -> int:
        """Largest accepted body of an endpoint that takes files: the source as above, the
        files base64-encoded (4 bytes for every 3), and room for their names and the JSON
        or multipart framing. Still refused before it is read into memory."""
        encoded = 4 * -(-self.max_input_bytes // 3)
        return self.max_body_bytes + encoded + FILES_FRAMING_BYTES


#: Environment variable of each setting.
ENV_VARS: dict[str, str] = {
    name: ENV_PREFIX + name.upper() for name in GatewaySettings.model_fields
}


def _file_source(settings_cls: type[BaseSettings], path: Path) -> PydanticBaseSettingsSource:
    if not path.is_file():
        raise ConfigFileError(f"config file {str(path)!r} does not exist or is not a file")
    suffix = path.suffix.lower()
    try:
        if suffix == ".toml":
            return TomlConfigSettingsSource(settings_cls, toml_file=path)
        if suffix == ".json":
            return JsonConfigSettingsSource(settings_cls, json_file=path)
    except (OSError, ValueError) as exc:  # unreadable, or not TOML / JSON
        raise ConfigFileError(f"config file {str(path)!r}: {exc}") from None
    raise ConfigFileError(f"config file {str(path)!r} must end in .toml or .json")


@contextmanager
def _sources(environ: Mapping[str, str] | None, config_file: Path | None) -> Iterator[None]:
    token = _SOURCES.set((environ, config_file))
    try:
        yield
    finally:
        _SOURCES.reset(token)


def load_settings(
    overrides: Mapping[str, object] | None = None, *,
    environ: Mapping[str, str] | None = None, config_file: str | Path | None = None,
) -> GatewaySettings:
    """Settings from (highest first) `overrides` (the flags; None values ignored), the
    `SANDBOX_WASM_*` variables of `environ` (default os.environ), the TOML or JSON
    `config_file` (default: the file `SANDBOX_WASM_CONFIG` names, if any) and the defaults.
    Raises pydantic.ValidationError for invalid values and ConfigFileError for a file that
    cannot be read."""
    env = os.environ if environ is None else environ
    if config_file is None and env.get(CONFIG_ENV_VAR):
        config_file = env[CONFIG_ENV_VAR]
    values = {k: v for k, v in (overrides or {}).items() if v is not None}
    path = None if config_file is None else Path(config_file)
    with _sources(environ, path):
        return GatewaySettings(**values)  # type: ignore[arg-type]  # the model validates them


def settings_from_env(
    environ: Mapping[str, str] | None = None, **overrides: object
) -> GatewaySettings:
    """Settings from `SANDBOX_WASM_*` variables (and the config file SANDBOX_WASM_CONFIG
    names), with explicit (non-None) overrides on top. Raises pydantic.ValidationError for
    invalid values."""
    return load_settings(overrides, environ=environ)
