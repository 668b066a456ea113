"""The MCP server: `execute_python_sandbox` and `audit_python_code` on the official SDK,
and `open_python_session` / `close_python_session` for state across calls.

The host and the world stay untouched by every tool (the guest has no capability to reach
them, and no tool has network access), so they are annotated read-only for the host and
closed-world; except that a sandbox given host tools (e.g. bridged MCP servers') lets its
runs call them, so execute_python_sandbox is then open-world and not read-only. Opening and
closing a session change the server's state; a run given a session_id changes that
session's, so `execute_python_sandbox` is not idempotent. Its input files come as base64
arguments, and the files a run writes under /output go back as embedded resources next to
the structured result.

A client's `notifications/cancelled` for a running execute_python_sandbox call interrupts
the run (the library's interrupt, within milliseconds): its worker is free at once, and a
session call is rolled back as after a timeout (the session keeps the state it had). As the
protocol says, a cancelled request gets no answer.
"""

import asyncio
import base64
import contextlib
import functools
import threading
import time
from collections.abc import Awaitable, Callable, Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Annotated, ParamSpec, TypeVar

import anyio
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import (
    BlobResourceContents,
    CallToolResult,
    ContentBlock,
    EmbeddedResource,
    ImageContent,
    TextContent,
    ToolAnnotations,
)
from pydantic import BaseModel, Field

from ..._errors import InvalidRequestError, SandboxError
from ..._models import (
    TIMEOUT_PROFILES,
    AuditReport,
    Base64Files,
    ExecutionResult,
    Limits,
    OutputChunk,
    TimeoutProfile,
)
from ..._runtimes.artifacts import python_variant
from ..._sandbox import Sandbox
from ..._version import __version__
from ..bridge.tools import tools_description
from ..http.schemas import (
    AUDIT_DESCRIPTION,
    AUDIT_SCRIPT_DESCRIPTION,
    CLOSE_SESSION_DESCRIPTION,
    DEFAULT_PROFILE,
    EXECUTE_DESCRIPTION,
    INPUT_FILES_DESCRIPTION,
    MAX_SCRIPT_CHARS,
    OPEN_SESSION_DESCRIPTION,
    PROFILE_DESCRIPTION,
    RUNTIME_DESCRIPTION,
    SCRIPT_DESCRIPTION,
    SESSION_ID_DESCRIPTION,
    RuntimeName,
    SandboxToolResult,
)
from ..ops.auth import Authenticator
from ..ops.pool import PoolSaturated
from ..state.sessions import (
    Runner,
    SessionBusy,
    SessionCaps,
    SessionNotFound,
    SessionRegistry,
    SessionsFull,
)

_T = TypeVar("_T")
_P = ParamSpec("_P")

INSTRUCTIONS = (
    "Runs untrusted Python 3.13 in a fresh WebAssembly sandbox with no host files, network "
    "or environment. Call execute_python_sandbox to compute something and read its "
    "simulated_stdout; call audit_python_code to check a script against the policy without "
    "running it. For multi-step work, open_python_session gives a session_id whose "
    "variables persist across execute_python_sandbox calls; close_python_session ends it. "
    "Give a script input files with files (name -> base64; it reads /input/<name>); what it "
    "writes under /output comes back as embedded resources (sandbox:///output/<name>). For "
    "data work pass runtime='python-data': numpy, pandas and matplotlib are there, already "
    "imported; a chart the script shows or leaves open comes back as an image. A script "
    "whose last line is an expression returns its value, as a notebook cell does."
)

_SAFE = ToolAnnotations(
    read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False
)
_RUN = _SAFE.model_copy(update={"idempotent_hint": False})
_OPEN = ToolAnnotations(
    read_only_hint=False, destructive_hint=False, idempotent_hint=False, open_world_hint=False
)
_CLOSE = ToolAnnotations(
    read_only_hint=False, destructive_hint=True, idempotent_hint=True, open_world_hint=False
)

Script = Annotated[str, Field(max_length=MAX_SCRIPT_CHARS, description=SCRIPT_DESCRIPTION)]
AuditedScript = Annotated[
    str, Field(max_length=MAX_SCRIPT_CHARS, description=AUDIT_SCRIPT_DESCRIPTION)
]
SessionId = Annotated[str, Field(max_length=64, description="A session_id from "
                                 "open_python_session.")]
_MEMORY = Limits.model_json_schema()["properties"]["memory_mb"]


#: Files returned as MCP image content (clients show them), not as embedded resources.
IMAGE_MIME_TYPES = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp"})


#: How long a session call waits for the session's cancelled call to stop (an interrupt
#: lands in milliseconds; this only bounds the wait).
STOPPING_WAIT_SECONDS = 5.0


