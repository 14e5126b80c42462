"""Hardening: security headers, cookie flags, escaped names, and the rate limit on codes."""

from __future__ import annotations

import re
import uuid

import pytest
import sqlalchemy as sa

from scorekeeper import create_app, live
from scorekeeper.extensions import WriteInRead, db
from scorekeeper.models import Match
from tests.phones import Phone


def test_security_headers_allow_no_inline_script(guest):
    response = guest.get("/")
    policy = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy
    assert "frame-ancestors 'none'" in policy
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert "<script>" not in response.get_data(as_text=True)


def test_the_page_s_stylesheet_and_modules_are_never_sniffed_and_carry_no_page_policy(guest):
    page = guest.get("/").get_data(as_text=True)
    files = re.findall(r'(?:href|src)="(/(?:static/app\.css|js/[0-9a-f]+/\w+\.js)[^"]*)"', page)
    assert any(".css" in f for f in files) and any("main.js" in f for f in files)
    for url in files:
        with guest.get(url) as served:
            assert served.status_code == 200
            assert served.headers["X-Content-Type-Options"] == "nosniff"
            # The policy binds a document or a worker: on a file, bytes a slow phone waits for.
            assert "Content-Security-Policy" not in served.headers
    # The service worker runs under its own answer's policy.
    with guest.get("/sw.js") as worker:
        assert "script-src 'self'" in worker.headers["Content-Security-Policy"]


def test_pages_name_an_icon_that_is_served_from_here(guest):
    # Without one, every phone's browser asks for /favicon.ico on every page and gets a 404.
    page = guest.get("/").get_data(as_text=True)
    icon = re.search(r'<link rel="icon" href="([^"]+)"', page)
    assert icon and icon.group(1).startswith("/static/")
    with guest.get(icon.group(1)) as served:
        assert served.status_code == 200
        assert served.mimetype == "image/svg+xml"


def test_session_cookie_is_httponly_and_samesite(host):
    host.create("basra")
    cookie = host.client.get_cookie("session")
    assert cookie is not None
    assert cookie.http_only and cookie.same_site == "Lax"


def test_a_new_secret_key_makes_every_old_cookie_a_stranger(app, host, monkeypatch):
    code = host.create("basra", side_0="Alice")
    holds = "This phone holds <strong>Alice</strong>"
    assert holds in host.get(f"/m/{code}").get_data(as_text=True)
    signed_before = host.client.get_cookie("session").value
    # Keys are rotated: a cookie signed with the old one no longer names a phone here.
    monkeypatch.setitem(app.config, "SECRET_KEY", "a-new-secret")
    assert "Not at the table yet" in host.get(f"/m/{code}").get_data(as_text=True)
    # With the old key kept as a fallback, the phone's old cookie is itself again.
    monkeypatch.setitem(app.config, "SECRET_KEY_FALLBACKS", ["test-secret"])
    host.client.set_cookie("session", signed_before)
    assert holds in host.get(f"/m/{code}").get_data(as_text=True)


def test_secret_key_is_made_into_the_instance_folder(tmp_path, monkeypatch):
    monkeypatch.delenv("SCOREKEEPER_SECRET_KEY", raising=False)
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'x.sqlite'}")
    first = create_app()
    key_file = first.instance_path + "/secret_key"
    second = create_app()
    assert first.config["SECRET_KEY"] == second.config["SECRET_KEY"]
    assert len(first.config["SECRET_KEY"]) >= 64
    with open(key_file) as f:
        assert f.read().strip() == first.config["SECRET_KEY"]
    with first.app_context():
        db.engine.dispose()
    with second.app_context():
        db.engine.dispose()


def test_join_code_lookups_are_rate_limited(tmp_path):
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'rate.sqlite'}",
            "CODE_MISS_LIMIT": "5 per minute",
        }
    )
    with app.app_context():
        db.create_all()
    guesser = Phone(app)
    answers = [guesser.post("/join", {"code": f"ZZZZZ{i}"}).status_code for i in range(7)]
    assert answers[:5] == [400] * 5
    assert answers[5:] == [429, 429]
    assert "Too many codes that match nothing" in guesser.post("/join", {"code": "ZZZZZZ"}).shown
    with app.app_context():
        db.engine.dispose()


