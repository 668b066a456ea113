"""Request and response models of the gateways, and the tool texts HTTP and MCP share.

`execute_python_sandbox` has one schema whichever gateway serves it; its descriptions are
built from the strict policy and the limit models, so what they promise is what runs.
"""

from __future__ import annotations

import mimetypes
from datetime import datetime
from typing import TYPE_CHECKING, Annotated, Literal, TypeAlias
from urllib.parse import quote

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ..._audit.policy import DEFAULT_POLICY
from ..._models import (
    MIB,
    TIMEOUT_PROFILES,
    Base64Files,
    EffectiveLimits,
    ErrorInfo,
    ExecutionResult,
    ExpressionValue,
    Finding,
    Language,
    Limits,
    SafetyVerdict,
    SessionCall,
    Status,
    TimeoutProfile,
    ToolCall,
)
from ..._network.policy import NetworkPolicy
from ..._session.session import OnTrap
from ..state.sessions import DEFAULT_SESSION_IDLE_SECONDS, PolicyName

#: Largest `python_script` the tool schema accepts (the library's default source limit).
MAX_SCRIPT_CHARS = Limits().max_source_bytes
DEFAULT_PROFILE: TimeoutProfile = "standard_5s"


def _limit_field(name: str) -> object:
    """An optional int with the same bounds and description as `Limits.<name>`, so the
    OpenAPI docs and the 400s match what the library enforces."""
    field = Limits.model_fields[name]
    return Annotated[int, *field.metadata, Field(description=field.description)] | None


if TYPE_CHECKING:  # what the built types are, for mypy (it cannot evaluate the builder)
    _TimeoutMs: TypeAlias = int | None
    _MemoryMb: TypeAlias = int | None
    _StdoutBytes: TypeAlias = int | None
    _StderrBytes: TypeAlias = int | None
else:
    _TimeoutMs = _limit_field("timeout_ms")
    _MemoryMb = _limit_field("memory_mb")
    _StdoutBytes = _limit_field("max_stdout_bytes")
    _StderrBytes = _limit_field("max_stderr_bytes")


INPUT_FILES_DESCRIPTION = (
    "Input files by name (relative, e.g. data.csv or cfg/x.json), each base64-encoded "
    "(standard alphabet, padded); the code reads them, read-only, under /input/<name>. "
    f"At most {Limits().max_input_bytes // MIB} MiB in all by default (the server's "
    "max_input_bytes)."
)
#: The URI of an output file returned as an MCP resource.
OUTPUT_URI_PREFIX = "sandbox:///output/"


def output_uri(name: str) -> str:
    """`sandbox:///output/<name>`, the name percent-encoded (its slashes kept)."""
    return OUTPUT_URI_PREFIX + quote(name)


def guess_mime_type(name: str) -> str:
    """The MIME type of an output file by its name; application/octet-stream if unknown."""
    return mimetypes.guess_type(name, strict=False)[0] or "application/octet-stream"


#: Host tools a request names (the gateway's GET /v1/host-tools lists them).
ToolNames = Annotated[
    list[Annotated[str, Field(min_length=1, max_length=64)]],
    Field(max_length=100, description="Host tools to offer this code by name (GET "
          "/v1/host-tools lists the server's): it imports them with `import tools` and calls "
          "them as functions; the result's tool_calls lists the calls. Without it the code has "
          "no `tools` module. A name the server does not offer is a 400."),
]


#: The hosts a request lets its code reach, through the server (`network=` of the library).
NetworkField = Annotated[
    NetworkPolicy | list[Annotated[str, Field(max_length=300)]] | None,
    Field(None, description="Hosts this code may reach with urllib, http.client or requests, "
          "the server making each request: a NetworkPolicy (rules: host, schemes, ports, "
          "methods, pinned headers; private_addresses; budgets) or rule strings "
          "('https://api.example.com', 'http://10.0.0.5:8080'). Bounded by the server's own "
          "network policy (a request must pass both); a server without one answers 400 "
          "network_not_allowed. The result's network_calls lists the requests."),
]


