"""SQL statements an app sends, counted on its engine: a request reads what it needs in a
small number of statements that does not grow with hands or history."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import sqlalchemy as sa
from flask import Flask

from scorekeeper.extensions import db


@contextmanager
def statements(app: Flask) -> Iterator[list[str]]:
    """Every SQL statement the app sends while the block runs."""
    with app.app_context():
        engine = db.engine
    sent: list[str] = []

    def record(
        connection: Any, cursor: Any, statement: str, parameters: Any, context: Any, many: bool
    ) -> None:
        sent.append(statement)

    sa.event.listen(engine, "before_cursor_execute", record)
    try:
        yield sent
    finally:
        sa.event.remove(engine, "before_cursor_execute", record)
