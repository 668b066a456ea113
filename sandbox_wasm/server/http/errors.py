"""The gateway's refusals: `ApiError` (status, error code, message, field), the one mapping
of the library's request errors to HTTP, the exception handlers that turn every refusal and
failure into a JSON `ErrorResponse`, and the error responses the OpenAPI document lists."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import Request

from ..._errors import InvalidRequestError, SourceTooLargeError
from ..state.jobs import JobStoreUnavailable
from ..state.sessions import SessionDirectoryUnavailable
from .schemas import ErrorBody, ErrorDetail, ErrorResponse

if TYPE_CHECKING:
    from .gateway import Gateway


logger = logging.getLogger("sandbox_wasm.server")


#: Seconds a client is told to wait when the shared job store (Redis) cannot be reached.
JOB_STORE_RETRY_AFTER = 2


#: Seconds a client is told to wait when every worker is busy and the queue is full.
OVERLOAD_RETRY_AFTER = 1


@dataclass(frozen=True)
class ErrorCode:
    """One error code the gateway answers with: its HTTP status, what it means (the OpenAPI
    document says it), and the reason it is counted under in `sandbox_rejected_requests_total`
    (None: not counted as a rejection)."""

    status: int
    meaning: str
    reason: str | None = None


#: Every error code of the HTTP gateway: the one table `ApiError`, the handlers, the metrics
#: and the OpenAPI document read. Codes are part of the API (clients branch on them).
ERROR_CODES: dict[str, ErrorCode] = {
    "invalid_request": ErrorCode(400, "a field is invalid (named in `field`: files.<name> for "
                                 "an input file that is not base64 or has an unusable name)",
                                 "invalid_request"),
    "invalid_json": ErrorCode(400, "the body is not valid JSON", "invalid_request"),
    "network_not_allowed": ErrorCode(400, "`network` asks for hosts on a server that allows "
                                      "no network (see its network setting)",
                                      "invalid_request"),
    "unknown_tool": ErrorCode(400, "`tools` names a host tool this gateway does not offer",
                              "invalid_request"),
    "invalid_snapshot": ErrorCode(400, "the snapshot cannot be restored (malformed, tampered, "
                                  "for another runtime, or over this server's caps)",
                                  "invalid_request"),
    "unauthorized": ErrorCode(401, "no API key, or a malformed or unknown one "
                              "(WWW-Authenticate: Bearer)", "unauthorized"),
    "forbidden": ErrorCode(403, "the API key lacks the scope this path needs", "forbidden"),
    "not_found": ErrorCode(404, "no such path"),
    "job_not_found": ErrorCode(404, "no such job (unknown, or finished and evicted)"),
    "session_not_found": ErrorCode(404, "no such session (unknown, closed, or closed after its "
                                   "idle TTL)"),
    "method_not_allowed": ErrorCode(405, "the path does not take this method"),
    "not_acceptable": ErrorCode(406, "no acceptable representation"),
    "session_busy": ErrorCode(409, "another call on the session is running", "session_busy"),
    "job_finished": ErrorCode(409, "the job has finished already: there is nothing to "
                              "cancel, its result stands"),
    "session_on_other_replica": ErrorCode(421, "with Redis: the session lives on another "
                                          "replica (named in the message and the "
                                          "Sandbox-Session-Replica header)"),
    "source_too_large": ErrorCode(413, "the source is over the size limit",
                                  "source_too_large"),
    "files_too_large": ErrorCode(413, "the input files are over max_input_bytes",
                                 "files_too_large"),
    "payload_too_large": ErrorCode(413, "the request body is over the size limit",
                                   "body_too_large"),
    "snapshot_too_large": ErrorCode(413, "the snapshot is over max_snapshot_bytes",
                                    "body_too_large"),
    "unsupported_media_type": ErrorCode(415, "the body's content-type is not accepted"),
    "rate_limited": ErrorCode(429, "over the per-client rate limit (Retry-After)",
                              "rate_limited"),
    "internal_error": ErrorCode(500, "a bug of ours"),
    "runtime_unavailable": ErrorCode(500, "the sandbox runtime is missing or altered (the "
                                     "operator must reinstall it)"),
    "overloaded": ErrorCode(503, "all workers busy and the queue full, or the budget of "
                            "request bodies in flight taken (Retry-After)", "overloaded"),
    "sessions_full": ErrorCode(503, "all session places or the session memory budget taken "
                               "(Retry-After)", "sessions_full"),
    "job_store_unavailable": ErrorCode(503, "the shared job store (Redis) cannot be reached "
                                       "(Retry-After)", "job_store_unavailable"),
    "session_directory_unavailable": ErrorCode(503, "the shared session directory (Redis) "
                                               "cannot be reached (Retry-After)",
                                               "session_directory_unavailable"),
    "http_error": ErrorCode(400, "another HTTP error (its status as the framework gives it)"),
}
#: The codes of the framework's own HTTP errors (an unknown path, a wrong method...).
_FRAMEWORK_CODES = {
    404: "not_found", 405: "method_not_allowed", 406: "not_acceptable",
    413: "payload_too_large", 415: "unsupported_media_type",
}


class ApiError(Exception):
    """A refusal: an error code of `ERROR_CODES` (which gives its status and metrics
    reason), a message, and the field it is about."""

    def __init__(
        self, code: str, message: str, *, field: str | None = None,
        details: Sequence[ErrorDetail] = (), headers: Mapping[str, str] | None = None,
        status: int | None = None,
    ) -> None:
        super().__init__(message)
        kind = ERROR_CODES[code]
        self.code = code
        self.status = status if status is not None and code == "http_error" else kind.status
        self.reason = kind.reason
        self.body = ErrorResponse(error=ErrorBody(
            code=code, message=message, field=field,
            details=list(details) or [ErrorDetail(field=field, message=message)],
        ))
        self.headers = headers

    def response(self) -> JSONResponse:
        return JSONResponse(
            self.body.model_dump(mode="json"), status_code=self.status, headers=self.headers
        )


def error_responses(*codes: str) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI error responses of a route that can answer with `codes`: one per status,
    described by the meanings of its codes."""
    by_status: dict[int, list[str]] = {}
    for code in codes:
        kind = ERROR_CODES[code]
        by_status.setdefault(kind.status, []).append(f"`{code}`: {kind.meaning}")
    return {status: {"model": ErrorResponse, "description": "; ".join(meanings) + "."}
            for status, meanings in sorted(by_status.items())}


