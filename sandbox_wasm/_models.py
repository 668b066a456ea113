"""Request, limits and result models. Field names are part of the public API."""

from __future__ import annotations

import base64
import binascii
import contextlib
import copy
import functools
from collections.abc import Callable
from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, PlainSerializer, WithJsonSchema

Status = Literal[
    "succeeded",
    "failed",
    "blocked",
    "syntax_error",
    "timeout",
    "fuel_exhausted",
    "memory_exceeded",
    "internal_error",
    "interrupted",
]
Language = Literal["python", "javascript"]
TimeoutProfile = Literal["fast_1s", "standard_5s", "extended_30s"]
SafetyVerdict = Literal["safe", "flagged", "blocked"]
FindingKind = Literal["import", "call", "attribute", "name"]

TIMEOUT_PROFILES: dict[str, int] = {"fast_1s": 1_000, "standard_5s": 5_000, "extended_30s": 30_000}

#: Exit code of a request refused before it ran: a batch item's `invalid_request`, and the
#: command line's usage error.
INVALID_REQUEST_EXIT_CODE = 2

#: Exit code reported for each status that does not carry the guest's own exit code.
STATUS_EXIT_CODES: dict[str, int] = {
    "succeeded": 0,
    "blocked": 1,
    "syntax_error": 1,
    "timeout": 124,
    "fuel_exhausted": 124,
    "memory_exceeded": 137,
    "internal_error": 70,
    "interrupted": 130,  # as a shell reports a command ended by Ctrl-C (128 + SIGINT)
}

KIB = 1024
MIB = 1024 * 1024

# CPython's own start-up inside wasm burns ~210-250 M fuel on the plain runtime; the
# derived budget must never trap before user code runs. A tight loop burns ~10 G fuel/s on
# a 2-core machine, so four times that per second of deadline keeps the wall clock the
# limit that normally fires, with fuel as a deterministic backstop.
FUEL_STARTUP_ALLOWANCE = 1_000_000_000
FUEL_PER_MS = 40_000_000
MAX_FUEL = 10**13


def decode_base64(text: str) -> bytes:
    """Strict base64: the standard alphabet (or the URL-safe one, not mixed), padded, and
    nothing else (no whitespace). ValueError, saying why, for anything else: a lenient
    decoder drops the characters it does not know and hands the guest different bytes."""
    altchars = b"-_" if ("-" in text or "_" in text) else None
    if altchars is not None and ("+" in text or "/" in text):
        raise ValueError("not valid base64 (mixes the standard and the URL-safe alphabet)")
    try:
        return base64.b64decode(text, altchars=altchars, validate=True)
    except (binascii.Error, ValueError) as exc:
        raise ValueError(f"not valid base64 ({exc})") from None


def _base64_value(value: object) -> object:
    # A str here is base64 whichever way the model is validated (JSON or a dict that came
    # from JSON); bytes are taken as they are.
    return decode_base64(value) if isinstance(value, str) else value


#: File contents by name: bytes in Python, standard base64 strings in JSON (pydantic's own
#: base64 would write the URL-safe alphabet, which most base64 decoders refuse or misread).
Base64Files = dict[str, Annotated[
    bytes,
    BeforeValidator(_base64_value),
    PlainSerializer(lambda data: base64.b64encode(data).decode("ascii"), return_type=str,
                    when_used="json"),
    WithJsonSchema({"type": "string", "contentEncoding": "base64"}),
]]


_M = TypeVar("_M", bound=BaseModel)
_IMMUTABLE_DEFAULTS = (type(None), bool, int, float, str, bytes, tuple, frozenset)
_set_attribute = object.__setattr__


@functools.cache
def _construction_plan(cls: type[BaseModel]) -> tuple[tuple[str, Callable[[], Any] | None,
                                                             Any], ...]:
    """(field name, default factory or None, default) per field of `cls`, in declaration
    order; a required field's default is `_REQUIRED`. A mutable default gets a factory
    that deep-copies it, as pydantic's own construction does."""
    if (cls.model_config.get("extra") == "allow" or cls.__pydantic_post_init__
            or cls.__private_attributes__):
        raise TypeError(f"{cls.__name__} needs pydantic's model_construct")
    plan: list[tuple[str, Callable[[], Any] | None, Any]] = []
    for name, field in cls.model_fields.items():
        if field.default_factory is not None:
            plan.append((name, field.default_factory, None))  # type: ignore[arg-type]
        elif field.is_required():
            plan.append((name, None, _REQUIRED))
        elif isinstance(field.default, _IMMUTABLE_DEFAULTS):
            plan.append((name, None, field.default))
        else:
            plan.append((name, functools.partial(copy.deepcopy, field.default), None))
    return tuple(plan)


