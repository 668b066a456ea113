"""Gateway configuration: a pydantic model filled from defaults, `SANDBOX_WASM_*` environment
variables and command-line flags (flags win over the environment)."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationInfo, field_validator

from .._models import KIB, MIB, Limits
from .._system import usable_cpus
from ._sessions import (
    DEFAULT_MAX_SESSIONS,
    DEFAULT_SESSION_IDLE_SECONDS,
    DEFAULT_SESSION_MEMORY_MB,
    SessionCaps,
)

if TYPE_CHECKING:
    from ._mcp_bridge import McpServerSpec

#: Room in a body for the names of its input files and the framing around them (JSON
#: quotes and commas, multipart headers and boundaries): a thousand files with 1 KiB each.
FILES_FRAMING_BYTES = MIB


class GatewaySettings(BaseModel):
    """How the HTTP gateway runs. Every field has a default and bounds."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    host: str = Field("127.0.0.1", description="Interface to listen on.")
    port: int = Field(8000, ge=0, le=65_535, description="TCP port (0 picks a free one).")
    workers: int = Field(
        default_factory=usable_cpus, ge=1, le=256,
        description="Executions running at once (threads; wasm releases the GIL).",
    )
    queue: int = Field(
        16, ge=0, le=10_000,
        description="Executions that may wait for a worker; beyond that requests get 503.",
    )
    rate_limit: int = Field(
        60, ge=0, le=1_000_000,
        description="Requests a minute per client on /v1/tools/* and /v1/sessions*; 0 "
        "disables the limit.",
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
    redis_url: str | None = Field(
        None,
        description="Keep async jobs in this Redis (redis://, rediss:// or unix://) so that "
        "every replica sharing it can read them; unset keeps them in this process.",
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
    tools: tuple[str, ...] = Field(
        (), description="Host tools offered to the requests that name them: Python entry "
        "points module:attribute, each a list of callables or a name -> callable mapping.",
    )
    bridge: tuple[str, ...] = Field(
        (), description="MCP servers this gateway starts and speaks to over stdio "
        "([NAME=]command line); their tools are offered to the requests that name them.",
    )
    bridge_url: tuple[str, ...] = Field(
        (), description="MCP servers reached over streamable HTTP ([NAME=]URL); their tools "
        "are offered to the requests that name them.",
    )
    log_level: Literal["critical", "error", "warning", "info", "debug"] = "info"

    @field_validator("tools", "bridge", "bridge_url", mode="before")
    @classmethod
    def _entries(cls, value: object) -> object:
        # From the environment: a JSON array of entries, or one entry.
        if isinstance(value, str):
            text = value.strip()
            if text.startswith("["):
                try:
                    return json.loads(text)
                except ValueError:
                    raise ValueError("must be a JSON array of strings or one entry") from None
            return (text,) if text else ()
        return value

    @field_validator("bridge", "bridge_url")
    @classmethod
    def _specs(cls, entries: tuple[str, ...], info: ValidationInfo) -> tuple[str, ...]:
        from ._gateway_tools import ToolConfigError
        from ._mcp_bridge import McpServerSpec

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

    @property
    def session_caps(self) -> SessionCaps:
        return SessionCaps(max_sessions=self.max_sessions, memory_mb=self.session_memory_mb,
                           idle_seconds=self.session_idle_seconds)

    @property
    def bridges(self) -> list[McpServerSpec]:
        """The MCP servers to bridge, stdio ones first."""
        from ._mcp_bridge import McpServerSpec

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
    name: "SANDBOX_WASM_" + name.upper() for name in GatewaySettings.model_fields
}


def settings_from_env(
    environ: Mapping[str, str] | None = None, **overrides: object
) -> GatewaySettings:
    """Settings from `SANDBOX_WASM_*` variables, with explicit (non-None) overrides on top.
    Raises pydantic.ValidationError for invalid values."""
    environ = os.environ if environ is None else environ
    values: dict[str, object] = {
        name: environ[var] for name, var in ENV_VARS.items() if environ.get(var, "") != ""
    }
    values.update({k: v for k, v in overrides.items() if v is not None})
    return GatewaySettings.model_validate(values)
