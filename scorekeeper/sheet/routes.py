"""The match page and every action on it: entries, corrections, End match, host tools."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import lru_cache

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_wtf import FlaskForm
from markupsafe import Markup
from werkzeug.http import quote_etag

from scorekeeper import figures
from scorekeeper import live as live_layer
from scorekeeper.errors import Refusal, show_refusals_on
from scorekeeper.forms import ActionForm, post_of
from scorekeeper.games import CountError, EntryFacts, get_game
from scorekeeper.hand_forms import (
    counted_positions,
    hand_facts,
    hand_form,
    offers_whole_hand,
    posted_positions,
    whole_hand_form,
)
from scorekeeper.languages import ZONE_COOKIE, direction, language
from scorekeeper.live.etags import (
    CACHE_CONTROL,
    VARY,
    etag_for,
    not_modified_headers,
    request_tag,
    unchanged,
)
from scorekeeper.live.stream import last_seen, version_events
from scorekeeper.matches import answer, match_or_404, read_match, side_at
from scorekeeper.models import StoredMatch, StoredSeat, StoredSide
from scorekeeper.phones.identity import current_phone, ensure_phone, player_name, remember_name
from scorekeeper.phones.notices import told
from scorekeeper.phones.rules import Action, Viewer
from scorekeeper.phones.seats import seats_at, viewer_at, viewer_for
from scorekeeper.qr import qr_svg
from scorekeeper.scoresheet import corrections, entries, life, seats
from scorekeeper.scoresheet.corrections import Fix, check_started
from scorekeeper.scoresheet.series import read_series
from scorekeeper.scoresheet.sheet import (
    Sheet,
    dealer_of,
    dealing_order,
    load_sheet,
    phones_on,
    players_per_side,
    sides_with_room,
    table_of,
)
from scorekeeper.scoresheet.writing import Done, Post
from scorekeeper.sheet.exports import match_json, sheet_csv
from scorekeeper.sheet.forms import (
    EntryForm,
    NoteForm,
    entry_form,
)
from scorekeeper.sheet.page import count_changes, host_named, page_of
from scorekeeper.sheet.picture import PictureUnavailable, sheet_png
from scorekeeper.stream_caps import kept, stream_caps
from scorekeeper.stream_caps import refused as too_many_streams
from scorekeeper.terms import say

bp = Blueprint("sheet", __name__, url_prefix="/m")
# The name this phone gave last, offered on the claim and watch form.
bp.add_app_template_global(player_name)
# What a correction changed besides the total, as a cell's trail says it.
bp.add_app_template_filter(count_changes)


def _entry_form(
    sheet: Sheet, viewer: Viewer, given_back: EntryFacts | None = None
) -> EntryForm | None:
    """This phone's entry form for the open hand, filled with what its side entered so far,
    or with what its player typed for a hand that completed first (`given_back`)."""
    side = viewer.side
    if sheet.current_hand is None or side is None or not viewer.may(Action.ENTER, side):
        return None
    form = entry_form(sheet.game, sheet.entry_ticks, formdata=None)
    form.hand.data = sheet.current_hand
    form.side.data = side.position
    cell = sheet.cell(sheet.current_hand, side)
    entry = cell.entry if cell is not None else None
    form.show(given_back or (entry.facts if entry else None), entry.revision if entry else 0)
    return form


def _hand_entry(
    sheet: Sheet,
    viewer: Viewer,
    fills: tuple[StoredSide, ...],
    typed: dict[int, EntryFacts] | None = None,
) -> FlaskForm | None:
    """The host's one form for the open hand, when it may fill a side no phone holds (`fills`):
    that side's total (and its own side's, if it holds one), filled with what the cells hold,
    or with what the host typed in a form that was refused (`typed`, by column)."""
    number = sheet.current_hand
    if number is None or not fills:
        return None
    own = [viewer.side] if viewer.side is not None and viewer.may(Action.ENTER, viewer.side) else []
    offered = sorted([*own, *fills], key=lambda side: side.position)
    ticks = sheet.entry_ticks
    form = hand_form(
        sheet.game, len(sheet.sides), ticks, [side.position for side in offered], formdata=None
    )
    form.number = number
    form.offered = offered
    for side in offered:
        at = side.position
        cell = sheet.cell(number, side)
        entry = cell.entry if cell is not None else None
        form[f"revision_{at}"].data = entry.revision if entry else 0
        facts = (typed or {}).get(at) or (entry.facts if entry else None)
        if facts is not None:
            form[f"points_{at}"].data = facts.points
            for tick in ticks:
                form[f"{tick.key}_{at}"].data = facts.ticked(tick.key)
    return form


@lru_cache(maxsize=512)
def _qr_code(link: str) -> Markup:
    """A join link as a QR code, inline SVG made on the server (a pure function of the link)."""
    return qr_svg(link)


def _qr_svg(match: StoredMatch) -> Markup:
    """The match's join link, on the address this phone opened the app by, as a QR code."""
    return _qr_code(url_for("tables.join_link", code=match.code, _external=True))