_REQUIRED = object()


def construct(cls: type[_M], /, **values: Any) -> _M:
    """A model of the host's own values, without validating them: `cls.model_construct`
    (same fields, defaults, `model_fields_set` and field order) at a fifth of its cost,
    which was a tenth of a small run's host work (pydantic's generic path looks up aliases,
    validators and each default factory's signature on every call). Every value must
    already be of its field's type; an unknown or missing required field is our bug
    (TypeError)."""
    data: dict[str, Any] = {}
    given = 0
    for name, factory, default in _construction_plan(cls):
        if name in values:
            data[name] = values[name]
            given += 1
        elif factory is not None:
            data[name] = factory()
        elif default is _REQUIRED:
            raise TypeError(f"{cls.__name__}: required field {name!r} not given")
        else:
            data[name] = default
    if given != len(values):
        raise TypeError(f"{cls.__name__}: no field named {sorted(set(values) - set(data))}")
    model = cls.__new__(cls)
    _set_attribute(model, "__dict__", data)
    _set_attribute(model, "__pydantic_fields_set__", set(values))
    _set_attribute(model, "__pydantic_extra__", None)
    _set_attribute(model, "__pydantic_private__", None)
    return model


def set_fields(model: BaseModel, **values: object) -> None:
    """Set fields of a model the host constructed (`construct`) to values of its own of the
    fields' types: what assigning each does without pydantic's per-assignment checks (a
    result's metrics took ~1 us a field)."""
    model.__dict__.update(values)
    model.__pydantic_fields_set__.update(values)


def shallow_copy(model: _M) -> _M:
    """A copy of a model `construct` made (same fields, same values), as cheaply: for
    models of immutable values kept to be handed out as a fresh object each time."""
    copy = model.__class__.__new__(model.__class__)
    _set_attribute(copy, "__dict__", model.__dict__.copy())
    _set_attribute(copy, "__pydantic_fields_set__", set(model.__pydantic_fields_set__))
    _set_attribute(copy, "__pydantic_extra__", None)
    _set_attribute(copy, "__pydantic_private__", None)
    return copy


class ResultModel(BaseModel):
    """A result model that also reads as a mapping of its fields, for code written against
    dict results (`result["status"]`, `"stdout" in result`, `dict(result)`,
    `result.to_dict()`). Attribute access (`result.status`) stays the primary style; nested
    models read the same way (`result["metrics"]["execution_time_ms"]`)."""

    # Validators are built on first use, not at import: the host builds its results from
    # trusted values (`model_construct`), so a process that only runs code never builds
    # them, and `import sandbox_wasm` is part of a new process's latency.
    model_config = ConfigDict(defer_build=True)

    def __getitem__(self, key: str) -> Any:
        if key not in type(self).model_fields:
            raise KeyError(key)
        return getattr(self, key)

    def __contains__(self, key: object) -> bool:
        return key in type(self).model_fields

    def keys(self) -> list[str]:
        """The field names, in declaration order."""
        return list(type(self).model_fields)

    def values(self) -> list[Any]:
        return [getattr(self, key) for key in type(self).model_fields]

    def items(self) -> list[tuple[str, Any]]:
        return [(key, getattr(self, key)) for key in type(self).model_fields]

    def get(self, key: str, default: Any = None) -> Any:
        """The field's value, or `default` for a name that is not a field."""
        return getattr(self, key) if key in type(self).model_fields else default

    def to_dict(self) -> dict[str, Any]:
        """The whole result as plain JSON-compatible data (nested dicts and lists)."""
        return self.model_dump(mode="json")


