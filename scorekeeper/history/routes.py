"""This phone's matches: unfinished first to resume, then the newest."""

from __future__ import annotations

import sqlalchemy as sa
from flask import (
    Blueprint,
    abort,
    flash,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from scorekeeper.chart import Chart, running_chart
from scorekeeper.errors import Refusal
from scorekeeper.extensions import db
from scorekeeper.forms import ActionForm, post_of
from scorekeeper.guesses import count_miss, refuse, used_up
from scorekeeper.history.forms import HistoryCodeForm
from scorekeeper.matches import match_or_404, read_matches
from scorekeeper.models import HistoryCode, Match, Seat, normalise_code
from scorekeeper.phones.identity import become, current_phone, ensure_phone
from scorekeeper.qr import qr_svg
from scorekeeper.scoresheet import moving
from scorekeeper.scoresheet.groups import groups_of
from scorekeeper.scoresheet.record import Record, read_record
from scorekeeper.scoresheet.seats import remove_from_list, seat_of
from scorekeeper.scoresheet.series import Series, read_series
from scorekeeper.scoresheet.sheet import Sheet, load_sheets
from scorekeeper.scoresheet.writing import Post
from scorekeeper.words import moving as words

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
    by_id = {sheet.match.id: sheet for sheet in load_sheets(read_matches(Match.id.in_(ids)))}
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


@bp.get("/history/last")
def last_match() -> Response:
    """Where the app opens from the home screen: this phone's last match, the first History
    lists (an unfinished one first, then the newest); Home for a phone with none."""
    phone = current_phone()
    first = db.session.scalar(page_of(phone, 1).limit(1)) if phone is not None else None
    matches = read_matches(Match.id == first) if first is not None else []
    if not matches:
        return redirect(url_for("tables.home"))
    return redirect(url_for("sheet.match", code=matches[0].code))


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
        opened=_opened_elsewhere(phone),
    )


# The history moved to, or joined with, another phone: a one-time code (scoresheet/moving.py).

# The code this phone showed last, kept in its cookie to show it again (the database keeps
# only its hash); and the last code opened that this browser was told of.
SHOWN_CODE = "history_code"
TOLD_OPENED = "history_opened"


def _opened_elsewhere(phone: str | None) -> HistoryCode | None:
    """The code another browser opened this history with, if this browser was not told yet
    (it says so once; the browser that opened it was told by its own answer)."""
    opened = moving.last_opened(phone) if phone is not None else None
    if opened is None or session.get(TOLD_OPENED) == opened.id:
        return None
    session[TOLD_OPENED] = opened.id
    return opened


@bp.get("/history/move")
def move() -> str:
    """Your history on another phone: show a code here, or open one another phone shows."""
    phone = current_phone()
    code = session.get(SHOWN_CODE)
    stored = moving.code_made(code, phone) if isinstance(code, str) else None
    # This page saying the code was opened doesn't spare History: the old phone's list is
    # where its player looks next, and it says so there too, once (issue 42, point 10).
    working = stored is not None and moving.is_working(stored)
    link = url_for("history.join_link", code=code, _external=True) if working else ""
    return render_template(
        "history/move.html",
        code=moving.shown(code) if stored is not None and isinstance(code, str) else "",
        stored=stored,
        working=working,
        qr_svg=qr_svg(link) if working else None,
        matches=moving.history_size(phone) if phone is not None else 0,
        minutes=moving.minutes(),
    )


@bp.post("/history/move")
def show_code() -> Response:
    """Make a one-time code for this phone's history, and show it."""
    form = ActionForm()
    post = post_of(form, ensure_phone()) if form.validate() else Post(ensure_phone())
    code, done = moving.make_code(post)
    session[SHOWN_CODE] = code
    flash(done.message, "repeated" if done.repeated else "done")
    return redirect(url_for("history.move"))


def _join_page(form: HistoryCodeForm) -> str:
    """The page that opens another phone's code here, with this browser's own matches said."""
    phone = current_phone()
    return render_template(
        "history/join.html",
        form=form,
        own=moving.history_size(phone) if phone is not None else 0,
    )


@bp.get("/history/join")
def join() -> str:
    """Type the code another phone shows, to keep its history here too."""
    return _join_page(HistoryCodeForm())


@bp.get("/history/join/<code>")
def join_link(code: str) -> str:
    """The link in a history code's QR code: the same page, the code filled in (nothing is
    looked up or changed until its button is pressed)."""
    form = HistoryCodeForm()
    form.code.data = moving.shown(normalise_code(code)[: moving.CODE_LENGTH])
    return _join_page(form)


@bp.post("/history/join")
def open_code() -> ResponseReturnValue:
    """Open another phone's code: this browser becomes that player, its own matches joined."""
    form = HistoryCodeForm()
    if not form.validate():
        return _join_page(form), 400
    if (wait := used_up()) is not None:
        # An address that used up its misses learns nothing from a hit either.
        refuse(wait)
    code = normalise_code(form.code.data or "")
    try:
        if len(code) != moving.CODE_LENGTH:
            # Counted like any code that finds nothing: a wrong length is a guess too.
            raise moving.UnknownCode(words.unknown(form.code.data or ""), 404)
        joined = moving.join_history(code, post_of(form))
    except Refusal as refused:
        if isinstance(refused, moving.UnknownCode):
            count_miss()
        form.code.errors.append(refused.message)
        return _join_page(form), refused.status
    become(joined.phone, moving.last_name(joined.phone))
    session[TOLD_OPENED] = joined.code_id
    session.pop(SHOWN_CODE, None)
    done = joined.done
    flash(done.message, "repeated" if done.repeated else "done")
    return redirect(url_for("history.index"))


@bp.post("/history/<code>/remove")
def remove(code: str) -> Response:
    """Take a match off this phone's history (the seat stays, unlisted; the match stays)."""
    match = match_or_404(code)
    form = ActionForm()
    # A form without its key (an old page) is carried out all the same.
    done = remove_from_list(match, post_of(form) if form.validate() else Post(current_phone()))
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
        # Only on this phone's own record: the groups it joined, each with its standings.
        groups=groups_of(current_phone()) if mine else [],
    )


@bp.get("/history/record")
def record() -> str:
    """This phone's record over the matches it played."""
    phone = current_phone()
    return _render_record(read_record(phone) if phone is not None else None)


@bp.get("/history/<code>/player/<int(max=2147483647):seat_id>")
def player(code: str, seat_id: int) -> str:
    """The record of the phone at a seat of this match (its player's name links here): over
    the matches this phone was at with it, as docs/at-the-table.md, "Your record" says, so that one
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
