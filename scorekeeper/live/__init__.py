"""The live view (docs/live.md): every phone at a table sees an entry the moment another phone
makes it, whichever worker or server took the post.

- etags.py: a match page's ETag (its version, a tag of the phone, the release), so the fetch
  that follows a ring costs only what changed (a 304 while nothing did);
- stream.py: a match's stream of server-sent events, which carries its versions only;
- fanout.py: each worker's MatchVersions, which rings the streams it holds when it writes,
  hears (PostgreSQL's NOTIFY) or reads (its fallback, and SQLite's wake-ups) a new version.

Its lifecycle, in one place: init_app gives the app its release and a MatchVersions that runs
nothing; the server starts it in each worker process that serves (start: gunicorn.conf.py's
post_worker_init, and the tests for their apps), and stops it when the worker is told to stop.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import Flask, current_app

from scorekeeper.live import etags
from scorekeeper.live.fanout import MatchVersions


@dataclass
class Live:
    """An app's live layer: the release that serves (a hash of the code, templates and static
    files: a stream names it, and a page of another release reloads), the key its page tags
    are hashed with (etags.request_tag), and its versions store."""

    release: str
    tag_key: bytes
    versions: MatchVersions


def of(app: Flask | None = None) -> Live:
    """The live layer of this app (the current one by default)."""
    live: Live = (app or current_app).extensions["live"]
    return live


def versions(app: Flask | None = None) -> MatchVersions:
    """The app's versions store (the current app's by default): what rings its streams."""
    return of(app).versions


def start(app: Flask, *, gevent: bool) -> None:
    """Start the app's live layer in this worker process, where it serves: its reader, and
    its listener on PostgreSQL. `gevent`: the worker is gevent's (gunicorn.conf.py), whose
    reader and listener are greenlets that must never block the worker. They are only if
    gevent patched the worker's sockets and threads: if it did not, the worker would freeze
    every phone it serves at each wait, so this says so in the log and refuses to start.
    A threaded server (the tests', the browser tests') runs them as the threads they are."""
    if gevent:
        from gevent import monkey

        unpatched = [name for name in ("socket", "threading") if not monkey.is_module_patched(name)]
        if unpatched:
            message = (
                f"gevent did not patch {' and '.join(unpatched)} in this worker: the live "
                "layer's reader and listener would block every phone it serves. Start the "
                "server with scorekeeper/gunicorn.conf.py, and without --preload."
            )
            app.logger.error(message)
            raise RuntimeError(message)
    versions(app).start()


def stop(app: Flask) -> None:
    """Stop the app's live layer: its streams end (their phones reconnect to a worker that
    runs), its reader and listener with them. A worker told to stop; a test's app."""
    versions(app).close()


def init_app(app: Flask) -> None:
    """Give the app its release, the key of its page tags (the app's secret and the release)
    and its versions store, which runs nothing until start()."""
    made = etags.release_of(app)
    app.jinja_env.globals["release"] = made
    app.extensions["live"] = Live(made, etags.tag_key(app, made), MatchVersions(app))
