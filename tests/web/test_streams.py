"""The match's stream: every write rings every phone's stream, on this worker or another, at
once while the worker hears and within a few seconds when it can't; a reconnect that missed a
version gets it at once; the stream carries versions only and ends when its worker stops."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
import sqlalchemy as sa
from flask import Flask
from prometheus_client.parser import text_string_to_metric_families

from scorekeeper import create_app, live
from scorekeeper.extensions import db
from tests.phones import Phone
from tests.streams import Stream, close_all
from tests.waiting import wait_until
from tests.web.conftest import SHARED_SETTINGS
from tests.web.test_live_poll import frozen_listeners, on_postgres, poll

# The stream's heartbeat in these tests: short, so a test's stream ends soon after it is done.
HEARTBEAT = 0.2


@pytest.fixture(autouse=True)
def short_heartbeat(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    """The test app's streams say they are alive every HEARTBEAT seconds."""
    monkeypatch.setitem(app.config, "STREAM_HEARTBEAT", HEARTBEAT)


def open_stream(
    phone: Phone, code: str, headers: dict[str, str] | None = None, query: str = ""
) -> Stream:
    """The phone opens the match's stream, as js/live.js does."""
    response = phone.client.get(f"/m/{code}/events{query}", headers=headers or {})
    assert response.status_code == 200
    return Stream(response.response, response.close)


@pytest.fixture
def streams() -> Iterator[list[Stream]]:
    """Streams opened by a test, closed after it."""
    opened: list[Stream] = []
    yield opened
    close_all(opened)


def version_of(phone: Phone, code: str) -> int:
    """The match's version, as the phone's page says it."""
    return int(poll(phone, code).headers["ETag"].split('"')[1].split("-")[0])


def test_a_stream_names_its_release_and_is_neither_kept_nor_buffered(app, guest, basra, streams):
    # The release that drew the page: a stream naming another makes the page reload.
    drawn_by = re.search(r'data-release="([^"]+)"', guest.get(f"/m/{basra}").shown).group(1)
    response = guest.client.get(f"/m/{basra}/events")
    stream = Stream(response.response, response.close)
    streams.append(stream)
    assert response.status_code == 200
    assert response.mimetype == "text/event-stream"
    assert response.headers["Cache-Control"] == "no-cache"
    assert response.headers["X-Accel-Buffering"] == "no"
    first = stream.next()
    assert first == {"retry": "3000", "event": "release", "data": drawn_by}
    # Nothing changed: no ring, only the heartbeat that keeps proxies from closing it.
    assert stream.quiet(heartbeats=2)


def test_an_entry_rings_every_stream_of_the_match_with_its_version(
    app, host, guest, watcher, basra, streams
):
    watcher.join(basra, side=None)
    before = version_of(guest, basra)
    guests, watchers = open_stream(guest, basra), open_stream(watcher, basra)
    streams.extend([guests, watchers])
    assert guests.next()["event"] == "release"
    host.enter(basra, 1, 0, 40)
    after = version_of(guest, basra)
    assert after > before
    assert guests.ring() == after
    assert watchers.ring() == after
    # The ring says the version only: the page is fetched by each phone, its own.
    assert guests.ring(within=0.5) is None
    host.enter(basra, 1, 0, 41)
    assert guests.next() == {"id": str(after + 1), "data": str(after + 1)}
    assert "41" in poll(guest, basra).shown


def test_a_write_through_another_worker_rings_a_stream_here(
    app, other_worker, host, guest, basra, streams
):
    stream = open_stream(guest, basra)
    streams.append(stream)
    assert stream.next()["event"] == "release"
    host.on(other_worker).enter(basra, 1, 0, 40)
    assert stream.ring() == version_of(guest, basra)


def test_another_match_s_write_rings_no_stream_of_this_one(app, host, guest, basra, streams):
    other = host.create("basra", table_format="2", target="101", side_0="Cleo", side_1="Dan")
    stream = open_stream(guest, basra)
    streams.append(stream)
    assert stream.next()["event"] == "release"
    host.enter(other, 1, 0, 40)
    assert stream.ring(within=2.5) is None


def test_a_reconnect_behind_the_match_gets_its_version_at_once(app, host, guest, basra, streams):
    seen = version_of(guest, basra)
    # The phone's stream dropped; meanwhile Alice entered hand 1.
    host.enter(basra, 1, 0, 40)
    now = version_of(guest, basra)
    again = open_stream(guest, basra, {"Last-Event-ID": str(seen)})
    streams.append(again)
    assert again.ring(within=1) == now
    # A phone that is up to date, or says junk, hears of nothing until something changes:
    # its first heartbeat comes with no ring before it (a phone behind is rung at once).
    for said in (str(now), "junk", "99999999", "²", "9" * 5000, "-1"):
        current = open_stream(guest, basra, {"Last-Event-ID": said})
        streams.append(current)
        assert current.next()["event"] == "release"
        assert current.quiet(), said
    for junk in ("%C2%B2", "9" * 5000, "1e3"):
        assert guest.get(f"/m/{basra}/events?since={junk}&x=").status_code == 200


