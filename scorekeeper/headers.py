"""Headers every answer carries: no inline script, no framing, no sniffing (a stylesheet or a
module only the last, and the referrer policy: the others bind documents). And static files
under fingerprinted URLs (`?v=` and a hash of the file), kept by browsers for a year without
asking again: a page load costs no revalidation of the stylesheet and script, and a changed
file gets a new URL.

The page's script is native modules (static/js) that import each other by relative names: a
`?v=` would not follow an import, so they are served under one fingerprint of them all, in the
path (/js/<fingerprint>/main.js), and every import carries it (docs/live.md). The page names
every module main.js imports, however deep, as a `modulepreload` link: a browser that found
them one import at a time paid a round trip for each level (issue 45: 2.0 s on a slow 3G).
The stylesheet and the modules go out minified (minified.py), fingerprinted as served."""

from __future__ import annotations

import hashlib
import os
import re
from typing import Any

from flask import Flask, Response, request, send_from_directory
from werkzeug.security import safe_join

from scorekeeper.minified import Minified, minifiable, minified

# Everything the pages load comes from the app itself; no inline script or style runs.
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
        "base-uri 'none'",
        "object-src 'none'",
    ]
)


SECURITY_HEADERS = [
    ("Content-Security-Policy", CONTENT_SECURITY_POLICY),
    ("X-Content-Type-Options", "nosniff"),
    ("X-Frame-Options", "DENY"),
    ("Referrer-Policy", "same-origin"),
]
# A stylesheet's or a module's own: the policy and the framing rule bind a document or a worker
# (/sw.js has them), not a file a page loads, where they were 300 bytes each of what a first
# visit on a slow 3G waits for.
FILE_HEADERS = [
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "same-origin"),
]
# What the app serves minified (minified.py), by the endpoints that serve them.
FILE_TYPES = ("text/css", "text/javascript")
FILE_ENDPOINTS = ("static", "script")


# A year, the most HTTP caches honour; `immutable` spares even a reload's revalidation.
FOREVER = "public, max-age=31536000, immutable"
# The folder of the page's script, in the static folder, and the module every page loads.
SCRIPTS = "js"
MAIN_MODULE = "main.js"
# A module's static imports of its neighbours: `import { x } from "./x.js"`, `import "./x.js"`,
# `export { x } from "./x.js"` (the page's modules import nothing from anywhere else); not an
# `import("./x.js")`, which asks for a module only when it runs (the calculator's, on its
# page; awake.js and share.js, once the page has loaded).
IMPORTED = re.compile(
    r"""^\s*(?:import|export)\b(?!\s*\()[^"';]*?["']\./([\w.-]+\.js)["']""", re.MULTILINE
)


def imported_modules(folder: str, first: str = MAIN_MODULE) -> list[str]:
    """Every module `first` imports, directly or through another, nearest first (`first`
    itself not included): what the page asks for at once."""
    found: list[str] = []
    waiting = [first]
    while waiting:
        with open(os.path.join(folder, waiting.pop(0)), encoding="utf-8") as f:
            for name in IMPORTED.findall(f.read()):
                if name != first and name not in found:
                    found.append(name)
                    waiting.append(name)
    return found


# Sent by the service worker when it fetches a page to keep on its own (tables/sw.js), not for
# a tab that shows it: such a page leaves the phone's messages for the tab that will show them.
KEEPING = "X-Scorekeeper-Keeping"