def refusal(exc: InvalidRequestError, source_field: str) -> ApiError:
    """The one mapping of the library's request errors to HTTP: 413 for an oversized source,
    else 400, naming the field the error names (`source_field` is this endpoint's name for
    the source: `code` or `python_script`)."""
    is_source = exc.field == "source"
    where = source_field if is_source else exc.field.split(".")[0]
    if isinstance(exc, SourceTooLargeError):
        return ApiError("source_too_large", str(exc), field=where)
    message = f"{source_field}: {exc}" if is_source else str(exc)
    return ApiError("invalid_request", message, field=where)


def _field_path(loc: Sequence[object]) -> str:
    parts = [str(p) for p in loc]
    if parts and parts[0] in ("body", "query", "path", "header"):
        parts = parts[1:]
    return ".".join(parts) or "body"


def _validation_error(exc: RequestValidationError) -> ApiError:
    details: list[ErrorDetail] = []
    invalid_json = False
    for error in exc.errors():
        if error.get("type") == "json_invalid":
            invalid_json = True
            reason = (error.get("ctx") or {}).get("error", "invalid JSON")
            position = error["loc"][-1]
            details.append(ErrorDetail(
                field="body", message=f"request body is not valid JSON: {reason} at {position}"
            ))
            continue
        field = _field_path(error.get("loc", ()))
        details.append(ErrorDetail(field=field, message=f"{field}: {error.get('msg')}"))
    first = details[0] if details else ErrorDetail(field=None, message="invalid request")
    return ApiError(
        "invalid_json" if invalid_json else "invalid_request",
        "; ".join(d.message for d in details) or first.message,
        field=first.field, details=details,
    )


def unauthorized(message: str) -> ApiError:
    return ApiError("unauthorized", message,
                    headers={"WWW-Authenticate": 'Bearer realm="sandbox-wasm"'})


#: What every route that runs code can answer, and in addition a job's and a session's.
RUN_ERRORS = ("invalid_request", "invalid_json", "unknown_tool", "source_too_large",
              "files_too_large", "payload_too_large", "rate_limited", "overloaded")
ERROR_RESPONSES = error_responses(*RUN_ERRORS)
JOB_ERROR_RESPONSES = error_responses(*RUN_ERRORS, "job_store_unavailable")
SESSION_ERROR_RESPONSES = error_responses(
    *RUN_ERRORS, "invalid_snapshot", "snapshot_too_large", "session_not_found",
    "session_busy", "session_on_other_replica", "sessions_full",
    "session_directory_unavailable")


def add_error_handlers(app: FastAPI, gateway: Gateway) -> None:
    """Every refusal and failure as a JSON `ErrorResponse` with its status."""
    @app.exception_handler(ApiError)
    async def _api_error(request: Request, exc: ApiError) -> JSONResponse:
        if exc.reason is not None:
            gateway.metrics.reject(exc.reason)
        return exc.response()

    @app.exception_handler(JobStoreUnavailable)
    async def _store_down(request: Request, exc: JobStoreUnavailable) -> JSONResponse:
        return await _api_error(request, ApiError(
            "job_store_unavailable", f"{exc}; retry shortly",
            headers={"Retry-After": str(JOB_STORE_RETRY_AFTER)},
        ))

    @app.exception_handler(SessionDirectoryUnavailable)
    async def _directory_down(request: Request, exc: SessionDirectoryUnavailable) -> JSONResponse:
        return await _api_error(request, ApiError(
            "session_directory_unavailable",
            f"{exc}: whether another replica holds the session is unknown; retry shortly",
            headers={"Retry-After": str(JOB_STORE_RETRY_AFTER)},
        ))

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        error = _validation_error(exc)
        content_type = request.headers.get("content-type", "")
        if error.body.error.field == "body" and "json" not in content_type:
            error = ApiError(
                "invalid_request",
                f"{error.body.error.message} (send JSON with content-type: application/json; "
                f"got {content_type or 'no content-type'})",
                field="body",
            )
        return await _api_error(request, error)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        if exc.status_code == 400:
            # FastAPI's only plain 400: a body that json.loads could not even decode
            # (not UTF-8, nested too deep, a number too long).
            return await _api_error(request, ApiError(
                "invalid_json", f"request body is not valid JSON ({exc.detail})",
                field="body",
            ))
        code = _FRAMEWORK_CODES.get(exc.status_code, "http_error")
        error = ApiError(code, str(exc.detail), headers=exc.headers, status=exc.status_code)
        return error.response()

    @app.exception_handler(Exception)
    async def _bug(request: Request, exc: Exception) -> JSONResponse:
        logger.exception("unhandled error on %s %s", request.method, request.url.path)
        return ApiError("internal_error", "internal server error").response()