def test_a_page_s_first_stream_catches_up_from_the_version_it_was_drawn_at(
    app, host, guest, basra, streams
):
    drawn_at = version_of(guest, basra)
    host.enter(basra, 1, 0, 40)
    # As js/live.js opens it: ?since= the page's version (no Last-Event-ID on a first connect).
    first = open_stream(guest, basra, query=f"?since={drawn_at}")
    streams.append(first)
    assert first.ring(within=1) == version_of(guest, basra)
    # Without it, the stream starts from the version now.
    plain = open_stream(guest, basra)
    streams.append(plain)
    assert plain.next()["event"] == "release"
    assert plain.quiet()


def test_an_unknown_match_has_no_stream(guest):
    assert guest.get("/m/ZZZZZZ/events").status_code == 404


def open_streams(app: Flask, monkeypatch: pytest.MonkeyPatch) -> float:
    """The open streams this process holds, as its operator's /metrics says."""
    monkeypatch.setitem(app.config, "METRICS_TOKEN", "test-token")
    figures = app.test_client().get("/metrics", headers={"Authorization": "Bearer test-token"})
    for family in text_string_to_metric_families(figures.get_data(as_text=True)):
        if family.name == "scorekeeper_open_streams":
            return float(sum(sample.value for sample in family.samples))
    raise AssertionError("no scorekeeper_open_streams")


def test_streams_end_when_their_worker_stops(app, guest, basra, monkeypatch):
    # Streams an earlier test left end as their fixtures close them: counted from here.
    before = open_streams(app, monkeypatch)
    stream = open_stream(guest, basra)
    assert stream.next()["event"] == "release"
    assert open_streams(app, monkeypatch) == before + 1
    live.stop(app)
    assert stream.ended.wait(5)
    assert open_streams(app, monkeypatch) == before


def test_with_listening_off_a_write_elsewhere_still_rings(app, host, guest, basra, streams):
    settings = {key: app.config[key] for key in SHARED_SETTINGS if key in app.config}
    deaf = create_app({**settings, "LISTEN_FOR_VERSIONS": False, "STREAM_HEARTBEAT": HEARTBEAT})
    live.start(deaf, gevent=False)
    try:
        stream = open_stream(guest.on(deaf), basra)
        streams.append(stream)
        assert stream.next()["event"] == "release"
        host.enter(basra, 1, 0, 40)
        # Read once a second by the worker, for every match its streams watch.
        assert stream.ring(within=3) == version_of(guest, basra)
    finally:
        live.stop(deaf)
        with deaf.app_context():
            db.engine.dispose()


def test_a_listener_that_silently_stops_still_rings_within_seconds(
    app: Flask, other_worker, host, guest, basra, streams
):
    if not on_postgres(app):
        pytest.skip("only PostgreSQL workers listen for versions; SQLite reads them always")
    versions = live.versions(app)
    stream = open_stream(guest, basra)
    streams.append(stream)
    assert stream.next()["event"] == "release"
    assert wait_until(versions.trusted, 10)
    with frozen_listeners(app) as frozen:
        assert frozen >= 1
        host.on(other_worker).enter(basra, 1, 0, 40)
        # The other worker's own listener is frozen too: nobody hears the NOTIFY. The echo
        # comes back late, the worker stops trusting, and reads.
        assert stream.ring(within=6) == version_of(guest, basra)


def test_a_write_while_the_listener_is_down_still_rings(app, host, guest, basra, streams):
    versions = live.versions(app)
    stream = open_stream(guest, basra)
    streams.append(stream)
    assert stream.next()["event"] == "release"
    if on_postgres(app):
        # Each worker listens on a connection of its own: drop it, as a database restart would
        # (and any left by an earlier test's app on this schema, which is closing anyway).
        assert wait_until(versions.trusted, 10)
        with app.app_context():
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
        assert wait_until(lambda: not versions.trusted(), 10)
    # Written through another app while nobody here listens (on SQLite nobody ever does): no
    # NOTIFY is heard and no write of this worker's rings; the read does, once trust is back.
    settings = {key: app.config[key] for key in SHARED_SETTINGS if key in app.config}
    elsewhere = create_app({**settings, "LISTEN_FOR_VERSIONS": False})
    try:
        host.on(elsewhere).enter(basra, 1, 0, 40)
    finally:
        live.stop(elsewhere)
        with elsewhere.app_context():
            db.engine.dispose()
    assert stream.ring(within=12) == version_of(guest, basra)


def test_a_gevent_worker_gevent_did_not_patch_refuses_to_start_and_serves_no_stream(
    app, guest, basra, streams, caplog
):
    settings = {key: app.config[key] for key in SHARED_SETTINGS if key in app.config}
    worker = create_app({**settings, "STREAM_HEARTBEAT": HEARTBEAT})
    try:
        # This test process is no gevent worker: nothing patched its sockets or threads.
        with pytest.raises(RuntimeError, match="gevent did not patch socket and threading"):
            live.start(worker, gevent=True)
        assert "gevent did not patch socket and threading" in caplog.text
        # Never started, it opens no stream that would hear no other worker's write.
        with pytest.raises(RuntimeError, match="not started in this worker process"):
            guest.on(worker).client.get(f"/m/{basra}/events")
        # Started as a threaded server starts it, its stream rings for a write elsewhere.
        live.start(worker, gevent=False)
        stream = open_stream(guest.on(worker), basra)
        streams.append(stream)
        assert stream.next()["event"] == "release"
        guest.enter(basra, 1, 1, 3)
        assert stream.ring(within=3) == version_of(guest, basra)
    finally:
        close_all(streams)
        live.stop(worker)
        with worker.app_context():
            db.engine.dispose()
