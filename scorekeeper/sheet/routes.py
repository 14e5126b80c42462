"""The match page and every action on it: entries, corrections, End match, host tools."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from functools import lru_cache

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

from scorekeeper.extensions import db
from scorekeeper.games import EntryFacts, get_game
from scorekeeper.models import Correction, Match, Side
from scorekeeper.permissions import Action, Refusal, Viewer, require, viewer_for
from scorekeeper.phones import current_phone, ensure_phone, open_deferred_session
from scorekeeper.sheet import actions
from scorekeeper.sheet.chart import running_chart
from scorekeeper.sheet.forms import ActionForm, CorrectionForm, EntryForm
from scorekeeper.sheet.pages import (
    KeptVersion,
    SentTag,
    cookie_tag,
    etag_for,
    has_flashes,
    page_store,
    personalise,
    sent_tags,
)
from scorekeeper.sheet.state import Sheet, load_sheet
from scorekeeper.tables.setup import kept_matches
from scorekeeper.versions import Known, versions

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


def _code(code: str) -> str:
    """A code in a URL as stored, or 404: a code is a few letters and digits, and anything else
    cannot be one (and never reaches SQL)."""
    if not (code.isalnum() and len(code) <= 12):
        abort(404)
    return code.upper()


def _match(code: str) -> Match:
    """The match for a code in a URL, or 404: a copy of what this worker kept of it, whose
    status and version are read when first asked for (tables/setup.py)."""
    match = kept_matches().copy_of(_code(code))
    if match is None:
        abort(404)
    return match


def _known(code: str, *, fresh: bool = False) -> Known:
    """The match for a code in a URL and its version now, or 404; from memory unless `fresh`."""
    known = versions().current(_code(code), fresh=fresh)
    if known is None:
        abort(404)
    return known


def _side(match: Match, position: int | None) -> Side:
    """A side of this match by column position, or a refusal on the match page."""
    for side in match.sides:
        if side.position == position:
            return side
    raise Refusal("There is no such side in this match.", 404, match)


def _done(code: str, done: actions.Done) -> Response:
    """After a post: say what happened, and back to the sheet (post/redirect/get).

    Callers pass `match.code` ahead of the action, so the code is not read again after commit.
    """
    flash(done.message, "repeated" if done.repeated else "done")
    return redirect(url_for("sheet.match", code=code))


def _players_per_side(match: Match) -> int:
    """How many phones may hold one side of this match (two in a partnership)."""
    table_format = next(
        (f for f in get_game(match.game).formats if f.key == match.table_format), None
    )
    return table_format.players_per_side if table_format else 1


def _live_context(match: Match, sheet: Sheet, viewer: Viewer) -> dict[str, object]:
    """What the live part of the page needs, for the full page and the poll alike."""
    return {
        "sheet": sheet,
        "match": match,
        "viewer": viewer,
        "held": actions.seats_by_side(match),
        "players_per_side": _players_per_side(match),
        "chart": running_chart(
            sheet.state.running, match.target, [s.name for s in sheet.sides], sheet.game.target_unit
        ),
        # Form secrets, messages and the ETag are slots, filled per phone (sheet/pages.py).
        "slotted": True,
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


@lru_cache(maxsize=512)
def _qr_code(link: str) -> Markup:
    """A join link as a QR code, inline SVG made on the server (once per link and worker)."""
    return Markup(segno.make(link, error="m").svg_inline(scale=5, border=2, omitsize=True))


def _qr_svg(match: Match) -> Markup:
    """The match's join link as a QR code."""
    return _qr_code(url_for("tables.join_link", code=match.code, _external=True))


def _tagged(response: Response, etag: str) -> Response:
    """A page or a 304 with its ETag, to be asked for again every time."""
    response.set_etag(etag)
    # Always ask again: the ETag makes asking cheap, and a phone waking from sleep catches up.
    response.headers["Cache-Control"] = "no-cache, private"
    return response


def _send(page: str, etag: str, status: int = 200) -> Response:
    """A kept or fresh page, its slots filled for this phone."""
    return _tagged(make_response(personalise(page, etag), status), etag)


def render_match(
    match: Match,
    template: str = "sheet/match.html",
    *,
    error: str | None = None,
    status: int = 200,
    entry_form: EntryForm | None = None,
) -> Response:
    """The match page (or its live part) worked out from the database, and kept for the next
    phone in the same place unless it carries this request's own error or form."""
    # The version first, then what it says of the seats and the sheet (read after it, so no
    # older): a page kept for a version, and the standing kept for the next write, rest on it.
    version = match.version
    kept = KeptVersion(
        version=version,
        host_phone=match.host_phone,
        seats={seat.phone: seat.side_id for seat in match.seats},
    )
    # The phone's seat from the same read as the kept seats: its page and its place agree.
    viewer = viewer_for(match, match.seats)
    phone = viewer.phone
    sheet = load_sheet(match)
    actions.keep_standing(match, sheet.hands)
    page = render_template(
        template,
        entry_form=entry_form or _entry_form(sheet, viewer),
        error=error,
        qr_svg=_qr_svg(match),
        **_live_context(match, sheet, viewer),
    )
    if error is None and entry_form is None:
        kept = page_store().keep(match.id, kept.version, kept)
        kept.pages[(template, kept.place(phone))] = page
    return _send(page, etag_for(version, kept.place(phone)), status)


