"""Each match's version: the one thing a worker remembers, and only while it can prove it hears.

Every phone at a table asks every two seconds whether its match changed, and nearly every time
it has not. Every write to a match bumps the match's version (sheet/actions.py); on PostgreSQL
the same statement announces the new version with NOTIFY, which goes out when, and only if, the
write commits. Each worker process listens on a connection of its own and remembers the newest
version it has heard of for each match, so an unchanged poll is answered without the database.

A listening connection can go deaf without an error: a NAT or load balancer drops it while
idle, or LISTEN is swallowed by a pooler (PgBouncer in transaction mode). So the listener
announces an echo on its own channel every ECHO_EVERY seconds, through the app's ordinary
connections, and memory is trusted only while the last echo came back less than TRUST_FOR
seconds ago: PostgreSQL delivers notifications in commit order, so an echo heard means every
version announced before it was heard too. When the echo is late, memory is forgotten and
every lookup reads the database; after RECONNECT_AFTER seconds the listener starts over on a
new connection. LISTEN_FOR_VERSIONS = False (a pooler that cannot LISTEN) turns listening off:
every lookup reads the version, one indexed row. SQLite has no NOTIFY: there every lookup reads.
"""

from __future__ import annotations

import logging
import os
import secrets
import threading
import time
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from flask import Flask, current_app

from scorekeeper.extensions import db
from scorekeeper.models import Match

log = logging.getLogger(__name__)

# One channel per schema, so two apps on one server (the test suite's schemas) stay apart.
CHANNEL_PREFIX = "scorekeeper_"
# Forgetting is always safe (the next lookup reads the database), so memory is simply capped.
MAX_REMEMBERED = 100_000
# The listener's echo: how often it is sent, how long memory is trusted after one came back,
# and how long without one before the listener gives its connection up and starts over.
ECHO_EVERY = 1.0
TRUST_FOR = 2.5
RECONNECT_AFTER = 10.0
# How an echo's payload starts (an announcement starts with a match code, all capitals).
ECHO = "echo "

# Built once: every poll a worker cannot answer from memory runs it.
VERSION_OF = sa.select(Match.id, Match.version).where(Match.code == sa.bindparam("code"))


@dataclass(frozen=True)
class Known:
    """A match's id and its version at the moment it was read or announced."""

    match_id: int
    version: int


def channel() -> sa.ColumnElement[str]:
    """This schema's channel, as SQL: the announcements and the echo go out on it."""
    return sa.func.concat(CHANNEL_PREFIX, sa.func.current_schema())


def announcement(dialect: str) -> list[sa.ColumnElement[Any]]:
    """Extra RETURNING columns for the statement that bumps a match's version: on PostgreSQL,
    NOTIFY of the match's new version on this schema's channel, sent when the write commits."""
    if dialect != "postgresql":
        return []
    payload = sa.func.concat_ws(" ", Match.code, Match.id, Match.version)
    return [sa.func.pg_notify(channel(), payload)]


