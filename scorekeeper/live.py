"""The live view over HTTP: a stream that rings each phone when its match changes, and an ETag
per match version and phone, so the fetch that follows a ring costs only what changed.

A match page depends on the match (its version, which every write bumps), on who asks (the
phone's seat and host role, which only a write can change, the address it opened the app by:
the QR code and join link are built from it, and the language and time zone it reads), and on
the code that draws it. So a page's ETag is the match's version and a tag of the phone (its
token, from its signed cookie), the host it asked for and the release (a hash of the code,
templates and static files, the same on every server of one release). While they are the
same, so is the page, and a phone's fetch is answered 304. The tag is keyed with the app's
secret: it names the phone to nobody who reads ETags.

Each phone holds one stream of server-sent events open (version_events), which carries the
match's versions and nothing else. On a ring the page fetches its live part with its ETag, as
its safety fetch does once a minute. ETags are weak (W/"…"): the page is the same sheet, not
the same bytes (each form gets a fresh key), and Flask-Compress leaves a weak ETag as it is,
so a browser's If-None-Match matches it.

A stream holds a connection of its worker, which holds a few thousand: so a phone, an address
and a match may each hold only so many (stream_caps.py), a stream ends after a few minutes
(STREAM_LIFETIME; its phone's EventSource reconnects by itself, with Last-Event-ID), and a
stream whose phone went away is let go within a second or two: while it waits for its bell it
asks the phone's socket, every GONE_CHECK_EVERY seconds and without waiting, whether it was
closed (an EventSource sends nothing after its request, so anything to read there is its end).
Writing a heartbeat would only fail a while after the phone left, and the first may not.

Each worker rings the streams it holds (MatchVersions). Every write to a match bumps the
match's version (scoresheet/writing.py); on PostgreSQL the same statement
announces the new version with NOTIFY, which goes out when, and only if, the write commits.
Each worker process listens on a connection of its own and rings the streams it holds for the
match it heard of; a write it made itself it rings at once. A worker remembers which of its
streams watch which match, and what version each was told of: nothing of a match's data.

A listening connection can go deaf without an error: a NAT or load balancer drops it while
idle, or LISTEN is swallowed by a pooler (PgBouncer in transaction mode). So the listener
announces an echo on its own channel every ECHO_EVERY seconds, through the app's ordinary
connections, and what it hears is trusted only while the last echo came back less than
TRUST_FOR seconds ago: PostgreSQL delivers notifications in commit order, so an echo heard
means every version announced before it was heard too. After RECONNECT_AFTER seconds without
one the listener starts over on a new connection. LISTEN_FOR_VERSIONS = False (a pooler that
cannot LISTEN) turns listening off; SQLite has no NOTIFY.

On SQLite the workers share one machine and one file instead (`make run`: gunicorn, two
workers): each worker that holds streams binds a Unix datagram socket in a folder named
after the database file (in the system's temporary folder), and a worker that commits a write
sends a one-byte datagram to every other socket there. A wake-up says nothing of the data: the
woken worker reads the versions its streams watch from the database, as its fallback read
does, and rings from what it read. A socket whose worker is gone refuses the datagram and is
removed. So each phone hears of a write at once, whichever worker holds its stream.

Whenever the worker cannot trust what it hears (SQLite, where a wake-up can be lost; listening
off; a late echo), it reads the versions of every match its streams watch, in one statement
every READ_EVERY seconds (READ_VERSIONS_EVERY in the app's config), and rings from what it
read; once more when trust starts afresh, for what went unheard meanwhile. So a write through
any worker or server rings every phone within a few seconds at worst, and at once while the
listener hears or the workers share a machine.
"""

from __future__ import annotations

import hashlib
import logging
import math
import os
import random
import secrets
import socket
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import suppress
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from flask import Flask, current_app
from jinja2 import FileSystemLoader
from werkzeug.http import parse_etags, quote_etag

from scorekeeper import figures
from scorekeeper.extensions import db
from scorekeeper.languages import choose_language, choose_zone
from scorekeeper.models import Match

if TYPE_CHECKING:
    from _typeshed.wsgi import WSGIEnvironment

# A stream's comment this often (seconds): proxies and phones drop a connection silent for
# long (nginx after 60 s by default).
HEARTBEAT = 20.0
# How soon a phone's EventSource reconnects after its stream ended (a deploy, a restart).
RETRY_MS = 3000
# How long a stream lives at most (seconds; STREAM_LIFETIME): then it ends and its phone
# reconnects, so no connection is held for days by a phone long gone.
LIFETIME = 300.0
# How often a stream asks whether its phone closed the connection (seconds).
GONE_CHECK_EVERY = 1.0
# Every page of a match is asked for again each time: the ETag makes asking cheap, and a
# phone waking from sleep catches up.
CACHE_CONTROL = "no-cache, private"
# What else a page is drawn from: the phone's cookie and the language its browser asks for.
VARY = ("Cookie", "Accept-Language")


