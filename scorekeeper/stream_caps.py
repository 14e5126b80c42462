"""How many match streams (live/stream.py) a phone, an address and a match may hold at once.

Every stream holds a connection of its worker for as long as it lives, and a worker holds so
many (gunicorn.conf.py's worker_connections): past that, no page and no entry gets in. So
each stream takes a lease on three counts before it opens: its phone's (the token in its
cookie; a phone with no cookie yet counts by its address alone), its address's (an IPv6
address by its /64, what one phone or one home is given) and its match's, which also bounds
how many streams one write rings. A stream past any cap is answered 429 with Retry-After;
the page keeps fetching its live part at its slow pace and opens its stream again later
(static/js/live.js). The caps (STREAMS_PER_PHONE, STREAMS_PER_ADDRESS, STREAMS_PER_MATCH) are
far above what a real table holds and far below what a worker holds.

Those caps hold against one address; many addresses together could still fill a worker. So
each worker also keeps a budget of its own connections for streams (STREAMS_PER_WORKER, by
default four fifths of gunicorn's worker_connections), and past it refuses a new stream
before reading anything, so the rest of its connections always answer pages and posts. Past
half its budget the worker is crowded: an address that holds STREAMS_PER_ADDRESS_CROWDED
streams in it already gets no more there, so strangers with many addresses fill at most about
half of it, and a table from an address of its own still gets its stream. The budget counts
the worker's own connections, so it is the worker's alone, Redis or not: a server holds its
workers' budgets, each server its own.

Where RATELIMIT_STORAGE_URI names a Redis (redis://, rediss://, redis+unix://), the counts
are shared by every worker of every server: a lease is a member of a sorted set per count,
scored by when it expires. A stream renews its leases each time it writes (a heartbeat at
least) and gives them back when it ends; a lease whose worker died without a word (kill -9)
expires LEASE_HEARTBEATS heartbeats later, and is swept by the next stream that counts there.
Otherwise (memory://, `make run` on SQLite) each worker process counts its own streams, so a
server holds up to its workers times each cap. Every process counts its own streams anyway,
and that count is what holds while Redis cannot be reached: a Redis that is down never locks
a table out.
"""

from __future__ import annotations

import hashlib
import ipaddress
import logging
import math
import secrets
import threading
import time
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import redis
from flask import Flask, Response, current_app
from flask_babel import gettext as _

log = logging.getLogger(__name__)

# What a Redis URL starts with (the schemes of the limits library's Redis storage): any
# other storage (memory://, a cluster, a sentinel) leaves each process counting its own.
REDIS_SCHEMES = ("redis://", "rediss://", "redis+unix://")
# A lease outlives this many heartbeats of its stream, which renews it at each one: a stream
# whose worker died frees its slots within that time (a minute by default).
LEASE_HEARTBEATS = 3
# After Redis failed, how long (seconds) each process counts alone before asking it again:
# a Redis that is away costs a stream one failed try, not one per stream.
REDIS_RESTS = 10.0
# Connections to Redis per worker process, and how long (seconds) one is waited for, and an
# answer on it.
REDIS_CONNECTIONS = 20
REDIS_TIMEOUT = 3.0
# How long a stream past a cap is asked to wait (seconds): held streams end within a few
# minutes (live/stream.py), dropped ones within seconds. A page waits its own while anyway.
RETRY_AFTER = 30


@dataclass(eq=False)
class Lease:
    """One stream's place in the counts: its id, the counts it is in (their keys), whether
    Redis holds it too, and when it was last renewed there (time.monotonic())."""

    id: str
    keys: tuple[str, ...]
    shared: bool
    renewed: float