class MatchVersions:
    """What version each match is at, per app and per worker process."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        with app.app_context():
            self.engine = db.engine
        # psycopg 3 only: the listener reads notifications with its notifies() (another driver
        # would fail to listen every second; its workers read every version instead).
        self.listens = (
            bool(app.config["LISTEN_FOR_VERSIONS"])
            and self.engine.dialect.name == "postgresql"
            and self.engine.dialect.driver == "psycopg"
        )
        self._lock = threading.Lock()
        self._known: dict[str, Known] = {}
        # When the listener last heard its own echo (time.monotonic()), None while it hasn't.
        self._echo_heard: float | None = None
        # Bumped whenever memory is forgotten: a read begun before that isn't remembered.
        self._era = 0
        self._listener_pid: int | None = None
        self._listener: threading.Thread | None = None
        self._stop = threading.Event()

    # -- reading ---------------------------------------------------------------------------

    def current(self, code: str) -> Known | None:
        """The match with this code and its version now; None if there is no such match.
        From memory while the listener proves it hears; else one indexed row."""
        era = None
        if self.trusted():
            with self._lock:
                known = self._known.get(code)
                era = self._era
            if known is not None:
                return known
        with self.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as read:
            row = read.execute(VERSION_OF, {"code": code}).first()
        if row is None:
            return None
        known = Known(row.id, row.version)
        if era is not None:
            self._remember(code, known, era)
        return known

    def trusted(self) -> bool:
        """Whether remembered versions can be trusted now (starts this process's listener)."""
        if not self.listens:
            return False
        if self._listener_pid != os.getpid():
            self._start_listener()
        heard = self._echo_heard
        return heard is not None and time.monotonic() - heard < TRUST_FOR

    def wrote(self, code: str, known: Known) -> None:
        """This process committed a new version: remember it now rather than when it is heard."""
        if self.trusted():
            with self._lock:
                era = self._era
            self._remember(code, known, era)

    def _remember(self, code: str, known: Known, era: int) -> None:
        """Keep a version if it is newer than the one kept and nothing was forgotten since."""
        with self._lock:
            if era != self._era:
                return
            kept = self._known.get(code)
            if kept is not None and kept.version >= known.version:
                return
            if len(self._known) >= MAX_REMEMBERED:
                # As _forget: a read begun before this must not land after it.
                self._known.clear()
                self._era += 1
            self._known[code] = known

    def _forget(self) -> None:
        """Forget every version remembered, and anything read before now."""
        with self._lock:
            self._known.clear()
            self._era += 1

    # -- listening (PostgreSQL) ------------------------------------------------------------

    def _start_listener(self) -> None:
        """Start this process's listener: after a fork (or on first use) it has none yet."""
        with self._lock:
            if self._listener_pid == os.getpid() or self._stop.is_set():
                return
            self._listener_pid = os.getpid()
            self._known.clear()
            self._echo_heard = None
            self._listener = threading.Thread(
                target=self._listen, name="match-versions", daemon=True
            )
            self._listener.start()

    def _listen(self) -> None:
        """The listener thread: LISTEN on a connection of its own, echo, start over when deaf."""
        while not self._stop.is_set():
            connection = None
            try:
                # The app's own connection settings (search_path and all), out of the pool.
                pooled = self.engine.raw_connection()
                connection = pooled.driver_connection
                pooled.detach()
                connection.autocommit = True
                self._hear(connection)
            except Exception:
                if not self._stop.is_set():
                    log.warning("not hearing match versions: polls read them", exc_info=True)
            finally:
                self._echo_heard = None
                self._forget()
                if connection is not None:
                    connection.close()
            self._stop.wait(ECHO_EVERY)

    def _hear(self, connection: Any) -> None:
        """Listen on one connection until it goes deaf (or the app closes)."""
        from psycopg import sql

        schema = connection.execute("SELECT current_schema()").fetchone()[0]
        connection.execute(sql.SQL("LISTEN {}").format(sql.Identifier(CHANNEL_PREFIX + schema)))
        echo = f"{ECHO}{secrets.token_hex(8)}"
        listening_since = last_sent = time.monotonic()
        self._send(echo)
        while not self._stop.is_set():
            for note in connection.notifies(timeout=ECHO_EVERY / 4):
                if note.payload == echo:
                    self._heard_echo()
                elif not note.payload.startswith(ECHO):
                    # Every worker's echo goes out on the one channel: the others' say nothing.
                    self._heard(note.payload)
            now = time.monotonic()
            if now - last_sent >= ECHO_EVERY and not self._stop.is_set():
                self._send(echo)
                last_sent = now
            if now - (self._echo_heard or listening_since) > RECONNECT_AFTER:
                log.warning("match versions: no echo for %.0f s, listening anew", RECONNECT_AFTER)
                return

    def _send(self, echo: str) -> None:
        """Announce the echo through the app's ordinary connections, as any write announces."""
        try:
            with self.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as send:
                send.execute(sa.select(sa.func.pg_notify(channel(), echo)))
        except sa.exc.DBAPIError:
            # The database is unreachable: no echo comes back, so memory stops being trusted.
            log.warning("match versions: echo not sent", exc_info=True)

    def _heard_echo(self) -> None:
        """The echo came back: memory can be trusted again, from scratch if it had lapsed."""
        heard = self._echo_heard
        if heard is None or time.monotonic() - heard >= TRUST_FOR:
            # Versions may have gone unheard while it was late: start memory afresh.
            self._forget()
        self._echo_heard = time.monotonic()

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
        """Stop listening, and wait for the listener to close its connection and send no more
        echoes (tests make many apps in one process, each disposed of after; a worker process
        simply exits)."""
        self._stop.set()
        listener = self._listener
        if listener is not None and listener is not threading.current_thread():
            listener.join(timeout=5)


def init_app(app: Flask) -> None:
    """Give the app its versions store."""
    app.extensions["match_versions"] = MatchVersions(app)


def versions() -> MatchVersions:
    """The current app's versions store."""
    store: MatchVersions = current_app.extensions["match_versions"]
    return store
