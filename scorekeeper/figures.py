"""What an operator watches (docs/operations.md, "Health and figures"): `/health` for a load
balancer, and `/metrics`, Prometheus figures from every worker.

Figures are kept with prometheus_client. Under gunicorn every worker writes its own in a folder
they share (the library's multiprocess mode: PROMETHEUS_MULTIPROC_DIR, which gunicorn.conf.py
sets and empties before the workers start), and whichever worker answers `/metrics` reads them
all. Without that folder (the test client, one process) the library's in-process registry
answers.

Labels come from small fixed sets, so /metrics stays the same size whatever strangers send: a
request's route is its endpoint's name (one per URL rule; "unmatched" where none matched), never
its path (a match's code is no label); its method is GET, POST or "other", its status one of
STATUSES or "other"; a refusal's kind is one of KINDS. The time a request took is kept by route
and method, its status counted apart: a histogram is sixteen lines a series.
"""

from __future__ import annotations

import hmac
import logging
import os
import time
from typing import Any, Literal, get_args

import sqlalchemy as sa
from flask import Flask, Response, current_app, g, request, request_finished, request_started
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from prometheus_client.multiprocess import MultiProcessCollector

from scorekeeper.extensions import db

log = logging.getLogger(__name__)

# A page or a post takes 5 to 100 ms here (docs/benchmark.md): finer steps there, and a few
# beyond to see a slow database.
TIME_BUCKETS = (0.0025, 0.005, 0.01, 0.02, 0.035, 0.05, 0.075, 0.1, 0.2, 0.5, 1.0, 2.5, 5.0)

REQUESTS = Histogram(
    "scorekeeper_request_duration_seconds",
    "Requests by route (endpoint) and method (GET, POST, other), and the time until the answer "
    "started (a stream's time is until it opened, not how long it stayed open).",
    ["route", "method"],
    buckets=TIME_BUCKETS,
)
ANSWERS = Counter(
    "scorekeeper_requests",
    "Requests by route (endpoint) and the status they were answered with.",
    ["route", "status"],
)
# Methods and statuses as labels: the ones this app takes and answers, anything else "other",
# so that what a stranger sends never makes a series of its own (a method is any word).
METHODS = ("GET", "POST")
STATUSES = frozenset(
    (200, 204, 301, 302, 303, 304, 308, 400, 401, 403, 404, 405, 408, 409, 413, 415, 429)
    + (500, 503)
)
# Per worker ("liveall": a series per live worker, its pid a label): each worker holds at most
# gunicorn's worker_connections at once, streams and requests together.
OPEN_STREAMS = Gauge(
    "scorekeeper_open_streams",
    "Match streams this worker holds open.",
    multiprocess_mode="liveall",
)
RINGS = Counter(
    "scorekeeper_rings",
    "Streams rung: a phone's stream told that its match moved to a newer version.",
)
LISTENER_TRUSTED = Gauge(
    "scorekeeper_listener_trusted",
    "1 while what this worker's listener hears of new versions is trusted (its echo came back "
    "in time), else 0 (it reads them every second); set each second while it holds streams.",
    multiprocess_mode="liveall",
)
Kind = Literal[
    "action",
    "csrf",
    "bad_request",
    "not_found",
    "method_not_allowed",
    "too_large",
    "unsupported_media_type",
    "too_many_requests",
]
KINDS: tuple[Kind, ...] = get_args(Kind)
# The refusals errors.py answers, by their status (CSRF failures are 400s of their own kind).
KIND_OF_STATUS: dict[int, Kind] = {
    400: "bad_request",
    404: "not_found",
    405: "method_not_allowed",
    413: "too_large",
    415: "unsupported_media_type",
    429: "too_many_requests",
}
REFUSALS = Counter(
    "scorekeeper_refusals",
    "Requests refused, by kind: action (the score sheet refused what a phone asked: not its "
    "side, a match that ended...), csrf (a stale or forged form), and the HTTP refusals.",
    ["kind"],
)
for _kind in KINDS:
    # Every kind is there from the start, at 0: a rate over a series that appears is lost.
    REFUSALS.labels(_kind)

