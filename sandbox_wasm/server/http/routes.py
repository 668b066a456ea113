"""The HTTP routes: safe-exec (sync and async jobs), the tool endpoint, host tools, health,
metrics and the session routes, each a thin call into the `Gateway`."""

from __future__ import annotations

import os
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Query, Response
from fastapi.responses import StreamingResponse
from pydantic import BaseModel
from starlette.requests import Request

from ..._errors import InvalidRequestError
from ..._models import TIMEOUT_PROFILES, ExecutionResult
from ..._session.session import OnTrap
from ..._version import __version__
from ..ops.metrics import CONTENT_TYPE
from ..state.sessions import SessionEntry, session_policy
from .admission import RESTORE_PATH, owner_of
from .bodies import FILE_PART, MULTIPART, read_safe_exec_request
from .errors import (
    ERROR_RESPONSES,
    JOB_ERROR_RESPONSES,
    SESSION_ERROR_RESPONSES,
    ApiError,
    error_responses,
    refusal,
)
from .gateway import Gateway, Health
from .schemas import (
    CANCEL_DESCRIPTION,
    DEFAULT_PROFILE,
    DEMO_SCRIPT,
    EXECUTE_DESCRIPTION,
    SAFE_EXEC_DESCRIPTION,
    ErrorResponse,
    HostTool,
    HostToolList,
    Job,
    JobAccepted,
    SandboxToolHttpResult,
    SandboxToolRequest,
    SandboxToolResult,
    SessionCreateRequest,
    SessionExecuteRequest,
    SessionInfo,
)


def model_response(model: BaseModel) -> Response:
    """`model` as a JSON response, serialised once by pydantic-core. Returning the model
    itself would have FastAPI dump it, validate the dump against the route's
    `response_model` again and serialise that (~0.1 ms for an execution result); the route
    keeps `response_model` for its schema."""
    return Response(model.model_dump_json(), media_type="application/json")


SAFE_EXEC_BODY: dict[str, Any] = {"requestBody": {"required": True, "content": {
    "application/json": {"schema": {"$ref": "#/components/schemas/SafeExecRequest"}},
    MULTIPART: {
        "schema": {
            "type": "object", "required": ["code"],
            "properties": {
                "code": {"type": "string", "description": "The source to run."},
                "language": {"type": "string", "enum": ["python", "javascript"],
                             "default": "python"},
                "limits": {"type": "string", "description": "SafeExecLimits as a JSON object."},
                FILE_PART: {"type": "array", "items": {"type": "string", "format": "binary"},
                            "description": "One part per input file; its filename is its "
                            "name under /input."},
            },
        },
        "encoding": {"limits": {"contentType": "application/json"}},
    },
}}}