class Limits(BaseModel):
    """Resource limits of one execution. Every field has a default and a hard maximum."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    timeout_ms: int = Field(5_000, ge=1, le=30_000, description="Wall-clock deadline.")
    memory_mb: int = Field(
        256, ge=32, le=1_024,
        description="Linear-memory cap of the guest (the Python snapshot needs ~27 MiB to start).",
    )
    max_stdout_bytes: int = Field(65_536, ge=0, le=MIB, description="Captured stdout cap.")
    max_stderr_bytes: int = Field(8_192, ge=0, le=64 * KIB, description="Captured stderr cap.")
    fuel: int | None = Field(
        None, ge=1, le=MAX_FUEL, description="Instruction budget; None derives it from timeout_ms."
    )
    max_source_bytes: int = Field(32 * KIB, ge=1, le=MIB, description="Largest accepted source.")
    max_input_bytes: int = Field(
        32 * MIB, ge=0, le=256 * MIB, description="Total bytes of the files given as input."
    )
    max_file_bytes: int = Field(
        8 * MIB, ge=0, le=256 * MIB,
        description="Largest file the guest may write (/output or /tmp): EFBIG beyond.",
    )
    max_written_bytes: int = Field(
        32 * MIB, ge=0, le=256 * MIB,
        description="Bytes the guest may write in all (/output and /tmp): ENOSPC beyond.",
    )
    max_tool_calls: int = Field(100, ge=0, le=10_000, description="Host tool calls per run.")
    max_tool_bytes: int = Field(
        MIB, ge=64, le=16 * MIB, description="Largest tool request or answer (JSON bytes)."
    )
    tool_timeout_ms: int = Field(
        10_000, ge=1, le=30_000,
        description="Time one tool call may take (the run's deadline keeps running too).",
    )

    @property
    def effective_fuel(self) -> int:
        """The fuel budget actually given to the guest."""
        if self.fuel is not None:
            return self.fuel
        return FUEL_STARTUP_ALLOWANCE + self.timeout_ms * FUEL_PER_MS

    @classmethod
    def from_profile(cls, profile: TimeoutProfile, **overrides: int | None) -> Limits:
        """Limits of a timeout profile; explicit overrides (e.g. timeout_ms) win."""
        values: dict[str, int | None] = {"timeout_ms": TIMEOUT_PROFILES[profile]}
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls.model_validate(values)


class EffectiveLimits(ResultModel):
    """The limits that applied to an execution, with the fuel budget resolved."""

    timeout_ms: int
    memory_mb: int
    max_stdout_bytes: int
    max_stderr_bytes: int
    fuel: int
    max_source_bytes: int
    max_input_bytes: int
    max_file_bytes: int
    max_written_bytes: int
    max_tool_calls: int
    max_tool_bytes: int
    tool_timeout_ms: int

    @classmethod
    def of(cls, limits: Limits) -> EffectiveLimits:
        # Each result gets its own (mutable) copy of the validated fields: once per Limits
        # object, on every execution's path.
        known = _EFFECTIVE.get(id(limits))
        if known is None:
            fields = {name: getattr(limits, name) for name in cls.model_fields}
            fields["fuel"] = limits.effective_fuel
            known = (limits, construct(cls, **fields))
            if len(_EFFECTIVE) >= _EFFECTIVE_KEPT:
                with contextlib.suppress(KeyError, StopIteration, RuntimeError):
                    del _EFFECTIVE[next(iter(_EFFECTIVE))]
            _EFFECTIVE[id(limits)] = known
        return shallow_copy(known[1])


#: The effective limits of the Limits objects used lately, by id (each entry holds its
#: Limits, so the id stays its own): a frozen model's hash, as an lru_cache key, cost more
#: than the rest.
_EFFECTIVE: dict[int, tuple[Limits, EffectiveLimits]] = {}
_EFFECTIVE_KEPT = 256


class Finding(ResultModel):
    """One construct the audit policy flagged."""

    name: str
    kind: FindingKind
    line: int
    col: int
    reason: str


class AuditReport(ResultModel):
    """What the static audit found. A signal and an explained refusal, not the boundary."""

    syntax_valid: bool
    safety_verdict: SafetyVerdict
    flagged_calls: list[Finding] = Field(default_factory=list)
    policy: str
    syntax_error: str | None = None


class AuditSummary(ResultModel):
    """The audit section of an execution result."""

    safety_verdict: SafetyVerdict
    flagged_calls: list[Finding] = Field(default_factory=list)
    policy: str
    #: The registered host tools the source refers to (`from tools import x`, `tools.x(...)`):
    #: allowed, and listed here rather than flagged.
    tools: list[str] = Field(default_factory=list)
    #: The source's uses of the network (imports of urllib.request, http.client, requests,
    #: ...): findings that never block; their reason says whether the run's network policy
    #: allows requests, and to which hosts.
    network: list[Finding] = Field(default_factory=list)


class ErrorInfo(ResultModel):
    """Why an execution did not succeed."""

    type: str
    message: str


class ToolCall(ResultModel):
    """One call of a host tool by the guest."""

    name: str
    duration_ms: float
    ok: bool
    #: The exception's type name when the call failed (bad arguments, the tool raised, it
    #: timed out, a limit).
    error: str | None = None


class NetworkCall(ResultModel):
    """One HTTP(S) request the guest asked the host to make (`network=`). The URL is shown
    without its query's values; the headers the host pinned are never shown."""

    method: str
    url: str
    #: The response's status; None when the request was refused or failed.
    status: int | None = None
    bytes_sent: int = 0
    bytes_received: int = 0
    duration_ms: float = 0.0
    #: The exception type the guest got (PermissionError: refused by the policy).
    error: str | None = None
    #: Why, in one line.
    message: str | None = None
    #: The address the host connected to (after its check).
    address: str | None = None


