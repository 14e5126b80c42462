"""gunicorn's settings for Scorekeeper: serve.py passes this file (by path, so the master
imports nothing of the app, and gevent patches a worker before it imports psycopg).

Every phone at a table holds a stream open (live.py), so a worker is gevent's: a stream is a
greenlet waiting on its bell, holding no thread and no database connection, and a worker holds
thousands. psycopg (3.1.14 and later) waits through gevent's patched select once gevent has
patched it before psycopg is first imported: hence no preload.
"""

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
