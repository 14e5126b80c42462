"""gunicorn's settings for Scorekeeper: serve.py passes this file (by path, so the master
imports nothing of the app, and gevent patches a worker before it imports psycopg).

Every phone at a table holds a stream open (live/), so a worker is gevent's: a stream is a
greenlet waiting on its bell, holding no thread and no database connection, and a worker holds
thousands. psycopg (3.1.14 and later) waits through gevent's patched select once gevent has
patched it before psycopg is first imported: hence no preload.
"""

import os
import shutil
import socket
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import gevent
from gunicorn.workers.ggevent import GeventWorker  # type: ignore[import-untyped]

# How long (seconds) a read of a phone's request, or a write of its answer, may wait for the
# next bytes before the connection is given up on (docs/operations.md, "Slow phones and posts
# that are no form").
CLIENT_TIMEOUT = float(os.environ.get("SCOREKEEPER_CLIENT_TIMEOUT", "15"))
# How long (seconds) a request's body may take to arrive whole, counted from its headers
# (which gunicorn's keepalive, 2 s, bounds as a whole): past it the body is given up on (408)
# however steadily it trickles. A form is a few KB, and a phone's outbox gives up on an
# answer after 20 s and sends the post again anyway (static/js/outbox.js).
REQUEST_DEADLINE = float(os.environ.get("SCOREKEEPER_REQUEST_DEADLINE", "20"))
# Connections one address (an IPv6 address by its /64) may hold open at once in one worker:
# the app's own `limit_conn`, so that no address holds a worker's connections with bodies it
# trickles. Above the streams an address may hold (300) and a café's pages and posts beside
# them. Behind a reverse proxy (SCOREKEEPER_TRUSTED_PROXIES) every connection comes from the
# proxy, so the proxy's limit_conn counts instead, and this one is off; 0 turns it off too.
CONNECTIONS_PER_ADDRESS = (
    0
    if int(os.environ.get("SCOREKEEPER_TRUSTED_PROXIES", "0") or 0)
    else int(os.environ.get("SCOREKEEPER_CONNECTIONS_PER_ADDRESS", "400"))
)
# The answer to a connection past its address's cap, written before the connection is let go
# unread: constant bytes, so a flood costs an accept, a write and a close.
_TURNED_AWAY = b"Too many connections from here. Wait a moment, then try again.\n"
TOO_MANY_CONNECTIONS = (
    b"HTTP/1.1 429 Too Many Requests\r\nRetry-After: 30\r\nConnection: close\r\n"
    b"Content-Type: text/plain; charset=utf-8\r\nContent-Length: %d\r\n\r\n%s"
    % (len(_TURNED_AWAY), _TURNED_AWAY)
)


class Arriving:
    """A request body's reader (gunicorn's, under its Body) that gives up once the request's
    deadline has passed: each read waits at most the time left, so a body trickled a byte at a
    time, each byte within the client timeout, still ends at the deadline. The TimeoutError
    marks gunicorn's Body as failed (the connection closes after the answer), and the app
    answers 408 (errors.too_slow) and records nothing."""

    def __init__(self, reader: Any, deadline: float) -> None:
        self.reader = reader
        self.deadline = deadline

    def read(self, size: int) -> bytes:
        """What the reader gives, if it gives it before the deadline."""
        left = self.deadline - time.monotonic()
        late = TimeoutError("the request did not arrive whole in time")
        if left <= 0:
            raise late
        with gevent.Timeout(left, late):
            data: bytes = self.reader.read(size)
            return data


class PatientGeventWorker(GeventWorker):
    """gevent's worker, patient with a phone's connection for CLIENT_TIMEOUT seconds at a
    time and REQUEST_DEADLINE seconds for a request's body in all, no longer; and holding at
    most CONNECTIONS_PER_ADDRESS connections of one address. A body promised
    (Content-Length) and never sent, trickled, or trickled and then stopped, would otherwise
    hold its greenlet and one of worker_connections for good, and enough of them froze every
    table. gunicorn's own `timeout` does not apply to gevent workers, and its `keepalive`
    bounds only the wait for a request's headers (as a whole: gunicorn waits for them inside
    one gevent.Timeout).

    The timeout is the socket's: each read or write that waits longer fails, the app answers
    408 for a body it could not read (errors.too_slow: a phone's outbox sends it again), and
    the connection closes. A match's stream only writes, and a write to a phone that reads
    returns at once, so a stream idle between heartbeats is never cut; one whose phone stopped
    reading is, when a write finds its buffers full for that long."""

    # What an address is counted by (stream_caps.network, once the app is loaded).
    counted_by: Callable[[str | None], str] = staticmethod(lambda address: address or "-")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # This worker's open connections, by the address they are counted by (one gevent
        # loop: no lock).
        self.connections: Counter[str] = Counter()

    def handle(self, listener: Any, client: Any, addr: Any) -> None:
        """Serve the connection with the timeout set (GeventWorker.handle would make the
        socket wait for ever, so its next step is called instead), unless its address holds
        its share of this worker's connections already."""
        address = self.counted_by(addr[0]) if isinstance(addr, tuple) else None
        if address is not None and CONNECTIONS_PER_ADDRESS:
            if self.connections[address] >= CONNECTIONS_PER_ADDRESS:
                turn_away(client)
                return
            self.connections[address] += 1
        try:
            client.settimeout(CLIENT_TIMEOUT)
            super(GeventWorker, self).handle(listener, client, addr)
        finally:
            if address is not None and CONNECTIONS_PER_ADDRESS:
                self.connections[address] -= 1
                if self.connections[address] <= 0:
                    del self.connections[address]

    def handle_request(self, listener_name: Any, req: Any, sock: Any, addr: Any) -> Any:
        """Serve a request whose headers arrived, its body due within REQUEST_DEADLINE."""
        body = getattr(req, "body", None)
        if body is not None:
            body.reader = Arriving(body.reader, time.monotonic() + REQUEST_DEADLINE)
        return super().handle_request(listener_name, req, sock, addr)

    def load_wsgi(self) -> None:
        """Load the app, and tell it how many workers this server runs and how many
        connections each holds: where each counts in its own memory (the limit on guessed
        codes with memory://), each allows its share, and each worker keeps room for pages and
        posts beside its streams (stream_caps.py)."""
        super().load_wsgi()
        config = getattr(self.wsgi, "config", None)
        if config is not None:  # Scorekeeper (the bench's bare endpoint runs here too)
            config["SERVER_WORKERS"] = self.cfg.workers
            config["WORKER_CONNECTIONS"] = self.cfg.worker_connections
            from scorekeeper.stream_caps import network

            self.counted_by = network