def _unchanged(etag: str) -> Response:
    """Nothing new for this phone: 304, no body."""
    return _tagged(Response(status=304), etag)


def _kept_or_rendered(known: Known, template: str, sent: Sequence[SentTag] = ()) -> Response:
    """A match page as kept for this version and place, or worked out afresh; for a poll
    (`sent`: the ETags it sent) a 304 when the phone already shows what it would get."""
    kept = page_store().get(known.match_id, known.version)
    if kept is not None:
        place = kept.place(current_phone())
        etag = etag_for(known.version, place)
        if any(tag.version == known.version and tag.place == place for tag in sent):
            # Same version and place, another cookie (a message shown, say): the same page.
            return _unchanged(etag)
        page = kept.pages.get((template, place))
        if page is not None:
            return _send(page, etag)
    match = db.session.get(Match, known.match_id)
    if match is None:
        abort(404)
    return render_match(match, template)


@bp.get("/<code>")
def match(code: str) -> Response:
    """The sheet of one match, for players, host and watchers alike."""
    # Right after a post (its message waits) the version is read afresh: this page may land on
    # a worker that hasn't yet heard of that very write.
    return _kept_or_rendered(_known(code, fresh=has_flashes()), "sheet/match.html")


@bp.get("/<code>/live")
def live(code: str) -> Response:
    """The live part of the sheet for polling phones; 304 with no body while nothing changed.

    The unchanged poll is the most frequent request of all: answered from what this worker
    knows of the match's version (scorekeeper/versions.py), without the database.
    """
    known = _known(code)
    sent = sent_tags(request.if_none_match)
    if any(tag.version > known.version for tag in sent):
        # The phone has seen a newer version than this worker has heard of (its own write,
        # served by another worker a moment ago): never send it back in time.
        known = _known(code, fresh=True)
    cookie = cookie_tag()
    for tag in sent:
        if tag.version == known.version and tag.cookie == cookie:
            return _unchanged(etag_for(known.version, tag.place))
    # Something may have changed for this phone: now it matters which phone it is.
    open_deferred_session()
    return _kept_or_rendered(known, "sheet/live.html", sent)


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
    return _done(match.code, actions.enter_hand(match, side, form.hand.data, facts, form.key.data))


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
        return _done(
            match.code,
            actions.correct_cell(
                match,
                side,
                number,
                facts,
                form.revision.data,
                form.reason.data or "",
                form.key.data,
            ),
        )
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
        match.code,
        actions.claim_side(match, phone, side, _players_per_side(match), form.key.data),
    )


@bp.post("/<code>/watch")
def watch(code: str):  # type: ignore[no-untyped-def]
    """This phone watches read-only."""
    match = _match(code)
    form = _action_form(match)
    return _done(match.code, actions.watch(match, ensure_phone(), form.key.data))


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
    return _done(match.code, actions.say_last_trick(match, row.number, taker, form.key.data))


@bp.post("/<code>/end")
def end(code: str):  # type: ignore[no-untyped-def]
    """End match: offered once the game's rule says a side has won."""
    match = _match(code)
    form = _action_form(match)
    return _done(match.code, actions.end_match(match, form.key.data))


@bp.post("/<code>/reopen")
def reopen(code: str):  # type: ignore[no-untyped-def]
    """The host reopens a match ended by mistake."""
    match = _match(code)
    form = _action_form(match)
    return _done(match.code, actions.reopen_match(match, form.key.data))


@bp.post("/<code>/abandon")
def abandon(code: str):  # type: ignore[no-untyped-def]
    """The host abandons the match."""
    match = _match(code)
    form = _action_form(match)
    return _done(match.code, actions.abandon_match(match, form.key.data))


@bp.post("/<code>/release")
def release(code: str):  # type: ignore[no-untyped-def]
    """The host frees a side whose phone is gone."""
    match = _match(code)
    form = _action_form(match)
    return _done(
        match.code, actions.release_side(match, _side(match, form.target.data), form.key.data)
    )


@bp.post("/<code>/host")
def hand_over(code: str):  # type: ignore[no-untyped-def]
    """The host hands the host role to another phone at the match."""
    match = _match(code)
    form = _action_form(match)
    return _done(match.code, actions.hand_over_host(match, form.target.data or 0, form.key.data))