def _etag(match: StoredMatch, rematch: StoredMatch | None) -> str:
    """This phone's ETag for the match as just read (live/etags.py), and for its rematch's
    version: an ended match's page offers its rematch only while it can be joined."""
    key = live_layer.of().tag_key
    zone = request.cookies.get(ZONE_COOKIE)
    tag = request_tag(current_phone(), session.get("lang"), zone, request.environ, key)
    if rematch is not None:
        tag = f"{tag}.{rematch.version}"
    return etag_for(match.version, tag)


def _rematch_of(match: StoredMatch) -> StoredMatch | None:
    """The rematch started from this match, with its sides (None if there is none)."""
    return read_match(match.rematch_code) if match.rematch_code is not None else None


def _rematch_side(rematch: StoredMatch | None, viewer: Viewer) -> StoredSide | None:
    """The side this phone held, in the rematch, if it may take it there now (its claim would
    be taken): an ended rematch, a side this phone holds there already or one the rematch's
    phones fill is not offered."""
    if rematch is None or viewer.side is None:
        return None
    side = next((s for s in rematch.sides if s.position == viewer.side.position), None)
    at_table = seats_at(rematch)
    there = viewer_at(rematch, viewer.phone, at_table)
    if side is None or not there.may(Action.CLAIM, side):
        return None
    return side if side in sides_with_room(rematch, at_table) else None


