"""The live poll every phone makes every two seconds: a 304 while nothing changed for it, the
new live part as soon as something did, never an older one."""

from __future__ import annotations

import time

import sqlalchemy as sa
from flask import Flask

from scorekeeper.extensions import db
from tests.phones import Phone


def poll(phone: Phone, code: str, etag: str | None = None):  # type: ignore[no-untyped-def]
    """One poll of the live part, sending back the ETag the last answer gave."""
    headers = {"If-None-Match": etag} if etag else {}
    return phone.client.get(f"/m/{code}/live", headers=headers)


def resigned(app: Flask, phone: Phone, **extra: object) -> None:
    """Give the phone a cookie with the same identity but other contents (as a message waiting
    to be shown would), signed as the app signs it."""
    name = app.config["SESSION_COOKIE_NAME"]
    serializer = app.session_interface.get_signing_serializer(app)  # type: ignore[attr-defined]
    contents = serializer.loads(phone.client.get_cookie(name).value)
    phone.client.set_cookie(name, serializer.dumps({**contents, **extra}))


def tag(etag: str) -> list[str]:
    """An ETag's parts: the match's version, the phone's place, its cookie's tag."""
    return etag.strip('"').split(".")


def test_an_unchanged_poll_is_a_304_until_a_write(host, guest, basra):
    first = poll(guest, basra)
    assert first.status_code == 200
    etag = first.headers["ETag"]
    unchanged = poll(guest, basra, etag)
    assert unchanged.status_code == 304
    assert unchanged.get_data() == b""
    # A 304 leaves the phone's cookie alone: it was never even read.
    assert "Set-Cookie" not in unchanged.headers
    host.enter(basra, 1, 0, 40)
    changed = poll(guest, basra, etag)
    assert changed.status_code == 200
    assert changed.headers["ETag"] != etag
    assert "40" in changed.shown


def test_a_new_cookie_in_the_same_place_still_gets_its_304(app, guest, basra):
    etag = poll(guest, basra).headers["ETag"]
    resigned(app, guest, note="a message was shown")
    unchanged = poll(guest, basra, etag)
    assert unchanged.status_code == 304
    # The same version and place, tagged with the cookie the phone now sends.
    version, place, cookie = tag(unchanged.headers["ETag"])
    assert [version, place] == tag(etag)[:2]
    assert cookie != tag(etag)[2]


def test_a_phone_that_changed_place_gets_the_new_live_part(app, host, guest, basra):
    etag = poll(guest, basra).headers["ETag"]
    assert "This phone holds <strong>Ben</strong>" in poll(guest, basra).get_data(as_text=True)
    # The host frees Ben's side: the guest's phone now only watches.
    assert "Ben is free" in host.post(f"/m/{basra}/release", {"target": 1}).shown
    moved = poll(guest, basra, etag)
    assert moved.status_code == 200
    assert "Watching" in moved.shown


def test_a_poll_never_goes_back_to_an_older_version(app, other_worker, host, guest, basra):
    etag = poll(guest, basra).headers["ETag"]
    # The host writes through the other worker; the guest's phone, served there too, sees it.
    host.on(other_worker).enter(basra, 1, 0, 40)
    newer = poll(guest.on(other_worker), basra, etag)
    assert newer.status_code == 200
    newer_etag = newer.headers["ETag"]
    # Back on the first worker with the newer ETag: never the older live part.
    back = poll(guest, basra, newer_etag)
    assert back.status_code in (200, 304)
    if back.status_code == 200:
        assert "40" in back.shown
        assert int(tag(back.headers["ETag"])[0]) >= int(tag(newer_etag)[0])


def _wait_until(condition, seconds: float = 15.0) -> bool:  # type: ignore[no-untyped-def]
    """Whether the condition came true within the time given."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


def test_a_write_while_the_listener_is_down_is_not_missed(app, host, guest, basra):
    versions = app.extensions["match_versions"]
    etag = poll(guest, basra).headers["ETag"]
    with app.app_context():
        on_postgres = db.engine.dialect.name == "postgresql"
        if on_postgres:
            # Each worker listens on a connection of its own: drop it, as a restart would (and
            # any left by an earlier test's app on this schema, which is closing anyway).
            assert _wait_until(lambda: versions.listening)
            schema = db.session.scalar(sa.text("SELECT current_schema()"))
            dropped = db.session.scalar(
                sa.text(
                    "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                    "WHERE query = :listen"
                ),
                {"listen": f'LISTEN "scorekeeper_{schema}"'},
            )
            db.session.commit()
            assert dropped >= 1
            assert _wait_until(lambda: not versions.listening)
    # Written while nobody listens (on SQLite, where nobody ever does): no NOTIFY is heard.
    host.enter(basra, 1, 0, 40)
    if on_postgres:
        assert _wait_until(lambda: versions.listening)
    changed = poll(guest, basra, etag)
    assert changed.status_code == 200
    assert "40" in changed.shown


def test_an_entry_written_from_what_a_worker_kept_is_heard_by_every_worker(
    app, other_worker, host, guest, basra
):
    # The first worker keeps the match as Alice's entry left it, so her change is written in
    # one statement of its own (sheet/actions._write_at_once), which announces it as well.
    host.enter(basra, 1, 0, 40)
    watcher = guest.on(other_worker)
    etag = poll(watcher, basra).headers["ETag"]
    with other_worker.app_context():
        if db.engine.dialect.name == "postgresql":
            # The other worker goes by what it hears, once it listens.
            versions = other_worker.extensions["match_versions"]
            assert _wait_until(lambda: versions.listening)
    assert poll(watcher, basra, etag).status_code == 304
    assert "Hand 1: Alice changed to 44" in host.enter(basra, 1, 0, 44).shown
    assert _wait_until(lambda: poll(watcher, basra, etag).status_code == 200)
    assert "44" in poll(watcher, basra, etag).shown
