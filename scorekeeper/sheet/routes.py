"""The match page and every action on it: entries, corrections, End match, host tools."""

from __future__ import annotations

import csv
import io

import segno
from flask import (
    Blueprint,
    Response,
    abort,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from markupsafe import Markup

from scorekeeper.games import EntryFacts, get_game
from scorekeeper.models import Correction, Match, Side
from scorekeeper.permissions import Action, Refusal, Viewer, require, viewer_for
from scorekeeper.phones import ensure_phone
from scorekeeper.sheet import actions
from scorekeeper.sheet.chart import running_chart
from scorekeeper.sheet.forms import ActionForm, CorrectionForm, EntryForm
from scorekeeper.sheet.state import Sheet, load_sheet
from scorekeeper.tables.setup import find_match

bp = Blueprint("sheet", __name__, url_prefix="/m")
bp.add_app_template_global(running_chart)


@bp.app_template_filter("count_changes")
def count_changes(correction: Correction) -> str:
    """What a correction changed besides the total: calculator counts and ticks, in words."""
    old = correction.old_detail or {}
    new = correction.new_detail or {}
    old_counts, new_counts = old.get("counts") or {}, new.get("counts") or {}
    changes = [
        f"{key.replace('_', ' ')} {old_counts.get(key, 0)} → {new_counts.get(key, 0)}"
        for key in sorted(set(old_counts) | set(new_counts))
        if old_counts.get(key, 0) != new_counts.get(key, 0)
    ]
    if old and bool(old.get("counts")) != bool(new.get("counts")):
        changes.append("now from the calculator" if new.get("counts") else "now a plain total")
    for tick, words in (
        ("even_split", "even split"),
        ("last_trick", "last trick"),
        ("black_hand", "black hand"),
    ):
        if bool(old.get(tick)) != bool(new.get(tick)):
            changes.append(f"{words} {'ticked' if new.get(tick) else 'unticked'}")
    return ", ".join(changes)


def _match(code: str) -> Match:
    """The match for a code in a URL, or 404."""
    # A code is a few letters and digits; anything else cannot be one (and never reaches SQL).
    match = find_match(code.upper()) if code.isalnum() and len(code) <= 12 else None
    if match is None:
        abort(404)
    return match


def _side(match: Match, position: int | None) -> Side:
    """A side of this match by column position, or a refusal on the match page."""
    for side in match.sides:
        if side.position == position:
            return side
    raise Refusal("There is no such side in this match.", 404, match)


def _done(match: Match, done: actions.Done) -> Response:
    """After a post: say what happened, and back to the sheet (post/redirect/get)."""
    flash(done.message, "repeated" if done.repeated else "done")
    return redirect(url_for("sheet.match", code=match.code))


def _players_per_side(match: Match) -> int:
    """How many phones may hold one side of this match (two in a partnership)."""
    table_format = next(
        (f for f in get_game(match.game).formats if f.key == match.table_format), None
    )
    return table_format.players_per_side if table_format else 1


def _etag(match: Match, viewer: Viewer) -> str:
    """What a phone's live view depends on: the match's version and this phone's place at it."""
    place = (
        viewer.seat.side_id
        if viewer.seat and viewer.seat.side_id
        else ("w" if viewer.seat else "-")
    )
    return f"{match.version}.{place}.{'h' if viewer.is_host else 'p'}"


def _live_context(match: Match, sheet: Sheet, viewer: Viewer) -> dict[str, object]:
    """What the live part of the page needs, for the full page and the poll alike."""
    return {
        "sheet": sheet,
        "match": match,
        "viewer": viewer,
        "action_form": ActionForm(formdata=None),
        "held": actions.seats_by_side(match),
        "players_per_side": _players_per_side(match),
        "chart": running_chart(
            sheet.state.running, match.target, [s.name for s in sheet.sides], sheet.game.target_unit
        ),
    }


def _entry_form(sheet: Sheet, viewer: Viewer) -> EntryForm | None:
    """This phone's entry form for the open hand, filled with what its side entered so far."""
    if viewer.side is None or sheet.current_hand is None:
        return None
    form = EntryForm(sheet.game, formdata=None)
    form.hand.data = sheet.current_hand
    form.side.data = viewer.side.position
    cell = sheet.cell(sheet.current_hand, viewer.side)
    if cell is not None and cell.entry is not None:
        form.points.data = cell.entry.points
        form.even_split.data = cell.entry.even_split
        form.black_hand.data = cell.entry.black_hand
    return form


def _qr_svg(match: Match) -> Markup:
    """The match's join link as a QR code, inline SVG made on the server."""
    link = url_for("tables.join_link", code=match.code, _external=True)
    return Markup(segno.make(link, error="m").svg_inline(scale=5, border=2, omitsize=True))


def render_match(
    match: Match,
    *,
    error: str | None = None,
    status: int = 200,
    entry_form: EntryForm | None = None,
):  # type: ignore[no-untyped-def]
    """The match page: the sheet, this phone's entry form, and what it may do now."""
    sheet = load_sheet(match)
    viewer = viewer_for(match)
    return (
        render_template(
            "sheet/match.html",
            entry_form=entry_form or _entry_form(sheet, viewer),
            error=error,
            etag=_etag(match, viewer),
            qr_svg=_qr_svg(match),
            **_live_context(match, sheet, viewer),
        ),
        status,
    )


@bp.get("/<code>")
def match(code: str):  # type: ignore[no-untyped-def]
    """The sheet of one match, for players, host and watchers alike."""
    return render_match(_match(code))


@bp.get("/<code>/live")
def live(code: str):  # type: ignore[no-untyped-def]
    """The live part of the sheet for polling phones; 304 with no body while nothing changed."""
    match = _match(code)
    viewer = viewer_for(match)
    etag = _etag(match, viewer)
    if request.if_none_match.contains(etag):
        response = Response(status=304)
    else:
        sheet = load_sheet(match)
        response = make_response(
            render_template(
                "sheet/live.html",
                entry_form=_entry_form(sheet, viewer),
                **_live_context(match, sheet, viewer),
            )
        )
    response.set_etag(etag)
    # Always ask again: the ETag makes asking cheap, and a phone waking from sleep catches up.
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/<code>/sheet.csv")
def export(code: str):  # type: ignore[no-untyped-def]
    """The sheet as a spreadsheet file: every hand, each side's points and running totals."""
    match = _match(code)
    sheet = load_sheet(match)
    out = io.StringIO()
    writer = csv.writer(out)
    names = [side.name for side in sheet.sides]
    writer.writerow(["hand", *names, *(f"{name} total" for name in names)])
    for row in sheet.rows:
        points = ["" if cell.points is None else cell.points for cell in row.cells]
        writer.writerow([row.number, *points, *(row.running or [""] * len(names))])
    writer.writerow([])
    writer.writerow(["game", sheet.game.name, "target", match.target, sheet.game.target_unit])
    writer.writerow(["result", match.result or match.status])
    response = make_response(out.getvalue())
    response.headers["Content-Type"] = "text/csv; charset=utf-8"
    response.headers["Content-Disposition"] = (
        f'attachment; filename="scorekeeper-{match.game}-{match.code}.csv"'
    )
    return response


@bp.get("/<code>/qr")
def qr(code: str):  # type: ignore[no-untyped-def]
    """The join QR code full screen, for the table to scan."""
    match = _match(code)
    return render_template("sheet/qr.html", match=match, qr_svg=_qr_svg(match))


@bp.post("/<code>/enter")
def enter(code: str):  # type: ignore[no-untyped-def]
    """A side's total for the open hand."""
    match = _match(code)
    game = get_game(match.game)
    form = EntryForm(game)
    if not form.validate_on_submit():
        return render_match(
            match, entry_form=form, error="Nothing was saved: see below.", status=400
        )
    side = _side(match, form.side.data)
    facts = EntryFacts(
        points=form.points.data,
        even_split=bool(form.even_split.data),
        black_hand=bool(form.black_hand.data),
    )
    return _done(match, actions.enter_hand(match, side, form.hand.data, facts, form.key.data))


@bp.route(
    "/<code>/hand/<int(min=1, max=10000):number>/side/<int(max=7):position>/correct",
    methods=["GET", "POST"],
)
def correct(code: str, number: int, position: int):  # type: ignore[no-untyped-def]
    """The host's correction of one cell (or filling a cell a side cannot)."""
    match = _match(code)
    side = _side(match, position)
    sheet = load_sheet(match)
    require(match, Action.CORRECT)
    cell = sheet.cell(number, side)
    form = CorrectionForm(sheet.game)
    if form.validate_on_submit():
        facts = EntryFacts(
            points=form.points.data,
            even_split=bool(form.even_split.data),
            black_hand=bool(form.black_hand.data),
            last_trick=bool(form.last_trick.data),
        )
        done = actions.correct_cell(
            match, side, number, facts, form.revision.data, form.reason.data or "", form.key.data
        )
        return _done(match, done)
    if not form.is_submitted():
        entry = cell.entry if cell else None
        form.hand.data = number
        form.side.data = position
        form.revision.data = entry.revision if entry else 0
        if entry is not None:
            form.points.data = entry.points
            form.even_split.data = entry.even_split
            form.black_hand.data = entry.black_hand
            form.last_trick.data = entry.last_trick
    return render_template(
        "sheet/correct.html",
        sheet=sheet,
        match=match,
        side=side,
        number=number,
        cell=cell,
        form=form,
    ), (400 if form.is_submitted() else 200)


@bp.get("/<code>/hand/<int(min=1, max=10000):number>/side/<int(max=7):position>")
def cell(code: str, number: int, position: int):  # type: ignore[no-untyped-def]
    """One cell opened: what was entered, its breakdown, and its corrections."""
    match = _match(code)
    side = _side(match, position)
    sheet = load_sheet(match)
    found = sheet.cell(number, side)
    if found is None:
        abort(404)
    trail = [c for c in match.corrections if c.hand_number == number and c.side_id == side.id]
    return render_template(
        "sheet/cell.html",
        sheet=sheet,
        match=match,
        side=side,
        number=number,
        cell=found,
        trail=trail,
        viewer=viewer_for(match),
    )


def _action_form(match: Match) -> ActionForm:
    """A one-button form, validated (CSRF, key, target) or refused on the match page."""
    form = ActionForm()
    if not form.validate_on_submit():
        raise Refusal("That button's form was incomplete: reload and try again.", 400, match)
    return form


@bp.post("/<code>/claim")
def claim(code: str):  # type: ignore[no-untyped-def]
    """This phone claims a side."""
    match = _match(code)
    form = _action_form(match)
    side = _side(match, form.target.data)
    phone = ensure_phone()
    return _done(
        match, actions.claim_side(match, phone, side, _players_per_side(match), form.key.data)
    )


@bp.post("/<code>/watch")
def watch(code: str):  # type: ignore[no-untyped-def]
    """This phone watches read-only."""
    match = _match(code)
    _action_form(match)
    return _done(match, actions.watch(match, ensure_phone()))


@bp.post("/<code>/last-trick")
def last_trick(code: str):  # type: ignore[no-untyped-def]
    """Brisca: who took the last trick of a round tied at the top."""
    match = _match(code)
    form = _action_form(match)
    sheet = load_sheet(match)
    row = sheet.last_trick_row
    if row is None:
        raise Refusal("No round is waiting for the last trick.", 409, match)
    taker = _side(match, form.target.data)
    return _done(match, actions.say_last_trick(match, row.number, taker, form.key.data))


@bp.post("/<code>/end")
def end(code: str):  # type: ignore[no-untyped-def]
    """End match: offered once the game's rule says a side has won."""
    match = _match(code)
    form = _action_form(match)
    return _done(match, actions.end_match(match, form.key.data))


@bp.post("/<code>/reopen")
def reopen(code: str):  # type: ignore[no-untyped-def]
    """The host reopens a match ended by mistake."""
    match = _match(code)
    form = _action_form(match)
    return _done(match, actions.reopen_match(match, form.key.data))


@bp.post("/<code>/abandon")
def abandon(code: str):  # type: ignore[no-untyped-def]
    """The host abandons the match."""
    match = _match(code)
    form = _action_form(match)
    return _done(match, actions.abandon_match(match, form.key.data))


@bp.post("/<code>/release")
def release(code: str):  # type: ignore[no-untyped-def]
    """The host frees a side whose phone is gone."""
    match = _match(code)
    form = _action_form(match)
    return _done(match, actions.release_side(match, _side(match, form.target.data), form.key.data))


@bp.post("/<code>/host")
def hand_over(code: str):  # type: ignore[no-untyped-def]
    """The host hands the host role to another phone at the match."""
    match = _match(code)
    form = _action_form(match)
    return _done(match, actions.hand_over_host(match, form.target.data or 0, form.key.data))
