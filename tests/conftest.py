"""Fixtures: a fresh app and empty database per test; test clients as the phones at a table.

SQLite by default: a new file per test. With TEST_DATABASE_URL set (e.g.
postgresql+psycopg://postgres@127.0.0.1:5432/test), PostgreSQL: the real migrations build a
schema of this run's own once, and every test starts from emptied tables.
"""

from __future__ import annotations

import logging
import os
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

from scorekeeper import create_app
from scorekeeper.extensions import db
from tests.phones import Phone

TEST_DATABASE_URL = os.environ.get("TEST_DATABASE_URL") or None


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
        TEST_DATABASE_URL,
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
def _postgres(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """PostgreSQL only: this run's schema, migrated once; the settings to reach it."""
    with empty_database(tmp_path_factory.mktemp("db")) as config:
        app = create_app(config)
        migrate_to(app)
        with app.app_context():
            db.engine.dispose()
        yield config


def _emptied(app: Flask) -> None:
    """Empty every table of the migrated schema and restart its ids, as a fresh database has."""
    with app.app_context(), db.engine.begin() as connection:
        # DELETE, not TRUNCATE: a test leaves a few rows, and TRUNCATE's new files and fsyncs
        # for every table and index cost some 60 ms a test against DELETE's 3.
        for table in reversed(db.metadata.sorted_tables):
            connection.execute(table.delete())
        connection.execute(
            sa.text(
                "SELECT setval(oid, 1, false) FROM pg_class"
                " WHERE relkind = 'S' AND relnamespace = current_schema()::regnamespace"
            )
        )


@pytest.fixture
def app(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Flask]:
    """The app on an empty database (a fresh SQLite file, or emptied PostgreSQL tables)."""
    if TEST_DATABASE_URL is None:
        app = create_app(_config(f"sqlite:///{tmp_path / 'test.sqlite'}"))
        with app.app_context():
            db.create_all()
    else:
        # Emptied before the test, not after, so a test killed halfway cannot leak rows.
        app = create_app(request.getfixturevalue("_postgres"))
        _emptied(app)
    yield app
    # On PostgreSQL the app listens for match versions on a connection of its own.
    app.extensions["match_versions"].close()
    with app.app_context():
        db.engine.dispose()


@pytest.fixture
def phones(app: Flask):  # type: ignore[no-untyped-def]
    """A maker of phones: each call is a new test client with its own cookie."""
    return lambda: Phone(app)


@pytest.fixture
def host(phones):  # type: ignore[no-untyped-def]
    """The phone that creates the match."""
    return phones()


@pytest.fixture
def guest(phones):  # type: ignore[no-untyped-def]
    """A second player's phone."""
    return phones()


@pytest.fixture
def watcher(phones):  # type: ignore[no-untyped-def]
    """A phone that only watches."""
    return phones()
