"""What a request must be before the app reads it: a host a URL can be built for, and a post
that is a browser's form of no more than MAX_CONTENT_LENGTH bytes, however it was sent.

A phone posts only the pages' forms (or the same fields from js/outbox.js: URLSearchParams and
FormData), so anything else is no phone of ours and is refused before the CSRF check and the
forms read it: a JSON body would otherwise be read as the form (Flask-WTF does), with values
no validator expects.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from typing import TYPE_CHECKING

from flask import Flask, request
from werkzeug.exceptions import ClientDisconnected, RequestEntityTooLarge, UnsupportedMediaType
from werkzeug.wsgi import get_host

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

# What a browser's form is sent as: a page's form, js/outbox.js's URLSearchParams and FormData.
FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def init_app(app: Flask) -> None:
    """Check every request at the edge: the host (outside Flask, which cannot even build an
    error page for a bad one) and a post's body (first of the app's checks, before the CSRF
    check reads the form)."""
    app.wsgi_app = HostCheck(app.wsgi_app)  # type: ignore[method-assign]

    @app.before_request
    def only_forms() -> None:
        """A post that is not a form is refused unread (415); a chunked one past the limit,
        413, as the same body with its Content-Length is."""
        if request.method != "POST":
            return
        if request.mimetype not in FORM_TYPES:
            raise UnsupportedMediaType()
        if request.environ.get("CONTENT_LENGTH") is None:
            read_whole(request.environ, request.max_content_length)


def read_whole(environ: WSGIEnvironment, limit: int | None) -> None:
    """Read a body sent without a Content-Length (chunked) to its end, or 413 once it passes
    the limit. Werkzeug stops reading such a body at the limit and parses what it read as
    the whole form (werkzeug.formparser reads a urlencoded body with one read()), which
    recorded a form cut at 32 KB; read here, it is kept and given a length as any other."""
    if limit is None or "wsgi.input_terminated" not in environ:
        # Without a server that ends the stream, Werkzeug reads nothing of it anyway.
        return
    try:
        body = environ["wsgi.input"].read(limit + 1)
    except OSError as error:
        # It stopped arriving, or did not arrive whole in time (gunicorn.conf.py): 408, as
        # Werkzeug answers such a body with its Content-Length (errors.too_slow).
        raise ClientDisconnected() from error
    if len(body) > limit:
        raise RequestEntityTooLarge()
    environ["wsgi.input"] = io.BytesIO(body)
    environ["CONTENT_LENGTH"] = str(len(body))


class HostCheck:
    """A plain 400 for a Host no URL can be built for (an empty label as in `a..b`, a label
    of 64 letters or more): Flask would fail building its URLs, the error page's included,
    and answer 500. Inside ProxyFix, so a host forwarded by a trusted proxy is checked too.
    No phone sends such a host, so the answer is a few bytes, not a page."""

    def __init__(self, app: WSGIApplication) -> None:
        self.app = app

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        """The app's answer, or 400 for a host Werkzeug cannot bind URLs to."""
        # The same steps as werkzeug.routing.Map.bind_to_environ takes with the host.
        name = get_host(environ).lower().partition(":")[0]
        try:
            name.encode("idna")
        except UnicodeError:
            body = b"Bad Request: the Host header names no host.\n"
            start_response(
                "400 Bad Request",
                [("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", str(len(body)))],
            )
            return [body]
        return self.app(environ, start_response)