class HostTool(BaseModel):
    """A host tool this gateway can offer a request."""

    name: str = Field(description="Its name: the function `tools.<name>` in the code.")
    signature: str = Field(description="Its Python signature, e.g. `lookup(sku: str) -> dict`.")
    description: str = Field(description="What it does (its docstring, or the MCP tool's "
                             "description).")
    source: str = Field(description="Where it comes from: `python` (a callable of this "
                        "server), or `mcp:<server>` (a bridged MCP server's tool).")


class HostToolList(BaseModel):
    """The host tools requests may name (`tools`)."""

    tools: list[HostTool]


# -- /v1/tools/safe-exec -------------------------------------------------------------------
class SafeExecLimits(BaseModel):
    """Per-request limits; omitted ones take the library defaults. The names are the
    library's (`memory_mb` as everywhere; `max_memory_mb`, the seed products' name, is
    accepted for it)."""

    model_config = ConfigDict(extra="forbid")

    timeout_ms: _TimeoutMs = None
    memory_mb: _MemoryMb = None
    max_memory_mb: _MemoryMb = Field(None, description="The former name of memory_mb "
                                     "(accepted; give one of the two).")
    max_stdout_bytes: _StdoutBytes = None
    max_stderr_bytes: _StderrBytes = None

    @model_validator(mode="after")
    def _one_memory_name(self) -> SafeExecLimits:
        if self.memory_mb is not None and self.max_memory_mb is not None:
            raise ValueError("give memory_mb or its former name max_memory_mb, not both")
        return self

    def as_limits(self, max_source_bytes: int) -> dict[str, int]:
        """The library's limits, by the library's names."""
        values = {
            "timeout_ms": self.timeout_ms,
            "memory_mb": self.memory_mb if self.memory_mb is not None else self.max_memory_mb,
            "max_stdout_bytes": self.max_stdout_bytes,
            "max_stderr_bytes": self.max_stderr_bytes,
            "max_source_bytes": max_source_bytes,
        }
        return {key: value for key, value in values.items() if value is not None}


RuntimeName = Literal["python", "python-data"]
RUNTIME_DESCRIPTION = (
    "Python runtime: 'python' (the server's default unless configured otherwise: the "
    "standard library) or 'python-data' (numpy and pandas, already imported: `import "
    "pandas` costs nothing)."
)