async def interruptible(
    work: Awaitable[_T], cancel: threading.Event,
    stopping: dict[str, asyncio.Task[_T]] | None = None, key: str = "",
) -> _T:
    """`work` (a run given `cancel`), awaited so that cancelling the caller (the SDK
    cancels a tool call's scope on `notifications/cancelled`) sets `cancel` and waits for
    the run to stop before the cancellation goes on. The run's thread would otherwise go
    on to its deadline with nobody waiting for it: `work` runs as a task of its own,
    outside the caller's cancel scope, so that it can be waited for. While it stops, its
    task is in `stopping[key]` (a session's id: the session's next call waits for it)."""
    task = asyncio.ensure_future(work)
    try:
        return await asyncio.shield(task)
    except asyncio.CancelledError:
        cancel.set()
        if stopping is not None:
            stopping[key] = task
            task.add_done_callback(lambda _: stopping.pop(key, None))
        with anyio.CancelScope(shield=True):
            await asyncio.wait([task])  # the interrupt lands within a tick or two
        if not task.cancelled():
            task.exception()  # retrieved: the caller cancelled, whatever the run became
        raise


class OutputNotifier:
    """A run's output sent to the MCP client while the run goes on, in the order written: a
    log notification (notifications/message, level info, logger "stdout" or "stderr") per
    chunk, and a progress notification with the chunk as its message when the client asked
    for progress. Chunks are bounded by the run's output caps; a notification that cannot
    be sent is dropped (the result holds the whole output)."""

    def __init__(self, ctx: Context) -> None:
        self._ctx = ctx
        self._loop = asyncio.get_running_loop()
        self._chunks: asyncio.Queue[OutputChunk | None] = asyncio.Queue()

    def __call__(self, chunk: OutputChunk) -> None:
        """The run's `on_output`, on its worker thread."""
        self._loop.call_soon_threadsafe(self._chunks.put_nowait, chunk)

    def close(self) -> None:
        """No more chunks: `pump` returns once it has sent those before (on the loop)."""
        self._chunks.put_nowait(None)

    async def pump(self) -> None:
        sent = 0
        while (chunk := await self._chunks.get()) is not None:
            sent += 1
            with contextlib.suppress(Exception):
                await self._ctx.log("info", chunk.text, logger_name=chunk.stream)
                await self._ctx.report_progress(sent, message=f"{chunk.stream}: {chunk.text}")


def tool_result(result: ExecutionResult) -> CallToolResult:
    """The result of execute_python_sandbox: the SandboxToolResult as structured content
    and as JSON text, then each file the script wrote under /output (charts included): an
    image as image content, any other file as an embedded resource (its uri and mime type
    also listed in the structured content's files)."""
    summary = SandboxToolResult.of(result)
    content: list[ContentBlock] = [
        TextContent(type="text", text=summary.model_dump_json(indent=2))
    ]
    for listed in summary.files:
        data = base64.b64encode(result.files[listed.name]).decode("ascii")
        if listed.mime_type in IMAGE_MIME_TYPES:
            content.append(ImageContent(type="image", data=data, mime_type=listed.mime_type))
            continue
        blob = BlobResourceContents(uri=listed.uri, mime_type=listed.mime_type, blob=data)
        content.append(EmbeddedResource(type="resource", resource=blob))
    return CallToolResult(content=content, structured_content=summary.model_dump(mode="json"))


class SessionOpened(BaseModel):
    """A new session: pass `session_id` to execute_python_sandbox."""

    session_id: str
    memory_mb: int = Field(description="The session's memory cap for its whole life.")
    policy: str = Field(description="The audit policy its runs are checked against.")
    idle_timeout_seconds: float = Field(
        description="The session closes after this long without a call."
    )
    expires_at: datetime = Field(description="When it closes unless a call comes first.")


class SessionClosed(BaseModel):
    """A session that was closed: its state is gone."""

    session_id: str
    calls: int = Field(description="Calls it had run.")


@dataclass(frozen=True)
class HostGateway:
    """What the HTTP gateway lends the MCP server it serves at `/mcp`, so that MCP and HTTP
    share one bound on runs and one on sessions, under the same caps."""

    #: The gateway's worker pool (instead of threads of the MCP server's own).
    runner: Runner
    #: The gateway's sessions.
    registry: SessionRegistry
    #: Limits set on every run and session (max_source_bytes, max_input_bytes).
    run_limits: Mapping[str, int]
    #: The largest timeout a call may ask for: a timeout_profile over it is a tool error.
    max_timeout_ms: int
    #: The gateway's sandbox of a named runtime.
    sandbox_for: Callable[[str], Sandbox]
    #: The gateway's metrics of a run (the result and its seconds).
    observe: Callable[[ExecutionResult, float], None]


