"""A phone at the table, as the web tests drive it: a test client that fills forms."""

from __future__ import annotations

import html
import re
import uuid
from typing import Any

import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from itsdangerous import BadSignature
from werkzeug.test import TestResponse

from scorekeeper.extensions import db
from scorekeeper.models import Match, Seat

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
    """One phone: its own cookie jar, posting forms with the CSRF token of the last page it
    was shown, as a browser posts the form of the page it shows."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.client = FlaskClient(app, Shown, use_cookies=True)
        # The token the last page shown held, and the session cookie it came with: a token
        # belongs to its session (Flask-WTF's are good for as long as the session lasts).
        self._token: str | None = None
        self._token_session: str | None = None

    def on(self, worker: Flask) -> Phone:
        """This phone (its cookie) with its requests served by another worker."""
        moved = Phone(worker)
        cookie = self.client.get_cookie(worker.config["SESSION_COOKIE_NAME"])
        assert cookie is not None
        moved.client.set_cookie(cookie.key, cookie.value)
        # The same session, signed with the same key: the page's token is as good there.
        moved._token, moved._token_session = self._token, self._token_session
        return moved

    def _session(self) -> str | None:
        """The session cookie this phone holds now."""
        cookie = self.client.get_cookie(self.app.config["SESSION_COOKIE_NAME"])
        return cookie.value if cookie is not None else None

    def _shown(self, response: TestResponse) -> Shown:
        """Keep the token of a page this phone was shown. Its session cookie now is the one
        the app left (a post's answer may change it, never the token it holds)."""
        if response.mimetype == "text/html":
            found = CSRF.search(response.get_data(as_text=True))
            if found:
                self._token = found.group(1)
        self._token_session = self._session()
        # The client was made to answer with Shown (__init__).
        assert isinstance(response, Shown)
        return response

    def identity(self) -> str | None:
        """The token this phone's cookie names it by, as the app reads it (None before its
        first page, or for a cookie the app's key did not sign)."""
        cookie = self._session()
        if cookie is None:
            return None
        serializer = self.app.session_interface.get_signing_serializer(self.app)  # type: ignore[attr-defined]
        try:
            return serializer.loads(cookie).get("phone")
        except BadSignature:
            return None

    def get(self, url: str, headers: dict[str, str] | None = None) -> Shown:
        """Open a page (with these request headers)."""
        return self._shown(self.client.get(url, headers=headers))

    def token(self) -> str:
        """The CSRF token of the last page this phone was shown. A phone that was shown none
        (or whose cookie a test replaced since) opens the new-match form first, a page that
        reads nothing from the database (reloaded as a player would while it says "try
        again", all the same)."""
        if self._token is None or self._token_session != self._session():
            for _ in range(5):
                page = self.get("/new/other")
                if page.status_code != 503:
                    break
        assert self._token is not None, "no CSRF token on the new-match page"
        return self._token

    def post(
        self,
        url: str,
        data: dict[str, Any] | None = None,
        *,
        csrf: bool = True,
        key: str | None = None,
        follow: bool = True,
    ) -> Shown:
        """Submit a form as a browser would: CSRF token and a fresh idempotency key."""
        form = {"key": key or uuid.uuid4().hex, **(data or {})}
        if csrf:
            form["csrf_token"] = self.token()
        return self._shown(self.client.post(url, data=form, follow_redirects=follow))

    # The table's moves, written once.

    def create(self, game: str = "basra", **fields: Any) -> str:
        """Create a match with the form's defaults, changed by `fields`; return its code."""
        page = self.get(f"/new/{game}").get_data(as_text=True)
        defaults = dict(CHECKED.findall(page)) | dict(SELECTED.findall(page))
        response = self.post(f"/new/{game}", {**defaults, "host_side": "0", **fields}, follow=False)
        assert response.status_code == 302, response.get_data(as_text=True)
        return response.headers["Location"].rstrip("/").split("/")[-1]

    def join(self, code: str, side: int | None) -> Shown:
        """Type the code, then claim a side (or watch when side is None)."""
        response = self.post("/join", {"code": code.lower()})
        assert response.status_code == 200
        if side is None:
            return self.post(f"/m/{code}/watch")
        return self.post(f"/m/{code}/claim", {"target": side})

    def enter(self, code: str, hand: int, side: int, points: Any, **extra: Any) -> Shown:
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
    ) -> Shown:
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


# A number as a page writes it (languages.number): its sign, digits in groups ("1,507",
# "1.507", "1 507"), in Arabic set apart by Unicode's isolates when below zero.
WRITTEN = re.compile(r"\u2066?(-?\d{1,3}(?:[,.\xa0\u202f]\d{3})*)\u2069?")


def plain(written: str) -> str:
    """A number as a page writes it, as its plain digits and sign ("-1,187" -> "-1187")."""
    return re.sub(r"[^\d-]", "", written)


def totals(page: str) -> list[str]:
    """The totals row under the sheet (points, or Brisca's rounds won), as plain digits."""
    row = page.split('<tr class="totals">')[1].split("</tr>")[0]
    return [plain(found) for found in re.findall(rf"<td[^>]*>{WRITTEN.pattern}</td>", row)]


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


def seat_of(app: Flask, phone: Phone, code: str) -> int:
    """The id of this phone's seat at this match (what the host's tools post as a target)."""
    with app.app_context():
        seat_id = db.session.scalar(
            sa.select(Seat.id)
            .join(Match, Match.id == Seat.match_id)
            .where(Match.code == code, Seat.phone == phone.identity())
        )
    assert seat_id is not None
    return seat_id