def render_match(
    match: StoredMatch,
    template: str = "sheet/match.html",
    *,
    error: str | None = None,
    status: int = 200,
    entry_form: EntryForm | None = None,
    given_back: EntryFacts | None = None,
    hand_entry: FlaskForm | None = None,
    typed: dict[int, EntryFacts] | None = None,
) -> Response:
    """The match page (or its live part) from the database, with this phone's ETag; a 304 if
    the phone already shows it. The match's row (its version) is read before the seats and
    hands, so the page is never older than its ETag says."""
    rematch = _rematch_of(match)
    etag = _etag(match, rematch)
    # A page that shows a message (after a post) is this once: it is shown whatever the phone
    # holds, and not stored, so no later 304 brings the message back.
    once = bool(session.get("_flashes"))
    if status == 200 and not once and unchanged(request.headers.get("If-None-Match"), etag):
        return Response(status=304, headers=not_modified_headers(etag))
    at_table = seats_at(match)
    viewer = viewer_for(match, at_table)
    # What the host did to this phone: said once by the full page (a flash, kept in the
    # cookie as said), and by the live part until then (nothing kept: it may be swapped away).
    full_page = template == "sheet/match.html"
    notices = told(viewer, keep=full_page) if template != "sheet/tv.html" else []
    if full_page and notices:
        for notice in notices:
            flash(notice, "notice")
        once, notices = True, []
    sheet = load_sheet(match)
    order = dealing_order(sheet.sides, players_per_side(match), at_table)
    holding = phones_on(at_table)
    with_room = sides_with_room(match, at_table)
    # The open hand's cells this phone may fill: the host's form for the hand, and the sheet's
    # "fill" links.
    fills = viewer.may_fill(sheet.sides) if sheet.current_hand else ()
    if hand_entry is None and entry_form is None:
        hand_entry = _hand_entry(sheet, viewer, fills, typed)
    # The rematch is this match's phones' to see and join, no other's (phones/rules.py).
    if not viewer.may(Action.REMATCH):
        rematch = None
    series = read_series([match]).get(match.id)
    page = render_template(
        template,
        sheet=sheet,
        match=match,
        viewer=viewer,
        seats=at_table,
        phones_holding=holding,
        # The invite (code and QR card) unfolds only while a new phone could take a side no
        # phone holds: once every side is held it would push the entry form down for nothing.
        inviting=match.is_open and not match.closed and len(holding) < len(match.sides),
        sides_with_room=with_room,
        page=page_of(sheet, viewer, at_table, with_room, holding, fills),
        notices=notices,
        entry_form=entry_form or (None if hand_entry else _entry_form(sheet, viewer, given_back)),
        hand_entry=hand_entry,
        given_back=given_back is not None or typed is not None,
        error=error,
        dealing_order=order,
        series=series,
        # A rematch kept for the last match's phones until the host opens it (life.rematch).
        kept_for_the_last_match=match.closed and series is not None and series.first != match.id,
        dealer=dealer_of(order, match.first_dealer, sheet.current_hand or len(sheet.hands) + 1),
        qr_svg=_qr_svg(match),
        rematch=rematch,
        rematch_side=_rematch_side(rematch, viewer),
        etag=quote_etag(etag, weak=True),
    )
    response = make_response(page, status)
    response.vary.update(VARY)
    if once or status != 200:
        response.headers["Cache-Control"] = "no-store"
        return response
    response.set_etag(etag, weak=True)
    response.headers["Cache-Control"] = CACHE_CONTROL
    return response


@bp.get("/<code>")
def match(code: str) -> Response:
    """The sheet of one match, for players, host and watchers alike."""
    return render_match(match_or_404(code))


@bp.get("/<code>/live")
def live(code: str) -> Response:
    """The live part of the sheet, fetched when the match's stream rings (and once a minute to
    be safe); 304 with no body while nothing changed for this phone."""
    return render_match(match_or_404(code), "sheet/live.html")


@bp.get("/<code>/events")
def events(code: str) -> Response:
    """The match's stream of server-sent events: its version each time it changes
    (live/stream.py)."""
    caps = stream_caps()
    if not caps.room(request.remote_addr):
        # This worker keeps its other connections for pages and posts: refused before the
        # match is even looked up, and the page fetches its live part meanwhile.
        return too_many_streams()
    match = match_or_404(code)
    phone = current_phone()
    viewer = viewer_for(match) if phone is not None else None
    at_table = viewer is not None and (viewer.side is not None or viewer.is_host)
    lease = caps.take(phone, request.remote_addr, match.code, at_table)
    if lease is None:
        return too_many_streams()
    told = last_seen(request.headers.get("Last-Event-ID"), request.args.get("since"), match.version)
    stream = version_events(
        live_layer.versions(),
        match.code,
        told,
        live_layer.of().release,
        current_app.config["STREAM_HEARTBEAT"],
        current_app.config["STREAM_LIFETIME"],
        # gunicorn's: asked whether the phone closed it (live/stream.py: gone).
        request.environ.get("gunicorn.socket"),
    )
    response = Response(kept(stream, caps, lease), mimetype="text/event-stream")
    # A stream that never started (its phone gone before the first write) gives its place
    # back too.
    response.call_on_close(lambda: caps.give_back(lease))
    # Neither kept nor held back: nginx buffers a proxied answer unless told not to.
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    return response


