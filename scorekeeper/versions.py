"""Each match's version, known in every worker without asking the database on every poll.

Every phone at a table asks every two seconds whether its match changed, and nearly every time
it has not. Every write to a match bumps the match's version (sheet/actions.py); on PostgreSQL
the same statement announces the new version with NOTIFY, which goes out when, and only if, the
write commits. Each worker process listens on a connection of its own and remembers the newest
version it has heard of for each match, so an unchanged poll is answered from memory.

Versions only grow, so the memory keeps the larger of what it heard and what it read: a slow
read can never hide a newer write. When the listening connection drops, everything remembered
is forgotten and every lookup reads the database until the worker listens again; a read begun
before such a drop is not remembered after it. SQLite has no NOTIFY: there every lookup reads
the version, one indexed row of a local file, which costs little.
"""

from __future__ import annotations

import logging
import os
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import sqlalchemy as sa
from flask import Flask, current_app

from scorekeeper.extensions import db
from scorekeeper.models import Match

log = logging.getLogger(__name__)

# One channel per schema, so two apps on one server (the test suite's schemas) stay apart.
CHANNEL_PREFIX = "scorekeeper_"
# Forgetting is always safe (the next lookup reads the database), so memory is simply capped.
MAX_REMEMBERED = 100_000
# How long the listener waits for news before checking whether it should stop, and how long it
# waits before listening again after its connection dropped.
LISTEN_TICK = 1.0


@dataclass(frozen=True)
class Known:
    """A match's id and its version at the moment it was read or announced."""

    match_id: int
    version: int


def announcement(dialect: str) -> list[sa.ColumnElement[Any]]:
    """Extra RETURNING columns for the statement that bumps a match's version: on PostgreSQL
    (the `dialect` named "postgresql"), NOTIFY of the match's new version on this schema's
    channel, sent when the write commits."""
    if dialect != "postgresql":
        return []
    channel = sa.func.concat(CHANNEL_PREFIX, sa.func.current_schema())
    payload = sa.func.concat_ws(" ", Match.code, Match.id, Match.version)
    return [sa.func.pg_notify(channel, payload)]


class MatchVersions:
    """What version each match is at, per app and per worker process."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self._lock = threading.Lock()
        self._known: dict[str, Known] = {}
        self._listening = False
        # Bumped whenever listening starts or stops: a read begun in another era isn't kept.
        self._era = 0
        self._listener: threading.Thread | None = None
        self._listener_pid: int | None = None
        self._stop = threading.Event()

    # -- reading ---------------------------------------------------------------------------

    def current(self, code: str, *, fresh: bool = False) -> Known | None:
        """The match with this code and its version now; None if there is no such match.

        `fresh` reads the database even if the version is remembered: the page a phone is sent
        to right after its own write may be served by another worker, which hears of that
        write a moment later.
        """
        era = None
        if self._listens():
            with self._lock:
                known = None if fresh else self._known.get(code)
                era = self._era
            if known is not None:
                return known
        row = db.session.execute(
            sa.select(Match.id, Match.version).where(Match.code == code)
        ).first()
        if row is None:
            return None
        known = Known(row.id, row.version)
        if era is not None:
            self._remember(code, known, era)
        return known

    def heard(self, code: str) -> Known | None:
        """The newest version this process has heard of for a match, from memory alone; None
        if it has heard of none, or cannot trust what it heard (not listening)."""
        with self._lock:
            return self._known.get(code) if self._listening else None

    @property
    def listening(self) -> bool:
        """Whether this process is listening for versions now (PostgreSQL, once started)."""
        return self._listening

    def wrote(self, code: str, known: Known) -> None:
        """This process committed a new version: remember it now rather than when it is heard."""
        with self._lock:
            era = self._era
        self._remember(code, known, era)

    def _remember(self, code: str, known: Known, era: int) -> None:
        """Keep a version if it is newer than the one kept and the era is still the same."""
        with self._lock:
            if not self._listening or era != self._era:
                return
            kept = self._known.get(code)
            if kept is not None and kept.version >= known.version:
                return
            if len(self._known) >= MAX_REMEMBERED:
                self._known.clear()
            self._known[code] = known

    # -- listening (PostgreSQL) ------------------------------------------------------------

    def _listens(self) -> bool:
        """Whether remembered versions can be trusted now; starts this process's listener."""
        if db.engine.dialect.name != "postgresql":
            return False
        if self._listener_pid != os.getpid():
            with self._lock:
                # After a fork (or on first use) this process has no listener of its own yet.
                if self._listener_pid != os.getpid() and not self._stop.is_set():
                    self._listener_pid = os.getpid()
                    self._listening = False
                    self._known.clear()
                    self._listener = threading.Thread(
                        target=self._listen, name="match-versions", daemon=True
                    )
                    self._listener.start()
        return self._listening

    def _set_listening(self, listening: bool) -> None:
        """Start or stop trusting what is remembered; either way, forget it and begin an era."""
        with self._lock:
            self._known.clear()
            self._era += 1
            self._listening = listening

    def _listen(self) -> None:
        """The listener thread: LISTEN on a connection of its own; reconnect after any failure."""
        from psycopg import sql

        while not self._stop.is_set():
            connection = None
            try:
                with self.app.app_context():
                    # The app's own connection settings (search_path and all), out of the pool.
                    pooled = db.engine.raw_connection()
                connection = pooled.driver_connection
                pooled.detach()
                connection.autocommit = True
                schema = connection.execute("SELECT current_schema()").fetchone()[0]
                channel = sql.Identifier(CHANNEL_PREFIX + schema)
                connection.execute(sql.SQL("LISTEN {}").format(channel))
                self._set_listening(True)
                while not self._stop.is_set():
                    for note in connection.notifies(timeout=LISTEN_TICK):
                        self._heard(note.payload)
            except Exception:
                if not self._stop.is_set():
                    log.warning("not listening for match versions: polls read them", exc_info=True)
            finally:
                self._set_listening(False)
                if connection is not None:
                    connection.close()
            self._stop.wait(LISTEN_TICK)

    def _heard(self, payload: str) -> None:
        """An announcement: 'CODE match_id version'."""
        try:
            code, match_id, version = payload.split(" ")
            known = Known(int(match_id), int(version))
        except ValueError:
            log.warning("match versions: ignored a malformed announcement %r", payload)
            return
        with self._lock:
            era = self._era
        self._remember(code, known, era)

    def close(self) -> None:
        """Stop listening: the listener closes its connection within a tick (tests make many
        apps in one process; a worker process simply exits)."""
        self._stop.set()