def add_routes(app: FastAPI, gateway: Gateway) -> None:
    """The gateway's endpoints."""
    settings = gateway.settings

    @app.post(
        "/v1/tools/safe-exec", response_model=ExecutionResult, responses=ERROR_RESPONSES,
        summary="Audit and run code; wait for the full result",
        description=SAFE_EXEC_DESCRIPTION, openapi_extra=SAFE_EXEC_BODY,
    )
    async def safe_exec(request: Request) -> Response:
        body = await read_safe_exec_request(request)
        return model_response(await gateway.execute(
            body.code, field="code", language=body.language,
            limits=body.limits.as_limits(settings.max_source_bytes), files=body.files,
            tools=gateway.select_tools(body.tools), runtime=body.runtime, policy=body.policy,
            network=gateway.network_for(body.network),
        ))

    @app.post(
        "/v1/tools/safe-exec/stream", responses={
            200: {"content": {"text/event-stream": {"schema": {"type": "string"}}},
                  "description": "Server-Sent Events: `stdout` and `stderr` events "
                  "(data: {\"text\": ...}) as the code writes, in the order written, then "
                  "one `result` event (data: the ExecutionResult) or `error` event (data: "
                  "{\"error\": {\"code\", \"message\"}})."},
            **{code: answer for code, answer in ERROR_RESPONSES.items() if code != 200}},
        response_class=StreamingResponse,
        summary="Audit and run code; stream its output as Server-Sent Events",
        description=SAFE_EXEC_DESCRIPTION, openapi_extra=SAFE_EXEC_BODY,
    )
    async def safe_exec_stream(request: Request) -> StreamingResponse:
        body = await read_safe_exec_request(request)
        events = await gateway.stream(
            body.code, field="code", language=body.language,
            limits=body.limits.as_limits(settings.max_source_bytes), files=body.files,
            tools=gateway.select_tools(body.tools), runtime=body.runtime, policy=body.policy,
            network=gateway.network_for(body.network),
        )
        # No proxy buffering: each event is for the client as soon as it is written.
        return StreamingResponse(events, media_type="text/event-stream", headers={
            "Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    @app.post(
        "/v1/tools/safe-exec/async", status_code=202, response_model=JobAccepted,
        responses=JOB_ERROR_RESPONSES, summary="Audit and run code in the background; poll the job",
        description=SAFE_EXEC_DESCRIPTION, openapi_extra=SAFE_EXEC_BODY,
    )
    async def safe_exec_async(request: Request, response: Response) -> JobAccepted:
        body = await read_safe_exec_request(request)
        accepted = await gateway.submit_job(
            body.code, language=body.language,
            limits=body.limits.as_limits(settings.max_source_bytes), files=body.files,
            tools=gateway.select_tools(body.tools), owner=owner_of(request),
            body=request.scope["state"].get("body_reservation"), runtime=body.runtime,
            policy=body.policy, network=gateway.network_for(body.network),
        )
        response.headers["Location"] = f"/v1/jobs/{accepted.job_id}"
        return accepted

    @app.get(
        "/v1/jobs/{job_id}", response_model=Job,
        responses={
            404: {"model": ErrorResponse, "description": "Unknown or evicted job."},
            503: {"model": ErrorResponse,
                  "description": "The shared job store is unreachable; see Retry-After."},
        },
        summary="State and (when done) result of a background execution",
    )
    async def get_job(job_id: str, request: Request) -> Job:
        job = await gateway.job(job_id, owner_of(request))
        if job is None:
            raise ApiError(
                "job_not_found",
                f"no job {job_id!r} (unknown, or finished more than "
                f"{settings.job_ttl_seconds:g} s ago and evicted)",
                field="job_id",
            )
        return job

    @app.post(
        "/v1/jobs/{job_id}/cancel", response_model=Job,
        responses={
            202: {"model": Job, "description": "The cancel was passed on to the replica "
                  "running the job, which has not stopped it yet: poll the job."},
            **error_responses("job_not_found", "job_finished", "job_store_unavailable"),
        },
        summary="Cancel a background execution",
        description=CANCEL_DESCRIPTION,
    )
    async def cancel_job(job_id: str, request: Request, response: Response) -> Job:
        outcome = await gateway.cancel_job(job_id, owner_of(request))
        if outcome is None:
            raise ApiError("job_not_found", f"no job {job_id!r} (unknown, or finished and "
                           "evicted)", field="job_id")
        job, finished = outcome
        if not finished:
            response.status_code = 202
        return job

    @app.post(
        "/v1/tools/execute_python_sandbox", response_model=SandboxToolHttpResult,
        responses=ERROR_RESPONSES, summary="The execute_python_sandbox tool (same schema as MCP)",
        description=EXECUTE_DESCRIPTION,
    )
    async def execute_python_sandbox(
        request: Request, body: SandboxToolRequest | None = None,
        demo: Annotated[bool, Query(
            description="Run the built-in demo script instead of python_script (which may "
            "then be omitted); the response says so."
        )] = False,
    ) -> Response:
        profile = body.timeout_profile if body is not None else DEFAULT_PROFILE
        if demo:
            script = DEMO_SCRIPT
        elif body is None:
            raise ApiError(
                "invalid_request", "python_script: Field required",
                field="python_script",
            )
        else:
            script = body.python_script
        files = body.files if body is not None and not demo else {}
        if body is not None and body.session_id is not None and not demo:
            session_id = body.session_id
            gateway.check_source(script, "python_script")
            gateway.check_files(files)
            gateway.capped_timeout({}, "timeout_profile", profile)
            overrides = {"timeout_ms": TIMEOUT_PROFILES[profile]}
            owner = owner_of(request)
            result = await gateway.in_session(session_id, lambda: gateway.sessions.execute(
                session_id, script, owner=owner, overrides=overrides, files=files, tools=()),
                owner=owner, source_field="python_script")
        else:
            result = await gateway.execute(script, field="python_script", profile=profile,
                                           files=files)
        return model_response(SandboxToolHttpResult(
            **SandboxToolResult.of(result).model_dump(),
            demo=demo, demo_script=DEMO_SCRIPT if demo else None, file_contents=result.files,
        ))

    @app.get(
        "/v1/host-tools", response_model=HostToolList,
        summary="The host tools a request may offer its code (`tools`)",
    )
    async def host_tools() -> HostToolList:
        return HostToolList(tools=[HostTool(**entry) for entry in gateway.tools.listing()])

    @app.get("/healthz", response_model=Health, summary="Liveness and load")
    async def healthz() -> Health:
        pool = gateway.pool
        redis: Literal["ok", "unreachable"] | None = None
        if gateway.directory is not None:
            redis = "ok" if await gateway.directory.ping() else "unreachable"
        return Health(
            status="degraded" if redis == "unreachable" else "ok", redis=redis,
            version=__version__, workers=pool.workers, busy=pool.busy,
            queued=pool.queued, queue_capacity=pool.queue_capacity,
            sessions=gateway.sessions.live, max_sessions=settings.max_sessions,
            replica=gateway.replica, pid=os.getpid(),
        )

    @app.get(
        "/metrics", response_class=Response, summary="Prometheus metrics",
        responses={200: {"content": {CONTENT_TYPE: {}}}},
    )
    async def metrics() -> Response:
        return Response(gateway.metrics.render(), media_type=CONTENT_TYPE)


def add_session_routes(app: FastAPI, gateway: Gateway) -> None:
    """/v1/sessions: interpreters whose state lives across calls, addressed by their id
    (without API keys the id is the credential: whoever holds it may use the session; with
    keys, only the key that opened it may)."""
    settings = gateway.settings
    sessions = gateway.sessions
    session_path = "/v1/sessions/{session_id}"

    @app.post(
        "/v1/sessions", status_code=201, response_model=SessionInfo,
        responses=SESSION_ERROR_RESPONSES,
        summary="Open a session (its globals persist across calls)",
    )
    async def open_session(
        request: Request, response: Response, body: SessionCreateRequest | None = None
    ) -> SessionInfo:
        body = body or SessionCreateRequest()
        try:
            policy = session_policy(body.policy, gateway.sandbox.policy)
        except InvalidRequestError as exc:
            raise refusal(exc, "code") from None
        info = await gateway.opened(lambda: sessions.open(
            limits={**gateway.capped_timeout(body.as_limits(settings.max_source_bytes),
                                             "timeout_ms"),
                    **gateway.server_limits()},
            policy=policy,
            on_trap=body.on_trap,
            owner=owner_of(request),
            sandbox=gateway.sandbox_for(body.runtime),
        ))
        response.headers["Location"] = f"/v1/sessions/{info.id}"
        return info

    @app.post(
        RESTORE_PATH, status_code=201, response_model=SessionInfo,
        responses={**SESSION_ERROR_RESPONSES,
                   400: {"model": ErrorResponse, "description": "Not a snapshot this server "
                         "can restore: tampered with, unsigned, signed with another key, or "
                         "made by another runtime (the message says which)."},
                   413: {"model": ErrorResponse, "description": "Snapshot over "
                         "max_snapshot_bytes."}},
        summary="Restore a snapshot (from GET .../snapshot) into a new session",
        openapi_extra={"requestBody": {"required": True, "content": {
            "application/octet-stream": {"schema": {"type": "string", "format": "binary"}},
        }}},
    )
    async def restore_session(
        request: Request, response: Response,
        on_trap: Annotated[OnTrap, Query(description="As when opening a session.")] = "rollback",
    ) -> SessionInfo:
        data = await request.body()
        info = await gateway.opened(lambda: sessions.restore(
            data, key=gateway.snapshot_key, on_trap=on_trap, owner=owner_of(request),
            check_limits=gateway.check_restored_limits,
        ))
        response.headers["Location"] = f"/v1/sessions/{info.id}"
        return info

    @app.get(
        session_path, response_model=SessionInfo, responses=SESSION_ERROR_RESPONSES,
        summary="A session's state: calls, memory, idle time, expiry",
    )
    async def get_session(session_id: str, request: Request) -> SessionInfo:
        async def look() -> SessionEntry:
            return sessions.get(session_id, owner=owner_of(request))

        return gateway.session_info(await gateway.in_session(
            session_id, look, owner=owner_of(request), renew=False))

    @app.delete(
        session_path, status_code=204, response_class=Response, responses=SESSION_ERROR_RESPONSES,
        summary="Close a session and free its memory",
    )
    async def close_session(session_id: str, request: Request) -> Response:
        await gateway.close_session(session_id, owner_of(request))
        return Response(status_code=204)

    @app.post(
        session_path + "/execute", response_model=ExecutionResult,
        responses=SESSION_ERROR_RESPONSES,
        summary="Audit and run code in a session; the result says what became of it",
    )
    async def execute_in_session(
        session_id: str, body: SessionExecuteRequest, request: Request
    ) -> Response:
        gateway.check_source(body.code, "code")
        gateway.check_files(body.files)
        overrides = body.overrides()
        if "timeout_ms" in overrides:
            gateway.capped_timeout(overrides, "timeout_ms")
        tools = gateway.select_tools(body.tools)
        network = gateway.network_for(body.network)
        owner = owner_of(request)
        return model_response(await gateway.in_session(session_id, lambda: sessions.execute(
            session_id, body.code, owner=owner, overrides=overrides, files=body.files,
            tools=tools, network=network,
        ), owner=owner))

    @app.get(
        session_path + "/snapshot", response_class=Response, responses={
            **SESSION_ERROR_RESPONSES,
            200: {"content": {"application/octet-stream": {}},
                  "description": "The session's state, signed with the server's key: it "
                  "restores on a replica with the same key (SANDBOX_WASM_SESSION_KEY), or "
                  "without one only in this process."},
        },
        summary="Download a session's state as a signed snapshot",
    )
    async def snapshot_session(session_id: str, request: Request) -> Response:
        data = await gateway.in_session(
            session_id, lambda: sessions.snapshot(session_id, key=gateway.snapshot_key,
                                                  owner=owner_of(request)),
            owner=owner_of(request), renew=False,
        )
        return Response(data, media_type="application/octet-stream", headers={
            "Content-Disposition": f'attachment; filename="session-{session_id}.snapshot"',
        })