@bp.get("/<code>/tv")
def tv(code: str) -> Response:
    """The match for a TV or laptop across the room: big totals, the last hand, the chart,
    who deals, and the join QR code while a side is free. Live like the sheet."""
    return render_match(match_or_404(code), "sheet/tv.html")


@bp.get("/<code>/sheet.csv")
def export(code: str) -> Response:
    """The sheet as a spreadsheet file: every hand, the breakdowns and the corrections."""
    match = match_or_404(code)
    text = sheet_csv(load_sheet(match), seats_at(match))
    return _download(text, "text/csv; charset=utf-8", f"scorekeeper-{match.game}-{match.code}.csv")


@bp.get("/<code>/match.json")
def export_json(code: str) -> Response:
    """The whole match as JSON, for keeping."""
    match = match_or_404(code)
    seated = seats_at(match)
    # The rematch's code only for this match's phones, as on its page (phones/rules.py).
    rematch = match.rematch_code if viewer_for(match, seated).may(Action.REMATCH) else None
    text = json.dumps(match_json(load_sheet(match), seated, rematch), ensure_ascii=False, indent=1)
    return _download(
        text, "application/json; charset=utf-8", f"scorekeeper-{match.game}-{match.code}.json"
    )


@bp.get("/<code>/picture.png")
def picture(code: str) -> Response:
    """The sheet as a picture for the group chat (sheet/picture.py), in this phone's language,
    for whoever may see the sheet: a 304 while the match, and what this phone reads, is as the
    picture it has shows it."""
    match = match_or_404(code)
    etag = _etag(match, None)
    if unchanged(request.headers.get("If-None-Match"), etag):
        return Response(status=304, headers=not_modified_headers(etag))
    words = language()
    try:
        png = sheet_png(
            load_sheet(match),
            seats_at(match),
            read_series([match]).get(match.id),
            words,
            direction(words) == "rtl",
        )
    except PictureUnavailable as missing:
        current_app.logger.error("the sheet's picture cannot be drawn: %s", missing)
        raise Refusal(
            _("This server cannot draw the sheet's picture now. The sheet itself is as ever."),
            503,
            match,
        ) from missing
    response = make_response(png)
    response.headers["Content-Type"] = "image/png"
    name = f"scorekeeper-{match.game}-{match.code}.png"
    response.headers["Content-Disposition"] = f'inline; filename="{name}"'
    response.vary.update(VARY)
    response.set_etag(etag, weak=True)
    response.headers["Cache-Control"] = CACHE_CONTROL
    return response


def _download(text: str, kind: str, filename: str) -> Response:
    """A file for the phone to save."""
    response = make_response(text)
    response.headers["Content-Type"] = kind
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@bp.get("/<code>/qr")
def qr(code: str) -> str:
    """The join QR code full screen, for the table to scan."""
    match = match_or_404(code)
    return render_template(
        "sheet/qr.html", match=match, qr_svg=_qr_svg(match), game_name=get_game(match.game).name
    )


@bp.post("/<code>/enter")
def enter(code: str) -> ResponseReturnValue:
    """A side's total for the open hand."""
    match = match_or_404(code)
    game = get_game(match.game)
    form = entry_form(game, game.entry_ticks(table_of(match)))
    if not form.validate_on_submit():
        return render_match(
            match, entry_form=form, error=_("Nothing was saved: see below."), status=400
        )
    side = side_at(match, form.side.data)
    done = entries.enter_hand(
        match, side, form.hand.data, form.facts(), post_of(form), form.revision.data
    )
    return answer(match.code, done)


