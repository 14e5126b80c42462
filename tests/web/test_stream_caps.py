"""How many streams a phone, an address and a match may hold open at once: past a cap a stream
is answered 429 with Retry-After, in the phone's language; a stream that ends gives its place
back; the table's own phones are never refused by their match's cap; with Redis the counts are
shared by every worker, and a Redis that is down leaves each worker counting its own."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.stream_caps import RETRY_AFTER, StreamCaps, budget, network
from tests.phones import Phone
from tests.streams import Stream, close_all

# The test app's streams say they are alive this often: a closed one ends at its next chunk.
HEARTBEAT = 0.2


@pytest.fixture
def streams() -> Iterator[list[Stream]]:
    """Streams opened by a test, closed after it."""
    opened: list[Stream] = []
    yield opened
    close_all(opened)


@pytest.fixture
def caps(app: Flask, monkeypatch: pytest.MonkeyPatch) -> Callable[..., StreamCaps]:
    """Give the test app (or another worker, `on`) small caps, counted where `storage` says."""

    def capped(on: Flask = app, storage: str = "memory://", **caps: int) -> StreamCaps:
        settings: dict[str, Any] = {
            "STREAMS_PER_PHONE": 100,
            "STREAMS_PER_ADDRESS": 100,
            "STREAMS_PER_MATCH": 100,
            **{f"STREAMS_PER_{kind.upper()}": n for kind, n in caps.items()},
            "STREAM_HEARTBEAT": HEARTBEAT,
            "RATELIMIT_STORAGE_URI": storage,
        }
        for name, value in settings.items():
            monkeypatch.setitem(on.config, name, value)
        counts = StreamCaps(on)
        monkeypatch.setitem(on.extensions, "stream_caps", counts)
        return counts

    return capped


def opened(phone: Phone, code: str, address: str = "127.0.0.1", streams: list | None = None):
    """The phone asks for the match's stream from this address: its answer, and (if it
    opened) the stream, kept in `streams` to be closed after the test."""
    response = phone.client.get(f"/m/{code}/events", environ_base={"REMOTE_ADDR": address})
    if response.status_code == 200 and streams is not None:
        streams.append(Stream(response.response, response.close))
    return response


def test_a_phone_past_its_cap_is_told_to_wait_in_its_language(app, caps, host, basra, streams):
    caps(phone=3)
    host.client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "es"
    for _ in range(3):
        assert opened(host, basra, streams=streams).status_code == 200
    refused = opened(host, basra, streams=streams)
    assert refused.status_code == 429
    assert refused.headers["Retry-After"] == str(RETRY_AFTER)
    assert refused.mimetype == "text/plain"
    assert "Espera" in refused.get_data(as_text=True)
    # Another phone at the same address is counted apart.
    assert opened(Phone(app), basra, streams=streams).status_code == 200


def test_a_stream_that_ends_gives_its_place_back(app, caps, host, basra, streams):
    caps(phone=1)
    first = opened(host, basra, streams=streams)
    assert first.status_code == 200
    assert opened(host, basra).status_code == 429
    close_all(streams)
    assert opened(host, basra, streams=streams).status_code == 200


def test_an_address_past_its_cap_is_refused_whatever_its_phones(app, caps, basra, streams):
    caps(address=3)
    # Phones with no cookie yet (as a script's requests come) count by their address alone.
    for _ in range(3):
        assert opened(Phone(app), basra, "203.0.113.5", streams).status_code == 200
    assert opened(Phone(app), basra, "203.0.113.5", streams).status_code == 429
    assert opened(Phone(app), basra, "203.0.113.6", streams).status_code == 200


def test_an_ipv6_address_counts_by_its_64(app, caps, basra, streams):
    caps(address=2)
    assert opened(Phone(app), basra, "2001:db8:1:2::1", streams).status_code == 200
    assert opened(Phone(app), basra, "2001:db8:1:2:ffff::9", streams).status_code == 200
    assert opened(Phone(app), basra, "2001:db8:1:2::abcd", streams).status_code == 429
    assert opened(Phone(app), basra, "2001:db8:1:3::1", streams).status_code == 200
    assert network("::ffff:198.51.100.7") == network("198.51.100.7") == "198.51.100.7"


def test_a_full_match_refuses_strangers_but_never_its_own_table(
    app, caps, host, guest, watcher, basra, streams
):
    caps(match=2)
    watcher.join(basra, side=None)
    strangers = [Phone(app) for _ in range(3)]
    assert opened(strangers[0], basra, "198.51.100.1", streams).status_code == 200
    assert opened(strangers[1], basra, "198.51.100.2", streams).status_code == 200
    assert opened(strangers[2], basra, "198.51.100.3", streams).status_code == 429
    # A watching phone (a TV) is a stranger to the cap; Alice (the host) and Ben (his side)
    # are the table.
    assert opened(watcher, basra, streams=streams).status_code == 429
    assert opened(host, basra, streams=streams).status_code == 200
    assert opened(guest, basra, streams=streams).status_code == 200
    # Counted all the same: the strangers' places come back only as streams end.
    close_all(streams[:2])
    assert opened(strangers[2], basra, "198.51.100.3", streams).status_code == 429


def test_with_redis_every_worker_shares_the_counts(
    app, other_worker, caps, host, basra, streams, redis_url
):
    prefix = f"test-{uuid.uuid4().hex[:8]}"
    for worker in (app, other_worker):
        worker.config["RATELIMIT_KEY_PREFIX"] = prefix
    try:
        caps(app, redis_url, phone=2)
        caps(other_worker, redis_url, phone=2)
        assert opened(host, basra, streams=streams).status_code == 200
        elsewhere = host.on(other_worker)
        assert opened(elsewhere, basra, streams=streams).status_code == 200
        assert opened(host, basra).status_code == 429
        assert opened(elsewhere, basra).status_code == 429
        close_all(streams)
        assert opened(elsewhere, basra, streams=streams).status_code == 200
    finally:
        for worker in (app, other_worker):
            worker.config["RATELIMIT_KEY_PREFIX"] = "scorekeeper"


def test_a_redis_that_is_down_leaves_each_worker_counting_its_own(
    app, caps, host, basra, streams, caplog
):
    # Nothing listens on port 1: every connection is refused at once.
    caps(app, "redis://127.0.0.1:1/0", phone=2)
    assert opened(host, basra, streams=streams).status_code == 200
    assert opened(host, basra, streams=streams).status_code == 200
    assert opened(host, basra).status_code == 429
    assert "Redis unreachable" in caplog.text


def test_a_worker_past_its_budget_refuses_streams_unread_and_still_serves_pages_and_posts(
    app, caps, host, guest, basra, streams
):
    caps(worker=4, address_crowded=100)
    addresses = [f"198.51.100.{n}" for n in range(1, 5)]
    for address in addresses:
        assert opened(Phone(app), basra, address, streams).status_code == 200
    refused = opened(host, basra, streams=streams)
    assert refused.status_code == 429
    assert refused.headers["Retry-After"] == str(RETRY_AFTER)
    # Refused before the match is looked up: a code that matches nothing is not even a miss.
    for _ in range(3):
        assert opened(Phone(app), "ZZZZZZ", "198.51.100.9").status_code == 429
    # Pages and posts are no streams: the table plays on.
    assert host.get(f"/m/{basra}").status_code == 200
    assert host.enter(basra, 1, 0, 40).status_code == 200
    assert guest.enter(basra, 1, 1, 12).status_code == 200
    # A stream that ends gives the budget its place back.
    close_all(streams[:1])
    assert opened(host, basra, streams=streams).status_code == 200


def test_a_crowded_worker_turns_away_addresses_holding_their_share_not_a_new_table(
    app, caps, host, basra, streams
):
    # Crowded past 5 of its 10: then an address holding 2 gets no more there.
    caps(worker=10, address_crowded=2)
    stranger = "203.0.113.7"
    for _ in range(5):
        assert opened(Phone(app), basra, stranger, streams).status_code == 200
    assert opened(Phone(app), basra, stranger, streams).status_code == 429
    others = ["203.0.113.8", "203.0.113.8", "203.0.113.9"]
    assert [opened(Phone(app), basra, a, streams).status_code for a in others] == [200, 200, 200]
    assert opened(Phone(app), basra, "203.0.113.8", streams).status_code == 429
    # A table from an address of its own gets its streams (its share), up to the budget.
    assert opened(host, basra, streams=streams).status_code == 200
    assert opened(host, basra, streams=streams).status_code == 200
    assert opened(Phone(app), basra, "192.0.2.1", streams).status_code == 429


def test_the_budget_is_four_fifths_of_the_worker_s_connections_unless_set():
    assert budget({"WORKER_CONNECTIONS": 5000, "STREAMS_PER_WORKER": None}) == 4000
    assert budget({"WORKER_CONNECTIONS": 60, "STREAMS_PER_WORKER": None}) == 48
    assert budget({"WORKER_CONNECTIONS": 5000, "STREAMS_PER_WORKER": 700}) == 700


# A stream asked for from one of a few addresses, or one held given back (by its place among
# the held ones).
moves = st.lists(
    st.one_of(
        st.tuples(st.just("open"), st.sampled_from(["a", "b", "c", "d", "e"])),
        st.tuples(st.just("close"), st.integers(min_value=0, max_value=40)),
    ),
    max_size=80,
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(moves=moves, worker=st.integers(min_value=2, max_value=16), share=st.integers(1, 6))
def test_streams_never_pass_the_budget_and_a_crowd_leaves_room_for_newcomers(
    app, moves, worker, share
):
    app.config.update(STREAMS_PER_WORKER=worker, STREAMS_PER_ADDRESS_CROWDED=share)
    try:
        caps = StreamCaps(app)
        # Other caps far away: only the budget and the crowd decide.
        caps.caps = {"phone": 1000, "address": 1000, "match": 1000}
        held: list[tuple[str, Any]] = []
        for move, what in moves:
            if move == "close":
                if held:
                    caps.give_back(held.pop(what % len(held))[1])
                continue
            mine = sum(1 for address, _ in held if address == what)
            lease = caps.take(None, what, "ABCDEF")
            if lease is not None:
                held.append((what, lease))
            # Never past the budget; below half of it, everyone is let in; while crowded, an
            # address holding its share is refused, and one holding less only when full.
            assert len(held) <= worker
            before = len(held) - (lease is not None)
            if before < worker // 2:
                assert lease is not None
            elif mine >= share:
                assert lease is None
            else:
                assert (lease is not None) == (before < worker)
        for _, lease in held:
            caps.give_back(lease)
        assert caps.room("a")
    finally:
        app.config.update(STREAMS_PER_WORKER=None, STREAMS_PER_ADDRESS_CROWDED=50)