class StreamCaps:
    """The stream counts of one worker process, and Redis's, where configured."""

    def __init__(self, app: Flask) -> None:
        config = app.config
        self.prefix = f"{config['RATELIMIT_KEY_PREFIX']}:streams"
        self.caps = {
            "phone": int(config["STREAMS_PER_PHONE"]),
            "address": int(config["STREAMS_PER_ADDRESS"]),
            "match": int(config["STREAMS_PER_MATCH"]),
        }
        self.config = config
        self.crowded_share = int(config["STREAMS_PER_ADDRESS_CROWDED"])
        self.lease_for = LEASE_HEARTBEATS * float(config["STREAM_HEARTBEAT"])
        uri = str(config["RATELIMIT_STORAGE_URI"])
        self.redis: redis.Redis | None = None
        if uri.startswith(REDIS_SCHEMES):
            # A few connections per process, which its streams wait for in turn (streams
            # opened together renew together); and timeouts short enough that a Redis that
            # does not answer holds a phone's stream up a moment, once every REDIS_RESTS, and
            # long enough for a worker busy with thousands of phones to read its answer.
            pool = redis.BlockingConnectionPool.from_url(
                uri.replace("redis+unix://", "unix://"),
                max_connections=REDIS_CONNECTIONS,
                timeout=REDIS_TIMEOUT,
                socket_timeout=REDIS_TIMEOUT,
                socket_connect_timeout=REDIS_TIMEOUT,
            )
            self.redis = redis.Redis(connection_pool=pool)
        self._lock = threading.Lock()
        # This process's open streams in each count, by key, and in all.
        self._held: Counter[str] = Counter()
        self._open = 0
        # Until when (time.monotonic()) Redis is not asked, after it failed.
        self._redis_rests_until = 0.0

    def keys(self, phone: str | None, address: str | None, code: str) -> dict[str, str]:
        """The counts a stream of this phone, address and match is in, by kind: their keys."""
        keys = {"address": self.address_key(address)}
        if phone:
            # Hashed: the store never holds what a phone's cookie names it by.
            hashed = hashlib.blake2s(phone.encode(), digest_size=12).hexdigest()
            keys["phone"] = f"{self.prefix}:phone:{hashed}"
        keys["match"] = f"{self.prefix}:match:{code}"
        return keys

    @property
    def budget(self) -> int:
        """This worker's budget of streams: read when asked, as gunicorn's worker tells the
        app its connections only once the app is made (gunicorn.conf.py)."""
        return budget(self.config)

    def address_key(self, address: str | None) -> str:
        """The key of an address's count."""
        return f"{self.prefix}:address:{network(address)}"

    def room(self, address: str | None) -> bool:
        """Whether this worker has room for another stream from this address: under its
        budget, and once crowded (past half of it), only for an address holding fewer than
        its crowded share here. Asked before anything is read: a refusal costs nothing."""
        with self._lock:
            return self._room(self.address_key(address))

    def _room(self, address_key: str) -> bool:
        """room(), with the lock held."""
        most = self.budget
        if self._open >= most:
            return False
        crowded = self._open >= most // 2
        return not (crowded and self._held[address_key] >= self.crowded_share)

    def take(
        self, phone: str | None, address: str | None, code: str, at_table: bool = False
    ) -> Lease | None:
        """A lease for a new stream of this phone, from this address, on this match; None if
        any of its counts is at its cap. A phone `at_table` (holding a side, or the host) is
        counted in its match's count but never refused by it: a stranger with the code who
        fills it cannot take the table's own live view away."""
        keys = self.keys(phone, address, code)
        capped = {kind: key for kind, key in keys.items() if not (at_table and kind == "match")}
        with self._lock:
            if not self._room(keys["address"]):
                return None
            if any(self._held[key] >= self.caps[kind] for kind, key in capped.items()):
                return None
            self._held.update(keys.values())
            self._open += 1
        lease = Lease(secrets.token_hex(8), tuple(keys.values()), False, time.monotonic())
        shared = self._take_shared(lease, keys, capped)
        if shared is False:
            self._forget(lease)
            return None
        lease.shared = bool(shared)
        return lease

    def _take_shared(
        self, lease: Lease, keys: dict[str, str], capped: dict[str, str]
    ) -> bool | None:
        """Add the lease to Redis's counts: whether the `capped` ones stayed within their caps
        (if not, it is taken back out); None where Redis is not used or could not be reached."""
        store = self._store()
        if store is None:
            return None
        now = time.time()
        try:
            with store.pipeline(transaction=True) as add:
                for key in keys.values():
                    # Leases of streams whose worker died: expired, swept.
                    add.zremrangebyscore(key, "-inf", now)
                    add.zadd(key, {lease.id: now + self.lease_for})
                    add.zcard(key)
                    add.expire(key, math.ceil(self.lease_for) + 1)
                counted = dict(zip(keys, add.execute()[2::4], strict=True))
            # Added, then counted: of two streams racing for the last place both may be
            # refused, never both let in.
            if all(counted[kind] <= self.caps[kind] for kind in capped):
                return True
            self._give_back(store, lease)
            return False
        except redis.RedisError:
            self._redis_failed()
            return None

    def renew(self, lease: Lease) -> None:
        """The stream still lives: push its leases' expiry on (at most once a heartbeat)."""
        if not lease.shared:
            return
        now = time.monotonic()
        # Half a heartbeat: a heartbeat written a moment early still renews.
        if now - lease.renewed < self.lease_for / LEASE_HEARTBEATS / 2:
            return
        store = self._store()
        if store is None:
            return
        lease.renewed = now
        expires = time.time() + self.lease_for
        try:
            with store.pipeline(transaction=False) as renew:
                for key in lease.keys:
                    renew.zadd(key, {lease.id: expires})
                    renew.expire(key, math.ceil(self.lease_for) + 1)
                renew.execute()
        except redis.RedisError:
            self._redis_failed()

    def give_back(self, lease: Lease) -> None:
        """The stream ended: its places are free (once: a second call does nothing)."""
        if not lease.keys:
            return
        self._forget(lease)
        store = self._store() if lease.shared else None
        if store is not None:
            try:
                self._give_back(store, lease)
            except redis.RedisError:
                # Its leases expire on their own within a minute.
                self._redis_failed()
        lease.keys = ()

    def _give_back(self, store: redis.Redis, lease: Lease) -> None:
        """Take the lease out of Redis's counts."""
        with store.pipeline(transaction=False) as remove:
            for key in lease.keys:
                remove.zrem(key, lease.id)
            remove.execute()

    def _forget(self, lease: Lease) -> None:
        """Take the lease out of this process's counts."""
        with self._lock:
            self._held.subtract(lease.keys)
            self._open -= 1
            for key in lease.keys:
                if self._held[key] <= 0:
                    del self._held[key]

    def _store(self) -> redis.Redis | None:
        """Redis, unless none is configured or it failed a moment ago."""
        if self.redis is None or time.monotonic() < self._redis_rests_until:
            return None
        return self.redis

    def _redis_failed(self) -> None:
        """Redis could not be reached: count in this process alone for a while, and say so
        (once: the streams that were asking it meanwhile fail too)."""
        if time.monotonic() < self._redis_rests_until:
            return
        self._redis_rests_until = time.monotonic() + REDIS_RESTS
        log.warning(
            "streams counted by this process alone for %.0f s: Redis unreachable",
            REDIS_RESTS,
            exc_info=True,
        )


