"""Two app servers (separate gunicorn processes, two ports) over one database: a write through
one is seen by a poll through the other within 3 s, whether the workers listen for versions,
don't, or listen on a connection that silently went deaf."""

from __future__ import annotations

import os
import re
import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
import sqlalchemy as sa

from tests.servers import HttpPhone, gunicorn, migrate, shared_database

__all__ = ["shared_database"]

BASRA_FORM = {
    "table_format": "2",
    "target": "101",
    "host_side": "0",
    "side_0": "Alice",
    "side_1": "Ben",
    "rule_carry_over": "stack",
    "rule_double_basra": "off",
    "rule_basra_value": "flat",
    "rule_seven_diamonds": "standard",
}
# How soon another server's phone must see a write: the live view's promise, with room.
SEEN_WITHIN = 3.0


@contextmanager
def two_servers(database_url: str, **settings: str) -> Iterator[tuple[str, str]]:
    """Two gunicorns, two ports, one database: as two servers behind a balancer would run."""
    migrate(database_url)
    with (
        gunicorn(database_url, **settings) as (first, _),
        gunicorn(database_url, **settings) as (second, _),
    ):
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


def seen_within(guest: HttpPhone, code: str, etag: str, seconds: float) -> str | None:
    """The live part the guest's next polls bring once it changes, if within `seconds`."""
    deadline = time.monotonic() + seconds
    while True:
        status, live, _ = guest.get(f"/m/{code}/live", {"If-None-Match": etag})
        if status == 200:
            return live
        assert status == 304
        if time.monotonic() > deadline:
            return None
        time.sleep(0.1)


def entered_and_seen(host: HttpPhone, guest: HttpPhone, code: str, hand: int) -> None:
    """Alice enters 48 through her server; Ben's server shows it within SEEN_WITHIN."""
    status, _, headers = guest.get(f"/m/{code}/live")
    assert status == 200
    etag = headers["ETag"]
    # Asked again, nothing changed: the poll is answered 304 (several times, on both workers).
    for _ in range(4):
        assert guest.get(f"/m/{code}/live", {"If-None-Match": etag})[0] == 304
    status, _ = host.post(f"/m/{code}/enter", {"hand": hand, "side": 0, "points": 48})
    assert status == 200
    live = seen_within(guest, code, etag, SEEN_WITHIN)
    assert live is not None, f"hand {hand} not seen through the other server in time"
    assert f"Hand {hand}: waiting for" in live
    assert ">48<" in live.replace("\n", "").replace(" ", "")


@pytest.mark.parametrize("listening", ["true", "false"])
def test_an_entry_through_one_server_appears_live_through_the_other(shared_database, listening):
    with two_servers(shared_database, LISTEN_FOR_VERSIONS=listening) as (first, second):
        host, guest, code = seated(first, second)
        entered_and_seen(host, guest, code, 1)


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
    shared_database,
):
    if not shared_database.startswith("postgresql"):
        pytest.skip("only PostgreSQL workers listen for versions; SQLite polls always read")
    with two_servers(shared_database) as (first, second):
        host, guest, code = seated(first, second)
        deadline = time.monotonic() + 15
        while len(listening_backends(shared_database)) < 4 and time.monotonic() < deadline:
            # Each worker starts listening when it first answers a poll; wake them all.
            for server in (first, second):
                HttpPhone(server).get(f"/m/{code}/live", {"If-None-Match": 'W/"0-wake"'})
            time.sleep(0.2)
        deaf = listening_backends(shared_database)
        assert len(deaf) == 4
        # Frozen, not closed: the connections stay open and say nothing, as after a NAT's idle
        # timeout. No worker is told; each notices its echo is late.
        for pid in deaf:
            os.kill(pid, signal.SIGSTOP)
        try:
            entered_and_seen(host, guest, code, 1)
        finally:
            for pid in deaf:
                os.kill(pid, signal.SIGCONT)
