"""A phone at the table, as the web tests drive it: a test client that fills forms."""

from __future__ import annotations

import html
import re
import uuid
from typing import Any

import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from scorekeeper.extensions import db
from scorekeeper.models import Match

CSRF = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"')
# A radio button the form checks by default: its name and value.
CHECKED = re.compile(r'<input checked [^>]*name="([^"]+)"[^>]*value="([^"]*)"')
# A list the form preselects: its name and the selected value.
SELECTED = re.compile(
    r'<select [^>]*name="([^"]+)"[^>]*>(?:(?!</select>).)*?<option selected value="([^"]*)"', re.S
)


class Shown(TestResponse):
    """A response with the page's words as a person reads them (entities decoded)."""

    @property
    def shown(self) -> str:
        """The page text with HTML entities decoded: what a phone shows."""
        return html.unescape(self.get_data(as_text=True))


class Phone:
    """One phone: its own cookie jar, posting forms with a real CSRF token."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.client = FlaskClient(app, Shown, use_cookies=True)

    def on(self, worker: Flask) -> Phone:
        """This phone (its cookie) with its requests served by another worker."""
        moved = Phone(worker)
        cookie = self.client.get_cookie(worker.config["SESSION_COOKIE_NAME"])
        assert cookie is not None
        moved.client.set_cookie(cookie.key, cookie.value)
        return moved

    def get(self, url: str) -> TestResponse:
        """Open a page."""
        return self.client.get(url)

    def token(self) -> str:
        """The CSRF token a page of ours hands this phone: the new-match form's, a page that
        reads nothing from the database (reloaded as a player would while it says "try
        again", all the same)."""
        for _ in range(5):
            page = self.client.get("/new/other")
            if page.status_code != 503:
                break
        found = CSRF.search(page.get_data(as_text=True))
        assert found, "no CSRF token on the new-match page"
        return found.group(1)

    def post(
        self,
        url: str,
        data: dict[str, Any] | None = None,
        *,
        csrf: bool = True,
        key: str | None = None,
        follow: bool = True,
    ) -> TestResponse:
        """Submit a form as a browser would: CSRF token and a fresh idempotency key."""
        form = {"key": key or uuid.uuid4().hex, **(data or {})}
        if csrf:
            form["csrf_token"] = self.token()
        return self.client.post(url, data=form, follow_redirects=follow)

    # The table's moves, written once.

    def create(self, game: str = "basra", **fields: Any) -> str:
        """Create a match with the form's defaults, changed by `fields`; return its code."""
        page = self.get(f"/new/{game}").get_data(as_text=True)
        defaults = dict(CHECKED.findall(page)) | dict(SELECTED.findall(page))
        response = self.post(f"/new/{game}", {**defaults, "host_side": "0", **fields}, follow=False)
        assert response.status_code == 302, response.get_data(as_text=True)
        return response.headers["Location"].rstrip("/").split("/")[-1]

    def join(self, code: str, side: int | None) -> TestResponse:
        """Type the code, then claim a side (or watch when side is None)."""
        response = self.post("/join", {"code": code.lower()})
        assert response.status_code == 200
        if side is None:
            return self.post(f"/m/{code}/watch")
        return self.post(f"/m/{code}/claim", {"target": side})

    def enter(self, code: str, hand: int, side: int, points: Any, **extra: Any) -> TestResponse:
        """Enter this phone's side total for a hand."""
        return self.post(
            f"/m/{code}/enter", {"hand": hand, "side": side, "points": points, **extra}
        )

    def correct(
        self,
        code: str,
        hand: int,
        side: int,
        points: Any,
        *,
        revision: int | None = None,
        reason: str = "",
        **extra: Any,
    ) -> TestResponse:
        """The host's correction of a cell, against the revision its page shows."""
        url = f"/m/{code}/hand/{hand}/side/{side}/correct"
        if revision is None:
            page = self.get(url).get_data(as_text=True)
            revision = int(re.search(r'name="revision"[^>]*value="(\d+)"', page).group(1))
        return self.post(
            url,
            {
                "hand": hand,
                "side": side,
                "points": points,
                "revision": revision,
                "reason": reason,
                **extra,
            },
        )


def totals(page: str) -> list[str]:
    """The totals row under the sheet (points, or Brisca's rounds won), as a phone shows it."""
    row = page.split('<tr class="totals">')[1].split("</tr>")[0]
    return re.findall(r"<td[^>]*>(-?\d+)</td>", row)


def snapshot(app: Flask) -> dict[str, list[tuple[Any, ...]]]:
    """Every stored row of every table: compare before and after to prove nothing changed."""
    with app.app_context():
        return {
            table.name: sorted(
                tuple(map(repr, row)) for row in db.session.execute(sa.select(table)).all()
            )
            for table in db.metadata.sorted_tables
        }


def stored_match(app: Flask, code: str) -> Match:
    """The match as stored, detached for reading in a test."""
    with app.app_context():
        match = db.session.scalar(sa.select(Match).where(Match.code == code))
        assert match is not None
        db.session.expunge(match)
        return match
