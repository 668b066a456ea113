"""The API's documentation pages, `/docs` (Swagger UI) and `/redoc` (ReDoc), served with
their scripts, stylesheet and favicon from this gateway itself: the copies of swagger-ui-dist
and ReDoc's standalone bundle that the pinned `fastapi-offline` package ships. FastAPI's own
pages load them from a CDN (and ReDoc's fonts from Google, the favicon from fastapi's site),
so on a machine without internet they were blank; these name no host but the gateway's own.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.docs import (
    get_redoc_html,
    get_swagger_ui_html,
    get_swagger_ui_oauth2_redirect_html,
)
from fastapi.staticfiles import StaticFiles
from starlette.requests import Request
from starlette.responses import HTMLResponse

from ..ops.auth import DOC_ASSETS_PREFIX

#: Where the pages' assets are served (answered without a key, as the pages are).
DOCS_ASSETS_PATH = DOC_ASSETS_PREFIX.rstrip("/")
DOCS_PATH = "/docs"
REDOC_PATH = "/redoc"
OAUTH2_REDIRECT_PATH = "/docs/oauth2-redirect"

#: The pages may load nothing from anywhere but this gateway. ReDoc's bundle shows a
#: "powered by" logo from its vendor's CDN (hard-coded, with a fallback when it does not
#: load): the policy stops that request before it is made. Inline script and style are the
#: pages' own (FastAPI's loader script; the styles both UIs inject); ReDoc runs its search
#: in a worker made from a blob.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; font-src 'self' data:; worker-src 'self' blob:; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)

#: Swagger UI's settings: FastAPI's defaults, and no online validator (it would send the
#: document to validator.swagger.io and show its badge from there).
SWAGGER_UI_PARAMETERS: dict[str, Any] = {"validatorUrl": None}


def assets_dir() -> Path:
    """The directory of the installed swagger-ui and ReDoc files."""
    return Path(str(resources.files("fastapi_offline") / "static"))


def confined(page: HTMLResponse) -> HTMLResponse:
    """`page` with the policy that keeps it to this gateway."""
    page.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
    return page


def add_docs_routes(app: FastAPI) -> None:
    """`/docs`, `/redoc` and `/docs/oauth2-redirect`, with their assets under
    `DOCS_ASSETS_PATH`. The app must be made with `docs_url=None, redoc_url=None`."""
    app.mount(DOCS_ASSETS_PATH, StaticFiles(directory=assets_dir()), name="docs-assets")
    openapi_url = app.openapi_url or "/openapi.json"

    def prefix(request: Request) -> str:
        return str(request.scope.get("root_path", ""))

    @app.get(DOCS_PATH, include_in_schema=False)
    async def swagger_ui(request: Request) -> HTMLResponse:
        root = prefix(request)
        return confined(get_swagger_ui_html(
            openapi_url=root + openapi_url, title=f"{app.title} - Swagger UI",
            oauth2_redirect_url=root + OAUTH2_REDIRECT_PATH,
            swagger_js_url=f"{root}{DOCS_ASSETS_PATH}/swagger-ui-bundle.js",
            swagger_css_url=f"{root}{DOCS_ASSETS_PATH}/swagger-ui.css",
            swagger_favicon_url=f"{root}{DOCS_ASSETS_PATH}/favicon.png",
            swagger_ui_parameters=SWAGGER_UI_PARAMETERS,
        ))

    @app.get(OAUTH2_REDIRECT_PATH, include_in_schema=False)
    async def swagger_ui_redirect() -> HTMLResponse:
        return confined(get_swagger_ui_oauth2_redirect_html())

    @app.get(REDOC_PATH, include_in_schema=False)
    async def redoc(request: Request) -> HTMLResponse:
        root = prefix(request)
        return confined(get_redoc_html(
            openapi_url=root + openapi_url, title=f"{app.title} - ReDoc",
            redoc_js_url=f"{root}{DOCS_ASSETS_PATH}/redoc.standalone.js",
            redoc_favicon_url=f"{root}{DOCS_ASSETS_PATH}/favicon.png",
            with_google_fonts=False,
        ))
