"""The live view over HTTP: a stream that rings each phone when its match changes, and an ETag
per match version and phone, so the fetch that follows a ring costs only what changed.

A match page depends on the match (its version, which every write bumps), on who asks (the
phone's seat and host role, which only a write can change, the address it opened the app by:
the QR code and join link are built from it, and the language and time zone it reads), and on
the code that draws it. So a page's ETag is the match's version and a tag of the phone (its
token, from its signed cookie), the host it asked for and the release (a hash of the code,
templates and static files, the same on every server of one release). While they are the
same, so is the page, and a phone's fetch is answered 304. The tag is keyed with the app's
secret: it names the phone to nobody who reads ETags.

Each phone holds one stream of server-sent events open (version_events), which carries the
match's versions and nothing else. On a ring the page fetches its live part with its ETag, as
its safety fetch does once a minute. ETags are weak (W/"…"): the page is the same sheet, not
the same bytes (each form gets a fresh key), and Flask-Compress leaves a weak ETag as it is,
so a browser's If-None-Match matches it.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator
from typing import TYPE_CHECKING

from jinja2 import FileSystemLoader
from werkzeug.http import parse_etags, quote_etag

from scorekeeper.languages import choose_language, choose_zone

if TYPE_CHECKING:
    from _typeshed.wsgi import WSGIEnvironment
    from flask import Flask

    from scorekeeper.versions import MatchVersions

# A stream's comment this often (seconds): proxies and phones drop a connection silent for
# long (nginx after 60 s by default), and a dead phone's stream is noticed when it fails.
HEARTBEAT = 20.0
# How soon a phone's EventSource reconnects after its stream ended (a deploy, a restart).
RETRY_MS = 3000
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
    and its zone cookie), hashed with the key init_app made (the app's secret and its release)."""
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
    loader = app.jinja_loader
    templates = loader.searchpath[0] if isinstance(loader, FileSystemLoader) else None
    for root in (package, templates, app.static_folder):
        for folder, _, files in sorted(os.walk(root or "")):
            for name in sorted(files):
                if name.endswith((".pyc", ".pyo")):
                    continue
                path = os.path.join(folder, name)
                digest.update(os.path.relpath(path, root).encode())
                with open(path, "rb") as f:
                    digest.update(f.read())
    return digest.hexdigest()


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


def version_events(
    versions: MatchVersions,
    code: str,
    told: int,
    release: str,
    heartbeat: float = HEARTBEAT,
) -> Iterator[bytes]:
    """A match's stream of server-sent events: which release serves it (a page of another
    release reloads), then the match's version each time it moves past `told` (the event's
    id, so a reconnect's Last-Event-ID says where its phone stood), and a comment every
    `heartbeat` seconds to keep proxies and phones from taking the stream for dead. Versions
    only: each phone fetches its own live part, so nothing is drawn for a phone twice.

    Runs after the request has ended: it holds no database connection and no request, only its
    watch, which versions.py rings (from what the worker hears, or reads once a second)."""
    watch = versions.watch(code, told)
    try:
        yield f"retry: {RETRY_MS}\nevent: release\ndata: {release}\n\n".encode()
        # Read after the watch is in place: a write committed before is seen here, one after
        # rings the watch.
        now = versions.current(code)
        if now is not None:
            versions.tell(watch, now)
        while not versions.closing:
            if not watch.bell.wait(heartbeat):
                yield b": still here\n\n"
                continue
            watch.bell.clear()
            newest = watch.newest
            if newest > watch.told and not versions.closing:
                watch.told = newest
                yield f"id: {newest}\ndata: {newest}\n\n".encode()
    finally:
        versions.unwatch(watch)


def last_seen(last_event_id: str | None, since: str | None, version: int) -> int:
    """The version a connecting phone holds: its reconnect's Last-Event-ID, else the version
    its page was drawn at (`since`), else the match's version now; never past that (a junk or
    foreign number must not silence the stream)."""
    for given in (last_event_id, since):
        given = (given or "").strip()
        # ASCII digits only, and few: "²" is a digit to str.isdigit, not to int().
        if given.isascii() and given.isdigit() and len(given) <= 18:
            return min(int(given), version)
    return version


def init_app(app: Flask) -> None:
    """Key the page tags with the app's secret and its release, and keep the release: a
    stream names it, and a page of another release reloads."""
    release = app.extensions["release"] = release_of(app)
    app.jinja_env.globals["release"] = release
    secret = str(app.config["SECRET_KEY"]).encode()
    app.extensions["page_tag_key"] = hashlib.blake2s(secret + release.encode()).digest()