class Metrics(ResultModel):
    """Measurements of one execution. The audit and the run share one fresh instance:
    `audit_time_ms` is the time until the audit's answer (instance start-up included; it has
    its own budget), `execution_time_ms` the time after it, which `timeout_ms` bounds.
    `fuel_consumed` counts both."""

    execution_time_ms: float = 0.0
    audit_time_ms: float = 0.0
    fuel_consumed: int = 0
    peak_memory_bytes: int = 0
    stdout_bytes: int = 0
    stderr_bytes: int = 0


class RuntimeInfo(ResultModel):
    """Which runtime ran the code."""

    name: str
    version: str
    sha256: str
    wasmtime: str


class SessionCall(ResultModel):
    """The session side of a result: which session and call, and what became of it."""

    id: str
    #: 1 for the session's first call (a restored session goes on counting).
    call: int
    #: The call did not come back to rest (deadline, fuel, a crash, os._exit): the session
    #: was put back to its state before the call, and nothing of the call remains.
    rolled_back: bool = False
    #: The session is closed after this call (it could not be kept; see the error).
    closed: bool = False
    #: Linear memory of the session after the call.
    memory_bytes: int = 0


class OutputChunk(ResultModel):
    """A piece of the code's output as it was written (`Sandbox.stream`, `on_output=`):
    stdout and stderr in the order the code wrote them, within their caps (the result's
    `stdout`/`stderr` hold the same text)."""

    stream: Literal["stdout", "stderr"]
    text: str


class ExpressionValue(ResultModel):
    """The value of the code's last statement when it is an expression (as a notebook cell
    or the REPL shows it; a value of None is not reported)."""

    #: The value's type (`int`, `pandas.DataFrame`).
    type: str
    #: `repr(value)`, cut to 10,000 characters.
    repr: str
    repr_truncated: bool = False
    #: The value itself when it is JSON (dict, list, str, number, bool) of at most 64 KiB.
    json_value: object | None = None
    #: Why a dict, list, str or number is not given as `json_value` (not representable as
    #: JSON, or too large); None otherwise.
    json_error: str | None = None


class ExecutionResult(ResultModel):
    """The structured outcome of one execution; JSON-serialisable (`files` as base64)."""

    model_config = ConfigDict(ser_json_bytes="base64", val_json_bytes="base64")

    execution_id: str
    language: Language
    status: Status
    exit_code: int
    syntax_valid: bool
    stdout: str = ""
    stderr: str = ""
    stdout_truncated: bool = False
    stderr_truncated: bool = False
    result_json: object | None = None
    #: Why stdout that is JSON is not given as `result_json` (too deeply nested or too large
    #: a number for the result's JSON encoding); None otherwise.
    result_json_error: str | None = None
    audit: AuditSummary
    error: ErrorInfo | None = None
    limits: EffectiveLimits
    metrics: Metrics
    runtime: RuntimeInfo
    files: Base64Files = Field(
        default_factory=dict,
        description="Files the code wrote under /output (in a session: created or changed "
        "by this call), by name relative to /output; base64 in JSON.",
    )
    #: Writes the filesystem's caps refused ("path: reason"); empty when none.
    files_dropped: list[str] = Field(default_factory=list)
    #: The host tools the code called, in order (`tools=`).
    tool_calls: list[ToolCall] = Field(default_factory=list)
    #: The HTTP(S) requests the code had the host make, in order (`network=`).
    network_calls: list[NetworkCall] = Field(default_factory=list)
    #: Set when the code ran in a `Session`.
    session: SessionCall | None = None
    #: The value of the code's last statement when it is an expression that is not None
    #: (`session.execute("x + 1")`), as a notebook shows it; reported for runs that succeed.
    value: ExpressionValue | None = None

    @property
    def ok(self) -> bool:
        """True when the code ran to completion with exit code 0."""
        return self.status == "succeeded"


class ExecutionRequest(BaseModel):
    """One request: code plus optional limits and input files, as accepted by gateways and
    batch files."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    code: str
    language: Language = "python"
    limits: Limits = Field(default_factory=Limits)
    files: Base64Files = Field(
        default_factory=dict,
        description="Input files the code reads under /input, by name: bytes, or base64 "
        "text (as in JSON).",
    )
