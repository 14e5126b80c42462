"""Fixtures: a fresh app and database per test; test clients as the phones at a table."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask

from scorekeeper import create_app
from scorekeeper.extensions import db
from tests.phones import Phone


@pytest.fixture
def app(tmp_path) -> Iterator[Flask]:  # type: ignore[no-untyped-def]
    """The app on a fresh SQLite file, with real CSRF protection."""
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test-secret",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'test.sqlite'}",
            "RATELIMIT_ENABLED": False,
        }
    )
    with app.app_context():
        db.create_all()
    yield app
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