Kept = TypeVar("Kept")


Key = TypeVar("Key")
Value = TypeVar("Value")


class RecentlyUsed(Generic[Key, Value]):
    """What a process keeps in memory, shared by its threads and bounded: at most `capacity`
    entries, the least recently used forgotten first. Forgetting is always safe: whatever is
    kept in one can be read again from the database."""

    def __init__(self, capacity: int) -> None:
        self._lock = threading.Lock()
        self._kept: OrderedDict[Key, Value] = OrderedDict()
        self._capacity = capacity

    def __len__(self) -> int:
        with self._lock:
            return len(self._kept)

    def clear(self) -> None:
        """Forget everything kept (the bench counts each page's statements worked out cold)."""
        with self._lock:
            self._kept.clear()

    def recall(self, key: Key) -> Value | None:
        """What is kept for this key, if anything."""
        with self._lock:
            value = self._kept.get(key)
            if value is not None:
                self._kept.move_to_end(key)
            return value

    def remember(self, key: Key, value: Value) -> None:
        """Keep this value for this key, forgetting the least recently used beyond capacity."""
        with self._lock:
            self._put(key, value)

    def _put(self, key: Key, value: Value) -> None:
        """remember(), for a caller already holding the lock."""
        self._kept[key] = value
        self._kept.move_to_end(key)
        while len(self._kept) > self._capacity:
            self._kept.popitem(last=False)


class NewestByMatch(RecentlyUsed[int, tuple[int, Kept]]):
    """What a process keeps of recently seen matches, each at the newest version seen: a sheet
    page, a history card. Every write bumps a match's version, so what was worked out for a
    version never goes stale; it is only replaced by what a newer version gives."""

    def get(self, match_id: int, version: int) -> Kept | None:
        """What is kept for a match at exactly this version, if anything."""
        with self._lock:
            kept = self._kept.get(match_id)
            if kept is None or kept[0] != version:
                return None
            self._kept.move_to_end(match_id)
            return kept[1]

    def keep(self, match_id: int, version: int, value: Kept) -> Kept:
        """Keep a value for a match at a version, unless this version or a newer one is kept
        already; what is kept for this version (the value itself if it was older)."""
        with self._lock:
            kept = self._kept.get(match_id)
            if kept is not None and kept[0] >= version:
                return kept[1] if kept[0] == version else value
            self._put(match_id, (version, value))
            return value


def init_app(app: Flask) -> None:
    """Give the app its versions store."""
    app.extensions["match_versions"] = MatchVersions(app)


def versions() -> MatchVersions:
    """The current app's versions store."""
    store: MatchVersions = current_app.extensions["match_versions"]
    return store
