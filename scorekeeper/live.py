"""The live view's HTTP caching: an ETag per match version and phone, and the unchanged poll
answered before Flask.

A match page depends on the match (its version, which every write bumps), on who asks (the
phone's seat and host role, which only a write can change, the address it opened the app by:
the QR code and join link are built from it, and the language and time zone it reads), and on
the code that draws it. So a page's
ETag is the match's version and a tag of the phone (its token, from its signed cookie), the
host it asked for and the release (a hash of the code, templates and static files, the same on
every server of one release). While they are the same, so is the page, and a phone's poll can
be answered 304 from the version alone. The tag is keyed with the app's secret: it names the
phone to nobody who reads ETags.

That poll is 95 % of the load (every phone, every two seconds), so UnchangedPolls answers it as
a small WSGI layer in front of Flask: no request context, form or template, and on PostgreSQL
no database while the worker hears the versions (versions.py). Anything else, and any poll
whose ETag does not match, goes on to Flask, which renders and tags the page the same way.
ETags are weak (W/"…"): the page is the same sheet, not the same bytes (each form gets a fresh
key), and Flask-Compress leaves a weak ETag as it is, so a browser's If-None-Match matches it.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from itsdangerous import BadSignature
from sqlalchemy.exc import SQLAlchemyError
from werkzeug.http import parse_cookie, parse_etags, quote_etag

from scorekeeper.languages import ZONE_COOKIE, choose_language, choose_zone

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIEnvironment
    from flask import Flask

    from scorekeeper.versions import MatchVersions

# The live part's URL, as sheet/routes.py serves it; the code as a URL can carry one.
LIVE_PATH = re.compile(r"/m/([A-Za-z0-9]{1,12})/live")
# Every page of a match is asked for again each time: the ETag makes asking cheap, and a
# phone waking from sleep catches up.
CACHE_CONTROL = "no-cache, private"
# What else a page is drawn from: the phone's cookie and the language its browser asks for.
VARY = ("Cookie", "Accept-Language")


def request_tag(
    phone: str | None, picked: object, zone_cookie: str | None, environ: WSGIEnvironment, key: bytes
) -> str:
    """What a match page depends on besides the match: the phone, the host it asked for, and
    the language and time zone it reads (from the language its player `picked`, its browser's
    and its zone cookie), hashed with the key tag_key made (the app's secret and its release)."""
    host = environ.get("HTTP_HOST", "")
    words = choose_language(picked, environ.get("HTTP_ACCEPT_LANGUAGE"))
    zone = choose_zone(zone_cookie)
    seen = f"{phone or ''}\n{host}\n{words}\n{zone}".encode()
    return hashlib.blake2s(seen, digest_size=9, key=key).hexdigest()


def release_of(app: Flask) -> str:
    """A hash of what draws the pages: the package's code, the templates, the static files.
    A deploy that changes any of them changes every ETag, so no phone keeps an old page."""
    digest = hashlib.blake2s(digest_size=8)
    package = os.path.dirname(os.path.abspath(__file__))
    for root in (package, app.jinja_loader.searchpath[0], app.static_folder):  # type: ignore[union-attr]
        for folder, _, files in sorted(os.walk(root or "")):
            for name in sorted(files):
                if name.endswith((".pyc", ".pyo")):
                    continue
                path = os.path.join(folder, name)
                digest.update(os.path.relpath(path, root).encode())
                with open(path, "rb") as f:
                    digest.update(f.read())
    return digest.hexdigest()


def tag_key(app: Flask) -> bytes:
    """The key request tags are hashed with: the app's secret and its release."""
    secret = str(app.config["SECRET_KEY"]).encode()
    return hashlib.blake2s(secret + release_of(app).encode()).digest()


def etag_for(version: int, tag: str) -> str:
    """A match page's ETag (the value, unquoted): its version and the request's tag."""
    return f"{version}-{tag}"


def unchanged(if_none_match: str | None, etag: str) -> bool:
    """Whether the phone already holds this page: its If-None-Match names the ETag, weak or
    strong (a proxy may have made it weak)."""
    return bool(if_none_match) and parse_etags(if_none_match).contains_weak(etag)


def not_modified_headers(etag: str) -> list[tuple[str, str]]:
    """The headers of a 304 for a match page: what a 200 would say of caching."""
    return [
        ("ETag", quote_etag(etag, weak=True)),
        ("Cache-Control", CACHE_CONTROL),
        ("Vary", ", ".join(VARY)),
    ]


class UnchangedPolls:
    """WSGI layer: a live poll whose ETag names the match's current version and this request's
    tag is answered 304 here; every other request goes on to the app."""

    def __init__(self, app: Flask, versions: MatchVersions, key: bytes) -> None:
        self.wsgi_app = app.wsgi_app
        self.app = app
        self.versions = versions
        self.key = key

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        """Answer an unchanged poll, or hand the request on."""
        if_none_match = environ.get("HTTP_IF_NONE_MATCH")
        if if_none_match and environ["REQUEST_METHOD"] in ("GET", "HEAD"):
            poll = LIVE_PATH.fullmatch(environ.get("PATH_INFO", ""))
            if poll is not None:
                try:
                    known = self.versions.current(poll.group(1).upper())
                except SQLAlchemyError:
                    # The database is unreachable: Flask answers, with its own error page.
                    known = None
                if known is not None:
                    # The cookies read once: the phone's session and its zone.
                    cookies = parse_cookie(environ)
                    phone, picked = self.phone(cookies)
                    zone = cookies.get(ZONE_COOKIE)
                    tag = request_tag(phone, picked, zone, environ, self.key)
                    etag = etag_for(known.version, tag)
                    if unchanged(if_none_match, etag):
                        start_response("304 NOT MODIFIED", not_modified_headers(etag))
                        return []
        return self.wsgi_app(environ, start_response)

    def phone(self, cookies: Mapping[str, str]) -> tuple[str | None, object]:
        """The phone's token and the language its player picked, from its session cookie
        checked as Flask checks it (a forged cookie names no phone); without opening a session."""
        app = self.app
        cookie = cookies.get(app.config["SESSION_COOKIE_NAME"])
        serializer = app.session_interface.get_signing_serializer(app)  # type: ignore[attr-defined]
        if not cookie or serializer is None:
            return None, None
        try:
            data = serializer.loads(cookie, max_age=app.permanent_session_lifetime.total_seconds())
        except BadSignature:
            return None, None
        if not isinstance(data, dict):
            return None, None
        phone = data.get("phone")
        return (phone if isinstance(phone, str) and phone else None), data.get("lang")


def install(app: Flask) -> None:
    """Put the layer in front of the app (inside ProxyFix, which create_app adds after it, so
    the host it tags is the one the phone asked for)."""
    from scorekeeper.versions import versions

    with app.app_context():
        store = versions()
    key = app.extensions["page_tag_key"] = tag_key(app)
    app.wsgi_app = UnchangedPolls(app, store, key)  # type: ignore[method-assign]
