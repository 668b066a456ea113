"""The gateway's refusals: `ApiError` (status, error code, message, field), the one mapping
of the library's request errors to HTTP, the exception handlers that turn every refusal and
failure into a JSON `ErrorResponse`, and the error responses the OpenAPI document lists."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
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


_STATUS_CODES = {
    404: "not_found", 405: "method_not_allowed",
    406: "not_acceptable", 413: "payload_too_large", 415: "unsupported_media_type",
}


class ApiError(Exception):
    """A refusal with its HTTP status, error code and (for metrics) rejection reason."""

    def __init__(
        self, status: int, code: str, message: str, *, field: str | None = None,
        details: Sequence[ErrorDetail] = (), headers: Mapping[str, str] | None = None,
        reason: str | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.body = ErrorResponse(error=ErrorBody(
            code=code, message=message, field=field,
            details=list(details) or [ErrorDetail(field=field, message=message)],
        ))
        self.headers = headers
        self.reason = reason

    def response(self) -> JSONResponse:
        return JSONResponse(
            self.body.model_dump(mode="json"), status_code=self.status, headers=self.headers
        )


def refusal(exc: InvalidRequestError, source_field: str) -> ApiError:
    """The one mapping of the library's request errors to HTTP: 413 for an oversized source,
    else 400, naming the field the error names (`source_field` is this endpoint's name for
    the source: `code` or `python_script`)."""
    is_source = exc.field == "source"
    where = source_field if is_source else exc.field.split(".")[0]
    if isinstance(exc, SourceTooLargeError):
        return ApiError(413, "source_too_large", str(exc), field=where, reason="source_too_large")
    message = f"{source_field}: {exc}" if is_source else str(exc)
    return ApiError(400, "invalid_request", message, field=where, reason="invalid_request")


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
        400, "invalid_json" if invalid_json else "invalid_request",
        "; ".join(d.message for d in details) or first.message,
        field=first.field, details=details, reason="invalid_request",
    )


def unauthorized(message: str) -> ApiError:
    return ApiError(401, "unauthorized", message,
                    headers={"WWW-Authenticate": 'Bearer realm="sandbox-wasm"'},
                    reason="unauthorized")


ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorResponse, "description": "Invalid JSON or field (the field is named: "
          "files.<name> for an input file that is not base64 or has an unusable name)."},
    413: {"model": ErrorResponse, "description": "Source, input files (max_input_bytes) or "
          "body over the size limit."},
    429: {"model": ErrorResponse, "description": "Over the per-client rate limit (Retry-After)."},
    503: {"model": ErrorResponse, "description": "All workers busy, queue full; see Retry-After."},
}


SESSION_ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    **ERROR_RESPONSES,
    404: {"model": ErrorResponse,
          "description": "No such session (unknown, closed, or closed after its idle TTL)."},
    409: {"model": ErrorResponse, "description": "Another call on the session is running."},
    421: {"model": ErrorResponse, "description": "With Redis: the session lives on another "
          "replica (named in the message and the Sandbox-Session-Replica header)."},
    503: {"model": ErrorResponse, "description": "All workers busy, or (opening) all session "
          "places or the session memory budget taken; see Retry-After."},
}


JOB_ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    **ERROR_RESPONSES,
    503: {"model": ErrorResponse, "description": "All workers busy, queue full, or the shared "
          "job store unreachable; see Retry-After."},
}


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
            503, "job_store_unavailable", f"{exc}; retry shortly",
            headers={"Retry-After": str(JOB_STORE_RETRY_AFTER)},
            reason="job_store_unavailable",
        ))

    @app.exception_handler(SessionDirectoryUnavailable)
    async def _directory_down(request: Request, exc: SessionDirectoryUnavailable) -> JSONResponse:
        return await _api_error(request, ApiError(
            503, "session_directory_unavailable",
            f"{exc}: whether another replica holds the session is unknown; retry shortly",
            headers={"Retry-After": str(JOB_STORE_RETRY_AFTER)},
            reason="session_directory_unavailable",
        ))

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        error = _validation_error(exc)
        content_type = request.headers.get("content-type", "")
        if error.body.error.field == "body" and "json" not in content_type:
            error = ApiError(
                400, "invalid_request",
                f"{error.body.error.message} (send JSON with content-type: application/json; "
                f"got {content_type or 'no content-type'})",
                field="body", reason="invalid_request",
            )
        return await _api_error(request, error)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        if exc.status_code == 400:
            # FastAPI's only plain 400: a body that json.loads could not even decode
            # (not UTF-8, nested too deep, a number too long).
            return await _api_error(request, ApiError(
                400, "invalid_json", f"request body is not valid JSON ({exc.detail})",
                field="body", reason="invalid_request",
            ))
        code = _STATUS_CODES.get(exc.status_code, "http_error")
        error = ApiError(exc.status_code, code, str(exc.detail), headers=exc.headers)
        return error.response()

    @app.exception_handler(Exception)
    async def _bug(request: Request, exc: Exception) -> JSONResponse:
        logger.exception("unhandled error on %s %s", request.method, request.url.path)
        return ApiError(500, "internal_error", "internal server error").response()