def init_app(app: Flask) -> None:
    """Add the security headers to every response; fingerprint url_for('static', ...) and
    serve fingerprinted files as immutable; tell the templates whether a page is drawn for a
    tab or for the service worker to keep."""
    fingerprints: dict[str, str] = {}
    served: dict[str, Minified] = {}

    @app.context_processor
    def shown_to_a_tab() -> dict[str, bool]:
        """Whether the page is drawn for a tab to show (its messages said, once, there)."""
        return {"shown_to_a_tab": request.headers.get(KEEPING) != "1"}

    @app.after_request
    def secure_headers(response: Response) -> Response:
        """Add the headers in one go (no view sets any of them itself)."""
        file = request.endpoint in FILE_ENDPOINTS and response.mimetype in FILE_TYPES
        response.headers.extend(FILE_HEADERS if file else SECURITY_HEADERS)
        return response

    def minified_file(folder: str, name: str) -> Minified | None:
        """A stylesheet or module in `folder` as served, minified once per process (and on
        every request in debug, as the fingerprints are); None for any other file, or none."""
        path = safe_join(folder, name)
        if path is None or not minifiable(name):
            return None
        if path not in served or app.debug:
            try:
                served[path] = minified(path)
            except OSError:
                return None
        return served[path]

    def answer(file: Minified) -> Response:
        """A minified file, revalidated by its fingerprint unless it was asked for by it
        (cached_for_good, script); Flask-Compress compresses it as any other answer."""
        response = Response(file.body, mimetype=file.mimetype)
        response.set_etag(file.fingerprint)
        response.cache_control.no_cache = True
        response.make_conditional(request)
        return response

    def static_file(filename: str) -> Response:
        """The static folder's files, the stylesheet minified."""
        file = minified_file(app.static_folder or "", filename)
        return answer(file) if file else app.send_static_file(filename)

    app.view_functions["static"] = static_file

    def fingerprint(filename: str) -> str:
        """A short hash of the file as served, worked out once per file and process (a deploy
        that changes a file starts new processes)."""
        if filename not in fingerprints or app.debug:
            file = minified_file(app.static_folder or "", filename)
            if file:
                fingerprints[filename] = file.fingerprint
                return file.fingerprint
            path = os.path.join(app.static_folder or "", filename)
            try:
                with open(path, "rb") as f:
                    fingerprints[filename] = hashlib.blake2s(f.read(), digest_size=6).hexdigest()
            except OSError:
                return ""
        return fingerprints[filename]

    def scripts_fingerprint() -> str:
        """A short hash of every module of the page's script, their names and contents as
        served."""
        if SCRIPTS not in fingerprints or app.debug:
            digest = hashlib.blake2s(digest_size=6)
            folder = os.path.join(app.static_folder or "", SCRIPTS)
            for name in sorted(os.listdir(folder)):
                digest.update(name.encode() + b"\0")
                file = minified_file(folder, name)
                if file:
                    digest.update(file.body)
            fingerprints[SCRIPTS] = digest.hexdigest()
        return fingerprints[SCRIPTS]

    preloads: dict[str, list[str]] = {}

    def page_modules() -> list[str]:
        """The modules the page's script imports (imported_modules), read once per process
        (and on every page in debug, as the fingerprint is)."""
        if SCRIPTS not in preloads or app.debug:
            preloads[SCRIPTS] = imported_modules(os.path.join(app.static_folder or "", SCRIPTS))
        return preloads[SCRIPTS]

    app.add_template_global(page_modules)

    @app.route("/js/<fingerprint>/<name>")
    def script(fingerprint: str, name: str) -> Response:
        """A module of the page's script, kept for good if asked for by the current
        fingerprint (an old page's, after a deploy, is asked again each time)."""
        folder = os.path.join(app.static_folder or "", SCRIPTS)
        file = minified_file(folder, name)
        response = answer(file) if file else send_from_directory(folder, name)
        if fingerprint == scripts_fingerprint():
            response.headers["Cache-Control"] = FOREVER
        return response

    @app.url_defaults
    def fingerprinted(endpoint: str, values: dict[str, Any]) -> None:
        """Every static URL the templates build carries its file's fingerprint, and the page's
        script its own."""
        if endpoint == "static" and "filename" in values:
            values.setdefault("v", fingerprint(values["filename"]))
        elif endpoint == "script":
            values.setdefault("fingerprint", scripts_fingerprint())

    @app.after_request
    def cached_for_good(response: Response) -> Response:
        """A file asked for by its current fingerprint never changes under that URL."""
        if (
            request.endpoint == "static"
            and response.status_code == 200
            and request.view_args
            and request.args.get("v") == fingerprint(request.view_args["filename"])
        ):
            response.headers["Cache-Control"] = FOREVER
        return response
