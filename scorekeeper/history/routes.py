"""This phone's matches: unfinished first to resume, then the newest."""

from __future__ import annotations

import sqlalchemy as sa
import sqlalchemy.orm as so
from flask import Blueprint, flash, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from scorekeeper.extensions import db
from scorekeeper.forms import ActionForm, post_of
from scorekeeper.matches import match_or_404
from scorekeeper.models import Match, Seat
from scorekeeper.permissions import current_phone
from scorekeeper.scoresheet.seats import forget
from scorekeeper.scoresheet.sheet import Sheet, load_sheets
from scorekeeper.scoresheet.writing import Post

bp = Blueprint("history", __name__)

PER_PAGE = 20
# Far beyond any real history: a page past it is shown empty without asking the database, so
# a forged ?page= cannot push an offset past what the database accepts.
LAST_PAGE = 1_000_000


def page_of(phone: str, page: int) -> sa.Select[int]:
    """The ids of the matches on one page of a phone's history, and one more.

    In ix_seat_history's order: the database reads a page's worth of the index however long
    the history, and nothing counts the whole history. The one more says whether there is an
    older page.
    """
    return (
        sa.select(Seat.match_id)
        .where(Seat.phone == phone, Seat.listed.is_(True))
        .order_by(Seat.match_open.desc(), Seat.match_created_at.desc(), Seat.match_id.desc())
        .offset((page - 1) * PER_PAGE)
        .limit(PER_PAGE + 1)
    )


def sheets_of(ids: list[int]) -> list[Sheet]:
    """The sheets of these matches, in this order, in a fixed number of statements."""
    matches = db.session.scalars(
        sa.select(Match).where(Match.id.in_(ids)).options(so.selectinload(Match.sides))
    ).all()
    by_id = {sheet.match.id: sheet for sheet in load_sheets(list(matches))}
    return [by_id[match_id] for match_id in ids if match_id in by_id]


def players_of(ids: list[int]) -> dict[int, dict[int, list[str]]]:
    """The names the players gave at these matches: by match, by side, in the order they sat
    down (one statement, whatever the page holds)."""
    named: dict[int, dict[int, list[str]]] = {}
    rows = db.session.execute(
        sa.select(Seat.match_id, Seat.side_id, Seat.player)
        .where(Seat.match_id.in_(ids), Seat.side_id.is_not(None), Seat.player != "")
        .order_by(Seat.id)
    )
    for match_id, side_id, player in rows:
        if side_id is not None:
            named.setdefault(match_id, {}).setdefault(side_id, []).append(player)
    return named


@bp.get("/history")
def index() -> str:
    """The matches this phone created, joined or watched, a page at a time."""
    phone = current_phone()
    # From 1 (the newest); a missing, junk or negative ?page= means 1.
    page = max(request.args.get("page", 1, type=int), 1)
    sheets: list[Sheet] = []
    players: dict[int, dict[int, list[str]]] = {}
    older = False
    if phone is not None and page <= LAST_PAGE:
        listed = list(db.session.scalars(page_of(phone, page)))
        older = len(listed) > PER_PAGE
        sheets = sheets_of(listed[:PER_PAGE])
        players = players_of(listed[:PER_PAGE])
    return render_template(
        "history/index.html", sheets=sheets, players=players, page=page, older=older
    )


@bp.post("/history/<code>/remove")
def remove(code: str) -> Response:
    """Take a match off this phone's history (the seat stays, unlisted; the match stays)."""
    match = match_or_404(code)
    form = ActionForm()
    # A form without its key (an old page) is carried out all the same.
    done = forget(match, post_of(form) if form.validate() else Post(current_phone()))
    flash(done.message, "repeated" if done.repeated else "done")
    return redirect(url_for("history.index", page=request.form.get("page", 1, type=int)))
