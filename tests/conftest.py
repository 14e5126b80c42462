"""Fixtures: one app per run, its database emptied for each test; test clients as the phones
at a table.

SQLite by default: a file of this run's own, its tables made once from the models. With
TEST_DATABASE_URL set (e.g. postgresql+psycopg://postgres@127.0.0.1:5432/test), PostgreSQL: the
real migrations build a schema of this run's own once. Either way every test starts from
emptied tables and an app whose memory (streams, versions, counts) is new.

Run in parallel (pytest-xdist, `make test`), each worker is a run of its own: its own SQLite
file, or on PostgreSQL its own database beside TEST_DATABASE_URL's (test_gw0, test_gw1...).
"""

from __future__ import annotations

import inspect
import logging
import os
import subprocess
import types
import uuid
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import flask_migrate
import pytest
import sqlalchemy as sa
from flask import Flask

from scorekeeper import Scorekeeper, create_app, guesses, live, new_matches
from scorekeeper.extensions import db
from tests import examples  # noqa: F401  (registers the fast lane's Hypothesis profile)
from tests.phones import Phone

TEST_DATABASE_URL = os.environ.get("TEST_DATABASE_URL") or None


# The lanes (docs/testing.md): `make test` runs every test; `make test-fast` leaves out the
# `browser` ones (tests/browser) and the `server` ones, those that start processes (gunicorn,
# `flask db upgrade`, another pytest). A test is `server` when it, a fixture it uses, or a
# function of tests/ either calls (at any depth) uses subprocess: found, not listed by hand.


def _starts_processes(function: object, seen: set[types.CodeType] | None = None) -> bool:
    """Whether this function, or a function of tests/ it names (at any depth), uses
    subprocess."""
    function = inspect.unwrap(function)  # type: ignore[arg-type]
    if not inspect.isfunction(function):
        return False
    seen = set() if seen is None else seen
    codes = [function.__code__]
    while codes:
        code = codes.pop()
        if code in seen:
            continue
        seen.add(code)
        codes += [const for const in code.co_consts if isinstance(const, types.CodeType)]
        for name in code.co_names:
            named = function.__globals__.get(name)
            if named is subprocess or getattr(named, "__module__", None) == "subprocess":
                return True
            if (
                inspect.isfunction(inspect.unwrap(named))
                and str(getattr(named, "__module__", "")).startswith("tests")
                and _starts_processes(named, seen)
            ):
                return True
    return False


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the tests that start processes `server` (see above)."""
    for item in items:
        if not isinstance(item, pytest.Function):
            continue
        fixtures = [
            definition.func
            for definitions in item._fixtureinfo.name2fixturedefs.values()
            for definition in definitions
        ]
        if any(_starts_processes(f) for f in [item.function, *fixtures]):
            item.add_marker(pytest.mark.server)


def _config(database_uri: str, engine_options: dict[str, Any] | None = None) -> dict[str, Any]:
    """The test app's settings on a database: real CSRF protection, no rate limits."""
    config: dict[str, Any] = {
        "TESTING": True,
        "SECRET_KEY": "test-secret",
        "SQLALCHEMY_DATABASE_URI": database_uri,
        "RATELIMIT_ENABLED": False,
    }
    if engine_options is not None:
        config["SQLALCHEMY_ENGINE_OPTIONS"] = engine_options
    return config


# Debian's headless Chromium, or another one named by SCOREKEEPER_CHROMIUM (docs/testing.md,
# "Chromium"): the same engine as the browser, without its window, at half the processor time.
CHROMIUM = Path(os.environ.get("SCOREKEEPER_CHROMIUM", "/usr/bin/chromium-headless-shell"))
# How to get it, as docs/testing.md says.
INSTALL_CHROMIUM = "apt-get install chromium-headless-shell"
SKIPPED_FOR_CHROMIUM = f"Chromium not found at {CHROMIUM}: browser tests skipped"