def create_mcp_server(
    sandbox: Sandbox | None = None, *, workers: int = 2, sessions: SessionCaps | None = None,
    auth: Authenticator | None = None, gateway: HostGateway | None = None,
) -> MCPServer:
    """An MCP server whose tools run on `sandbox`, at most `workers` executions at once
    (each on a thread, so the server keeps answering meanwhile), keeping sessions within
    `sessions` (defaults: `SessionCaps()`). The sandbox's host tools (`Sandbox(tools=...)`,
    e.g. those of bridged MCP servers) are offered to every run and session call, and
    listed with their signatures in execute_python_sandbox's description. With `auth`
    (the streamable-HTTP transport behind API keys), a session belongs to the key that
    opened it: another key's session id is unknown to a caller, as on the HTTP gateway.

    On the HTTP gateway's own port (`/mcp`), `gateway` lends its pool, sessions, caps and
    metrics (`HostGateway`); `workers` and `sessions` are then unused."""
    sandbox = sandbox or Sandbox()
    limiter = anyio.CapacityLimiter(workers)
    server = MCPServer(
        "sandbox-wasm", title="sandbox-wasm", version=__version__, instructions=INSTRUCTIONS
    )

    async def on_threads(fn: Callable[[], _T]) -> _T:
        return await anyio.to_thread.run_sync(fn, limiter=limiter)

    run: Runner = gateway.runner if gateway is not None else on_threads
    live: SessionRegistry = (gateway.registry if gateway is not None
                             else SessionRegistry(sessions or SessionCaps(), sandbox, run))
    forced = dict(gateway.run_limits) if gateway is not None else {}
    max_timeout_ms = gateway.max_timeout_ms if gateway is not None else None
    observe = gateway.observe if gateway is not None else None
    caps = live.caps
    # Session calls being interrupted after a client cancelled them: the client gets no
    # answer to wait for, so its next call on the session may come while the interrupt
    # lands; that call waits for it instead of finding the session busy.
    stopping: dict[str, asyncio.Task[ExecutionResult]] = {}
    sandboxes = {sandbox.python_variant: sandbox}

    def runtime_sandbox(runtime: str | None) -> Sandbox:
        """The sandbox of the runtime a call names (the server's when None)."""
        if runtime is None:
            return sandbox
        if gateway is not None:
            return gateway.sandbox_for(runtime)
        variant = python_variant(runtime)
        if variant not in sandboxes:
            sandboxes[variant] = sandbox.with_runtime(variant)
        return sandboxes[variant]

    # A session's own deadline (each call sets its own from its profile): the default
    # profile's, or the server's cap when that is less.
    session_timeout = TIMEOUT_PROFILES[DEFAULT_PROFILE]
    if max_timeout_ms is not None:
        session_timeout = min(session_timeout, max_timeout_ms)

    def run_once(box: Sandbox, script: str, limits: dict[str, object],
                 files: Base64Files | None, cancel: threading.Event,
                 on_output: OutputNotifier | None = None) -> ExecutionResult:
        """One run, on a worker thread, seen by `observe`."""
        started = time.perf_counter()
        result = box.execute(script, limits=limits, files=files, cancel=cancel,
                             on_output=on_output)
        if observe is not None:
            observe(result, time.perf_counter() - started)
        return result

    def timeout_of(profile: TimeoutProfile) -> int:
        """The profile's timeout, within the server's cap (refused, not clamped: a client
        must not believe it got a deadline it did not)."""
        asked = TIMEOUT_PROFILES[profile]
        if max_timeout_ms is not None and asked > max_timeout_ms:
            raise ToolError(f"timeout_profile: {profile} asks for {asked} ms, over this "
                            f"server's max_timeout_ms of {max_timeout_ms}")
        return asked

    def owner_of(ctx: Context) -> str | None:
        """The name of the API key that made this request (None without keys, or on
        stdio). The transport's middleware has already refused requests without a valid
        key; the key is looked up again here, never taken on the client's word."""
        if auth is None:
            return None
        headers = ctx.headers or {}
        key = auth.owner(headers.get("authorization", "").encode("latin-1", "replace"))
        if key is None:  # cannot happen behind the middleware; refuse rather than share
            raise ToolError("this server needs an API key: Authorization: Bearer <key>")
        return key.name

    @contextlib.contextmanager
    def tool_errors() -> Iterator[None]:
        """Every failure a tool reports, as a ToolError the model can act on."""
        try:
            yield
        except SessionNotFound as exc:
            raise ToolError(f"{exc}; open one with open_python_session") from None
        except SessionBusy as exc:
            raise ToolError(f"{exc}: wait for it to finish") from None
        except SessionsFull as exc:
            raise ToolError(f"cannot open a session: {exc}") from None
        except InvalidRequestError as exc:
            raise ToolError(str(exc)) from None
        except SandboxError as exc:
            raise ToolError(f"the sandbox runtime is unavailable: {exc}") from None
        except PoolSaturated:
            raise ToolError("the server is overloaded (every worker busy, the queue full): "
                            "retry shortly") from None

    async def on_worker(fn: Callable[_P, _T], *args: _P.args, **kwargs: _P.kwargs) -> _T:
        with tool_errors():
            result: _T = await run(functools.partial(fn, *args, **kwargs))
            return result

    offered = tools_description(sandbox.tools)

    @server.tool(
        name="execute_python_sandbox", title="Run Python in a sandbox",
        description=EXECUTE_DESCRIPTION + ("\n\n" + offered if offered else ""),
        # A host tool may reach the world (a bridged server's API): then runs do too.
        annotations=_RUN if not sandbox.tools else _RUN.model_copy(
            update={"open_world_hint": True, "read_only_hint": False}),
        structured_output=True,
    )
    async def execute_python_sandbox(
        python_script: Script,
        timeout_profile: Annotated[
            TimeoutProfile, Field(description=PROFILE_DESCRIPTION)
        ] = DEFAULT_PROFILE,
        session_id: Annotated[
            str | None, Field(max_length=64, description=SESSION_ID_DESCRIPTION)
        ] = None,
        files: Annotated[
            Base64Files | None, Field(description=INPUT_FILES_DESCRIPTION)
        ] = None,
        runtime: Annotated[
            RuntimeName | None, Field(description=RUNTIME_DESCRIPTION + " A session keeps the "
                                      "runtime it was opened with.")
        ] = None,
        ctx: Context | None = None,
    ) -> Annotated[CallToolResult, SandboxToolResult]:
        cancel = threading.Event()
        timeout_ms = timeout_of(timeout_profile)
        if session_id is None:
            with tool_errors():
                box = runtime_sandbox(runtime)
            limits = {**box.limits.model_dump(), **forced, "timeout_ms": timeout_ms}
            notifier = OutputNotifier(ctx) if ctx is not None else None
            pump = asyncio.ensure_future(notifier.pump()) if notifier is not None else None
            try:
                result = await interruptible(on_worker(
                    run_once, box, python_script, limits, files, cancel, notifier), cancel)
            except BaseException:
                if pump is not None:
                    pump.cancel()
                raise
            if notifier is not None and pump is not None:
                notifier.close()
                await pump  # every chunk is sent before the result
        else:
            owner = owner_of(ctx) if ctx else None
            previous = stopping.get(session_id)
            if previous is not None:
                with anyio.move_on_after(STOPPING_WAIT_SECONDS):
                    await asyncio.wait([previous])
            with tool_errors():
                result = await interruptible(live.execute(
                    session_id, python_script, owner=owner,
                    overrides={"timeout_ms": timeout_ms}, files=files,
                    cancel=cancel,
                ), cancel, stopping, session_id)
        return tool_result(result)

    @server.tool(
        name="audit_python_code", title="Audit Python without running it",
        description=AUDIT_DESCRIPTION, annotations=_SAFE, structured_output=True,
    )
    async def audit_python_code(python_script: AuditedScript) -> AuditReport:
        return await on_worker(sandbox.audit, python_script)

    @server.tool(
        name="open_python_session", title="Open a Python session",
        description=OPEN_SESSION_DESCRIPTION, annotations=_OPEN, structured_output=True,
    )
    async def open_python_session(
        memory_mb: Annotated[int, Field(
            ge=_MEMORY["minimum"], le=_MEMORY["maximum"],
            description=f"Memory cap of the session for its whole life, in MiB (default "
            f"{_MEMORY['default']}).",
        )] = _MEMORY["default"],
        runtime: Annotated[
            RuntimeName | None, Field(description=RUNTIME_DESCRIPTION)
        ] = None,
        ctx: Context | None = None,
    ) -> SessionOpened:
        with tool_errors():
            entry = await live.open(
                limits={**forced, "memory_mb": memory_mb, "timeout_ms": session_timeout},
                policy=sandbox.policy, on_trap="rollback",
                owner=owner_of(ctx) if ctx else None, sandbox=runtime_sandbox(runtime),
            )
        return SessionOpened(
            session_id=entry.id, memory_mb=memory_mb, policy=sandbox.policy.name,
            idle_timeout_seconds=caps.idle_seconds,
            expires_at=datetime.fromtimestamp(live.expires_at(entry), UTC),
        )

    @server.tool(
        name="close_python_session", title="Close a Python session",
        description=CLOSE_SESSION_DESCRIPTION, annotations=_CLOSE, structured_output=True,
    )
    async def close_python_session(
        session_id: SessionId, ctx: Context | None = None
    ) -> SessionClosed:
        owner = owner_of(ctx) if ctx else None
        with tool_errors():
            calls = live.get(session_id, owner=owner).session.calls
            await live.close(session_id, owner=owner)
        return SessionClosed(session_id=session_id, calls=calls)

    return server
