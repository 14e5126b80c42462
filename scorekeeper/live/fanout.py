"""How a worker hears of each match's new versions, and rings the streams it holds.

Each worker process has one MatchVersions per app: it remembers which of its streams watch
which match, and what version each was told of (nothing of a match's data). Every write to a
match bumps the match's version (scoresheet/writing.py), in a statement that also announces
it (announced: on PostgreSQL a NOTIFY, sent when, and only if, the write commits). A worker
that committed a write rings its own streams at once (ring); the others hear of it.

What runs, and when. Nothing runs until the server starts the store in the worker process
that serves (start, through live.start: gunicorn.conf.py's post_worker_init, the tests'
apps and their browser server): then

- the reader (a thread; a greenlet under gevent) reads the versions of every watched match,
  in one statement every READ_EVERY seconds, whenever what the listener hears cannot be
  trusted; once more when trust starts afresh; and at once when another worker sharing its
  SQLite file wakes it;
- the listener (a thread too, PostgreSQL only) listens on a connection of its own and rings
  the streams watching the match it heard of.

close() ends both, and every stream this store rings (its phones reconnect to a worker that
runs). A store once closed stays closed: a new one takes its place (live.init_app).

A listening connection can go deaf without an error: a NAT or load balancer drops it while
idle, or LISTEN is swallowed by a pooler (PgBouncer in transaction mode). So the listener
announces an echo on its own channel every ECHO_EVERY seconds, through the app's ordinary
connections, and what it hears is trusted only while the last echo came back less than
TRUST_FOR seconds ago: PostgreSQL delivers notifications in commit order, so an echo heard
means every version announced before it was heard too. After RECONNECT_AFTER seconds without
one the listener starts over on a new connection. LISTEN_FOR_VERSIONS = False (a pooler that
cannot LISTEN) turns listening off; SQLite has no NOTIFY.

On SQLite the workers share one machine and one file instead (`make run`: gunicorn, two
workers): each worker binds a Unix datagram socket in a folder named after the database file
(in the system's temporary folder) when it starts, and a worker that commits a write sends a
one-byte datagram to every other socket there. A wake-up says nothing of the data: the woken
worker reads the versions its streams watch from the database, as its fallback read does, and
rings from what it read. A socket whose worker is gone refuses the datagram and is removed.
"""

from __future__ import annotations

import hashlib
import logging
import os
import secrets
import socket
import tempfile
import threading
import time
from contextlib import suppress
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
from flask import Flask

from scorekeeper import figures
from scorekeeper.extensions import db
from scorekeeper.models import Match

log = logging.getLogger(__name__)

# One channel per schema, so two apps on one server (the test suite's schemas) stay apart.
CHANNEL_PREFIX = "scorekeeper_"
# The listener's echo: how often it is sent, how long memory is trusted after one came back,
# and how long without one before the listener gives its connection up and starts over.
ECHO_EVERY = 1.0
TRUST_FOR = 2.5
RECONNECT_AFTER = 10.0
# How an echo's payload starts (an announcement starts with a match code, all capitals).
ECHO = "echo "
# Where nothing is heard, how often the versions of the matches streams watch are read.
READ_EVERY = 1.0
# The wake-up one worker sends the others on its machine after a write (SQLite): its content
# is never read.
WAKE_UP = b"!"

# Built once: every stream that opens reads its match's version so.
VERSION_OF = sa.select(Match.version).where(Match.code == sa.bindparam("code"))
# The versions of every match this worker's streams watch, in one statement.
VERSIONS_OF = sa.select(Match.code, Match.version).where(
    Match.code.in_(sa.bindparam("codes", expanding=True))
)


def wake_folder(engine: sa.Engine) -> str | None:
    """Where the workers sharing this SQLite file keep their wake-up sockets: a folder of the
    system's temporary folder named after the file and the user (a socket's path must be
    short: 104 bytes at most on macOS, whose temporary folder is long). None for another
    database, or SQLite in memory (one process)."""
    path = engine.url.database
    if engine.dialect.name != "sqlite" or not hasattr(socket, "AF_UNIX") or os.name != "posix":
        return None
    if not path or path == ":memory:" or path.startswith("file:"):
        return None
    named = hashlib.blake2s(os.path.realpath(path).encode(), digest_size=6).hexdigest()
    return os.path.join(tempfile.gettempdir(), f"scorekeeper-{os.getuid()}-{named}")


