"""A match page's ETag: the match's version, a tag of the phone that asks, and the release.

A match page depends on the match (its version, which every write bumps), on who asks (the
phone's seat and host role, which only a write can change, the address it opened the app by:
the QR code and join link are built from it, and the language and time zone it reads), and on
the code that draws it. So a page's ETag is the match's version and a tag of the phone (its
token, from its signed cookie), the host it asked for and the release (a hash of the code,
templates and static files, the same on every server of one release). While they are the
same, so is the page, and a phone's fetch is answered 304. The tag is keyed with the app's
secret: it names the phone to nobody who reads ETags.

ETags are weak (W/"…"): the page is the same sheet, not the same bytes (each form gets a
fresh key), and Flask-Compress leaves a weak ETag as it is, so a browser's If-None-Match
matches it.
"""

from __future__ import annotations

import hashlib
import os
from typing import TYPE_CHECKING

from flask import Flask
from jinja2 import FileSystemLoader
from werkzeug.http import parse_etags, quote_etag

from scorekeeper.languages import choose_language, choose_zone

if TYPE_CHECKING:
    from _typeshed.wsgi import WSGIEnvironment

# Every page of a match is asked for again each time: the ETag makes asking cheap, and a
# phone waking from sleep catches up.
CACHE_CONTROL = "no-cache, private"
# What else a page is drawn from: the phone's cookie and the language its browser asks for.
VARY = ("Cookie", "Accept-Language")
# The package whose code draws the pages: scorekeeper/, this folder's parent.
PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def release_of(app: Flask) -> str:
    """A hash of what draws the pages: the package's code, the templates, the static files.
    A deploy that changes any of them changes every ETag, so no phone keeps an old page."""
    digest = hashlib.blake2s(digest_size=8)
    loader = app.jinja_loader
    templates = loader.searchpath[0] if isinstance(loader, FileSystemLoader) else None
    for root in (PACKAGE, templates, app.static_folder):
        for folder, _, files in sorted(os.walk(root or "")):
            for name in sorted(files):
                if name.endswith((".pyc", ".pyo")):
                    continue
                path = os.path.join(folder, name)
                digest.update(os.path.relpath(path, root).encode())
                with open(path, "rb") as f:
                    digest.update(f.read())
    return digest.hexdigest()


def tag_key(app: Flask, release: str) -> bytes:
    """The key page tags are hashed with: the app's secret and its release."""
    secret = str(app.config["SECRET_KEY"]).encode()
    return hashlib.blake2s(secret + release.encode()).digest()


def request_tag(
    phone: str | None, picked: object, zone_cookie: str | None, environ: WSGIEnvironment, key: bytes
) -> str:
    """What a match page depends on besides the match: the phone, the host it asked for, and
    the language and time zone it reads (from the language its player `picked`, its browser's
    and its zone cookie), hashed with the app's `key` (tag_key)."""
    host = environ.get("HTTP_HOST", "")
    words = choose_language(picked, environ.get("HTTP_ACCEPT_LANGUAGE"))
    zone = choose_zone(zone_cookie)
    seen = f"{phone or ''}\n{host}\n{words}\n{zone}".encode()
    return hashlib.blake2s(seen, digest_size=9, key=key).hexdigest()


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
