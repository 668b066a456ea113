"""safe-exec request bodies: JSON, or a multipart form (code, language, runtime, limits,
tools and network as fields, one `files` part per input file), validated into `SafeExecRequest`."""

from __future__ import annotations

import contextlib
import json

from fastapi.exceptions import RequestValidationError
from pydantic import ValidationError
from starlette.datastructures import UploadFile
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.formparsers import MultiPartException, MultiPartParser
from starlette.requests import Request

from ..._request import MAX_INPUT_FILES
from .errors import ApiError
from .schemas import SafeExecRequest

#: safe-exec takes its request as JSON or as a multipart form (code, language, limits and
#: tools as form fields, one part named `files` per input file, its filename the name
#: under /input).
MULTIPART = "multipart/form-data"


FORM_FIELDS = ("code", "language", "limits", "tools", "runtime", "policy", "network")


FILE_PART = "files"


# -- safe-exec bodies: JSON or a multipart form ---------------------------------------------
async def read_safe_exec_request(request: Request) -> SafeExecRequest:
    """The body of a safe-exec call, as JSON or as a multipart form. Refusals are those of
    a JSON body on every other endpoint (the same handlers answer them)."""
    content_type = request.headers.get("content-type", "")
    if content_type.split(";")[0].strip().lower() == MULTIPART:
        return await _form_request(request)
    return _validated(SafeExecRequest, await _json_body(request))


def _declares_json(content_type: str) -> bool:
    media = content_type.split(";")[0].strip().lower()
    return media == "application/json" or (
        media.startswith("application/") and media.endswith("+json"))


async def _json_body(request: Request) -> object:
    """The body decoded as FastAPI decodes a JSON body: no content-type means JSON; another
    content-type leaves the bytes, which validation then refuses (with a content-type
    hint from the handler)."""
    raw = await request.body()
    if not raw:
        return None
    content_type = request.headers.get("content-type")
    if content_type and not _declares_json(content_type):
        return raw
    try:
        return json.loads(raw)
    except json.JSONDecodeError as exc:
        raise RequestValidationError([{
            "type": "json_invalid", "loc": ("body", exc.pos), "msg": "JSON decode error",
            "input": {}, "ctx": {"error": exc.msg},
        }]) from None
    except (ValueError, RecursionError):  # not UTF-8, nested too deep, a number too long
        raise StarletteHTTPException(400, "There was an error parsing the body") from None


def _validated(model: type[SafeExecRequest], data: object) -> SafeExecRequest:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise RequestValidationError([
            {**error, "loc": ("body", *error["loc"])} for error in exc.errors(include_url=False)
        ]) from None


def _form_error(message: str, field: str = "body") -> ApiError:
    return ApiError("invalid_request", message, field=field)


class _Utf8MultiPartParser(MultiPartParser):
    """Starlette's multipart parser, except that a text part that is not UTF-8 is refused:
    Starlette decodes it as Latin-1 instead, which would run a program other than the one
    that was sent."""

    def on_part_end(self) -> None:
        part = self._current_part
        if part.file is None:
            try:
                bytes(part.data).decode("utf-8")
            except UnicodeDecodeError as exc:
                raise MultiPartException(
                    f"form field {part.field_name!r} is not UTF-8 (byte {exc.start}: "
                    f"{exc.reason})") from None
        super().on_part_end()


async def _form_request(request: Request) -> SafeExecRequest:
    """A multipart safe-exec request: fields code, language, runtime and limits (a JSON object),
    and a part named `files` per input file, whose filename is its name under /input. The
    body was already bounded by the guard; the parts are read from it in memory."""
    try:
        async with contextlib.aclosing(request.stream()) as stream:
            form = await _Utf8MultiPartParser(
                request.headers, stream, max_files=MAX_INPUT_FILES, max_fields=len(FORM_FIELDS),
            ).parse()
    except (StarletteHTTPException, MultiPartException) as exc:  # not a usable form
        detail = exc.detail if isinstance(exc, StarletteHTTPException) else exc.message
        raise _form_error(f"multipart body: {detail}") from None
    fields: dict[str, object] = {}
    files: dict[str, bytes] = {}
    try:
        for key, value in form.multi_items():
            if key == FILE_PART:
                if not isinstance(value, UploadFile):
                    raise _form_error("files: each part named files must be a file (with a "
                                      "filename: its name under /input)", FILE_PART)
                name = value.filename or ""
                if name in files:
                    raise _form_error(f"file {name!r} is given twice", f"files.{name}")
                files[name] = await value.read()
            elif key in FORM_FIELDS and not isinstance(value, UploadFile):
                if key in fields:
                    raise _form_error(f"{key}: given twice", key)
                fields[key] = value
            else:
                raise _form_error(
                    f"{key}: unexpected form part (expected the fields "
                    f"{', '.join(FORM_FIELDS)} and file parts named {FILE_PART})", key)
    finally:
        await form.close()
    for key, shape in (("limits", "a JSON object"), ("tools", "a JSON array of names"),
                       ("network", "a JSON NetworkPolicy or array of rules")):
        if key in fields:
            try:
                fields[key] = json.loads(str(fields[key]))
            except (ValueError, RecursionError) as exc:
                raise _form_error(f"{key}: not {shape} ({exc})", key) from None
    return _validated(SafeExecRequest, {**fields, "files": files})
