"""Fixtures the web tests share: a head-to-head Basra table, and a second worker."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask

from tests.conftest import fresh_memory
from tests.phones import Phone

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
def other_worker(app: Flask, _workers: tuple[Flask, Flask]) -> Iterator[Flask]:
    """A second app on the test app's database: another worker, with a memory of its own
    (fresh for each test, as the test app's is)."""
    other = _workers[1]
    fresh_memory(other)
    yield other
    other.extensions["match_versions"].close()