def pytest_configure(config: pytest.Config) -> None:
    """Where a run must test the browser (CI sets SCOREKEEPER_REQUIRE_CHROMIUM), a missing
    Chromium stops it before anything runs: skipped, the browser tests would leave it green."""
    if os.environ.get("SCOREKEEPER_REQUIRE_CHROMIUM") and not CHROMIUM.exists():
        raise pytest.UsageError(
            f"Chromium not found at {CHROMIUM}, and SCOREKEEPER_REQUIRE_CHROMIUM is set. "
            f"Install it (Debian, as root): {INSTALL_CHROMIUM}"
        )


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Say loudly, at the end of the run, that the browser tests did not run and how to get
    Chromium: skips are not failures, so the run still ends green, and a skip line is missed.
    (Here, not in tests/browser/conftest.py: a parallel run's controller, which reports,
    collects nothing and so never reads that one.)"""
    skipped = [
        report
        for report in terminalreporter.stats.get("skipped", [])
        if isinstance(report.longrepr, tuple) and SKIPPED_FOR_CHROMIUM in report.longrepr[2]
    ]
    if not skipped:
        return
    count = len(skipped)
    tests = "browser test" if count == 1 else "browser tests"
    write = terminalreporter.write_line
    terminalreporter.write_sep("!", f"{count} {tests} did not run", red=True, bold=True)
    write(f"Chromium was not found at {CHROMIUM}: nothing in tests/browser was tested.", red=True)
    write(f"Install it (Debian, as root): {INSTALL_CHROMIUM}", red=True, bold=True)
    write("or name another Chromium with SCOREKEEPER_CHROMIUM=/path/to/chromium.", red=True)
    terminalreporter.write_sep("!", red=True, bold=True)


# The Redis the rate limits and the stream caps share between processes (docs/testing.md).
REDIS = "redis://127.0.0.1:6379/0"


# Where screenshots and pictures go for a person to look at (git-ignored).
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """The folder for screenshots and pictures, made if this run is the first to need it."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture
def redis_url() -> str:
    """The shared Redis's address, once it answers. A test that needs it fails (never skips)
    when it is down: a skip would let a run end green with the shared counts untested."""
    import redis

    try:
        redis.Redis.from_url(REDIS, socket_timeout=1).ping()
    except redis.RedisError as error:
        pytest.fail(f"Redis does not answer at {REDIS} ({error}): start it (redis-server)")
    return REDIS


@contextmanager
def empty_database(directory: Path) -> Iterator[dict[str, Any]]:
    """App settings on a database with no tables: a new SQLite file, or a new PostgreSQL schema.

    A schema per use (not `public`) lets two test runs share one PostgreSQL server, and lets the
    migrations test build from nothing while the suite's own tables stay untouched.
    """
    if TEST_DATABASE_URL is None:
        yield _config(f"sqlite:///{directory / f'{uuid.uuid4().hex}.sqlite'}")
        return
    schema = f"scorekeeper_test_{uuid.uuid4().hex[:12]}"
    config = _config(
        _workers_database(TEST_DATABASE_URL),
        # Every connection of the app (and of Alembic, which borrows its engine) lands in it.
        {"connect_args": {"options": f"-csearch_path={schema}"}},
    )
    admin = create_app(config)
    with admin.app_context():
        with db.engine.begin() as connection:
            connection.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
        db.engine.dispose()
    try:
        yield config
    finally:
        with admin.app_context():
            with db.engine.begin() as connection:
                connection.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
            db.engine.dispose()


def _workers_database(url: str) -> str:
    """The PostgreSQL database this run's schemas go in: TEST_DATABASE_URL's own, or, for a
    worker of a parallel run, one of that worker's (made the first time). A database each, not
    only a schema each: test_dropped_connections ends every connection to its database."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker is None:
        return url
    base = sa.engine.make_url(url)
    name = f"{base.database}_{worker}"
    admin = sa.create_engine(url, isolation_level="AUTOCOMMIT", poolclass=sa.pool.NullPool)
    with admin.connect() as connection:
        made = connection.scalar(
            sa.text("SELECT 1 FROM pg_database WHERE datname = :name"), {"name": name}
        )
        if not made:
            connection.execute(sa.text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    return base.set(database=name).render_as_string(hide_password=False)


@contextmanager
def logging_kept() -> Iterator[None]:
    """Undo what migrations/env.py's fileConfig does to logging, so later tests log as before."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    # fileConfig disables every logger it does not name, the app's own among them.
    loggers = logging.root.manager.loggerDict
    disabled = {n: g.disabled for n, g in loggers.items() if isinstance(g, logging.Logger)}
    try:
        yield
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)
        for name, logger in loggers.items():
            if isinstance(logger, logging.Logger):
                logger.disabled = disabled.get(name, False)


@contextmanager
def alembic_context(app: Flask) -> Iterator[None]:
    """The app's context for running Alembic, with what env.py does to logging undone after."""
    with app.app_context(), logging_kept(), warnings.catch_warnings():
        # migrations/env.py asks Flask-SQLAlchemy for get_engine() first, deprecated in 3.1;
        # it still works, and env.py is the project's to update, so only that warning is let by.
        warnings.filterwarnings("ignore", "'get_engine' is deprecated", DeprecationWarning)
        yield


def migrate_to(app: Flask, revision: str = "head") -> None:
    """Run the real Alembic migrations in migrations/ up to a revision: the newest by default."""
    with alembic_context(app):
        flask_migrate.upgrade(revision=revision)


def migrate_down_to(app: Flask, revision: str) -> None:
    """Undo the real Alembic migrations in migrations/ down to a revision."""
    with alembic_context(app):
        flask_migrate.downgrade(revision=revision)


@pytest.fixture
def upgrade() -> Callable[..., None]:
    """Migrate an app's database up to a revision, the newest by default (migrations' tests)."""
    return migrate_to


@pytest.fixture
def downgrade() -> Callable[[Flask, str], None]:
    """Migrate an app's database down to a revision (for the migrations' own tests)."""
    return migrate_down_to


