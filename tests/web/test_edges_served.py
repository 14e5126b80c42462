"""The server's edges under a real gunicorn, as a stranger pushes them: bodies that stop
arriving are let go, a chunked body past the limit records nothing, and guessing codes is
limited the same whatever the number of workers, and across a restart where Redis counts."""

from __future__ import annotations

import re
import socket
import statistics
import time
import urllib.parse
import uuid
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

import pytest
import sqlalchemy as sa

from tests.servers import BASRA_FORM, HttpPhone, gunicorn

# The timeout the test servers give a phone that stopped sending (seconds): short, so a test
# waits it out in a moment. Production's is SCOREKEEPER_CLIENT_TIMEOUT's default, 15.
TIMEOUT = 1.0
# gunicorn's keepalive: once a refused request is answered, how long it waits for the next
# one before closing (the unread rest of a stalled body is such a wait).
KEEPALIVE = 2.0
# The most a connection stalled mid-body may be held, with room for a busy machine.
LET_GO_WITHIN = TIMEOUT + KEEPALIVE + 3


def played(url: str) -> tuple[HttpPhone, HttpPhone, str]:
    """Alice's phone creates a Basra match; Ben's, from another address (127.0.0.2), takes
    his side: the host, the guest, the code."""
    host, guest = HttpPhone(url), HttpPhone(url, address="127.0.0.2")
    status, page = host.post("/new/basra", BASRA_FORM)
    assert status == 200
    code = re.search(r"/m/([A-Z2-9]{6})/live", page).group(1)
    assert guest.post(f"/m/{code}/claim", {"target": 1})[0] == 200
    return host, guest, code


def entry_body(phone: HttpPhone, points: int, pad: int = 0) -> bytes:
    """Alice's entry for hand 1 as her phone posts it, with `pad` bytes of an extra field
    after it (a cut body keeps the entry's fields)."""
    assert phone.token
    form = {"csrf_token": phone.token, "key": uuid.uuid4().hex, "hand": 1, "side": 0}
    body = urllib.parse.urlencode({**form, "points": points}).encode()
    return body + (b"&pad=" + b"x" * pad if pad else b"")


def request_head(url: str, path: str, phone: HttpPhone, length: int | None) -> bytes:
    """A post's request line and headers, with the phone's cookie; a Content-Length, or
    chunked when there is none."""
    host = urllib.parse.urlsplit(url).netloc
    size = f"Content-Length: {length}" if length is not None else "Transfer-Encoding: chunked"
    return (
        f"POST {path} HTTP/1.1\r\nHost: {host}\r\nCookie: {phone.cookie_header()}\r\n"
        f"Content-Type: application/x-www-form-urlencoded\r\n{size}\r\n\r\n"
    ).encode()


def connect(url: str) -> socket.socket:
    """A connection to the server from 127.0.0.1 (the stranger's address)."""
    address = urllib.parse.urlsplit(url)
    return socket.create_connection((address.hostname, address.port), timeout=30)


def closed_within(sock: socket.socket, seconds: float) -> bytes | None:
    """What the server answered before it closed the connection, if it closed it within so
    many seconds; None if it still holds it."""
    deadline = time.monotonic() + seconds
    answer = b""
    try:
        while time.monotonic() < deadline:
            sock.settimeout(max(0.01, deadline - time.monotonic()))
            chunk = sock.recv(65536)
            if not chunk:
                return answer
            answer += chunk
    except TimeoutError:
        return None
    except ConnectionResetError:
        return answer
    return None