def request_tag(
    phone: str | None, picked: object, zone_cookie: str | None, environ: WSGIEnvironment, key: bytes
) -> str:
    """What a match page depends on besides the match: the phone, the host it asked for, and
    the language and time zone it reads (from the language its player `picked`, its browser's
    and its zone cookie), hashed with the key init_app made (the app's secret and its release)."""
    host = environ.get("HTTP_HOST", "")
    words = choose_language(picked, environ.get("HTTP_ACCEPT_LANGUAGE"))
    zone = choose_zone(zone_cookie)
    seen = f"{phone or ''}\n{host}\n{words}\n{zone}".encode()
    return hashlib.blake2s(seen, digest_size=9, key=key).hexdigest()


def release_of(app: Flask) -> str:
    """A hash of what draws the pages: the package's code, the templates, the static files.
    A deploy that changes any of them changes every ETag, so no phone keeps an old page."""
    digest = hashlib.blake2s(digest_size=8)
    package = os.path.dirname(os.path.abspath(__file__))
    loader = app.jinja_loader
    templates = loader.searchpath[0] if isinstance(loader, FileSystemLoader) else None
    for root in (package, templates, app.static_folder):
        for folder, _, files in sorted(os.walk(root or "")):
            for name in sorted(files):
                if name.endswith((".pyc", ".pyo")):
                    continue
                path = os.path.join(folder, name)
                digest.update(os.path.relpath(path, root).encode())
                with open(path, "rb") as f:
                    digest.update(f.read())
    return digest.hexdigest()


def etag_for(version: int, tag: str) -> str:
    """A match page's ETag (the value, unquoted): its version and the request's tag."""
    return f"{version}-{tag}"


def unchanged(if_none_match: str | None, etag: str) -> bool:
    """Whether the phone already holds this page: its If-None-Match names the ETag, weak or
    strong (a proxy may have made it weak)."""
    return bool(if_none_match) and parse_etags(if_none_match).contains_weak(etag)


def not_modified_headers(etag: str) -> list[tuple[str, str]]:
    """The headers of a 304 for a match page: what a 200 would say of caching."""
    return [
        ("ETag", quote_etag(etag, weak=True)),
        ("Cache-Control", CACHE_CONTROL),
        ("Vary", ", ".join(VARY)),
    ]


def version_events(
    versions: MatchVersions,
    code: str,
    told: int,
    release: str,
    heartbeat: float = HEARTBEAT,
    lifetime: float | None = None,
    phone: socket.socket | None = None,
) -> Iterator[bytes]:
    """A match's stream of server-sent events: which release serves it (a page of another
    release reloads), then the match's version each time it moves past `told` (the event's
    id, so a reconnect's Last-Event-ID says where its phone stood), and a comment every
    `heartbeat` seconds to keep proxies and phones from taking the stream for dead. Versions
    only: each phone fetches its own live part, so nothing is drawn for a phone twice.

    It ends after `lifetime` seconds (between 80 and 100 % of it, at random, so phones don't
    come back in a herd), and as soon as its phone is gone: every GONE_CHECK_EVERY seconds
    the phone's socket (`phone`, where the server gives it) is asked whether it was closed.

    Runs after the request has ended: it holds no database connection and no request, only its
    watch, which MatchVersions rings (from what the worker hears, or reads once a second)."""
    start = time.monotonic()
    ends = start + lifetime * random.uniform(0.8, 1.0) if lifetime else math.inf
    watch = versions.watch(code, told)
    try:
        yield f"retry: {RETRY_MS}\nevent: release\ndata: {release}\n\n".encode()
        # Read after the watch is in place: a write committed before is seen here, one after
        # rings the watch.
        now = versions.current(code)
        if now is not None:
            versions.tell(watch, now)
        beat = start + heartbeat
        while not versions.closing:
            moment = time.monotonic()
            if moment >= ends or (phone is not None and gone(phone)):
                return
            if moment >= beat:
                beat = moment + heartbeat
                yield b": still here\n\n"
                continue
            wake = min(beat, ends) if phone is None else min(beat, ends, moment + GONE_CHECK_EVERY)
            if not watch.bell.wait(wake - moment):
                continue
            watch.bell.clear()
            newest = watch.newest
            if newest > watch.told and not versions.closing:
                watch.told = newest
                yield f"id: {newest}\ndata: {newest}\n\n".encode()
    finally:
        versions.unwatch(watch)