@dataclass(eq=False)
class Watch:
    """One open stream's interest in a match: the newest version its phone was told of, the
    newest known, and the bell rung when that moves past what was told."""

    code: str
    told: int
    newest: int
    bell: threading.Event = field(default_factory=threading.Event)


def channel() -> sa.ColumnElement[str]:
    """This schema's channel, as SQL: the announcements and the echo go out on it."""
    return sa.func.concat(CHANNEL_PREFIX, sa.func.current_schema())


def announced(bump: sa.Update, dialect: str) -> sa.Update:
    """The statement that bumps matches' versions (`bump`, an UPDATE of Match ... RETURNING),
    announcing each new version to every worker: on PostgreSQL, NOTIFY on this schema's
    channel of "CODE VERSION" for each match it bumps, which PostgreSQL sends when, and only
    if, the write commits, in commit order. The NOTIFY rides in the bump's own RETURNING
    (pg_notify() as one more column, its value read by nobody), so announcing costs no
    statement of its own: every write sends the same statements on either database. Elsewhere
    (SQLite, no NOTIFY) the bump as it is: its writer wakes the others (MatchVersions.ring).

    The payload names the match by its code, which the streams watch by; its id is no part
    of it (nobody would read it)."""
    if dialect != "postgresql":
        return bump
    payload = sa.func.concat_ws(" ", Match.code, Match.version)
    return bump.returning(sa.func.pg_notify(channel(), payload))


