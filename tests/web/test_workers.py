"""Several workers over one database, each with its own memory of matches (kept hands, kept
match copies), and the pool's check of connections that sat idle."""

from __future__ import annotations

import time

import pytest
import sqlalchemy as sa
from flask import Flask

from scorekeeper import extensions
from scorekeeper.extensions import db, ping_when_idle
from scorekeeper.models import Entry, Hand, Match
from tests.phones import Phone


def entries(app: Flask, code: str) -> list[tuple[int, int, int]]:
    """(hand, side position, points) of every stored entry of a match."""
    with app.app_context():
        match = db.session.scalar(sa.select(Match).where(Match.code == code))
        positions = {side.id: side.position for side in match.sides}
        rows = db.session.execute(
            sa.select(Hand.number, Entry.side_id, Entry.points)
            .join(Entry, Entry.hand_id == Hand.id)
            .where(Hand.match_id == match.id)
        ).all()
        return sorted((number, positions[side_id], points) for number, side_id, points in rows)


def test_a_worker_checks_against_what_another_worker_wrote_since(
    app, other_worker, host, guest, basra
):
    # This worker keeps the hands it leaves; the other one then completes hand 1.
    assert "Hand 1: Alice 40 recorded" in host.enter(basra, 1, 0, 40).shown
    assert "Hand 1: Ben 3 recorded" in guest.on(other_worker).enter(basra, 1, 1, 3).shown
    # Back on the first worker: hand 1 is complete (not what it kept), so hand 2 opens.
    assert "Hand 2: Alice 12 recorded" in host.enter(basra, 2, 0, 12).shown
    refused = host.enter(basra, 1, 0, 41)
    assert refused.status_code == 409
    assert "Hand 1 is complete" in refused.shown
    assert entries(app, basra) == [(1, 0, 40), (1, 1, 3), (2, 0, 12)]


def test_a_worker_that_kept_hands_sees_a_correction_made_elsewhere(
    app, other_worker, host, guest, basra
):
    host.enter(basra, 1, 0, 40)
    guest.enter(basra, 1, 1, 3)
    # The host corrects Ben's cell through the other worker; the first still kept revision 1.
    assert "corrected from 3 to 13" in host.on(other_worker).correct(basra, 1, 1, 13).shown
    stale = host.correct(basra, 1, 1, 23, revision=1)
    assert stale.status_code == 409
    assert "meanwhile: it now reads 13" in stale.shown
    assert entries(app, basra) == [(1, 0, 40), (1, 1, 13)]


def test_a_kept_match_copy_reads_what_another_worker_changed(app, other_worker, host, guest, basra):
    # Both workers have used the match (each keeps a copy); the other one abandons it.
    host.enter(basra, 1, 0, 40)
    assert "Match abandoned" in host.on(other_worker).post(f"/m/{basra}/abandon").shown
    # A typo on the first worker: its page shows the match as it now stands.
    typo = guest.enter(basra, 1, 1, "3O")
    assert typo.status_code == 400
    assert "Abandoned" in typo.shown
    refused = guest.enter(basra, 1, 1, 3)
    assert refused.status_code == 409
    assert "This match has abandoned" in refused.shown
    assert entries(app, basra) == [(1, 0, 40)]


def deaf(worker: Flask) -> None:
    """Stop the worker hearing of other workers' writes, as if every announcement were still on
    its way: it goes by what it kept, until a database statement says otherwise."""
    versions = worker.extensions["match_versions"]
    versions.close()
    deadline = time.monotonic() + 15
    while versions.listening and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not versions.listening


def test_an_entry_checked_against_what_a_worker_kept_is_stored_only_if_nothing_changed(
    app, other_worker, host, guest, basra
):
    deaf(app)
    # This worker keeps the match as Alice's entry left it: hand 1 open, Ben's cell empty.
    assert "Hand 1: Alice 40 recorded" in host.enter(basra, 1, 0, 40).shown
    # Ben completes hand 1 through the other worker; the first one doesn't hear of it.
    assert "Hand 1: Ben 3 recorded" in guest.on(other_worker).enter(basra, 1, 1, 3).shown
    # Back on the first: by what it kept, Alice could still change her hand 1 total. She can't.
    refused = host.enter(basra, 1, 0, 41)
    assert refused.status_code == 409
    assert "Hand 1 is complete" in refused.shown
    # By what it kept, hand 2 couldn't start yet. It can.
    assert "Hand 2: Alice 12 recorded" in host.enter(basra, 2, 0, 12).shown
    # Ended through the other worker: the next entry on this one is refused, not stored.
    guest.on(other_worker).enter(basra, 2, 1, 101)
    assert "Match over: Ben won" in guest.on(other_worker).post(f"/m/{basra}/end").shown
    late = host.enter(basra, 2, 0, 13)
    assert late.status_code == 409
    assert "This match has ended" in late.shown
    assert entries(app, basra) == [(1, 0, 40), (1, 1, 3), (2, 0, 12), (2, 1, 101)]