class SafeExecRequest(BaseModel):
    """Audit and run `code` in a fresh sandbox instance."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{
            "language": "python",
            "code": "import json\nprint(json.dumps({'answer': 6 * 7}))",
            "limits": {"timeout_ms": 2000, "memory_mb": 128},
        }]},
    )

    language: Language = Field("python", description="Language of `code`.")
    code: str = Field(description="The source to run (UTF-8; over the server's limit is 413).")
    runtime: RuntimeName | None = Field(None, description=RUNTIME_DESCRIPTION)
    limits: SafeExecLimits = Field(default_factory=SafeExecLimits)
    files: Base64Files = Field(default_factory=dict, description=INPUT_FILES_DESCRIPTION)
    tools: ToolNames = Field(default_factory=list)
    network: NetworkField = None
    policy: PolicyName | None = Field(
        None, description="Audit policy of this run: the server's when omitted, or a "
        "stricter preset (a request may not loosen the server's policy).",
    )


SAFE_EXEC_DESCRIPTION = """\
Audit `code` and run it in a fresh sandbox. The body is JSON (SafeExecRequest: input files \
under `files` as base64) or a multipart form: fields `code`, `language` and `limits` (a JSON \
object), and one part named `files` per input file, its filename the file's name under \
/input (e.g. `curl -F 'code=<job.py' -F files=@data.csv`). What the code writes under /output \
comes back in the result's `files`, base64."""

JobState = Literal["queued", "running", "done"]


CANCEL_DESCRIPTION = (
    "Cancel a job of `POST /v1/tools/safe-exec/async`. A job still waiting for a worker "
    "never runs: it ends `done` with error `Cancelled`. A running job is interrupted at "
    "once (the library's interrupt: within milliseconds, whatever the code is doing): it "
    "ends `done` with a result whose status is `interrupted` (exit code 130), with the "
    "output it had written. The answer is the job once ended (200), or, when another "
    "replica runs it and has not stopped it within 2 s, the job as it is (202: poll it). A "
    "finished job is a 409 (`job_finished`), another key's job a 404."
)


class JobAccepted(BaseModel):
    """An execution accepted for background running; poll `GET /v1/jobs/{job_id}`."""

    job_id: str
    status: JobState


class Job(BaseModel):
    """One background execution. `result` is set once `status` is `done`, unless the
    execution could not run at all, in which case `error` says why."""

    job_id: str
    status: JobState
    created_at: datetime
    started_at: datetime | None = None
    finished_at: datetime | None = None
    result: ExecutionResult | None = None
    error: ErrorInfo | None = None


# -- /v1/sessions -------------------------------------------------------------------------
ON_TRAP_DESCRIPTION = (
    "What a call that does not come back (deadline, fuel, a crash) does to the session: "
    "'rollback' (default) puts back the state before that call; 'close' closes the session "
    "(calls are cheaper without a checkpoint, and the session reserves half the memory)."
)


class SessionCreateRequest(BaseModel):
    """Open a session: one interpreter whose globals, imports and functions persist across
    calls. `timeout_ms` and `memory_mb` win over the same limits in `limits`."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"memory_mb": 128, "timeout_ms": 2000}]},
    )

    limits: SafeExecLimits = Field(
        default_factory=SafeExecLimits,
        description="Default limits of the session's calls; memory_mb caps its memory "
        "for its whole life.",
    )
    policy: PolicyName | None = Field(
        None, description="Audit policy: the server's when omitted, or a stricter preset "
        "(a session may not loosen the server's policy).",
    )
    timeout_ms: _TimeoutMs = None
    memory_mb: _MemoryMb = None
    on_trap: OnTrap = Field("rollback", description=ON_TRAP_DESCRIPTION)
    runtime: RuntimeName | None = Field(None, description=RUNTIME_DESCRIPTION)

    def as_limits(self, max_source_bytes: int) -> dict[str, int]:
        limits = self.limits.as_limits(max_source_bytes)
        if self.timeout_ms is not None:
            limits["timeout_ms"] = self.timeout_ms
        if self.memory_mb is not None:
            limits["memory_mb"] = self.memory_mb
        return limits


class SessionCallLimits(BaseModel):
    """Limits of one call, over the session's own; its memory cap cannot change."""

    model_config = ConfigDict(extra="forbid")

    timeout_ms: _TimeoutMs = None
    max_stdout_bytes: _StdoutBytes = None
    max_stderr_bytes: _StderrBytes = None