@bp.post("/<code>/hand/<int(min=1, max=10000):number>/enter")
def enter_whole_hand(code: str, number: int) -> ResponseReturnValue:
    """The host's one form for the open hand: every side it may enter or fill, at once."""
    match = match_or_404(code)
    sheet = load_sheet(match, corrections=False)
    ticks = sheet.entry_ticks
    positions = posted_positions(len(sheet.sides))
    form = hand_form(sheet.game, len(sheet.sides), ticks, positions)
    # Only a phone the sheet draws this form for (_hand_entry: a hand open, a side it may
    # fill) is answered with it, even refused.
    if sheet.current_hand is None:
        raise entries.no_open_hand(sheet)
    viewer = viewer_for(match)
    if not viewer.may_fill(sheet.sides):
        viewer.require(Action.FILL, sheet.sides[positions[0] if positions else 0])
    if not positions or not form.validate_on_submit():
        # Drawn again for the hand open now (the one its page offers), as typed.
        form.number, form.offered = sheet.current_hand, [sheet.sides[at] for at in positions]
        return render_match(
            match, hand_entry=form, error=_("Nothing was saved: see below."), status=400
        )
    fixes = [
        Fix(sheet.sides[at], hand_facts(form, at, ticks), form[f"revision_{at}"].data)
        for at in positions
    ]
    try:
        done = corrections.fill_hand(match, number, fixes, post_of(form))
    except Refusal as refusal:
        figures.refused("action")
        # Refused as a whole: what was typed goes back into the form, to mend and enter again.
        typed = {fix.side.position: fix.facts for fix in fixes}
        return render_match(match, error=refusal.message, status=refusal.status, typed=typed)
    return answer(match.code, done)


@bp.route(
    "/<code>/hand/<int(min=1, max=10000):number>/side/<int(max=7):position>/correct",
    methods=["GET", "POST"],
)
def correct(code: str, number: int, position: int) -> ResponseReturnValue:
    """The host's correction of one cell (or filling a cell a side cannot)."""
    match = match_or_404(code)
    side = side_at(match, position)
    game = get_game(match.game)
    form = entry_form(game, game.ticks(table_of(match)), correcting=True)
    refused: Refusal | None = None
    if form.validate_on_submit():
        fix = Fix(side, form.facts(), form.revision.data)
        try:
            done = corrections.correct_cell(
                match, number, fix, form.reason.data or "", post_of(form)
            )
        except Refusal as refusal:
            if refusal.given_back is None:
                raise
            figures.refused("action")
            # Cells that can't stand together: this cell's form again as the host typed it,
            # saying why (not the open hand's entry form, where the value would be another
            # hand's).
            refused = refusal
        else:
            return answer(match.code, done)
    viewer = viewer_for(match).require(Action.CORRECT)
    sheet = load_sheet(match)
    cell = sheet.cell(number, side)
    filling = corrections.is_fill(sheet, number, side, cell.entry if cell else None, viewer)
    if filling:
        # The open hand's cell of a side a phone holds is that phone's to enter.
        viewer.require(Action.FILL, side)
    offer = None
    typed = refused.given_back if refused is not None else None
    if typed is not None and not filling and offers_whole_hand(sheet, number):
        # Refused because of the cells beside it: the way on is the whole hand's correction,
        # here, with what was typed for this cell (a 26-26 made 27-25 one cell at a time).
        offer = whole_hand_form(sheet, number, (side, typed))
    if not form.is_submitted():
        entry = cell.entry if cell else None
        form.hand.data = number
        form.side.data = position
        form.show(entry.facts if entry else None, entry.revision if entry else 0)
    return render_template(
        "sheet/correct.html",
        sheet=sheet,
        match=match,
        side=side,
        number=number,
        cell=cell,
        form=form,
        filling=filling,
        offer=offer,
        error=refused.message if refused else None,
    ), (refused.status if refused else 400 if form.is_submitted() else 200)


