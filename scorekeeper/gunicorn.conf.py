"""gunicorn's settings for Scorekeeper: serve.py passes this file (by path, so the master
imports nothing of the app, and gevent patches a worker before it imports psycopg).

Every phone at a table holds a stream open (live/), so a worker is gevent's: a stream is a
greenlet waiting on its bell, holding no thread and no database connection, and a worker holds
thousands. psycopg (3.1.14 and later) waits through gevent's patched select once gevent has
patched it before psycopg is first imported: hence no preload.
"""

import os
import shutil
import tempfile
from typing import Any

from gunicorn.workers.ggevent import GeventWorker  # type: ignore[import-untyped]

# How long (seconds) a read of a phone's request, or a write of its answer, may wait for the
# next bytes before the connection is given up on (docs/operations.md, "Slow phones and posts
# that are no form").
CLIENT_TIMEOUT = float(os.environ.get("SCOREKEEPER_CLIENT_TIMEOUT", "15"))


class PatientGeventWorker(GeventWorker):
    """gevent's worker, patient with a phone's connection for CLIENT_TIMEOUT seconds at a
    time, no longer: a body promised (Content-Length) and never sent, or trickled and then
    stopped, would otherwise hold its greenlet and one of worker_connections for good, and
    enough of them froze every table. gunicorn's own `timeout` does not apply to gevent
    workers, and its `keepalive` bounds only the wait for a request's headers.

    The timeout is the socket's: each read or write that waits longer fails, the app answers
    408 for a body it could not read (errors.too_slow: a phone's outbox sends it again), and
    the connection closes. A match's stream only writes, and a write to a phone that reads
    returns at once, so a stream idle between heartbeats is never cut; one whose phone stopped
    reading is, when a write finds its buffers full for that long."""

    def handle(self, listener: Any, client: Any, addr: Any) -> None:
        """Serve the connection with the timeout set (GeventWorker.handle would make the
        socket wait for ever, so its next step is called instead)."""
        client.settimeout(CLIENT_TIMEOUT)
        super(GeventWorker, self).handle(listener, client, addr)

    def load_wsgi(self) -> None:
        """Load the app, and tell it how many workers this server runs: where each counts in
        its own memory (the limit on guessed codes with memory://), each allows its share."""
        super().load_wsgi()
        config = getattr(self.wsgi, "config", None)
        if config is not None:  # Scorekeeper (the bench's bare endpoint runs here too)
            config["SERVER_WORKERS"] = self.cfg.workers


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
