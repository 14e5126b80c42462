"""Fixtures the web tests share: a head-to-head Basra table, a second worker, and databases of
their own for real servers."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from scorekeeper import Scorekeeper, live
from tests.conftest import fresh_memory
from tests.phones import Phone
from tests.servers import migrate, new_database

# What a test app's settings say, copied to a second app on the same database.
SHARED_SETTINGS = (
    "TESTING",
    "SECRET_KEY",
    "SQLALCHEMY_DATABASE_URI",
    "SQLALCHEMY_ENGINE_OPTIONS",
    "RATELIMIT_ENABLED",
)


@pytest.fixture
def basra(host: Phone, guest: Phone) -> str:
    """Alice (host) and Ben (guest), head to head to 101."""
    code = host.create("basra", table_format="2", target="101", side_0="Alice", side_1="Ben")
    assert "This phone now holds Ben" in guest.join(code, side=1).shown
    return code


@pytest.fixture
def other_worker(
    app: Scorekeeper, _workers: tuple[Scorekeeper, Scorekeeper]
) -> Iterator[Scorekeeper]:
    """A second app on the test app's database: another worker, with a memory of its own
    (fresh for each test, as the test app's is)."""
    other = _workers[1]
    fresh_memory(other)
    yield other
    live.stop(other)


@pytest.fixture
def shared_database(tmp_path: Path) -> Iterator[str]:
    """An empty database of its own, for real servers: PostgreSQL when the suite runs there."""
    with new_database(tmp_path) as url:
        yield url


@pytest.fixture(scope="session")
def _migrated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A database brought to the newest schema as `make run` does it (`flask db upgrade`),
    once a run: servers' databases are copies of it."""
    with new_database(tmp_path_factory.mktemp("migrated")) as url:
        migrate(url)
        yield url


@pytest.fixture
def migrated_database(tmp_path: Path, _migrated: str) -> Iterator[str]:
    """A database of its own at the newest schema, for real servers (a copy of the migrated
    one: the same tables, made in a moment)."""
    with new_database(tmp_path, template=_migrated) as url:
        yield url
