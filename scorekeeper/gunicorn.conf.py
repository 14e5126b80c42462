"""gunicorn's settings for Scorekeeper: serve.py passes this file (by path, so the master
imports nothing of the app, and gevent patches a worker before it imports psycopg).

Every phone at a table holds a stream open (live.py), so a worker is gevent's: a stream is a
greenlet waiting on its bell, holding no thread and no database connection, and a worker holds
thousands. psycopg (3.1.14 and later) waits through gevent's patched select once gevent has
patched it before psycopg is first imported: hence no preload.
"""

import os
import shutil
import tempfile
from typing import Any

worker_class = "gevent"
# Open streams and requests one worker serves at once: the tables' phones, each with a stream.
worker_connections = 5000


def post_worker_init(worker: Any) -> None:
    """End this worker's streams the moment it is told to stop (a restart, a deploy), so its
    phones reconnect to a worker that runs instead of holding it for the graceful timeout.
    And say so loudly if psycopg waits without yielding to gevent (imported before gevent
    patched the worker, as --preload would do): every query would then stall the worker."""
    import sys

    import gevent

    waiting = sys.modules.get("psycopg.waiting")
    if waiting is not None and waiting.wait.__name__ == "wait_c":
        worker.log.error(
            "psycopg was imported before gevent patched this worker: each query blocks every "
            "phone this worker serves. Do not preload the app."
        )

    versions = getattr(worker.wsgi, "extensions", {}).get("match_versions")
    if versions is None:
        return  # not Scorekeeper (the bench's bare endpoint and floors run under this file too)

    def watch() -> None:
        while worker.alive:
            gevent.sleep(0.25)
        versions.close()

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