class SessionExecuteRequest(BaseModel):
    """Audit and run `code` in the session; what it defines stays for the next call."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"code": "total = sum(range(10))\nprint(total)"}]},
    )

    code: str = Field(description="The source to run (UTF-8; over the server's limit is 413).")
    timeout_ms: _TimeoutMs = None
    limits: SessionCallLimits = Field(default_factory=SessionCallLimits)
    files: Base64Files = Field(
        default_factory=dict,
        description=INPUT_FILES_DESCRIPTION + " They are added to the session's /input "
        "(replacing files of the same name) and stay for its later calls.",
    )
    tools: ToolNames = Field(default_factory=list)
    network: NetworkField = None

    def overrides(self) -> dict[str, int]:
        values = self.limits.model_dump(exclude_none=True)
        if self.timeout_ms is not None:
            values["timeout_ms"] = self.timeout_ms
        return values


class SessionInfo(BaseModel):
    """A live session. Its id is its only credential: keep it secret."""

    id: str = Field(description="The session's id (32 hex digits, random).")
    limits: EffectiveLimits = Field(description="The session's default call limits.")
    policy: str = Field(description="The audit policy its calls run under.")
    on_trap: OnTrap
    calls: int = Field(description="Calls so far (a restored session goes on counting).")
    memory_bytes: int = Field(description="Linear memory of the session after its last call.")
    reserved_bytes: int = Field(
        description="Host memory held for it against the server's session budget."
    )
    created_at: datetime
    last_used_at: datetime = Field(description="When its last call ended (or it opened).")
    idle_seconds: float = Field(description="Seconds since last_used_at.")
    idle_timeout_seconds: float = Field(
        description="A session idle this long is closed and forgotten."
    )
    expires_at: datetime = Field(description="When it closes unless a call comes first.")


# -- execute_python_sandbox (HTTP and MCP) -------------------------------------------------
def _profiles_text() -> str:
    names = [f"{name} ({ms // 1000} s)" for name, ms in TIMEOUT_PROFILES.items()]
    return f"{', '.join(names[:-1])} or {names[-1]}; default {DEFAULT_PROFILE}"


SCRIPT_DESCRIPTION = (
    f"Python 3.13 source to audit and run, at most {MAX_SCRIPT_CHARS} characters "
    f"({MAX_SCRIPT_CHARS // 1024} KiB of UTF-8). Print results to stdout; JSON is fine."
)
AUDIT_SCRIPT_DESCRIPTION = (
    f"Python 3.13 source to check (not run), at most {MAX_SCRIPT_CHARS} characters."
)
PROFILE_DESCRIPTION = f"Wall-clock limit of the run: {_profiles_text()}."
SESSION_ID_DESCRIPTION = (
    "Run in this session (from open_python_session) instead of a fresh interpreter: what "
    "earlier calls in it defined is there, and what this one defines stays. Omit for a "
    "fresh, stateless run."
)
OPEN_SESSION_DESCRIPTION = f"""\
Open a Python session: one sandboxed interpreter whose variables, imports and functions \
persist across execute_python_sandbox calls that pass its session_id. Use it for multi-step \
work (load data once, then query it). Returns session_id and when the session expires: it \
closes after idle_timeout_seconds without a call (default {DEFAULT_SESSION_IDLE_SECONDS:g} s), \
and a server keeps only so many at once, so close it with close_python_session when done. \
The same audit policy and sandbox apply as to single runs; memory_mb caps the session's \
memory for its whole life."""
CLOSE_SESSION_DESCRIPTION = """\
Close a Python session opened with open_python_session and free its memory; its state is \
gone and its session_id no longer works. Closing an unknown or already closed session is an \
error saying so."""

_DEFAULTS = Limits()
_BLOCKED_MODULES = ", ".join(sorted(m for m in DEFAULT_POLICY.blocked_modules
                                    if "." not in m and not m.startswith("_")))