def budget(config: Mapping[str, Any]) -> int:
    """How many streams one worker holds at most: STREAMS_PER_WORKER, or by default four
    fifths of the connections it holds (WORKER_CONNECTIONS, which gunicorn's worker tells the
    app: gunicorn.conf.py), the rest kept for pages and posts."""
    given = config.get("STREAMS_PER_WORKER")
    if given:
        return int(given)
    return int(config["WORKER_CONNECTIONS"]) * 4 // 5


def network(address: str | None) -> str:
    """What an address is counted by: an IPv4 address itself, an IPv6 address its /64 (a
    phone or a home is given a whole /64, and could take a new address from it for each
    stream)."""
    try:
        parsed = ipaddress.ip_address(address or "")
    except ValueError:
        return address or "-"
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    return str(parsed)


def kept(stream: Iterator[bytes], caps: StreamCaps, lease: Lease) -> Iterator[bytes]:
    """The stream, renewing its lease each time it writes and giving it back when it ends."""
    try:
        for chunk in stream:
            caps.renew(lease)
            yield chunk
    finally:
        caps.give_back(lease)


def refused() -> Response:
    """The answer to a stream past a cap: 429 with Retry-After, and a line in the phone's
    language. No page: an EventSource shows none, and an address pressing on is answered
    at little cost."""
    words = _("Too many live pages are open from here. Wait a moment, then try again.")
    response = Response(words, 429, mimetype="text/plain")
    response.headers["Retry-After"] = str(RETRY_AFTER)
    response.headers["Cache-Control"] = "no-store"
    return response


def stream_caps() -> StreamCaps:
    """The current app's stream counts."""
    caps: StreamCaps = current_app.extensions["stream_caps"]
    return caps


def init_app(app: Flask) -> None:
    """Give the app its stream counts."""
    app.extensions["stream_caps"] = StreamCaps(app)
    if app.extensions["stream_caps"].redis is None:
        app.logger.info("streams are counted per worker process (no Redis configured)")
