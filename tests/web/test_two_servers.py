"""Two app servers (separate gunicorn processes, two ports) over one database: a write through
one rings every stream on every worker of the other within 3 s, whether the workers listen
for versions, don't, or listen on a connection that silently went deaf."""

from __future__ import annotations

import os
import re
import signal
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import sqlalchemy as sa

from scorekeeper.live.fanout import READ_EVERY, TRUST_FOR
from tests.servers import BASRA_FORM, HttpPhone, gunicorn, gunicorns
from tests.streams import Stream, close_all

# How soon another server's phone must see a write: the live view's promise, with room.
SEEN_WITHIN = 3.0


@contextmanager
def two_servers(database_url: str, **settings: Any) -> Iterator[tuple[str, str]]:
    """Two gunicorns, two ports, one database: as two servers behind a balancer would run."""
    with gunicorns(database_url, 2, **settings) as [(first, _), (second, _)]:
        yield first, second


def seated(first: str, second: str) -> tuple[HttpPhone, HttpPhone, str]:
    """Alice creates a Basra match through the first server, Ben takes his side through the
    second: the host's phone, the guest's, and the code."""
    host, guest = HttpPhone(first), HttpPhone(second)
    status, page = host.post("/new/basra", BASRA_FORM)
    assert status == 200
    code = re.search(r"/m/([A-Z2-9]{6})/live", page).group(1)
    status, _ = guest.post(f"/m/{code}/claim", {"target": 1})
    assert status == 200
    return host, guest, code


def streams_on_every_worker(
    server: str, code: str, listeners: Callable[[], int] | None = None
) -> list[Stream]:
    """Streams of the match opened through a server until each of its workers holds one: one
    per worker answered a stream (its pid said by the worker's own listener where it listens,
    else simply several streams, which the workers take in turn)."""
    opened = []
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        opened.append(HttpPhone(server).stream(f"/m/{code}/events"))
        assert opened[-1].next()["event"] == "release"
        if listeners is None and len(opened) >= 6:
            break
        if listeners is not None and listeners() >= 2:
            break
    return opened


def entered_and_rung(
    host: HttpPhone, guest: HttpPhone, code: str, streams: list[Stream], within: float = SEEN_WITHIN
) -> None:
    """Alice enters 48 through her server; every stream on Ben's server rings `within` so many
    seconds, and the live part it then fetches shows the 48."""
    status, _, headers = guest.get(f"/m/{code}/live")
    assert status == 200
    etag = headers["ETag"]
    # Asked again, nothing changed: the fetch is answered 304 (by either worker).
    for _ in range(4):
        assert guest.get(f"/m/{code}/live", {"If-None-Match": etag})[0] == 304
    status, _ = host.post(f"/m/{code}/enter", {"hand": 1, "side": 0, "points": 48})
    assert status == 200
    rung = [stream.ring(within) for stream in streams]
    assert None not in rung, f"{rung.count(None)} of {len(rung)} streams not rung in time"
    status, live, _ = guest.get(f"/m/{code}/live", {"If-None-Match": etag})
    assert status == 200
    assert "Hand 1: waiting for" in live
    assert ">48<" in live.replace("\n", "").replace(" ", "")
    close_all(streams)


@pytest.mark.parametrize("listening", ["true", "false"])
def test_an_entry_through_one_server_appears_live_through_the_other(migrated_database, listening):
    with two_servers(migrated_database, LISTEN_FOR_VERSIONS=listening) as (first, second):
        host, guest, code = seated(first, second)
        entered_and_rung(host, guest, code, streams_on_every_worker(second, code))


def listening_backends(database_url: str) -> list[int]:
    """The PostgreSQL backends of every worker's listener on this database."""
    name = sa.engine.make_url(database_url).database
    engine = sa.create_engine(database_url)
    try:
        with engine.connect() as connection:
            return list(
                connection.scalars(
                    sa.text(
                        "SELECT pid FROM pg_stat_activity "
                        "WHERE datname = :name AND query LIKE 'LISTEN %'"
                    ),
                    {"name": name},
                )
            )
    finally:
        engine.dispose()


def test_a_write_is_seen_through_the_other_server_after_its_listeners_went_deaf(
    migrated_database,
):
    if not migrated_database.startswith("postgresql"):
        pytest.skip("only PostgreSQL workers listen for versions; SQLite polls always read")
    with two_servers(migrated_database) as (first, second):
        host, guest, code = seated(first, second)
        # Each worker starts listening when it first holds a stream.
        streams = streams_on_every_worker(
            second, code, lambda: len(listening_backends(migrated_database))
        )
        streams += streams_on_every_worker(
            first, code, lambda: len(listening_backends(migrated_database)) - 2
        )
        deaf = listening_backends(migrated_database)
        assert len(deaf) == 4
        # Frozen, not closed: the connections stay open and say nothing, as after a NAT's idle
        # timeout. No worker is told; each notices its echo is late.
        for pid in deaf:
            os.kill(pid, signal.SIGSTOP)
        try:
            # Trust lapses TRUST_FOR after the last echo; the next read (each second) rings.
            entered_and_rung(host, guest, code, streams, TRUST_FOR + 2 * READ_EVERY + 1)
        finally:
            for pid in deaf:
                os.kill(pid, signal.SIGCONT)


def test_a_server_told_to_stop_ends_its_streams_at_once(migrated_database):
    """A restart or a deploy: the server's streams end within a moment (their phones reconnect
    to one that runs) and it exits, instead of holding them for gunicorn's graceful timeout."""
    with gunicorn(migrated_database) as (base, server):
        host = HttpPhone(base)
        status, page = host.post("/new/basra", BASRA_FORM)
        assert status == 200
        code = re.search(r"/m/([A-Z2-9]{6})/live", page).group(1)
        streams = [HttpPhone(base).stream(f"/m/{code}/events") for _ in range(4)]
        for stream in streams:
            assert stream.next()["event"] == "release"
        os.killpg(server.pid, signal.SIGTERM)
        for stream in streams:
            assert stream.ended.wait(5), "a stream outlived its server's stop by 5 s"
        assert server.wait(timeout=10) == 0
