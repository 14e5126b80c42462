"""The match page drawn from the database: its ETag for this phone (and a 304 when the
phone shows it already), what the host did to this phone since its last page, the forms, the
join QR code; and every refusal at a match shown on that page."""

from __future__ import annotations

from functools import lru_cache

from flask import (
    Response,
    flash,
    make_response,
    render_template,
    request,
    session,
    url_for,
)
from flask_wtf import FlaskForm
from markupsafe import Markup
from werkzeug.http import quote_etag

from scorekeeper import live as live_layer
from scorekeeper.errors import Refusal, show_refusals_on
from scorekeeper.games import EntryFacts
from scorekeeper.headers import KEEPING
from scorekeeper.languages import ZONE_COOKIE
from scorekeeper.live.etags import (
    CACHE_CONTROL,
    VARY,
    etag_for,
    not_modified_headers,
    request_tag,
    unchanged,
)
from scorekeeper.matches import read_match
from scorekeeper.models import StoredMatch, StoredSide
from scorekeeper.phones.identity import current_phone
from scorekeeper.phones.notices import told
from scorekeeper.phones.rules import Action, Viewer
from scorekeeper.phones.seats import seats_at, viewer_at, viewer_for
from scorekeeper.qr import qr_svg
from scorekeeper.scoresheet.dealing import dealer_of, dealing_order
from scorekeeper.scoresheet.seating import phones_on, players_per_side, sides_with_room
from scorekeeper.scoresheet.series import read_series
from scorekeeper.scoresheet.sheet import load_sheet
from scorekeeper.sheet.blueprint import bp
from scorekeeper.sheet.entry_forms import entry_form_of, hand_entry_of
from scorekeeper.sheet.forms import (
    EntryForm,
)
from scorekeeper.sheet.page import page_of


@lru_cache(maxsize=512)
def _qr_code(link: str) -> Markup:
    """A join link as a QR code, inline SVG made on the server (a pure function of the link)."""
    return qr_svg(link)


def join_qr_svg(match: StoredMatch) -> Markup:
    """The match's join link, on the address this phone opened the app by, as a QR code."""
    return _qr_code(url_for("tables.join_link", code=match.code, _external=True))


def phone_etag(match: StoredMatch, rematch: StoredMatch | None) -> str:
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
    etag = phone_etag(match, rematch)
    # Drawn for the service worker to keep (js/offline.js asks for a page it has no copy of):
    # with no message, which is the tab's to show, and stored like any page.
    keeping = request.headers.get(KEEPING) == "1"
    # A page that shows a message (after a post) is this once: it is shown whatever the phone
    # holds, and not stored, so no later 304 brings the message back.
    once = bool(session.get("_flashes")) and not keeping
    if status == 200 and not once and unchanged(request.headers.get("If-None-Match"), etag):
        return Response(status=304, headers=not_modified_headers(etag))
    at_table = seats_at(match)
    viewer = viewer_for(match, at_table)
    # What the host did to this phone: said once by the full page (a flash, kept in the
    # cookie as said), and by the live part until then (nothing kept: it may be swapped away).
    full_page = template == "sheet/match.html"
    notices = told(viewer, keep=full_page) if template != "sheet/tv.html" and not keeping else []
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
        hand_entry = hand_entry_of(sheet, viewer, fills, typed)
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
        entry_form=entry_form or (None if hand_entry else entry_form_of(sheet, viewer, given_back)),
        hand_entry=hand_entry,
        given_back=given_back is not None or typed is not None,
        error=error,
        dealing_order=order,
        series=series,
        # A rematch kept for the last match's phones until the host opens it (life.rematch).
        kept_for_the_last_match=match.closed and series is not None and series.first != match.id,
        dealer=dealer_of(order, match.first_dealer, sheet.current_hand or len(sheet.hands) + 1),
        qr_svg=join_qr_svg(match),
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
