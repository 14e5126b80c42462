"""Several workers over one database: each checks every write against what is stored, whoever
wrote it; and the pool's check of connections that sat idle."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from sqlalchemy.engine.interfaces import DBAPIConnection

from scorekeeper import create_app, extensions, live
from scorekeeper.extensions import db, ping_when_idle
from scorekeeper.models import Entry, Hand, Match
from tests.phones import Phone
from tests.statements import statements
from tests.waiting import wait_until


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
    # This worker writes hand 1's first cell; the other one then completes hand 1.
    assert "Hand 1: Alice 40 recorded" in host.enter(basra, 1, 0, 40).shown
    assert "Hand 1: Ben 3 recorded" in guest.on(other_worker).enter(basra, 1, 1, 3).shown
    # Back on the first worker: hand 1 is complete, so hand 2 opens.
    assert "Hand 2: Alice 12 recorded" in host.enter(basra, 2, 0, 12).shown
    refused = host.enter(basra, 1, 0, 41)
    assert refused.status_code == 409
    assert "Hand 1 was complete before your 41 arrived" in refused.shown
    assert entries(app, basra) == [(1, 0, 40), (1, 1, 3), (2, 0, 12)]


def test_a_worker_sees_a_correction_made_elsewhere(app, other_worker, host, guest, basra):
    host.enter(basra, 1, 0, 40)
    guest.enter(basra, 1, 1, 3)
    # The host corrects Ben's cell through the other worker; a page shown before says revision 1.
    assert "corrected from 3 to 13" in host.on(other_worker).correct(basra, 1, 1, 13).shown
    stale = host.correct(basra, 1, 1, 23, revision=1)
    assert stale.status_code == 409
    assert "meanwhile: it now reads 13" in stale.shown
    assert entries(app, basra) == [(1, 0, 40), (1, 1, 13)]


def test_a_worker_reads_what_another_worker_changed(app, other_worker, host, guest, basra):
    # Both workers have used the match; the other one abandons it.
    host.enter(basra, 1, 0, 40)
    assert (
        "Match abandoned"
        in host.on(other_worker).post(f"/m/{basra}/abandon", {"confirmed": "y"}).shown
    )
    # A typo on the first worker: its page shows the match as it now stands.
    typo = guest.enter(basra, 1, 1, "3O")
    assert typo.status_code == 400
    assert "Abandoned" in typo.shown
    refused = guest.enter(basra, 1, 1, 3)
    assert refused.status_code == 409
    assert "This match was abandoned" in refused.shown
    assert entries(app, basra) == [(1, 0, 40)]


def deaf(worker: Flask) -> None:
    """Stop the worker hearing of other workers' writes: it must then read the database."""
    versions = live.versions(worker)
    versions.close()
    assert wait_until(lambda: not versions.trusted(), 15)


def test_a_deaf_worker_checks_every_entry_against_what_is_stored(
    app, other_worker, host, guest, basra
):
    deaf(app)
    assert "Hand 1: Alice 40 recorded" in host.enter(basra, 1, 0, 40).shown
    # Ben completes hand 1 through the other worker; the first one doesn't hear of it.
    assert "Hand 1: Ben 3 recorded" in guest.on(other_worker).enter(basra, 1, 1, 3).shown
    refused = host.enter(basra, 1, 0, 41)
    assert refused.status_code == 409
    assert "Hand 1 was complete before your 41 arrived" in refused.shown
    assert "Hand 2: Alice 12 recorded" in host.enter(basra, 2, 0, 12).shown
    # Ended through the other worker: the next entry on this one is refused, not stored.
    guest.on(other_worker).enter(basra, 2, 1, 101)
    assert "Match over: Ben won" in guest.on(other_worker).post(f"/m/{basra}/end").shown
    late = host.enter(basra, 2, 0, 13)
    assert late.status_code == 409
    assert "This match has ended" in late.shown
    assert entries(app, basra) == [(1, 0, 40), (1, 1, 3), (2, 0, 12), (2, 1, 101)]


