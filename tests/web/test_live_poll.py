"""The live part a phone fetches when its stream rings (and once a minute to be safe): a 304
while nothing changed for it, the new live part as soon as something did, never an older one,
and never a stale memory."""

from __future__ import annotations

import gzip
import os
import re
import signal
from collections.abc import Iterator
from contextlib import contextmanager

import segno
import sqlalchemy as sa
from flask import Flask

from scorekeeper.extensions import db
from scorekeeper.headers import FOREVER
from tests.phones import Phone
from tests.waiting import wait_until


def poll(phone: Phone, code: str, etag: str | None = None, **headers: str):
    """One poll of the live part, sending back the ETag the last answer gave, verbatim."""
    if etag:
        headers["If-None-Match"] = etag
    return phone.client.get(f"/m/{code}/live", headers=headers)


def qr_of(link: str) -> str:
    """The QR code a phone is shown for a join link, as the page draws it (segno, inline SVG)."""
    return segno.make(link, error="m").svg_inline(scale=5, border=2, omitsize=True)


def on_postgres(app: Flask) -> bool:
    """Whether the app runs on PostgreSQL, where workers listen for versions."""
    with app.app_context():
        return db.engine.dialect.name == "postgresql"


def test_an_unchanged_poll_is_a_304_until_a_write(host, guest, basra):
    first = poll(guest, basra)
    assert first.status_code == 200
    etag = first.headers["ETag"]
    unchanged = poll(guest, basra, etag)
    assert unchanged.status_code == 304
    assert unchanged.get_data() == b""
    assert unchanged.headers["ETag"] == etag
    # A 304 leaves the phone's cookie alone.
    assert "Set-Cookie" not in unchanged.headers
    host.enter(basra, 1, 0, 40)
    changed = poll(guest, basra, etag)
    assert changed.status_code == 200
    assert changed.headers["ETag"] != etag
    assert "40" in changed.shown


def test_the_sheet_page_answers_a_conditional_get_too(host, guest, basra):
    page = guest.get(f"/m/{basra}")
    etag = page.headers["ETag"]
    again = guest.client.get(f"/m/{basra}", headers={"If-None-Match": etag})
    assert again.status_code == 304
    host.enter(basra, 1, 0, 40)
    assert guest.client.get(f"/m/{basra}", headers={"If-None-Match": etag}).status_code == 200


def test_a_compressed_answer_s_etag_still_matches(guest, basra):
    # As a browser asks: compressed, and its If-None-Match is the ETag exactly as it came.
    first = poll(guest, basra, **{"Accept-Encoding": "gzip"})
    assert first.headers["Content-Encoding"] == "gzip"
    assert b"Ben" in gzip.decompress(first.get_data())
    etag = first.headers["ETag"]
    again = poll(guest, basra, etag, **{"Accept-Encoding": "gzip"})
    assert again.status_code == 304
    # A proxy that made the ETag weak, or a strong one sent back, matches all the same.
    assert poll(guest, basra, etag.removeprefix("W/")).status_code == 304


def test_each_phone_gets_the_join_link_of_the_address_it_opened(host, guest, basra):
    # Two phones at one table, one by the laptop's Wi-Fi address and one by its name.
    by_address = host.client.get(f"/m/{basra}", base_url="http://192.168.1.23:5000")
    by_name = guest.client.get(f"/m/{basra}", base_url="http://scorekeeper.example:5000")
    assert qr_of(f"http://192.168.1.23:5000/j/{basra}") in by_address.shown
    assert qr_of(f"http://scorekeeper.example:5000/j/{basra}") in by_name.shown
    assert qr_of(f"http://scorekeeper.example:5000/j/{basra}") not in by_address.shown
    # The same phone by another address is sent that address's page, not a 304 for the old.
    etag = by_address.headers["ETag"]
    moved = host.client.get(
        f"/m/{basra}",
        base_url="http://scorekeeper.example:5000",
        headers={"If-None-Match": etag},
    )
    assert moved.status_code == 200
    assert qr_of(f"http://scorekeeper.example:5000/j/{basra}") in moved.shown


def test_a_phone_that_changed_place_gets_the_new_live_part(app, host, guest, basra):
    etag = poll(guest, basra).headers["ETag"]
    assert "This phone holds <strong>Ben</strong>" in poll(guest, basra).get_data(as_text=True)
    # The host frees Ben's side: the guest's phone now only watches.
    assert "Ben is free" in host.post(f"/m/{basra}/release", {"target": 1, "confirmed": "y"}).shown
    moved = poll(guest, basra, etag)
    assert moved.status_code == 200
    assert "Watching" in moved.shown