def test_a_worker_that_only_showed_the_sheet_checks_an_entry_against_it_and_the_database(
    app, other_worker, host, guest, basra
):
    deaf(app)
    assert "Hand 1: Alice 40 recorded" in host.on(other_worker).enter(basra, 1, 0, 40).shown
    # This worker shows the sheet (hand 1 open), and keeps the match as it read it.
    assert "waiting for" in host.get(f"/m/{basra}").shown
    assert "Hand 1: Ben 3 recorded" in guest.on(other_worker).enter(basra, 1, 1, 3).shown
    refused = host.enter(basra, 1, 0, 41)
    assert refused.status_code == 409
    assert "Hand 1 is complete" in refused.shown
    # Shown again, at the version it is now: the next entry goes by it.
    assert "Hand 2: Alice 12 recorded" in host.enter(basra, 2, 0, 12).shown
    assert "Hand 2: Alice changed to 14" in host.enter(basra, 2, 0, 14).shown
    assert entries(app, basra) == [(1, 0, 40), (1, 1, 3), (2, 0, 14)]


def statements_sent(app: Flask, phone: Phone, url: str, data: dict[str, object]) -> int:
    """How many SQL statements the app sends for one form post (redirect not followed)."""
    token = phone.token()
    with app.app_context():
        engine = db.engine
    sent: list[str] = []

    def record(*args: object) -> None:
        sent.append(str(args[2]))

    sa.event.listen(engine, "before_cursor_execute", record)
    try:
        response = phone.post(url, {**data, "csrf_token": token}, csrf=False, follow=False)
    finally:
        sa.event.remove(engine, "before_cursor_execute", record)
    assert response.status_code == 302, response.get_data(as_text=True)
    return len(sent)


def one_statement_or_no_hands_read(app: Flask) -> int:
    """An entry checked against what the worker kept: on PostgreSQL one statement, its own
    transaction; on SQLite (no round trips to spare) the lock, the key and the cell, without
    reading the hands."""
    with app.app_context():
        return 1 if db.engine.dialect.name == "postgresql" else 3


def test_an_entry_right_after_another_on_the_same_worker_reads_nothing_again(
    app, host, guest, basra
):
    host.enter(basra, 1, 0, 40)
    entry = {"hand": 1, "side": 1, "points": 3}
    sent = statements_sent(app, guest, f"/m/{basra}/enter", entry)
    assert sent == one_statement_or_no_hands_read(app)
    assert entries(app, basra) == [(1, 0, 40), (1, 1, 3)]


def test_an_entry_on_a_worker_that_just_showed_the_sheet_reads_nothing_again(
    app, other_worker, host, guest, basra
):
    host.on(other_worker).enter(basra, 1, 0, 40)
    assert "Hand 1: waiting for" in guest.get(f"/m/{basra}").shown
    entry = {"hand": 1, "side": 1, "points": 3}
    sent = statements_sent(app, guest, f"/m/{basra}/enter", entry)
    assert sent == one_statement_or_no_hands_read(app)
    assert entries(app, basra) == [(1, 0, 40), (1, 1, 3)]


def _pinging(app: Flask, monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """The app's engine with the idle check on (create_app leaves it off SQLite, which no
    server can drop), counting the pings it sends."""
    engine = db.engine
    if engine.dialect.name == "sqlite":
        ping_when_idle(engine)
    pings: list[object] = []
    ping = engine.dialect.do_ping

    def counted(dbapi_connection: object) -> bool:
        pings.append(dbapi_connection)
        return ping(dbapi_connection)

    monkeypatch.setattr(engine.dialect, "do_ping", counted)
    return pings


def test_a_connection_used_a_moment_ago_is_not_pinged(app, monkeypatch):
    with app.app_context():
        pings = _pinging(app, monkeypatch)
        for _ in range(3):
            with db.engine.connect() as connection:
                assert connection.execute(sa.text("SELECT 1")).scalar() == 1
        assert pings == []


def test_a_connection_that_idled_and_was_dropped_is_replaced(app, monkeypatch):
    monkeypatch.setattr(extensions, "PING_AFTER_IDLE", 0.0)
    with app.app_context():
        pings = _pinging(app, monkeypatch)
        with db.engine.connect() as connection:
            dropped = connection.connection.dbapi_connection
        # As a restarted database server leaves it: the pooled connection no longer works.
        dropped.close()
        with db.engine.connect() as connection:
            assert connection.execute(sa.text("SELECT 1")).scalar() == 1
            assert connection.connection.dbapi_connection is not dropped
        assert pings[0] is dropped