EXECUTE_DESCRIPTION = f"""\
Run a Python 3.13 script in a fresh, isolated CPython-in-WebAssembly sandbox and return its \
stdout. Use it to compute rather than guess: math, text and data wrangling, JSON, small \
simulations. Each call starts from scratch, unless it passes a session_id from \
open_python_session (over HTTP: POST /v1/sessions): calls with one session_id share one \
interpreter, so variables, imports and functions persist, until close_python_session or \
until the session goes unused for its idle timeout. A session call that does not come back \
(timeout, fuel, a crash) is rolled back: the session keeps its state from before that call \
(session.rolled_back). There is no network, environment, subprocess or threads (they fail \
with a one-line reason), and no host file system: the script sees only the files it is \
given (files: name -> base64 content), read-only under /input/<name>, may use /tmp as \
scratch, and its working directory is /output: what it writes there (open('out.csv', 'w') \
or /output/<name>) is returned: listed in files (name, size, mime_type, uri), the content as \
embedded resources over MCP (uri {OUTPUT_URI_PREFIX}<name>; images as image content) and in \
file_contents over HTTP; writes over a cap ({_DEFAULTS.max_file_bytes // MIB} MiB a file, \
{_DEFAULTS.max_written_bytes // MIB} MiB in all) are listed in files_dropped. With \
runtime='python-data' (numpy, pandas, matplotlib), a chart the script shows (plt.show()) or \
leaves open is saved as /output/figure-<n>.png and returned the same way. When the last \
statement is an expression (as in a notebook cell: `df.describe()`), its value comes back in \
value (repr, and json_value when it is JSON).

The script is audited before it runs (the "{DEFAULT_POLICY.name}" policy), which refuses only \
attempts to escape: the interpreter's internals (__subclasses__, __globals__, __builtins__, \
__code__, frames, the modules {_BLOCKED_MODULES}); ordinary Python runs: every other module \
of the standard library, open, eval, exec and __import__ of ordinary code, getattr with any \
name. A blocked script is not run (status "blocked", exit_code 1, the reasons in \
ast_security_audit.flagged_calls); what only the run can tell (a computed attribute name, \
code compiled at run time) is refused there with PermissionError and listed the same way. \
To check code without running it, use audit_python_code.

Limits: timeout_profile {_profiles_text()}; {_DEFAULTS.memory_mb} MiB memory; the first \
{_DEFAULTS.max_stdout_bytes // 1024} KiB of stdout and {_DEFAULTS.max_stderr_bytes // 1024} KiB \
of stderr are kept; the script is at most {MAX_SCRIPT_CHARS // 1024} KiB.

Returns exit_code (0 success; 1 exception, blocked or syntax error; 124 timeout; 137 out of \
memory), syntax_valid, simulated_stdout (what the script printed), ast_security_audit \
{{safety_verdict: safe | flagged | blocked, flagged_calls}}, and status, stderr and error \
for diagnosis."""

AUDIT_DESCRIPTION = f"""\
Check a Python 3.13 script against the sandbox's security policy without running it. Use it \
to find out why execute_python_sandbox would refuse a script, or to vet code before running \
it; it is as fast as a parse. Returns syntax_valid (and syntax_error), safety_verdict \
(safe | flagged | blocked) and flagged_calls, each with name, kind \
(import | call | attribute | name), line, col and the reason. Only attempts to escape are \
blocked: the interpreter's internals (__subclasses__, __globals__, __builtins__, __code__, \
frames, the modules {_BLOCKED_MODULES}). Script at most {MAX_SCRIPT_CHARS // 1024} KiB."""