@bp.route("/<code>/hand/<int(min=1, max=10000):number>/correct", methods=["GET", "POST"])
def correct_hand(code: str, number: int) -> ResponseReturnValue:
    """The host corrects every side's cell of one hand in one form."""
    match = match_or_404(code)
    sheet = load_sheet(match)
    ticks = sheet.ticks
    if request.method == "POST":
        counted = counted_positions(len(sheet.sides))
        form = hand_form(sheet.game, len(sheet.sides), ticks, table=sheet.table, counted=counted)
    else:
        form = whole_hand_form(sheet, number)
    if form.validate_on_submit():
        try:
            fixes = [
                Fix(
                    side,
                    _counted(sheet, number, hand_facts(form, at, ticks)),
                    form[f"revision_{at}"].data,
                )
                for at, side in enumerate(sheet.sides)
            ]
            done = corrections.correct_hand(
                match, number, fixes, form.reason.data or "", post_of(form)
            )
        except Refusal as refusal:
            if refusal.given_back is None:
                raise
            figures.refused("action")
            # Cells that can't stand together: the form again as the host filled it, saying why.
            return render_template(
                "sheet/hand.html",
                sheet=load_sheet(match),
                match=match,
                number=number,
                form=form,
                ticks=ticks,
                error=refusal.message,
            ), refusal.status
        return answer(match.code, done)
    viewer_for(match).require(Action.CORRECT)
    if number == sheet.current_hand:
        # The open hand is entered, not corrected: the sheet's form does it, for the sides
        # this phone may enter (its own) or fill (those no phone holds).
        return redirect(url_for("sheet.match", code=match.code, _anchor="entry"))
    check_started(sheet, number, len(sheet.hands))
    return render_template(
        "sheet/hand.html", sheet=sheet, match=match, number=number, form=form, ticks=ticks
    ), (400 if form.is_submitted() else 200)


def _counted(sheet: Sheet, number: int, facts: EntryFacts) -> EntryFacts:
    """A whole hand's cell as it will be stored: where the form corrects it by its counts
    (offered beside a refused correction), the total they work out to, not the number in the
    field; counts that can't be are refused, the form given back."""
    if facts.counts is None:
        return facts
    try:
        worked = sheet.game.calculate(sheet.table, facts.counts, sheet.held_going_into(number))
    except CountError as error:
        raise Refusal(say(error.reason), 400, sheet.match, given_back=facts) from None
    return facts._replace(points=worked.total)


@bp.get("/<code>/hand/<int(min=1, max=10000):number>/side/<int(max=7):position>")
def cell(code: str, number: int, position: int) -> str:
    """One cell opened: what was entered, its breakdown, and its corrections."""
    match = match_or_404(code)
    side = side_at(match, position)
    sheet = load_sheet(match)
    found = sheet.cell(number, side)
    if found is None:
        abort(404)
    trail = [c for c in sheet.trail if c.hand_number == number and c.side_id == side.id]
    # A fill is how the cell was entered (the host, in its side's place), not a correction.
    filled = next((c for c in trail if c.is_fill), None)
    seat = next((s for s in seats_at(match) if filled and s.phone == filled.by_phone), None)
    return render_template(
        "sheet/cell.html",
        sheet=sheet,
        match=match,
        side=side,
        number=number,
        cell=found,
        filled=filled,
        filled_by=host_named(seat),
        trail=[c for c in trail if not c.is_fill],
        cell_notes=[say(tick.noted) for tick in sheet.ticked(found.entry.facts)]
        if found.entry is not None
        else [],
    )


def _refused_page(refusal: Refusal) -> Response:
    """A refusal at a match, shown on its page so the phone can carry on from there."""
    assert refusal.match is not None  # errors.py shows only a match's refusals here
    # The match as stored now: a refusal under a write's lock carries the match as the lock
    # read it, with a version its rollback took back.
    match = read_match(refusal.match.code)
    assert match is not None  # a match is never deleted
    return render_match(
        match, error=refusal.message, status=refusal.status, given_back=refusal.given_back
    )


bp.record_once(lambda state: show_refusals_on(state.app, _refused_page))