def gone(phone: socket.socket) -> bool:
    """Whether the phone closed its end of the stream's connection: an EventSource sends
    nothing after its request, so a socket with something to read has only its end to say
    (or junk: still there). Asked without waiting, and the socket left as it was."""
    timeout = phone.gettimeout()
    try:
        phone.settimeout(0)
        return phone.recv(1, socket.MSG_PEEK) == b""
    except BlockingIOError:
        return False  # nothing to read: the phone is still there
    except ValueError:
        return False  # a socket that can't peek (TLS): its end shows when a write fails
    except OSError:
        return True  # reset by the phone
    finally:
        with suppress(OSError):
            phone.settimeout(timeout)


def last_seen(last_event_id: str | None, since: str | None, version: int) -> int:
    """The version a connecting phone holds: its reconnect's Last-Event-ID, else the version
    its page was drawn at (`since`), else the match's version now; never past that (a junk or
    foreign number must not silence the stream)."""
    for given in (last_event_id, since):
        given = (given or "").strip()
        # ASCII digits only, and few: "²" is a digit to str.isdigit, not to int().
        if given.isascii() and given.isdigit() and len(given) <= 18:
            return min(int(given), version)
    return version


# How a worker hears of each match's new versions, and rings its streams.

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


def announcement(dialect: str) -> list[sa.ColumnElement[Any]]:
    """Extra RETURNING columns for the statement that bumps a match's version: on PostgreSQL,
    NOTIFY of the match's new version on this schema's channel, sent when the write commits."""
    if dialect != "postgresql":
        return []
    payload = sa.func.concat_ws(" ", Match.code, Match.id, Match.version)
    return [sa.func.pg_notify(channel(), payload)]


class MatchVersions:
    """The streams of one worker process, and what rings them: per app and per process."""

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
        self._listener_pid: int | None = None
        self._listener: threading.Thread | None = None
        self._stop = threading.Event()
        # The open streams of this process, by match code, and what reads for them.
        self._watches: dict[str, set[Watch]] = {}
        self._reader_pid: int | None = None
        self._reader: threading.Thread | None = None

    # -- reading ---------------------------------------------------------------------------

    def current(self, code: str) -> int | None:
        """The version of the match with this code now (one indexed row); None if there is
        no such match."""
        with self.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as read:
            return read.execute(VERSION_OF, {"code": code}).scalar()

    def trusted(self) -> bool:
        """Whether what the listener hears can be trusted now (starts this process's
        listener)."""
        if not self.listens:
            return figures.trust(False)
        if self._listener_pid != os.getpid():
            self._start_listener()
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
        """Start ringing a stream whose phone was told of version `told` of this match."""
        watch = Watch(code, told, told)
        with self._lock:
            self._watches.setdefault(code, set()).add(watch)
        figures.stream_opened()
        self._start_reader()
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

    def streams(self) -> int:
        """How many streams this process holds open."""
        with self._lock:
            return sum(len(watching) for watching in self._watches.values())

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

    def _start_reader(self) -> None:
        """Start this process's reader of watched versions, unless it runs (none after a fork,
        or on first use)."""
        with self._lock:
            reader = self._reader
            running = reader is not None and reader.is_alive()
            if (self._reader_pid == os.getpid() and running) or self._stop.is_set():
                return
            self._reader_pid = os.getpid()
            self._reader = threading.Thread(target=self._read, name="watched-versions", daemon=True)
            self._reader.start()

    def _read(self) -> None:
        """The reader thread: while the listener's word can't be trusted, read the versions of
        every watched match every `read_every` seconds; once more whenever trust starts afresh,
        and at once whenever another worker sharing the SQLite file wakes it."""
        read_in_era = None
        awake = self._wake_socket()
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

    def _start_listener(self) -> None:
        """Start this process's listener: after a fork (or on first use) it has none yet."""
        with self._lock:
            if self._listener_pid == os.getpid() or self._stop.is_set():
                return
            self._listener_pid = os.getpid()
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
        """An announcement: 'CODE match_id version'."""
        try:
            code, _match_id, version = payload.split(" ")
            self._ring(code, int(version))
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
        for thread in (self._listener, self._reader):
            if thread is not None and thread is not threading.current_thread():
                thread.join(timeout=5)


def versions() -> MatchVersions:
    """The current app's versions store."""
    store: MatchVersions = current_app.extensions["match_versions"]
    return store


def init_app(app: Flask) -> None:
    """Key the page tags with the app's secret and its release, and keep the release: a
    stream names it, and a page of another release reloads. And give the app its versions
    store."""
    release = app.extensions["release"] = release_of(app)
    app.jinja_env.globals["release"] = release
    secret = str(app.config["SECRET_KEY"]).encode()
    app.extensions["page_tag_key"] = hashlib.blake2s(secret + release.encode()).digest()
    app.extensions["match_versions"] = MatchVersions(app)
