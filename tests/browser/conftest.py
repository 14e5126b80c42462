"""Real-browser fixtures: the app served on a free port, one Chromium, phones at 360×740.

One server for the run, serving the run's one app (tests/conftest.py); each test gets it with
emptied tables and a fresh memory through the `app` fixture, exactly as the web tests do.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from flask import Flask
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, sync_playwright
from werkzeug.serving import BaseWSGIServer, WSGIRequestHandler, make_server

from scorekeeper import live
from tests.browser.wifi import Wifi
from tests.conftest import CHROMIUM, SKIPPED_FOR_CHROMIUM

# Browser downloads are impossible where these run: the system's Chromium, made quiet and quick.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
# The phone the product is made for.
PHONE_VIEWPORT: ViewportSize = {"width": 360, "height": 740}
# What a measure of a page allows for, as nobody can see it: half a CSS pixel. Text is drawn at
# fractions of a pixel, and the fonts phones draw with (Roboto, Noto) and DejaVu differ by
# that much (docs/testing.md, Fonts).
SUB_PIXEL = 0.5
HERE = Path(__file__).resolve().parent
# Flask-Compress compresses a static file as a stream and drops send_file's file without
# closing it (its _compress_chunks), so each compressed static file (app.css, js/*.js, the
# icons) is closed by the garbage collector, with a warning that lands in whichever test runs
# then. Only browsers ask for static files; let that one warning by, and no other.
STATIC_FILE_LEAK = pytest.mark.filterwarnings(
    "ignore:Exception ignored in. <_io.FileIO name='[^']*/static/[^']+'"
    ":pytest.PytestUnraisableExceptionWarning"
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark this directory's tests `browser` (the lanes, docs/testing.md), and skip them,
    saying why, only on a machine without Chromium."""
    skip = pytest.mark.skip(reason=SKIPPED_FOR_CHROMIUM)
    for item in items:
        if HERE in item.path.parents:
            item.add_marker(pytest.mark.browser)
            item.add_marker(STATIC_FILE_LEAK)
            if not CHROMIUM.exists():
                item.add_marker(skip)


@dataclass(frozen=True)
class LiveServer:
    """The app answering real HTTP on localhost."""

    app: Flask
    url: str


class QuietHandler(WSGIRequestHandler):
    """Logs only failed requests: four phones polling every 2 s would bury a failure's report."""

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        """Log a request answered with an error; pass over the rest."""
        if str(code).isdigit() and int(code) >= 400:
            super().log_request(code, size)


@pytest.fixture(scope="session")
def _live_server(_session_app: Flask) -> Iterator[LiveServer]:
    """The real app in a background thread, threaded like a server with several phones at it."""
    server: BaseWSGIServer = make_server(
        "127.0.0.1", 0, _session_app, threaded=True, request_handler=QuietHandler
    )
    thread = threading.Thread(target=server.serve_forever, name="live-server", daemon=True)
    thread.start()
    try:
        yield LiveServer(app=_session_app, url=f"http://127.0.0.1:{server.server_port}")
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


@pytest.fixture
def live_server(app: Flask, _live_server: LiveServer) -> LiveServer:
    """The app served over HTTP, on the test's emptied database, its live layer started in
    this process as a server starts it (the app fixture's fresh memory did already)."""
    live.start(app, gevent=False)
    return _live_server


@pytest.fixture
def wifi(live_server: LiveServer) -> Iterator[Wifi]:
    """The café's Wi-Fi between this test's phones and the server, up at the start, cut and
    brought back as the test says (tests/browser/wifi.py), gone at the end."""
    made = Wifi(live_server)
    yield made
    made.close()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """One Chromium for the whole run: contexts, not browsers, are the phones."""
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


PhoneMaker = Callable[..., Page]


@pytest.fixture
def new_phone(browser: Browser, live_server: LiveServer) -> Iterator[PhoneMaker]:
    """A maker of phones: each call is a fresh context (its own cookies) with one page open."""
    contexts: list[BrowserContext] = []

    def make(
        *,
        dark: bool = False,
        timezone: str | None = None,
        javascript: bool = True,
        viewport: ViewportSize | None = None,
        locale: str | None = None,
    ) -> Page:
        """A new phone at 360×740 (or a screen of `viewport`), light or dark as its setting
        says, in its own time zone and language (`locale`, which its browser asks pages
        for), with or without JavaScript."""
        context = browser.new_context(
            base_url=live_server.url,
            viewport=viewport or PHONE_VIEWPORT,
            color_scheme="dark" if dark else "light",
            is_mobile=viewport is None,
            has_touch=viewport is None,
            timezone_id=timezone,
            java_script_enabled=javascript,
            locale=locale,
            # A phone lets a page keep its screen on without asking; the headless shell
            # refuses unless told.
            permissions=["screen-wake-lock"],
        )
        contexts.append(context)
        return context.new_page()

    yield make
    # Closed before the server stops, so no request is cut off halfway.
    for context in contexts:
        context.close()