class MatchVersions:
    """The streams of one worker process, and what rings them: per app and per process, and
    running (its reader, its listener) from start() to close()."""

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
        self.read_every = float(app.config.get("READ_VERSIONS_EVERY", READ_EVERY))
        self.wake_folder = wake_folder(self.engine)
        # This process's wake-up socket's path, while its reader has one.
        self._wake_path: str | None = None
        self._lock = threading.Lock()
        # When the listener last heard its own echo (time.monotonic()), None while it hasn't.
        self._echo_heard: float | None = None
        # Bumped whenever trust starts afresh: the reader then reads what may have gone unheard.
        self._era = 0
        # The process that started the reader and listener (threads don't outlive a fork).
        self._started_in: int | None = None
        self._listener: threading.Thread | None = None
        self._reader: threading.Thread | None = None
        self._stop = threading.Event()
        # The open streams of this process, by match code.
        self._watches: dict[str, set[Watch]] = {}

    # -- starting ----------------------------------------------------------------------------

    @property
    def started(self) -> bool:
        """Whether this process started the reader (and the listener), and they run."""
        return self._started_in == os.getpid() and not self._stop.is_set()

    def start(self) -> None:
        """Start this process's reader, and its listener where it listens: once per worker
        process, where it serves (live.start). Its wake-up socket (SQLite) is bound before
        this returns, so a write any worker commits from then on wakes this one. Again in the
        same process: nothing more; on a store once closed: nothing."""
        with self._lock:
            if self._started_in == os.getpid() or self._stop.is_set():
                return
            self._started_in = os.getpid()
            self._echo_heard = None
        awake = self._wake_socket()
        self._reader = threading.Thread(
            target=self._read, args=(awake,), name="watched-versions", daemon=True
        )
        self._reader.start()
        if self.listens:
            self._listener = threading.Thread(
                target=self._listen, name="match-versions", daemon=True
            )
            self._listener.start()

    # -- reading ---------------------------------------------------------------------------

    def current(self, code: str) -> int | None:
        """The version of the match with this code now (one indexed row); None if there is
        no such match."""
        with self.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as read:
            return read.execute(VERSION_OF, {"code": code}).scalar()

    def trusted(self) -> bool:
        """Whether what the listener hears can be trusted now: its echo came back in time."""
        if not self.listens:
            return figures.trust(False)
        heard = self._echo_heard
        return figures.trust(heard is not None and time.monotonic() - heard < TRUST_FOR)

    def _lapse(self) -> None:
        """What the listener hears can't be trusted from here on until it starts afresh."""
        with self._lock:
            self._era += 1

    # -- ringing the streams -------------------------------------------------------------

    @property
    def closing(self) -> bool:
        """Whether the app is shutting down: its streams end, so phones reconnect elsewhere."""
        return self._stop.is_set()

    def watch(self, code: str, told: int) -> Watch:
        """Start ringing a stream whose phone was told of version `told` of this match. A
        store never started in this process would ring it only for this process's own
        writes: that is an error of the server's, said loudly, not a stream that misses
        every other worker's writes without a word."""
        if not self.started and not self.closing:
            raise RuntimeError(
                "the live layer was not started in this worker process: a server calls "
                "scorekeeper.live.start(app) where it serves (gunicorn.conf.py does)"
            )
        watch = Watch(code, told, told)
        with self._lock:
            self._watches.setdefault(code, set()).add(watch)
        figures.stream_opened()
        return watch

    def unwatch(self, watch: Watch) -> None:
        """The stream ended: ring it no more."""
        with self._lock:
            watching = self._watches.get(watch.code)
            if watching is not None:
                watching.discard(watch)
                if not watching:
                    del self._watches[watch.code]
        figures.stream_closed()

    def tell(self, watch: Watch, version: int) -> None:
        """Its match is at `version` now: ring the stream if that is news to it."""
        with self._lock:
            if version <= watch.newest:
                return
            watch.newest = version
        figures.rang()
        watch.bell.set()

    def ring(self, code: str, version: int) -> None:
        """This process committed a write that took a match to `version`: ring its streams
        watching it at once, rather than when it is heard or read, and wake the other workers
        sharing its SQLite file."""
        self._ring(code, version)
        self._wake_others()

    def _ring(self, code: str, version: int) -> None:
        """A match is at `version` now: ring every stream watching it that was told less."""
        with self._lock:
            watching = list(self._watches.get(code, ()))
        for watch in watching:
            self.tell(watch, version)

    def _read(self, awake: socket.socket | None) -> None:
        """The reader thread: while the listener's word can't be trusted, read the versions of
        every watched match every `read_every` seconds; once more whenever trust starts afresh,
        and at once whenever another worker sharing the SQLite file wakes it (on `awake`)."""
        read_in_era = None
        try:
            while not self._stop.is_set():
                woken = self._wait(awake)
                with self._lock:
                    codes = list(self._watches)
                    era = self._era
                # Trust that started afresh (a new era) may follow announcements missed: read once.
                if self._stop.is_set() or not codes:
                    continue
                if not woken and self.trusted() and era == read_in_era:
                    continue
                if self._read_versions(codes):
                    read_in_era = era
        finally:
            if awake is not None:
                self._unbind(awake)

    def _read_versions(self, codes: list[str]) -> bool:
        """Read the versions of these matches in one statement and ring from what was read;
        whether they could be read."""
        try:
            with self.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as read:
                rows = read.execute(VERSIONS_OF, {"codes": codes}).all()
        except Exception:
            # Whatever went wrong (the database away, the pool exhausted by a crowd of
            # reconnecting phones), the next read tries again: the reader never ends.
            log.warning("match versions: watched versions not read", exc_info=True)
            return False
        for code, version in rows:
            self._ring(code, version)
        return True

    # -- waking the other workers on this machine (SQLite) ---------------------------------

    def _wake_socket(self) -> socket.socket | None:
        """This process's wake-up socket, bound in the wake folder; None where there is none
        (not SQLite, or the folder can't be made: the workers then only read)."""
        folder = self.wake_folder
        if folder is None:
            return None
        path = os.path.join(folder, f"{os.getpid()}-{secrets.token_hex(3)}.sock")
        awake = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        # Twice: another worker's last reader may remove the folder between makedirs and bind.
        for attempt in (1, 2):
            try:
                os.makedirs(folder, mode=0o700, exist_ok=True)
                # Only this user's workers wake each other: a folder another user made is not used.
                if os.stat(folder).st_uid != os.getuid():
                    raise PermissionError(f"{folder} belongs to another user")
                awake.bind(path)
                break
            except FileNotFoundError:
                if attempt == 2:
                    raise
            except OSError:
                log.warning("match versions: no wake-up socket, versions are read", exc_info=True)
                awake.close()
                return None
        self._wake_path = path
        return awake

    def _unbind(self, awake: socket.socket) -> None:
        """The reader ends: its socket is closed and removed, and the folder too once empty."""
        awake.close()
        if self._wake_path is not None and self.wake_folder is not None:
            with suppress(OSError):
                os.unlink(self._wake_path)
            with suppress(OSError):
                os.rmdir(self.wake_folder)
            self._wake_path = None

    def _wait(self, awake: socket.socket | None) -> bool:
        """Wait `read_every` seconds, or until another worker wakes this one (then take every
        wake-up waiting: one read answers them all); whether one did."""
        if awake is None:
            self._stop.wait(self.read_every)
            return False
        awake.settimeout(self.read_every)
        try:
            awake.recv(16)
        except TimeoutError:
            return False
        except OSError:
            log.warning("match versions: wake-up socket failed", exc_info=True)
            self._stop.wait(self.read_every)
            return False
        awake.settimeout(0)
        with suppress(OSError):
            while awake.recv(16):
                pass
        return True

    def _wake_others(self) -> None:
        """Wake the reader of every other worker sharing this SQLite file: every socket in the
        wake folder but this process's own."""
        folder = self.wake_folder
        if folder is None:
            return
        try:
            names = os.listdir(folder)
        except OSError:
            return  # no folder: no worker holds a stream
        paths = [os.path.join(folder, name) for name in names if name.endswith(".sock")]
        self._wake([path for path in paths if path != self._wake_path])

    def _wake(self, paths: list[str]) -> None:
        """A one-byte wake-up to each of these sockets. One nobody holds any more (its worker
        ended without a word, kill -9) refuses it and is removed."""
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as send:
            # Never wait on a reader: one whose queue is full has wake-ups waiting already.
            send.setblocking(False)
            for path in paths:
                try:
                    send.sendto(WAKE_UP, path)
                except ConnectionRefusedError:
                    with suppress(OSError):
                        os.unlink(path)
                except OSError:
                    pass

    # -- listening (PostgreSQL) ------------------------------------------------------------

    def _listen(self) -> None:
        """The listener thread: LISTEN on a connection of its own, echo, start over when deaf."""
        while not self._stop.is_set():
            connection = None
            try:
                # The app's own connection settings (search_path and all), out of the pool.
                pooled = self.engine.raw_connection()
                connection = pooled.driver_connection
                assert connection is not None  # a connection just taken from the pool
                pooled.detach()
                connection.autocommit = True
                self._hear(connection)
            except Exception:
                if not self._stop.is_set():
                    log.warning("not hearing match versions: they are read", exc_info=True)
            finally:
                self._echo_heard = None
                self._lapse()
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
            notes = connection.notifies(timeout=ECHO_EVERY / 4)
            for note in notes:
                if self._stop.is_set():
                    break  # woken by close()
                if note.payload == echo:
                    self._heard_echo()
                elif not note.payload.startswith(ECHO):
                    # Every worker's echo goes out on the one channel: the others' say nothing.
                    self._heard(note.payload)
            notes.close()
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
            # The database is unreachable: no echo comes back, so the listener stops being trusted.
            log.warning("match versions: echo not sent", exc_info=True)

    def _heard_echo(self) -> None:
        """The echo came back: the listener can be trusted again, afresh if it had lapsed."""
        heard = self._echo_heard
        if heard is None or time.monotonic() - heard >= TRUST_FOR:
            # Versions may have gone unheard while it was late: the reader reads once more.
            self._lapse()
        self._echo_heard = time.monotonic()

    def _heard(self, payload: str) -> None:
        """An announcement (announced): 'CODE VERSION'. The release before this one put the
        match's id between the two, and a rolling deploy's older workers still do: the code
        is the first word and the version the last."""
        try:
            words = payload.split(" ")
            if len(words) not in (2, 3):
                raise ValueError(payload)
            self._ring(words[0], int(words[-1]))
        except ValueError:
            log.warning("match versions: ignored a malformed announcement %r", payload)

    def close(self) -> None:
        """Stop listening and reading, end every stream (its phone reconnects to a server that
        runs), and wait for the listener to close its connection and send no more echoes (tests
        make many apps in one process, each disposed of after; a worker process exits)."""
        self._stop.set()
        with self._lock:
            watching = [watch for watches in self._watches.values() for watch in watches]
        for watch in watching:
            watch.bell.set()
        if self._wake_path is not None:
            # The reader waits on its socket: woken, it sees the app is closing.
            self._wake([self._wake_path])
        if self._listener is not None and self._listener.is_alive():
            # The listener waits for a notification: one on its channel wakes it at once (every
            # listener ignores an echo not its own), rather than at its next look.
            self._send(f"{ECHO}closing")
        for thread in (self._listener, self._reader):
            if thread is not None and thread is not threading.current_thread():
                thread.join(timeout=5)