def test_guessing_codes_anywhere_is_hopeless_but_the_table_plays_on(tmp_path):
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'guess.sqlite'}",
            "CODE_MISS_LIMIT": "6 per hour; 20 per day",
        }
    )
    with app.app_context():
        db.create_all()
    # A table already playing, and a stranger on the same Wi-Fi (one address for all).
    host, guest, guesser = Phone(app), Phone(app), Phone(app)
    code = host.create("basra", side_0="Alice", side_1="Ben")
    guest.join(code, side=1)
    etag = guest.client.get(f"/m/{code}/live").headers["ETag"]
    # Every route that takes a code counts a code that matches nothing.
    guesses = ["/m/ZZZZZZ", "/m/ZZZZZY/live", "/m/ZZZZZX/sheet.csv", "/m/ZZZZZW/qr"]
    for path in (*guesses, "/m/ZZZZZV/calc", "/j/ZZZZZU"):
        assert guesser.get(path).status_code == 404
    refused = guesser.get("/m/ZZZZZT")
    assert refused.status_code == 429
    assert 3000 <= int(refused.headers["Retry-After"]) <= 3600
    assert "Wait 60 minutes" in refused.shown or "Wait 59 minutes" in refused.shown
    # Used up: a hit tells the guesser nothing either.
    assert guesser.get(f"/m/{code}").status_code == 429
    # The phones at the match are never slowed: their polls, pages and entries go on.
    assert guest.client.get(f"/m/{code}/live", headers={"If-None-Match": etag}).status_code == 304
    assert guest.get(f"/m/{code}").status_code == 200
    assert "Hand 1: Alice 40 recorded." in host.enter(code, 1, 0, 40).shown
    live.stop(app)
    with app.app_context():
        db.engine.dispose()


def test_rate_limit_counts_across_app_processes(tmp_path, redis_url):
    # Two app instances stand for two gunicorn workers: with Redis they share one count.
    prefix = f"test-{uuid.uuid4().hex}"
    config = {
        "TESTING": True,
        "SECRET_KEY": "test",
        "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'shared.sqlite'}",
        "CODE_MISS_LIMIT": "4 per minute",
        "RATELIMIT_STORAGE_URI": redis_url,
        "RATELIMIT_KEY_PREFIX": prefix,
    }
    first, second = create_app(dict(config)), create_app(dict(config))
    with first.app_context():
        db.create_all()
    phone_a, phone_b = Phone(first), Phone(second)
    answers = [
        (phone_a if i % 2 else phone_b).post("/join", {"code": "ZZZZZZ"}).status_code
        for i in range(6)
    ]
    assert answers == [400, 400, 400, 400, 429, 429]
    for app in (first, second):
        with app.app_context():
            db.engine.dispose()


def test_a_database_that_cannot_be_reached_gets_a_503_in_plain_words():
    # Nothing listens on port 1: every statement fails as when the database is down.
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "SQLALCHEMY_DATABASE_URI": "postgresql+psycopg://postgres@127.0.0.1:1/test",
            "SQLALCHEMY_ENGINE_OPTIONS": {"connect_args": {"connect_timeout": 2}},
            "LISTEN_FOR_VERSIONS": False,
            "RATELIMIT_ENABLED": False,
        }
    )
    phone = Phone(app)
    for answer in (
        phone.get("/m/ABCDEF"),
        phone.get("/m/ABCDEF/live", headers={"If-None-Match": 'W/"3-x"'}),
        phone.get("/history"),
    ):
        assert answer.status_code == 503
        assert answer.headers["Retry-After"] == "5"
        assert "can't be reached for a moment, so nothing was saved" in answer.shown
    # What needs no database still answers: installing the app, a mistyped address.
    assert phone.get("/manifest.webmanifest").status_code == 200
    assert phone.get("/no-such-page").status_code == 404
    with app.app_context():
        db.engine.dispose()


def test_a_get_that_would_write_is_stopped_before_the_database(app, host):
    # A GET runs outside a transaction (extensions.Session): a write there would commit on its
    # own, with neither the match's lock nor a key. Whatever route tried it, nothing is written.
    code = host.create("basra", side_0="Alice")
    with app.test_request_context(f"/m/{code}", method="GET"):
        with pytest.raises(WriteInRead):
            db.session.execute(sa.update(Match).where(Match.code == code).values(note="x"))
        match = db.session.scalars(sa.select(Match).where(Match.code == code)).one()
        match.note = "written by a page"
        with pytest.raises(WriteInRead):
            db.session.flush()
        db.session.rollback()
    with app.test_request_context(f"/m/{code}", method="POST"):
        # A post writes, as every action does (in its own transaction).
        stored = db.session.scalars(sa.select(Match.note).where(Match.code == code)).one()
    assert stored == ""
    assert "written by a page" not in host.get(f"/m/{code}").get_data(as_text=True)