def _action_form(match: StoredMatch) -> ActionForm:
    """A one-button form, validated (CSRF, key, target) or refused on the match page."""
    form = ActionForm()
    if not form.validate_on_submit():
        if form.player.errors:
            # NOTE: a name refused; %(problem)s says what is wrong with it.
            raise Refusal(_("Your name: %(problem)s", problem=form.player.errors[0]), 400, match)
        raise Refusal(_("That button's form was incomplete: reload and try again."), 400, match)
    return form


@bp.post("/<code>/claim")
def claim(code: str) -> ResponseReturnValue:
    """This phone claims a side."""
    match = match_or_404(code)
    form = _action_form(match)
    side = side_at(match, form.target.data)
    player = form.player.data or ""
    done = seats.claim_side(match, side, post_of(form, ensure_phone()), player)
    remember_name(player)
    return answer(match.code, done)


@bp.post("/<code>/watch")
def watch(code: str) -> ResponseReturnValue:
    """This phone watches read-only."""
    match = match_or_404(code)
    form = _action_form(match)
    player = form.player.data or ""
    done = seats.watch(match, post_of(form, ensure_phone()), player)
    remember_name(player)
    return answer(match.code, done)


@bp.route("/<code>/name", methods=["GET", "POST"])
def rename(code: str) -> ResponseReturnValue:
    """The person with this phone gives or changes their name at this match."""
    match = match_or_404(code)
    if request.method == "POST":
        form = _action_form(match)
        player = form.player.data or ""
        done = seats.rename_player(match, player, post_of(form))
        remember_name(player)
        return answer(match.code, done)
    viewer = viewer_for(match).require(Action.RENAME)
    return render_template("sheet/name.html", match=match, viewer=viewer)


@bp.route("/<code>/note", methods=["GET", "POST"])
def note(code: str) -> ResponseReturnValue:
    """The host writes the match's note: where it was played, what was at stake."""
    match = match_or_404(code)
    form = NoteForm()
    if form.validate_on_submit():
        return answer(match.code, life.write_note(match, form.note.data or "", post_of(form)))
    viewer_for(match).require(Action.NOTE)
    if not form.is_submitted():
        form.note.data = match.note
    return render_template("sheet/note.html", match=match, form=form), (
        400 if form.is_submitted() else 200
    )


@bp.post("/<code>/settle")
def settle(code: str) -> ResponseReturnValue:
    """Which tied side settles a hand that waits for its game's settling tick (who took
    the last trick of a round tied at the top)."""
    match = match_or_404(code)
    form = _action_form(match)
    taker = side_at(match, form.target.data)
    # The hand the button was drawn for: under the lock, the action refuses it unless that
    # very hand still waits (a page from before another hand tied is out of date).
    number = form.hand.data or 0
    return answer(match.code, entries.settle_tie(match, number, taker, post_of(form)))


# The one-button actions that need nothing but the tap, by the last part of their path: End
# match (offered once the game's rule says a side has won), the host's Reopen match, Rematch
# (the same settings and names again), and the host closing the table to new phones and
# opening it again.
TAPS: dict[str, Callable[[StoredMatch, Post], Done]] = {
    "end": life.end_match,
    "reopen": life.reopen_match,
    "rematch": life.rematch,
    "close": seats.close_table,
    "open": seats.open_table,
}


@bp.post("/<code>/<any(end, reopen, rematch, close, open):tap>")
def tapped(code: str, tap: str) -> ResponseReturnValue:
    """A one-button action of the match page (TAPS)."""
    match = match_or_404(code)
    return answer(match.code, TAPS[tap](match, post_of(_action_form(match))))


@bp.post("/<code>/dealer")
def dealer(code: str) -> ResponseReturnValue:
    """The host says who dealt the first hand."""
    match = match_or_404(code)
    form = _action_form(match)
    return answer(match.code, seats.pick_dealer(match, form.target.data, post_of(form)))