def test_a_write_through_another_worker_reaches_every_poll(app, other_worker, host, guest, basra):
    etag = poll(guest, basra).headers["ETag"]
    host.on(other_worker).enter(basra, 1, 0, 40)
    assert wait_until(lambda: poll(guest, basra, etag).status_code == 200, 3)
    changed = poll(guest, basra, etag)
    assert "40" in changed.shown
    # Back on the other worker with the newer ETag: the same sheet, never an older one.
    newer = changed.headers["ETag"]
    back = poll(guest.on(other_worker), basra, newer)
    assert back.status_code == 304


@contextmanager
def frozen_listeners(app: Flask) -> Iterator[int]:
    """Freeze every backend listening on the app's schema (SIGSTOP): their connections stay
    open and raise nothing, but hear nothing either, as a connection dropped by a NAT or a
    pooler that swallowed LISTEN. Yields how many were frozen; thawed after."""
    with app.app_context():
        schema = db.session.scalar(sa.text("SELECT current_schema()"))
        pids = db.session.scalars(
            sa.text("SELECT pid FROM pg_stat_activity WHERE query = :listen"),
            {"listen": f'LISTEN "scorekeeper_{schema}"'},
        ).all()
        db.session.rollback()
    for pid in pids:
        os.kill(pid, signal.SIGSTOP)
    try:
        yield len(pids)
    finally:
        for pid in pids:
            os.kill(pid, signal.SIGCONT)


def test_static_files_are_fingerprinted_and_kept_for_good(guest, basra):
    page = guest.get(f"/m/{basra}").get_data(as_text=True)
    start = page.index("/static/app.css?v=")
    with guest.get(page[start : page.index('"', start)]) as served:
        assert served.status_code == 200
        assert "immutable" in served.headers["Cache-Control"]
        assert "max-age=31536000" in served.headers["Cache-Control"]
    # Another fingerprint (an old page after a deploy) is not promised forever.
    with guest.get("/static/app.css?v=0ld") as stale:
        assert "immutable" not in stale.headers.get("Cache-Control", "")

    # The page's script: its modules import each other by relative names, and each import
    # carries the fingerprint in the path as the page's own tag does: none is asked for again.
    main = re.search(r'<script type="module" src="(/js/([0-9a-f]+)/main\.js)"', page)
    assert main, "the page loads its script as a module, by a fingerprinted path"
    with guest.get(main.group(1)) as served:
        assert served.status_code == 200
        assert served.headers["Cache-Control"] == FOREVER
        # Served minified: `import{x}from"./x.js"`, no space to go by.
        imported = re.findall(r'from\s*"\./([a-z]+\.js)"', served.get_data(as_text=True))
    assert "live.js" in imported and "outbox.js" in imported
    for name in imported:
        with guest.get(f"/js/{main.group(2)}/{name}") as served:
            assert served.status_code == 200, name
            assert served.headers["Cache-Control"] == FOREVER
            assert "Set-Cookie" not in served.headers
        with guest.get(f"/js/0ld/{name}") as stale:
            assert "immutable" not in stale.headers.get("Cache-Control", "")


def test_a_page_that_shows_a_message_is_not_kept_to_be_shown_again(host, guest, basra):
    shown = host.enter(basra, 1, 0, 40)
    assert "Hand 1: Alice 40 recorded." in shown.shown
    # Shown this once: nothing a later 304 could bring back.
    assert "ETag" not in shown.headers
    assert shown.headers["Cache-Control"] == "no-store"
    again = host.get(f"/m/{basra}")
    assert "recorded." not in again.shown
    etag = again.headers["ETag"]
    assert host.client.get(f"/m/{basra}", headers={"If-None-Match": etag}).status_code == 304


def test_a_new_release_changes_every_etag(tmp_path):
    # The code, templates and static files that draw a page are all in its ETag's key: after
    # a deploy that changes any of them, no phone is told its old page is current.
    import shutil

    from scorekeeper.live.etags import release_of

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    shutil.copytree(os.path.join(root, "templates"), tmp_path / "templates")
    shutil.copytree(os.path.join(root, "static"), tmp_path / "static")
    app = Flask(
        __name__,
        template_folder=str(tmp_path / "templates"),
        static_folder=str(tmp_path / "static"),
    )
    first = release_of(app)
    assert release_of(app) == first
    page = tmp_path / "templates" / "sheet" / "_status.html"
    page.write_text(page.read_text() + "\n")
    assert release_of(app) != first
