"""SQL statements per request, counted in-process on the app's engine (no gunicorn needed)."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from bench.database import BenchError
from bench.phones import SignedPhone
from scorekeeper.extensions import db
from tests.statements import counting


class QueryCounter:
    """Requests through test clients, one a phone, each one's statements counted as it comes:
    nothing is cleared between them, so a request costs what it costs after those before it."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        with app.app_context():
            self.engine = db.engine
            # The dialect's first-connect queries (server version and the like) are not a page's.
            db.session.execute(sa.text("SELECT 1"))
            db.session.remove()

    def phone(self, phone: SignedPhone) -> FlaskClient:
        """A test client as this phone: it keeps the cookies it is given, as a browser does."""
        client = self.app.test_client()
        client.set_cookie(self.app.config["SESSION_COOKIE_NAME"], phone.cookie_value)
        return client

    def count(
        self,
        client: FlaskClient,
        method: str,
        path: str,
        expect: int,
        headers: dict[str, str] | None = None,
        data: dict[str, Any] | None = None,
    ) -> tuple[int, TestResponse]:
        """How many statements one request sends, and its answer; fails unless it is answered
        with `expect`."""
        with counting(self.engine) as statements:
            response = client.open(path, method=method, headers=headers, data=data)
        if response.status_code != expect:
            raise BenchError(
                f"{method} {path} answered {response.status_code}, not {expect}:\n"
                + response.get_data(as_text=True)[:2000]
            )
        return len(statements), response