def turn_away(client: Any) -> None:
    """Answer a connection past its address's cap with TOO_MANY_CONNECTIONS and let it go,
    having read what it sent already (closed with unread bytes, the connection would be
    reset, and the answer lost). Its request is never read, so its language is not known:
    the line is English, and no phone at a table meets it (a café's phones hold a few
    connections each, far from 400 in one worker)."""
    try:
        client.settimeout(1)
        client.sendall(TOO_MANY_CONNECTIONS)
        client.shutdown(socket.SHUT_WR)
        client.recv(65536, socket.MSG_DONTWAIT)
    except OSError:
        pass
    finally:
        client.close()


worker_class = PatientGeventWorker
# Open streams and requests one worker serves at once: the tables' phones, each with a stream.
worker_connections = 5000


def post_worker_init(worker: Any) -> None:
    """Start the app's live layer in this worker (live.start: the reader of match versions,
    and on PostgreSQL the listener), once gevent patched it: if gevent did not, starting says
    so in the log and refuses, and the worker fails to boot (gunicorn then stops: a worker that
    would block every phone at each wait must not serve). End the worker's streams the moment
    it is told to stop (a restart, a deploy), so its phones reconnect to a worker that runs
    instead of holding it for the graceful timeout. And say so loudly if psycopg waits without
    yielding to gevent (imported before gevent patched the worker, as --preload would do):
    every query would then stall the worker."""
    import sys

    import gevent

    waiting = sys.modules.get("psycopg.waiting")
    if waiting is not None and waiting.wait.__name__ == "wait_c":
        worker.log.error(
            "psycopg was imported before gevent patched this worker: each query blocks every "
            "phone this worker serves. Do not preload the app."
        )

    app = worker.wsgi
    package = sys.modules.get("scorekeeper")
    if package is None or not isinstance(app, package.Scorekeeper):
        return  # the bench's bare endpoint and floors run under this file too
    from scorekeeper import live

    live.start(app, gevent=isinstance(worker, GeventWorker))

    def watch() -> None:
        while worker.alive:
            gevent.sleep(0.25)
        live.stop(app)

    gevent.spawn(watch)


# The figures' folder (figures.py): every worker writes its figures there, and the one that
# answers /metrics reads them all (prometheus_client's multiprocess mode). Made here, in the
# master before any worker starts, so whoever starts gunicorn with this file gets it right.
_figures = {"made_here": ""}


def on_starting(server: Any) -> None:
    """Give the workers an empty figures folder: the operator's PROMETHEUS_MULTIPROC_DIR,
    emptied of its figures (the library asks for that before every start: a worker's files
    would add up with the last run's), else a new temporary one, removed on exit. The workers
    inherit the environment, and the library reads it when the app first imports it."""
    folder = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if not folder:
        folder = _figures["made_here"] = tempfile.mkdtemp(prefix="scorekeeper-figures-")
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = folder
    os.makedirs(folder, exist_ok=True)
    for name in os.listdir(folder):
        # Only the library's files: the folder may hold others by mistake.
        if name.endswith(".db"):
            os.remove(os.path.join(folder, name))


def child_exit(server: Any, worker: Any) -> None:
    """A worker ended (a restart, a crash): its streams and its listener's trust are no longer
    figures of a live worker (its counts and times stay in the totals)."""
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)


def on_exit(server: Any) -> None:
    """gunicorn stops: a figures folder made here goes with it."""
    if _figures["made_here"]:
        shutil.rmtree(_figures["made_here"], ignore_errors=True)