# The operator's own requests, left out of the requests' figures: a load balancer polls
# /health every few seconds, and Prometheus /metrics.
OWN = ("health", "metrics")


def stream_opened() -> None:
    """A stream started being rung (live/fanout.py: MatchVersions.watch)."""
    OPEN_STREAMS.inc()


def stream_closed() -> None:
    """A stream ended (live/fanout.py: MatchVersions.unwatch)."""
    OPEN_STREAMS.dec()


def rang() -> None:
    """A stream was rung (live/fanout.py: MatchVersions.tell)."""
    RINGS.inc()


def trust(trusted: bool) -> bool:
    """The listener's trust, as this worker found it just now; given back, to return."""
    LISTENER_TRUSTED.set(1 if trusted else 0)
    return trusted


def refused(kind: Kind) -> None:
    """A request was refused, and the phone told why."""
    REFUSALS.labels(kind).inc()


def refused_status(status: int) -> None:
    """An HTTP error was answered: counted if it is a refusal (a 500 or 503 is not)."""
    kind = KIND_OF_STATUS.get(status)
    if kind is not None:
        refused(kind)


def _started(sender: Flask, **extra: Any) -> None:
    """Flask took a request (signal request_started: before every before_request hook)."""
    g.request_started = time.perf_counter()


def _finished(sender: Flask, response: Response, **extra: Any) -> None:
    """Its answer is ready to start (signal request_finished: after every after_request hook,
    and for an error's answer too), so a stream is timed until it opens."""
    started = g.get("request_started")
    route = request.endpoint or "unmatched"
    if started is None or route in OWN:
        return
    method = request.method if request.method in METHODS else "other"
    status = str(response.status_code) if response.status_code in STATUSES else "other"
    REQUESTS.labels(route, method).observe(time.perf_counter() - started)
    ANSWERS.labels(route, status).inc()


def health() -> Response:
    """200 while this process answers and its database answers `SELECT 1`, else 503: for a
    load balancer's checks, every few seconds (no cookie, no page, nothing counted)."""
    answer = Response("ok\n", 200, mimetype="text/plain")
    for attempt in (1, 2):
        try:
            with db.engine.connect() as connection:
                connection.execute(sa.text("SELECT 1"))
            break
        except sa.exc.SQLAlchemyError as error:
            # A pooled connection the database dropped (it restarted) is no outage: the pool
            # lets every such connection go, and the check is made once more on a fresh one.
            dropped = isinstance(error, sa.exc.DBAPIError) and error.connection_invalidated
            if dropped and attempt == 1:
                continue
            log.warning("health: the database does not answer: %s", error)
            answer = Response("database unreachable\n", 503, mimetype="text/plain")
            break
    answer.headers["Cache-Control"] = "no-store"
    return answer


def metrics() -> Response:
    """Every worker's figures, in Prometheus' text format, to the bearer of METRICS_TOKEN; 404
    while none is configured (a public site shows them to nobody by default)."""
    token = str(current_app.config.get("METRICS_TOKEN") or "")
    if not token:
        return Response("not found\n", 404, mimetype="text/plain")
    given = request.headers.get("Authorization", "")
    if not hmac.compare_digest(given.encode(), f"Bearer {token}".encode()):
        asked = Response("a bearer token is needed\n", 401, mimetype="text/plain")
        asked.headers["WWW-Authenticate"] = 'Bearer realm="metrics"'
        return asked
    registry = REGISTRY
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        # Read afresh from every worker's files: a registry of its own for each scrape, as the
        # library says (the figures above are not registered in it).
        registry = CollectorRegistry()
        MultiProcessCollector(registry)
    answer = Response(generate_latest(registry), mimetype=CONTENT_TYPE_LATEST)
    answer.headers["Cache-Control"] = "no-store"
    return answer


def init_app(app: Flask) -> None:
    """Time every request, and answer /health and /metrics."""
    request_started.connect(_started, app)
    request_finished.connect(_finished, app)
    app.add_url_rule("/health", "health", health)
    app.add_url_rule("/metrics", "metrics", metrics)
