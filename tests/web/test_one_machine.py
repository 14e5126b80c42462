"""Workers on one machine sharing a SQLite file (`make run`: gunicorn, two workers) hear each
other's writes at once (issue 30): a worker that writes wakes the others, which read the
versions their streams watch. Their read every second stays as a fallback, set here to ten
seconds, so only the wake-up can ring a stream in time."""

from __future__ import annotations

import os
import socket

import pytest

from scorekeeper import create_app, live
from scorekeeper.extensions import db
from tests.conftest import _config
from tests.phones import Phone
from tests.servers import HttpPhone, gunicorn, gunicorns
from tests.streams import Stream, close_all
from tests.web.test_two_servers import seated, streams_on_every_worker

# The fallback read, far slower than the wake-up: a stream rung in time was woken.
READ_RARELY = "10"
# "At once", with room for a busy machine; the fallback read cannot meet it.
AT_ONCE = 0.5


@pytest.fixture
def sqlite_database(migrated_database: str) -> str:
    """The migrated database, which must be a SQLite file: PostgreSQL's workers hear each
    other through LISTEN/NOTIFY instead (test_two_servers.py)."""
    if not migrated_database.startswith("sqlite"):
        pytest.skip("workers on PostgreSQL hear each other by LISTEN/NOTIFY")
    return migrated_database


def every_entry_rings_at_once(
    alice: HttpPhone, ben: HttpPhone, code: str, streams: list[Stream]
) -> None:
    """Alice and Ben enter hand 1 and hand 2's first cell in turn; every stream rings with
    each entry's version well under a second."""
    for hand, side, phone in ((1, 0, alice), (1, 1, ben), (2, 0, alice)):
        status, page = phone.post(f"/m/{code}/enter", {"hand": hand, "side": side, "points": 5})
        assert status == 200, page
        rung = [stream.ring(AT_ONCE) for stream in streams]
        assert None not in rung, f"{rung.count(None)} of {len(rung)} streams not rung at once"
        assert len(set(rung)) == 1
    close_all(streams)


def test_an_entry_through_one_worker_rings_the_other_workers_streams_at_once(sqlite_database):
    # Two single-worker servers on the one file: the post's worker and the stream's differ.
    with gunicorns(sqlite_database, 2, workers=1, READ_VERSIONS_EVERY=READ_RARELY) as servers:
        [(first, _), (second, _)] = servers
        alice, ben, code = seated(first, first)
        streams = [HttpPhone(second).stream(f"/m/{code}/events") for _ in range(2)]
        for stream in streams:
            assert stream.next()["event"] == "release"
        every_entry_rings_at_once(alice, ben, code, streams)


def test_make_run_rings_every_phone_at_once_whichever_worker_holds_its_stream(sqlite_database):
    # As `make run` serves: one gunicorn, two workers, each phone's stream on either.
    with gunicorn(sqlite_database, workers=2, READ_VERSIONS_EVERY=READ_RARELY) as (base, _):
        alice, ben, code = seated(base, base)
        every_entry_rings_at_once(alice, ben, code, streams_on_every_worker(base, code))


def test_the_socket_of_a_worker_killed_without_a_word_is_removed_at_the_next_write(tmp_path):
    # Wake-up sockets are a SQLite file's (PostgreSQL's workers hear each other by
    # LISTEN/NOTIFY): a worker on a file of its own, whichever database the run is on.
    app = create_app(_config(f"sqlite:///{tmp_path / 'one-machine.sqlite'}"))
    with app.app_context():
        db.create_all()
    live.start(app, gevent=False)
    try:
        folder = live.versions(app).wake_folder
        assert folder is not None
        os.makedirs(folder, mode=0o700, exist_ok=True)
        # As kill -9 leaves it: the socket's file, and nobody reading it.
        left = os.path.join(folder, "1-dead.sock")
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as killed:
            killed.bind(left)
        assert os.path.exists(left)
        host = Phone(app)
        code = host.create("basra", table_format="2", target="101", side_0="Alice", side_1="Ben")
        assert "Hand 1: Alice 40 recorded" in host.enter(code, 1, 0, 40).shown
        assert not os.path.exists(left)
    finally:
        live.stop(app)
        with app.app_context():
            db.engine.dispose()
