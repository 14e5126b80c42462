"""A database that drops the app's connections costs a retry, not an error: PostgreSQL
terminates them every 20 ms through a burst of entries: no server error, every entry
acknowledged ("recorded", or "Already recorded." for a post whose COMMIT the drop cut off),
every acknowledged entry stored."""

from __future__ import annotations

import threading
import time

import pytest
import sqlalchemy as sa

from scorekeeper.extensions import db
from scorekeeper.models import Entry, Hand, Match
from tests.conftest import TEST_DATABASE_URL

# How long a phone keeps tapping Enter on one entry while every connection is ended each 20 ms.
ANSWERED_WITHIN = 60.0


def test_connections_terminated_mid_burst_cost_a_retry_not_an_error(app, phones):
    if TEST_DATABASE_URL is None or not TEST_DATABASE_URL.startswith("postgresql"):
        pytest.skip("PostgreSQL terminates connections; a SQLite file has none to drop")
    tables = []
    for n in range(3):
        alice, ben = phones(), phones()
        code = alice.create("other", target="100000", side_0=f"A{n}", side_1=f"B{n}")
        ben.join(code, side=1)
        tables.append((code, alice, ben))

    # On the app's own database (a parallel run's worker has one of its own): every
    # connection to it is ended, and no other run's.
    killer = sa.create_engine(app.config["SQLALCHEMY_DATABASE_URI"], isolation_level="AUTOCOMMIT")
    stop = threading.Event()
    killed: list[int] = []

    def terminate() -> None:
        """Every 20 ms, end every connection to the database but this one and listeners."""
        with killer.connect() as connection:
            while not stop.is_set():
                ended = connection.scalar(
                    sa.text(
                        "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                        " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                        " AND backend_type = 'client backend' AND query NOT LIKE 'LISTEN%'"
                    )
                )
                killed.append(ended or 0)
                stop.wait(0.02)

    thread = threading.Thread(target=terminate, daemon=True)
    thread.start()
    statuses: list[int] = []
    unexpected: list[str] = []
    acknowledged: set[tuple[str, int, int, int]] = set()
    try:
        for hand in range(1, 9):
            for code, alice, ben in tables:
                for side, phone in ((0, alice), (1, ben)):
                    points = hand * 10 + side
                    # A request whose retry is dropped too is a 503 ("try again"): the player
                    # taps again, as the page asks (or the phone's outbox does), with the same
                    # form (the same key), until it is answered. With every connection ended
                    # each 20 ms, many taps in a row can meet one: dozens, seen here, on a
                    # machine where a request takes longer than that.
                    key = f"{code}-{hand}-{side}"
                    deadline = time.monotonic() + ANSWERED_WITHIN
                    while True:
                        answer = phone.enter(code, hand, side, points, key=key)
                        statuses.append(answer.status_code)
                        if answer.status_code not in (200, 503):
                            unexpected.append(answer.shown[-2000:])
                        if answer.status_code != 503 or time.monotonic() > deadline:
                            break
                    if "recorded" in answer.shown:
                        acknowledged.add((code, hand, side, points))
    finally:
        stop.set()
        thread.join(timeout=10)
        killer.dispose()
    assert sum(killed) > 0, "no connection was terminated: the test tested nothing"
    # Never a server error: answered, or asked to try again (and then answered).
    assert set(statuses) <= {200, 503}, unexpected
    with app.app_context():
        # The last connections the killer ended may still sit in the pool, and a connection
        # used a moment ago is not pinged (extensions.ping_when_idle): read on fresh ones.
        db.engine.dispose()
        stored = {
            (code, number, position, points)
            for code, number, position, points in db.session.execute(
                sa.select(Match.code, Hand.number, Entry.side_id, Entry.points)
                .join(Hand, Hand.match_id == Match.id)
                .join(Entry, Entry.hand_id == Hand.id)
            )
        }
    # Side ids to positions: each match's first side is position 0.
    with app.app_context():
        first_side = {
            m.code: min(side.id for side in m.sides) for m in db.session.scalars(sa.select(Match))
        }
    stored = {(c, n, side_id - first_side[c], p) for c, n, side_id, p in stored}
    assert acknowledged <= stored
    assert len(acknowledged) == 3 * 8 * 2
