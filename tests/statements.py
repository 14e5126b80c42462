"""SQL statements an app sends, counted on its engine (with the bench's own counter): a request
reads what it needs in a small number of statements that does not grow with hands or history."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from flask import Flask

from bench.queries import counting
from scorekeeper.extensions import db


@contextmanager
def statements(app: Flask) -> Iterator[list[str]]:
    """Every SQL statement the app sends while the block runs."""
    with app.app_context():
        engine = db.engine
    with counting(engine) as sent:
        yield sent
