"""The gateway's /docs and /redoc in a real browser with no way out: Debian's headless
Chromium (scripts/headless_chromium.py: fetched from the Debian pool by pinned SHA-256,
unpacked into the cache, no root), driven by Playwright over the DevTools protocol against a
live gateway on loopback.

The browser is made offline on purpose: every request that does not go to the gateway is
sent to a proxy that is not there (and recorded), so a page that needs a CDN, a web font or
a remote favicon shows up here as a failed or missing asset, as it would on an air-gapped
machine. Playwright is used for its real input events (a click is a mouse event on the
element, typing goes through the keyboard), which is what "try it out" is; its own browser
downloads are never used (`executable_path` is Debian's binary).
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from urllib.parse import urlsplit

import pytest
from live_server import LiveServer, serve
from playwright.sync_api import Page, sync_playwright

import sandbox_wasm as sw

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "headless_chromium.py"
#: Every request the page makes must go here (the gateway); anything else is a failure.
LOOPBACK = "127.0.0.1"


def _headless_chromium() -> ModuleType:
    spec = importlib.util.spec_from_file_location("headless_chromium", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def chromium() -> object:
    module = _headless_chromium()
    try:
        return module.ensure()
    except module.BrowserUnavailable as exc:
        pytest.fail(f"headless Chromium: {exc}")


@pytest.fixture(scope="module")
def docs_server(gateway_sandbox: sw.Sandbox) -> Iterator[LiveServer]:
    yield from serve(gateway_sandbox, workers=1, queue=4)


class Browser:
    """One page in the offline browser, with every URL it asked for and those its
    Content-Security-Policy stopped before they were sent."""

    def __init__(self, page: Page, requested: list[str], blocked: list[str]) -> None:
        self.page = page
        self.requested = requested
        self.blocked = blocked

    def outside(self) -> list[str]:
        """The requests sent (not stopped by the page's policy) to another host."""
        return [url for url in self.requested
                if urlsplit(url).scheme in ("http", "https", "ws", "wss")
                and urlsplit(url).hostname != LOOPBACK and url not in self.blocked]


@pytest.fixture
def browser(chromium: object) -> Iterator[Browser]:
    args = [
        # Everything but loopback goes to a proxy that is not there: no host outside this
        # machine can answer the page, whatever the machine's network.
        "--proxy-server=http://127.0.0.1:9", "--proxy-bypass-list=127.0.0.1",
    ]
    if os.geteuid() == 0:
        # Chromium's own sandbox refuses to run as root; the page is our gateway's.
        args.append("--no-sandbox")
    with sync_playwright() as pw:
        instance = pw.chromium.launch(
            executable_path=str(chromium.executable), env=chromium.env,  # type: ignore[attr-defined]
            args=args, timeout=60_000,
        )
        try:
            page = instance.new_page()
            page.set_default_timeout(60_000)
            requested: list[str] = []
            blocked: list[str] = []
            page.on("request", lambda request: requested.append(request.url))
            page.on("requestfailed", lambda request: (
                request.failure == "csp" and blocked.append(request.url)))
            yield Browser(page, requested, blocked)
        finally:
            instance.close()


def test_the_docs_pages_name_no_outside_host(docs_server: LiveServer) -> None:
    for path in ("/docs", "/redoc", "/docs/oauth2-redirect"):
        page = docs_server.client.get(path)
        assert "http://" not in page.text and "https://" not in page.text, path
        policy = page.headers["content-security-policy"]
        assert "default-src 'self'" in policy and "img-src 'self' data:" in policy
    for asset in ("swagger-ui-bundle.js", "swagger-ui.css", "redoc.standalone.js",
                  "favicon.png"):
        response = docs_server.client.get(f"/docs/assets/{asset}")
        assert response.status_code == 200 and len(response.content) > 1000, asset


def test_swagger_ui_lists_the_operations_and_tries_one_out(
    docs_server: LiveServer, browser: Browser
) -> None:
    page = browser.page
    page.goto(docs_server.url + "/docs")
    page.wait_for_selector(".opblock-summary-path")
    paths = {element.get_attribute("data-path")
             for element in page.query_selector_all(".opblock-summary-path")}
    assert {"/v1/tools/safe-exec", "/v1/tools/safe-exec/async", "/v1/jobs/{job_id}",
            "/v1/sessions", "/v1/tools/execute_python_sandbox"} <= paths

    operation = page.locator(".opblock-post").filter(
        has=page.locator('.opblock-summary-path[data-path="/v1/tools/safe-exec"]'))
    operation.locator(".opblock-summary").click()
    operation.get_by_role("button", name="Try it out").click()
    body = operation.locator("textarea.body-param__text")
    body.fill(json.dumps({"code": "print(6 * 7)"}))
    operation.get_by_role("button", name="Execute").click()
    response = operation.locator(".live-responses-table .response")
    response.locator(".response-col_status").filter(has_text="200").wait_for()
    shown = json.loads(response.locator(".highlight-code code").first.inner_text())
    assert shown["status"] == "succeeded"
    assert shown["stdout"] == "42\n"
    assert browser.outside() == []
    assert any(url.endswith("/docs/assets/swagger-ui-bundle.js") for url in browser.requested)


def test_redoc_renders_the_operations(docs_server: LiveServer, browser: Browser) -> None:
    page = browser.page
    page.goto(docs_server.url + "/redoc")
    page.get_by_role("heading", name="Audit and run code; wait for the full result").wait_for()
    text = page.inner_text("body")
    for summary in ("Audit and run code in the background; poll the job",
                    "State and (when done) result of a background execution",
                    "Open a session (its globals persist across calls)"):
        assert summary in text
    assert browser.outside() == []
    # ReDoc's bundle reaches for its vendor's logo; the page's policy stops it unsent.
    assert all(urlsplit(url).hostname != LOOPBACK for url in browser.blocked)
    assert any(url.endswith("/docs/assets/redoc.standalone.js") for url in browser.requested)
