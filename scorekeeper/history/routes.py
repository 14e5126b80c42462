"""This phone's matches: unfinished first to resume, then the newest."""

from __future__ import annotations

import sqlalchemy as sa
import sqlalchemy.orm as so
from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from scorekeeper.chart import Chart, running_chart
from scorekeeper.extensions import db
from scorekeeper.forms import ActionForm, post_of
from scorekeeper.matches import match_or_404
from scorekeeper.models import Match, Seat
from scorekeeper.permissions import current_phone
from scorekeeper.scoresheet.record import Record, read_record
from scorekeeper.scoresheet.seats import forget, seat_of
from scorekeeper.scoresheet.series import Series, read_series
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


# A player at a match as a card names them: their seat (their name links to its record) and
# the name they gave.
Named = tuple[int, str]


def players_of(ids: list[int]) -> dict[int, dict[int, list[Named]]]:
    """The names the players gave at these matches, with their seats: by match, by side, in
    the order they sat down (one statement, whatever the page holds)."""
    named: dict[int, dict[int, list[Named]]] = {}
    rows = db.session.execute(
        sa.select(Seat.match_id, Seat.side_id, Seat.id, Seat.player)
        .where(Seat.match_id.in_(ids), Seat.side_id.is_not(None), Seat.player != "")
        .order_by(Seat.id)
    )
    for match_id, side_id, seat_id, player in rows:
        if side_id is not None:
            named.setdefault(match_id, {}).setdefault(side_id, []).append((seat_id, player))
    return named


@bp.get("/history")
def index() -> str:
    """The matches this phone created, joined or watched, a page at a time."""
    phone = current_phone()
    # From 1 (the newest); a missing, junk or negative ?page= means 1.
    page = max(request.args.get("page", 1, type=int), 1)
    sheets: list[Sheet] = []
    players: dict[int, dict[int, list[Named]]] = {}
    series: dict[int, Series] = {}
    older = False
    if phone is not None and page <= LAST_PAGE:
        listed = list(db.session.scalars(page_of(phone, page)))
        older = len(listed) > PER_PAGE
        sheets = sheets_of(listed[:PER_PAGE])
        players = players_of(listed[:PER_PAGE])
        series = read_series([sheet.match for sheet in sheets])
    return render_template(
        "history/index.html",
        sheets=sheets,
        players=players,
        series=series,
        page=page,
        older=older,
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


def results_chart(record: Record) -> Chart | None:
    """Wins and losses so far, match by match: the record's form at a glance."""
    if not record.results:
        return None
    return running_chart(
        record.results,
        None,
        # NOTE: the lines of a phone's record's chart: its wins and its losses so far.
        [_("Wins"), _("Losses")],
        "",
        # NOTE: the chart's last match, under the end of its lines ("match 12").
        _("match"),
        label=_("Wins and losses, match by match"),
    )


def _render_record(
    record: Record | None, *, mine: bool = True, name: str = "", came_from: str = ""
) -> str:
    """A record's page: this phone's own, or another phone's (`name`, opened from the sheet
    of the match `came_from`) as this one may see it; an empty one for a phone with no cookie
    yet."""
    return render_template(
        "history/record.html",
        record=record,
        mine=mine,
        name=name or (record.name if record else ""),
        came_from=came_from,
        chart=results_chart(record) if record is not None else None,
    )


@bp.get("/history/record")
def record() -> str:
    """This phone's record over the matches it played."""
    phone = current_phone()
    return _render_record(read_record(phone) if phone is not None else None)


@bp.get("/history/<code>/player/<int(max=2147483647):seat_id>")
def player(code: str, seat_id: int) -> str:
    """The record of the phone at a seat of this match (its player's name links here): over
    the matches this phone was at with it, as the README's "At the table", 9 says, so that one
    match's code leads a stranger to no other match. A phone that shared no ended match with
    it is told so on the page its link opened, not sent to a page not found."""
    match = match_or_404(code)
    seat = seat_of(match, seat_id)
    if seat is None:
        abort(404)
    viewer = current_phone()
    if seat.phone == viewer:
        return _render_record(read_record(seat.phone))
    shared = read_record(seat.phone, shared_with=viewer) if viewer is not None else None
    # Named as its player was at this match, where it shared none with this phone.
    named = (shared.name if shared else "") or seat.player or (seat.side.name if seat.side else "")
    return _render_record(shared, mine=False, name=named, came_from=match.code)
