"""SQL statements per request, counted in-process on the app's engine (no gunicorn needed)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import sqlalchemy as sa
from flask import Flask

from bench.database import BenchError
from bench.phones import SignedPhone
from scorekeeper.extensions import db
from scorekeeper.versions import RecentlyUsed


@contextmanager
def counting(engine: sa.Engine) -> Iterator[list[str]]:
    """Every statement the engine sends while the block runs."""
    statements: list[str] = []

    def record(
        connection: Any, cursor: Any, statement: str, parameters: Any, context: Any, many: bool
    ) -> None:
        statements.append(statement)

    sa.event.listen(engine, "before_cursor_execute", record)
    try:
        yield statements
    finally:
        sa.event.remove(engine, "before_cursor_execute", record)


class QueryCounter:
    """Requests through the test client as one phone or another, each one's statements counted."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        with app.app_context():
            self.engine = db.engine
            # The dialect's first-connect queries (server version and the like) are not a page's.
            db.session.execute(sa.text("SELECT 1"))
            db.session.remove()

    def count(
        self,
        phone: SignedPhone,
        method: str,
        path: str,
        expect: int,
        headers: dict[str, str] | None = None,
        data: dict[str, Any] | None = None,
        *,
        cold: bool = True,
    ) -> int:
        """How many statements one request sends; fails if it is not answered with `expect`.
        `cold`: with nothing kept from an earlier request, as a worker meets a match the first
        time (kept pages and cards then spare the database altogether); else after them."""
        client = self.app.test_client()
        client.set_cookie(self.app.config["SESSION_COOKIE_NAME"], phone.cookie_value)
        if cold:
            for kept in self.app.extensions.values():
                if isinstance(kept, RecentlyUsed):
                    kept.clear()
        with counting(self.engine) as statements:
            response = client.open(path, method=method, headers=headers, data=data)
        if response.status_code != expect:
            raise BenchError(
                f"{method} {path} answered {response.status_code}, not {expect}:\n"
                + response.get_data(as_text=True)[:2000]
            )
        return len(statements)