class SandboxToolRequest(BaseModel):
    """The arguments of `execute_python_sandbox`."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [
            {"python_script": "print(sum(range(10)))", "timeout_profile": "fast_1s"}
        ]},
    )

    python_script: str = Field(description=SCRIPT_DESCRIPTION)
    timeout_profile: TimeoutProfile = Field(DEFAULT_PROFILE, description=PROFILE_DESCRIPTION)
    session_id: str | None = Field(None, max_length=64, description=SESSION_ID_DESCRIPTION)
    files: Base64Files = Field(default_factory=dict, description=INPUT_FILES_DESCRIPTION)


class AstSecurityAudit(BaseModel):
    """What the static audit found."""

    safety_verdict: SafetyVerdict = Field(
        description="safe; flagged (findings listed, code ran); blocked (code not run)."
    )
    flagged_calls: list[Finding] = Field(description="Each finding with its reason.")


class OutputFile(BaseModel):
    """A file the script wrote under /output."""

    name: str = Field(description="Its name relative to /output.")
    size: int = Field(description="Its size in bytes.")
    mime_type: str = Field(description="Guessed from the name.")
    uri: str = Field(description=f"{OUTPUT_URI_PREFIX}<name>: over MCP, the embedded resource "
                     "holding its content.")


class SandboxToolResult(BaseModel):
    """The outcome of `execute_python_sandbox`."""

    exit_code: int = Field(
        description="0 success; 1 exception, blocked or syntax error; 124 timeout; 137 memory."
    )
    syntax_valid: bool = Field(description="Whether the script parses as Python 3.13.")
    simulated_stdout: str = Field(description="What the script printed (its real stdout).")
    ast_security_audit: AstSecurityAudit
    status: Status = Field(description="The sandbox's outcome, e.g. succeeded, blocked, timeout.")
    stdout_truncated: bool = Field(description="True when stdout went over its cap.")
    stderr: str = Field(description="What the script wrote to stderr (tracebacks).")
    error: ErrorInfo | None = Field(description="Why it did not succeed, or null.")
    session: SessionCall | None = Field(
        None, description="With a session_id: the session, its call number, whether this "
        "call was rolled back (it did not come back: the state from before it is kept) or "
        "closed the session. Null for a fresh run.",
    )
    files: list[OutputFile] = Field(
        default_factory=list, description="The files the script wrote under /output (in a "
        "session: created or changed by this call).",
    )
    files_dropped: list[str] = Field(
        default_factory=list, description="Writes refused by the file caps (\"path: reason\").",
    )
    tool_calls: list[ToolCall] = Field(
        default_factory=list, description="The host tools the script called, in order: "
        "name, duration_ms, ok, and the exception's type name when a call failed.",
    )
    value: ExpressionValue | None = Field(
        None, description="When the script's last statement is an expression whose value is "
        "not None (as in a notebook cell): its type, repr and, when it is JSON, json_value.",
    )

    @classmethod
    def of(cls, result: ExecutionResult) -> SandboxToolResult:
        return cls(
            exit_code=result.exit_code,
            syntax_valid=result.syntax_valid,
            simulated_stdout=result.stdout,
            ast_security_audit=AstSecurityAudit(
                safety_verdict=result.audit.safety_verdict,
                flagged_calls=result.audit.flagged_calls,
            ),
            status=result.status,
            stdout_truncated=result.stdout_truncated,
            stderr=result.stderr,
            error=result.error,
            session=result.session,
            files=[OutputFile(name=name, size=len(data), mime_type=guess_mime_type(name),
                              uri=output_uri(name)) for name, data in result.files.items()],
            files_dropped=result.files_dropped,
            tool_calls=result.tool_calls,
            value=result.value,
        )


class SandboxToolHttpResult(SandboxToolResult):
    """`SandboxToolResult` plus whether the built-in demo ran instead of a given script."""

    demo: bool = Field(False, description="True when ?demo=true ran the built-in demo script.")
    demo_script: str | None = Field(None, description="The demo script, when demo is true.")
    file_contents: Base64Files = Field(
        default_factory=dict, description="The content of each file in files, by name "
        "(base64).",
    )


DEMO_SCRIPT = '''\
# Built-in demo of the sandbox: pure computation, printed as text and JSON.
import json
import math
import statistics

primes = [n for n in range(2, 100) if all(n % d for d in range(2, math.isqrt(n) + 1))]
print(f"{len(primes)} primes below 100, the last five: {primes[-5:]}")
print(json.dumps({"count": len(primes), "mean": round(statistics.mean(primes), 3)}))
'''


# -- errors ------------------------------------------------------------------------------
class ErrorDetail(BaseModel):
    """One problem with the request."""

    field: str | None = Field(description="Dotted path of the offending field, if any.")
    message: str


class ErrorBody(BaseModel):
    """Why a request was refused."""

    code: str = Field(description="Machine-readable reason, e.g. invalid_request, rate_limited.")
    message: str
    field: str | None = Field(None, description="The first offending field, if any.")
    details: list[ErrorDetail] = Field(default_factory=list)


class ErrorResponse(BaseModel):
    """The body of every 4xx/5xx answer of the gateway."""

    error: ErrorBody
