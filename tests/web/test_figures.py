"""What an operator watches (docs/operations.md, "Health and figures"): /health for a load
balancer, and /metrics, every worker's Prometheus figures, read here by Prometheus' own parser
after a short match played over HTTP against a real gunicorn of two workers."""

from __future__ import annotations

import os
import re
import signal
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import sqlalchemy as sa
from flask import Flask
from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families
from prometheus_client.samples import Sample

from scorekeeper.extensions import db
from scorekeeper.figures import STATUSES
from tests.conftest import TEST_DATABASE_URL
from tests.phones import Phone
from tests.servers import BASRA_FORM, HttpPhone, free_port, gunicorn
from tests.streams import close_all
from tests.waiting import wait_until

TOKEN = "figures-test-token"


def read_figures(base: str, token: str = TOKEN) -> list[Sample]:
    """Every sample /metrics gives, as Prometheus would scrape it (its bearer token)."""
    request = urllib.request.Request(
        base + "/metrics", headers={"Authorization": f"Bearer {token}"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 200
        text = response.read().decode()
    return [sample for family in text_string_to_metric_families(text) for sample in family.samples]


def total(samples: list[Sample], name: str, **labels: str) -> float:
    """A figure summed over every sample of this name with these labels (every worker's)."""
    return sum(
        sample.value
        for sample in samples
        if sample.name == name and all(sample.labels.get(k) == v for k, v in labels.items())
    )


def by_worker(samples: list[Sample], name: str) -> dict[str, float]:
    """A per-worker gauge's value for each live worker, by its pid."""
    return {sample.labels["pid"]: sample.value for sample in samples if sample.name == name}


def workers_of(base: str) -> set[str]:
    """The pids of the server's live workers, as their figures name them."""
    return set(by_worker(read_figures(base), "scorekeeper_open_streams"))


@contextmanager
def answered_by(worker: str, workers: list[str]) -> Iterator[None]:
    """Every request made inside is answered by this worker: the others are stopped
    (SIGSTOP) meanwhile, so only it takes connections, and go on after."""
    others = [int(pid) for pid in workers if pid != worker]
    for pid in others:
        os.kill(pid, signal.SIGSTOP)
    try:
        yield
    finally:
        for pid in others:
            os.kill(pid, signal.SIGCONT)


def answered(samples: list[Sample], route: str, status: int) -> float:
    """How many requests the figures count for a route, answered with this status."""
    return total(samples, "scorekeeper_requests_total", route=route, status=str(status))


def timed(samples: list[Sample], route: str, method: str) -> float:
    """How many requests of a route and method the figures timed."""
    return total(samples, "scorekeeper_request_duration_seconds_count", route=route, method=method)


def post_without_token(base: str, path: str) -> int:
    """A form posted with no CSRF token (a forged one, or a page from before a restart)."""
    try:
        with urllib.request.urlopen(base + path, data=b"points=1", timeout=10) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return error.code


def test_the_figures_add_up_every_worker_after_a_short_match(migrated_database):
    with gunicorn(migrated_database, METRICS_TOKEN=TOKEN, CODE_MISS_LIMIT="1 per hour") as (
        base,
        _,
    ):
        status, body, headers = HttpPhone(base).get("/health")
        assert (status, body) == (200, "ok\n")
        assert "Set-Cookie" not in headers

        host, guest = HttpPhone(base), HttpPhone(base)
        status, page = host.post("/new/basra", BASRA_FORM)
        assert status == 200
        code = re.search(r"/m/([A-Z2-9]{6})/live", page).group(1)
        assert guest.post(f"/m/{code}/claim", {"target": 1})[0] == 200

        # Both workers' pids, from their own figures (each worker has them once it started).
        assert wait_until(lambda: len(workers_of(base)) == 2, 15)
        first, second = workers_of(base)
        # Two streams held by each worker, and the live part asked again with its ETag (304)
        # three times of one worker and twice of the other: the worker answering /metrics
        # must give the other's figures too.
        streams = []
        status, _, headers = guest.get(f"/m/{code}/live")
        assert status == 200
        for worker, fetches in ((first, 3), (second, 2)):
            with answered_by(worker, [first, second]):
                for _ in range(2):
                    streams.append(HttpPhone(base).stream(f"/m/{code}/events"))
                    assert streams[-1].next()["event"] == "release"
                for _ in range(fetches):
                    etag = {"If-None-Match": headers["ETag"]}
                    assert guest.get(f"/m/{code}/live", etag)[0] == 304
        figures = read_figures(base)
        assert by_worker(figures, "scorekeeper_open_streams") == {first: 2, second: 2}
        assert total(figures, "scorekeeper_rings_total") == 0

        # Alice enters her 48: every stream is rung.
        assert host.post(f"/m/{code}/enter", {"hand": 1, "side": 0, "points": 48})[0] == 200
        assert None not in [stream.ring() for stream in streams]
        # Ben enters for Alice's side, which his phone doesn't hold; a forged form is posted.
        status, page = guest.post(f"/m/{code}/enter", {"hand": 1, "side": 0, "points": 30})
        assert status == 403
        assert "cannot enter for another side" in page
        assert post_without_token(base, f"/m/{code}/enter") == 400

        figures = read_figures(base)
        assert total(figures, "scorekeeper_rings_total") >= len(streams)
        assert total(figures, "scorekeeper_refusals_total", kind="action") == 1
        assert total(figures, "scorekeeper_refusals_total", kind="csrf") == 1
        # Requests by route and status, counted once each across both workers, and timed by
        # route and method.
        assert answered(figures, "sheet.live", 200) == 1
        assert answered(figures, "sheet.live", 304) == 5
        assert timed(figures, "sheet.live", "GET") == 6
        assert answered(figures, "sheet.events", 200) == len(streams)
        assert answered(figures, "sheet.enter", 302) == 1
        assert answered(figures, "sheet.enter", 403) == 1
        assert answered(figures, "sheet.enter", 400) == 1
        assert timed(figures, "sheet.enter", "POST") == 3
        # Their time: every request in the +Inf bucket, and some time spent.
        for sample in figures:
            if sample.name == "scorekeeper_request_duration_seconds_count":
                labels = {**sample.labels, "le": "+Inf"}
                bucket = "scorekeeper_request_duration_seconds_bucket"
                assert total(figures, bucket, **labels) == sample.value
        assert total(figures, "scorekeeper_request_duration_seconds_sum") > 0
        # A route is named, never its path: no match code is a label.
        assert code not in "".join(str(sample.labels) for sample in figures)
        assert answered(figures, "metrics", 200) == timed(figures, "metrics", "GET") == 0

        # The listener's trust, per worker holding streams: only PostgreSQL's listeners hear.
        listens = migrated_database.startswith("postgresql")
        assert wait_until(
            lambda: (
                set(by_worker(read_figures(base), "scorekeeper_listener_trusted").values())
                == {1.0 if listens else 0.0}
            ),
            10,
        )

        # Codes that match nothing, past the limit (1 an hour per worker here): 429.
        answers = []
        stranger = HttpPhone(base)
        for guess in ("QQQQQ2", "QQQQQ3", "QQQQQ4", "QQQQQ5"):
            answers.append(stranger.get(f"/m/{guess}")[0])
            if answers[-1] == 429:
                break
        assert answers[-1] == 429
        figures = read_figures(base)
        assert answered(figures, "sheet.match", 429) == 1
        assert answered(figures, "sheet.match", 404) == len(answers) - 1
        assert total(figures, "scorekeeper_refusals_total", kind="too_many_requests") == 1
        assert total(figures, "scorekeeper_refusals_total", kind="not_found") == len(answers) - 1

        # The phones close their pages: no stream is counted open any more.
        close_all(streams)
        assert wait_until(
            lambda: sum(by_worker(read_figures(base), "scorekeeper_open_streams").values()) == 0,
            10,
        )

        # A worker dies (kill -9) and gunicorn starts another: the dead one's gauges go, its
        # counts stay in the totals.
        os.kill(int(first), signal.SIGKILL)

        def replaced() -> bool:
            workers = workers_of(base)
            return len(workers) == 2 and first not in workers

        assert wait_until(replaced, 15)
        assert answered(read_figures(base), "sheet.live", 304) == 5


def test_health_says_503_while_the_database_cannot_be_reached(tmp_path: Path):
    if os.environ.get("TEST_DATABASE_URL", "").startswith("postgresql"):
        # A PostgreSQL server on a port where none listens.
        unreachable = f"postgresql+psycopg://postgres@127.0.0.1:{free_port()}/scorekeeper"
    else:
        # A SQLite file in a folder that is not there.
        unreachable = f"sqlite:///{tmp_path / 'gone' / 'scorekeeper.sqlite'}"
    with gunicorn(unreachable) as (base, _):
        status, body, headers = HttpPhone(base).get("/health")
        assert (status, body) == (503, "database unreachable\n")
        assert "Set-Cookie" not in headers


def test_health_answers_without_a_cookie_or_a_count(app: Flask, phones):
    phone: Phone = phones()
    answer = phone.client.get("/health")
    assert (answer.status_code, answer.get_data(as_text=True)) == (200, "ok\n")
    assert answer.headers["Cache-Control"] == "no-store"
    assert "Set-Cookie" not in answer.headers
    assert answer.headers.get("ETag") is None


@pytest.mark.parametrize(
    ("configured", "given", "status"),
    [
        (None, None, 404),
        (None, "Bearer ", 404),
        ("s3cret", None, 401),
        ("s3cret", "Bearer wrong", 401),
        ("s3cret", "s3cret", 401),
        ("s3cret", "Bearer s3cret", 200),
    ],
)
def test_the_figures_are_shown_only_to_the_bearer_of_the_token(
    app: Flask, phones, monkeypatch, configured, given, status
):
    monkeypatch.setitem(app.config, "METRICS_TOKEN", configured)
    phone: Phone = phones()
    headers = {"Authorization": given} if given is not None else {}
    answer = phone.client.get("/metrics", headers=headers)
    assert answer.status_code == status
    assert "Set-Cookie" not in answer.headers
    shown = answer.get_data(as_text=True)
    assert ("scorekeeper_refusals_total" in shown) == (status == 200)
    if status == 401:
        assert answer.headers["WWW-Authenticate"].startswith("Bearer")


def test_health_is_not_fooled_by_connections_the_database_dropped(app: Flask, phones):
    """A database restart drops every pooled connection: the next check is made on a fresh
    one, not answered 503 (a balancer would take every server out at once)."""
    if TEST_DATABASE_URL is None or not TEST_DATABASE_URL.startswith("postgresql"):
        pytest.skip("PostgreSQL drops connections; a SQLite file has none to drop")
    phone: Phone = phones()
    assert phone.client.get("/health").status_code == 200
    with app.app_context():
        # Every connection the app's pool holds now, just used (so none is checked for
        # idling before its next use), ended by the database as a restart would.
        pool = db.engine.pool
        assert isinstance(pool, sa.pool.QueuePool)
        held = [db.engine.connect() for _ in range(pool.checkedin())]
        pids = [connection.scalar(sa.text("SELECT pg_backend_pid()")) for connection in held]
        for connection in held:
            connection.close()
    killer = sa.create_engine(TEST_DATABASE_URL, poolclass=sa.pool.NullPool)
    try:
        with killer.connect() as connection:
            for pid in pids:
                connection.execute(sa.text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
    finally:
        killer.dispose()
    assert phone.client.get("/health").status_code == 200


def series(name: str) -> set[tuple[tuple[str, str], ...]]:
    """The label sets of a figure's series in this process's registry (the test client's)."""
    return {
        tuple(sorted(sample.labels.items()))
        for family in REGISTRY.collect()
        for sample in family.samples
        if sample.name == name
    }


def test_the_figures_stay_the_same_size_whatever_strangers_send(app: Flask, phones, basra):
    stranger: Phone = phones()
    routes = {rule.endpoint for rule in app.url_map.iter_rules()} | {"unmatched"}

    def junk(round: int) -> None:
        """Requests no phone sends, new ones each round: made-up methods, paths and codes,
        on made-up paths and real routes."""
        for n in range(15):
            word = f"J{round}X{n}"
            stranger.client.open(f"/{word}/{n}", method=word)
            stranger.client.open(f"/m/{word[:6].upper():A<6}/enter", method=word)
            stranger.client.open(f"/m/{basra}/hand/{n + 1}/side/{n}", method="PROPFIND")
            stranger.client.get(f"/m/{basra}/events?since={word}", headers={"X-Junk": word})
            stranger.client.get(f"/{word}.php?{word}={word}")
            stranger.client.post(f"/m/{basra}/enter", data=word, content_type="text/xml")

    names = ("scorekeeper_requests_total", "scorekeeper_request_duration_seconds_count")
    junk(1)
    after_one = {name: series(name) for name in names}
    junk(2)
    junk(3)
    # More of it, all different: not one series more.
    assert {name: series(name) for name in names} == after_one
    for name in names:
        for labels in map(dict, series(name)):
            assert labels["route"] in routes
            assert labels.get("method", "GET") in ("GET", "POST", "other")
            assert labels.get("status", "other") in {"other", *map(str, STATUSES)}
    assert basra not in str(after_one)