def entries_of(database_url: str, side: int) -> list[int]:
    """The points stored for a side (by its column) of the one match."""
    engine = sa.create_engine(database_url, poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as conn:
            return list(
                conn.scalars(
                    sa.text(
                        "SELECT entry.points FROM entry JOIN side"
                        " ON side.id = entry.side_id WHERE side.position = :side"
                    ),
                    {"side": side},
                )
            )
    finally:
        engine.dispose()


@contextmanager
def stalled(url: str, path: str, phone: HttpPhone, count: int) -> Iterator[list[socket.socket]]:
    """`count` posts of a whole entry whose body stops 20 bytes short of the length it
    promised: a phone gone quiet mid-post, or a stranger holding connections."""
    with ExitStack() as stack:
        held = []
        for _ in range(count):
            sock = stack.enter_context(connect(url))
            body = entry_body(phone, 40)
            sock.sendall(request_head(url, path, phone, len(body) + 20) + body)
            held.append(sock)
        yield held


@pytest.mark.parametrize("sent", ["headers", "body"])
def test_a_request_that_stops_arriving_is_let_go(migrated_database, sent):
    with gunicorn(migrated_database, workers=1, CLIENT_TIMEOUT=str(TIMEOUT)) as (url, _):
        with connect(url) as sock:
            if sent == "headers":
                # The headers never end (gunicorn's keepalive already bounds this wait).
                sock.sendall(b"POST /join HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n")
            else:
                # A body promised and never sent.
                sock.sendall(
                    b"POST /join HTTP/1.1\r\nHost: x\r\nContent-Length: 500\r\n"
                    b"Content-Type: application/x-www-form-urlencoded\r\n\r\ncode=AB"
                )
            answer = closed_within(sock, LET_GO_WITHIN)
            assert answer is not None
            if sent == "body":
                # 408: a phone's outbox keeps the post and sends it again (js/outbox.js).
                assert answer.startswith(b"HTTP/1.1 408"), answer[:100]


def test_bodies_that_stop_arriving_cannot_hold_a_worker_or_record_anything(migrated_database):
    # A worker that holds 40 connections, and 60 posts from one address that stop mid-body:
    # the worker lets each go after the timeout, so Ben's phone gets in, and not one of the
    # cut entries is recorded.
    with gunicorn(
        migrated_database,
        workers=1,
        worker_connections=40,
        CLIENT_TIMEOUT=str(TIMEOUT),
    ) as (url, _):
        alice, ben, code = played(url)
        with stalled(url, f"/m/{code}/enter", alice, 60) as held:
            began = time.monotonic()
            assert ben.get(f"/m/{code}")[0] == 200
            assert ben.post(f"/m/{code}/enter", {"hand": 1, "side": 1, "points": 5})[0] == 200
            # Ben waited for the first 40 to be let go, no more (the queued 20 beside him).
            assert time.monotonic() - began < 2 * LET_GO_WITHIN
            assert all(closed_within(sock, LET_GO_WITHIN) is not None for sock in held)
        assert entries_of(migrated_database, 0) == []
        assert entries_of(migrated_database, 1) == [5]


def test_stalled_bodies_from_one_address_dont_slow_another_phone(migrated_database):
    # 200 stalled posts, well within what the workers hold: Ben's page and entry from his own
    # address take their usual time meanwhile, and the stalled ones are let go.
    with gunicorn(migrated_database, CLIENT_TIMEOUT="5") as (url, _):
        alice, ben, code = played(url)

        def page_and_entry(points: int) -> float:
            began = time.monotonic()
            assert ben.get(f"/m/{code}")[0] == 200
            assert ben.post(f"/m/{code}/enter", {"hand": 1, "side": 1, "points": points})[0] == 200
            return time.monotonic() - began

        usual = statistics.median(page_and_entry(points) for points in (1, 2, 3))
        with stalled(url, f"/m/{code}/enter", alice, 200) as held:
            during = statistics.median(page_and_entry(points) for points in (4, 5, 6))
            # A generous factor: the machine is shared, and opening 200 connections is work.
            assert during < 5 * usual + 0.5, (usual, during)
            assert all(closed_within(sock, 5 + LET_GO_WITHIN) is not None for sock in held)
        assert entries_of(migrated_database, 0) == []
        assert entries_of(migrated_database, 1) == [6]


def test_a_stream_quiet_for_longer_than_the_timeout_stays_open(migrated_database):
    # A stream only writes: waiting between heartbeats is no read or write that waits.
    with gunicorn(
        migrated_database, CLIENT_TIMEOUT=str(TIMEOUT), STREAM_HEARTBEAT=str(2.5 * TIMEOUT)
    ) as (url, _):
        alice, ben, code = played(url)
        stream = ben.stream(f"/m/{code}/events")
        assert stream.next()["event"] == "release"
        assert stream.quiet(heartbeats=1, within=10 * TIMEOUT)
        assert alice.post(f"/m/{code}/enter", {"hand": 1, "side": 0, "points": 40})[0] == 200
        assert stream.ring() is not None
        stream.close()


def test_a_chunked_body_past_the_limit_is_refused_and_records_nothing(migrated_database):
    with gunicorn(migrated_database, workers=1) as (url, _):
        alice, _ben, code = played(url)
        with connect(url) as sock:
            # 1 MB of form, the entry's fields first: cut at the limit, they were recorded.
            body = entry_body(alice, 40, pad=1024 * 1024)
            sock.sendall(request_head(url, f"/m/{code}/enter", alice, None))
            for start in range(0, len(body), 16 * 1024):
                chunk = body[start : start + 16 * 1024]
                try:
                    sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                except OSError:
                    break  # the server answered and closed without reading the rest
            else:
                sock.sendall(b"0\r\n\r\n")
            answer = sock.recv(4096)
        assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
        # The same entry, within the limit and chunked, is read whole and recorded.
        with connect(url) as sock:
            body = entry_body(alice, 41, pad=1000)
            sock.sendall(request_head(url, f"/m/{code}/enter", alice, None))
            sock.sendall(b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body))
            assert sock.recv(4096).startswith(b"HTTP/1.1 302")
        assert entries_of(migrated_database, 0) == [41]


def misses(url: str, guesses: int, address: str = "127.0.0.3") -> list[int]:
    """The answers to `guesses` codes that match nothing, each on a connection of its own (the
    workers take connections in turn), from one address."""
    guesser = HttpPhone(url, address=address)
    return [guesser.get(f"/m/ZZZZ{n:02d}")[0] for n in range(guesses)]


def test_guessed_codes_are_limited_on_the_whole_server_whatever_its_workers(migrated_database):
    # Counted in each worker's memory (the default): each allows its share, so the server
    # allows the limit, not the limit once per worker.
    with gunicorn(migrated_database, workers=2, CODE_MISS_LIMIT="6 per hour") as (url, _):
        answers = misses(url, 40)
    assert set(answers) == {404, 429}
    assert answers.count(404) <= 6, answers


def test_guessed_codes_counted_in_redis_stay_counted_across_a_restart(migrated_database, redis_url):
    settings: dict[str, Any] = {
        "CODE_MISS_LIMIT": "6 per hour",
        "RATELIMIT_KEY_PREFIX": f"test-{uuid.uuid4().hex}",
    }
    storage = redis_url
    with gunicorn(migrated_database, workers=2, **settings, RATELIMIT_STORAGE_URI=storage) as (
        url,
        _,
    ):
        answers = misses(url, 10)
    # One count for both workers: exactly the limit, then refused.
    assert answers == [404] * 6 + [429] * 4
    with gunicorn(migrated_database, workers=2, **settings, RATELIMIT_STORAGE_URI=storage) as (
        url,
        _,
    ):
        assert misses(url, 3) == [429] * 3
        # Another address has its own count.
        assert misses(url, 1, address="127.0.0.4") == [404]