@bp.route("/<code>/abandon", methods=["GET", "POST"])
def abandon(code: str) -> ResponseReturnValue:
    """The host abandons the match, with a second tap on its confirm page."""
    match = match_or_404(code)
    form = _confirmed_form(match)
    if form is None:
        return _confirm_page(
            match,
            Action.ABANDON,
            _("Abandon this match?"),
            _(
                "No more hands can be entered. The sheet stays in every phone's history as "
                "abandoned, and you, the host, can reopen it."
            ),
            # NOTE: a button.
            _("Yes, abandon it"),
        )
    return answer(match.code, life.abandon_match(match, post_of(form)))


@bp.route("/<code>/release", methods=["GET", "POST"])
def release(code: str) -> ResponseReturnValue:
    """The host frees a side whose phone is gone, with a second tap on its confirm page."""
    match = match_or_404(code)
    form = _confirmed_form(match)
    if form is None:
        side = side_at(match, _target())
        return _confirm_page(
            match,
            Action.RELEASE,
            # NOTE: %(side)s is a side's name, in this and the next two messages.
            _("Release %(side)s?", side=side.name),
            _(
                "The phones holding %(side)s become watchers. The table is closed: only a "
                "phone that played %(side)s, or you, can take it again. Its entries stay on "
                "the sheet.",
                side=side.name,
            )
            if match.closed
            else _(
                "The phones holding %(side)s become watchers, and any phone can claim "
                "%(side)s. Its entries stay on the sheet.",
                side=side.name,
            ),
            # NOTE: a button; %(side)s is a side's name.
            _("Yes, release %(side)s", side=side.name),
            target=side.position,
        )
    side = side_at(match, form.target.data)
    return answer(match.code, seats.release_side(match, side, post_of(form)))


@bp.route("/<code>/host", methods=["GET", "POST"])
def hand_over(code: str) -> ResponseReturnValue:
    """The host hands the host role to another phone at the match, with a second tap on its
    confirm page."""
    match = match_or_404(code)
    form = _confirmed_form(match)
    if form is None:
        seat = seats.seat_of(match, _target())
        who = seat.label if seat is not None else ""
        return _confirm_page(
            match,
            Action.HAND_OVER,
            # NOTE: %(phone)s is a phone as the table knows it: "Omar (Us)", a side's name.
            _("Make %(phone)s the host?", phone=who),
            _(
                "This phone loses the host's tools (corrections, releasing a side, abandoning); "
                "only the new host can give them back."
            ),
            # NOTE: a button; %(phone)s is a phone as the table knows it: "Omar (Us)".
            _("Yes, make %(phone)s the host", phone=who),
            target=seat.id if seat is not None else None,
            to=seat,
        )
    return answer(match.code, seats.hand_over_host(match, form.target.data, post_of(form)))


# Past any side position or seat id: a larger "target" is junk, refused before any lookup.
MOST_TARGET = 10**9


def _target() -> int | None:
    """The side or seat an action is about, as its page gave it (a link, or a posted form);
    None for junk."""
    given = request.form if request.method == "POST" else request.args
    target = given.get("target", type=int)
    return target if target is not None and 0 <= target <= MOST_TARGET else None


def _confirmed_form(match: StoredMatch) -> ActionForm | None:
    """The posted form of an action that can't be taken back, if it carries its second tap;
    None for a first tap (a link, or a post from a page that didn't ask)."""
    if request.method != "POST":
        return None
    form = _action_form(match)
    return form if form.confirmed.data else None


def _confirm_page(
    match: StoredMatch,
    action: Action,
    question: str,
    consequence: str,
    yes: str,
    *,
    target: int | None = None,
    to: StoredSeat | None = None,
) -> str:
    """The page that asks for the second tap: what will happen, the button that does it, and
    the way back to the sheet. Only a phone that may take the action is asked (`to`: the seat
    the host role would go to)."""
    viewer_for(match).require(action, to=to)
    return render_template(
        "sheet/confirm.html",
        match=match,
        question=question,
        consequence=consequence,
        yes=yes,
        target=target,
    )
