"""SQL statements an app sends, counted on its engine: a request reads what it needs in a small
number of statements that does not grow with hands or history. (The bench counts a page's
statements with the same counter, bench/queries.py.)"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import sqlalchemy as sa
from flask import Flask

from scorekeeper.extensions import db


@contextmanager
def counting(engine: sa.Engine) -> Iterator[list[str]]:
    """Every statement the engine sends from this thread while the block runs (the requests
    a test client makes run here; the version listener's echo, sent from its own thread on the
    same engine, is not a request's)."""
    statements: list[str] = []
    here = threading.get_ident()

    def record(
        connection: Any, cursor: Any, statement: str, parameters: Any, context: Any, many: bool
    ) -> None:
        if threading.get_ident() == here:
            statements.append(statement)

    sa.event.listen(engine, "before_cursor_execute", record)
    try:
        yield statements
    finally:
        sa.event.remove(engine, "before_cursor_execute", record)


@contextmanager
def statements(app: Flask) -> Iterator[list[str]]:
    """Every SQL statement the app sends while the block runs."""
    with app.app_context():
        engine = db.engine
    with counting(engine) as sent:
        yield sent
