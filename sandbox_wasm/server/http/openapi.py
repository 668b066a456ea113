"""The OpenAPI document as the gateway answers: 400 (not FastAPI's 422) for invalid
requests, and the API-key scheme when keys are configured."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI

from ..ops.auth import needed_scope
from ..settings import GatewaySettings
from .errors import ERROR_CODES
from .schemas import SafeExecRequest

#: The answers of an operation that needs a key, as they go into the generated document.
_AUTH_RESPONSES: dict[str, dict[str, Any]] = {
    str(ERROR_CODES[code].status): {
        "description": f"`{code}`: {ERROR_CODES[code].meaning}.",
        "content": {"application/json": {"schema": {
            "$ref": "#/components/schemas/ErrorResponse"}}},
    }
    for code in ("unauthorized", "forbidden")
}


def document_auth(schema: dict[str, Any], settings: GatewaySettings) -> None:
    """With API keys: the bearer scheme, and on each operation that needs a key its
    security requirement and its 401/403 answers."""
    schema["components"]["securitySchemes"] = {"apiKey": {
        "type": "http", "scheme": "bearer",
        "description": "An API key whose SHA-256 hash is in the server's api_key_hashes.",
    }}
    for path, operations in schema.get("paths", {}).items():
        if needed_scope(path, public_health=settings.public_health) is None:
            continue
        for operation in operations.values():
            operation["security"] = [{"apiKey": []}]
            operation.setdefault("responses", {}).update(_AUTH_RESPONSES)


def document_400_not_422(app: FastAPI, settings: GatewaySettings) -> None:
    """FastAPI documents validation errors as 422 with its own body; this gateway answers
    400 with an ErrorResponse, so the OpenAPI document says that instead. It also adds the
    schema of the safe-exec body, which FastAPI does not see."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = FastAPI.openapi(app)
            for path in schema.get("paths", {}).values():
                for operation in path.values():
                    operation.get("responses", {}).pop("422", None)
            components = schema.setdefault("components", {}).setdefault("schemas", {})
            for name in ("HTTPValidationError", "ValidationError"):
                components.pop(name, None)
            # safe-exec reads its body itself (JSON or a form): its JSON schema is ours to add.
            request = SafeExecRequest.model_json_schema(ref_template="#/components/schemas/{model}")
            components.update(request.pop("$defs", {}))
            components["SafeExecRequest"] = request
            if settings.api_key_hashes:
                document_auth(schema, settings)
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]  # FastAPI's documented override