def entry_sent(app: Flask, phone: Phone, code: str, hand: int, side: int) -> list[str]:
    """The SQL statements one entry post sends (its redirect not followed)."""
    token = phone.token()
    form = {"hand": hand, "side": side, "points": 3, "csrf_token": token}
    with statements(app) as sent:
        response = phone.post(f"/m/{code}/enter", form, csrf=False, follow=False)
    assert response.status_code == 302, response.get_data(as_text=True)
    return sent


def entry_statements(app: Flask, phone: Phone, code: str, hand: int, side: int) -> int:
    """How many SQL statements one entry post sends (its redirect not followed)."""
    return len(entry_sent(app, phone, code, hand, side))


def test_an_entry_reads_its_match_once_and_ends_with_its_write(app, host, guest, basra):
    """The match is read once, before the lock: nothing reads it again after the commit (the
    answer's redirect needs only its code). The entry's insert is the last statement, the hand's
    just before it when the entry starts one."""
    host.enter(basra, 1, 0, 4)
    for sent, last in (
        (entry_sent(app, guest, basra, 1, 1), ["insert into entry"]),
        (entry_sent(app, host, basra, 2, 0), ["insert into hand", "insert into entry"]),
    ):
        said = [" ".join(sql.lower().replace('"', "").split()) for sql in sent]
        assert sum(sql.startswith("select") and "from match " in sql for sql in said) == 1, said
        assert said[0].startswith("select") and "from match " in said[0], said
        assert said[1].startswith("update match set version="), said
        ends = zip(said[-len(last) :], last, strict=True)
        assert all(sql.startswith(start) for sql, start in ends), said


def test_an_entry_reads_as_much_after_twelve_hands_as_after_one(app, host, guest, basra):
    host.enter(basra, 1, 0, 4)
    after_one = entry_statements(app, guest, basra, 1, 1)
    for hand in range(2, 13):
        host.enter(basra, hand, 0, 4)
        guest.enter(basra, hand, 1, 4)
    host.enter(basra, 13, 0, 4)
    assert entry_statements(app, guest, basra, 13, 1) == after_one
    assert len(entries(app, basra)) == 26


@pytest.fixture
def own_app(_database: dict[str, Any]) -> Iterator[Flask]:
    """An app of its own on the run's database: its engine gets a check the run's app has not
    (on SQLite), which must not outlive the test."""
    app = create_app(_database)
    yield app
    with app.app_context():
        db.engine.dispose()


def _pinging(app: Flask, monkeypatch: pytest.MonkeyPatch) -> list[DBAPIConnection]:
    """The app's engine with the idle check on (create_app leaves it off SQLite, which no
    server can drop), counting the pings it sends."""
    engine = db.engine
    if engine.dialect.name == "sqlite":
        ping_when_idle(engine)
    pings: list[DBAPIConnection] = []
    ping = engine.dialect.do_ping

    def counted(dbapi_connection: DBAPIConnection) -> bool:
        pings.append(dbapi_connection)
        return ping(dbapi_connection)

    monkeypatch.setattr(engine.dialect, "do_ping", counted)
    return pings


def test_a_connection_used_a_moment_ago_is_not_pinged(own_app, monkeypatch):
    with own_app.app_context():
        pings = _pinging(own_app, monkeypatch)
        for _ in range(3):
            with db.engine.connect() as connection:
                assert connection.execute(sa.text("SELECT 1")).scalar() == 1
        assert pings == []


def test_a_connection_that_idled_and_was_dropped_is_replaced(own_app, monkeypatch):
    monkeypatch.setattr(extensions, "PING_AFTER_IDLE", 0.0)
    with own_app.app_context():
        pings = _pinging(own_app, monkeypatch)
        with db.engine.connect() as connection:
            dropped = connection.connection.dbapi_connection
        # As a restarted database server leaves it: the pooled connection no longer works.
        dropped.close()
        with db.engine.connect() as connection:
            assert connection.execute(sa.text("SELECT 1")).scalar() == 1
            assert connection.connection.dbapi_connection is not dropped
        assert pings[0] is dropped