@pytest.fixture
def unmigrated_app(tmp_path: Path) -> Iterator[Flask]:
    """The app on an empty database of its own, not yet migrated."""
    with empty_database(tmp_path) as config:
        app = create_app(config)
        yield app
        with app.app_context():
            db.engine.dispose()


@pytest.fixture(scope="session")
def _database(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """This run's database, built once: a SQLite file with the models' tables, or a PostgreSQL
    schema of its own, migrated. The settings to reach it."""
    with empty_database(tmp_path_factory.mktemp("db")) as config:
        app = create_app(config)
        if TEST_DATABASE_URL is None:
            with app.app_context():
                db.create_all()
        else:
            migrate_to(app)
        with app.app_context():
            db.engine.dispose()
        yield config


def _emptied(app: Flask) -> None:
    """Empty every table and restart its ids, as a fresh database has them."""
    with app.app_context(), db.engine.begin() as connection:
        # DELETE, not TRUNCATE: a test leaves a few rows, and TRUNCATE's new files and fsyncs
        # for every table and index cost some 60 ms a test against DELETE's 3.
        for table in reversed(db.metadata.sorted_tables):
            connection.execute(table.delete())
        if connection.dialect.name == "postgresql":
            connection.execute(
                sa.text(
                    "SELECT setval(oid, 1, false) FROM pg_class"
                    " WHERE relkind = 'S' AND relnamespace = current_schema()::regnamespace"
                )
            )
        # SQLite: no AUTOINCREMENT here, so an emptied table's next id is 1 again by itself.


def fresh_memory(app: Flask) -> None:
    """What a worker keeps in memory between requests, as a new worker starts with it: its
    streams and the match versions they were told, its count of code misses."""
    # Made again by the app's own setup, as a new worker process makes them: the live layer
    # (no stream, no version told) and the count of code misses (memory:// starts empty).
    live.stop(app)
    live.init_app(app)
    guesses.init_app(app)
    new_matches.init_app(app)
    # Served by the tests' threads (the test client's, the browser tests' server): started
    # here, as gunicorn.conf.py starts a worker's.
    live.start(app, gevent=False)


@pytest.fixture(scope="session")
def _workers(_database: dict[str, Any]) -> Iterator[tuple[Scorekeeper, Scorekeeper]]:
    """The run's apps on its database: the one every test uses, and a second worker beside it
    for the tests that need one. Built in the same moment, so of the same release (a page's
    ETag names the code that drew it, and that code may change while the run goes on)."""
    apps = keep(create_app(_database)), keep(create_app(_database))
    yield apps
    for app in apps:
        live.stop(app)
        with app.app_context():
            db.engine.dispose()


@pytest.fixture(scope="session")
def _session_app(_workers: tuple[Scorekeeper, Scorekeeper]) -> Scorekeeper:
    """The one app of the run (a worker), on this run's database."""
    return _workers[0]


def _state_of(app: Flask) -> dict[str, dict[str, Any]]:
    """What a test may change on an app and must put back: its settings, its templates' globals."""
    return {"config": dict(app.config), "globals": dict(app.jinja_env.globals)}


# Each session-long app's state as built: put back, and said, after a test that changed it
# without monkeypatch (pytest_runtest_teardown below).
_kept: dict[Flask, dict[str, dict[str, Any]]] = {}


def keep(app: Scorekeeper) -> Scorekeeper:
    """An app that lives the whole run: every test must leave its settings as they were built."""
    _kept[app] = _state_of(app)
    return app


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """After every fixture of a test is torn down (monkeypatch's undoing included): a session
    app whose settings the test left changed is put back as built, and the test fails."""
    changed: list[str] = []
    try:
        result = yield
    finally:
        # Put back even after a teardown that failed, so the next test starts as built.
        for app, kept in _kept.items():
            now = _state_of(app)
            for part, held in kept.items():
                keys = {
                    k for k in held.keys() | now[part].keys() if held.get(k) != now[part].get(k)
                }
                changed += [f"{part}[{k!r}]" for k in sorted(keys)]
            app.config.clear()
            app.config.update(kept["config"])
            app.jinja_env.globals.clear()
            app.jinja_env.globals.update(kept["globals"])
    assert not changed, f"the test left the app changed (use monkeypatch): {', '.join(changed)}"
    return result


@pytest.fixture
def app(_session_app: Scorekeeper) -> Iterator[Scorekeeper]:
    """The app on an empty database: the run's one app, its tables emptied and its memory
    fresh before each test (before, not after, so a test killed halfway cannot leak rows)."""
    _emptied(_session_app)
    fresh_memory(_session_app)
    yield _session_app
    # On PostgreSQL the app listens for match versions on a connection of its own; every
    # stream the test left open ends.
    live.stop(_session_app)


@pytest.fixture
def phones(app: Flask):
    """A maker of phones: each call is a new test client with its own cookie."""
    return lambda: Phone(app)


@pytest.fixture
def host(phones):
    """The phone that creates the match."""
    return phones()


@pytest.fixture
def guest(phones):
    """A second player's phone."""
    return phones()


@pytest.fixture
def watcher(phones):
    """A phone that only watches."""
    return phones()
