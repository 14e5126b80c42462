"""The match as a phone reads it: the sheet, its live part and stream, the TV view, the join
QR code full screen, and one cell opened."""

from __future__ import annotations

from flask import (
    Response,
    abort,
    current_app,
    render_template,
    request,
)

from scorekeeper import live as live_layer
from scorekeeper.games import get_game
from scorekeeper.live.stream import last_seen, version_events
from scorekeeper.matches import match_or_404, side_at
from scorekeeper.phones.identity import current_phone
from scorekeeper.phones.seats import seats_at, viewer_for
from scorekeeper.scoresheet.sheet import load_sheet
from scorekeeper.sheet.blueprint import bp
from scorekeeper.sheet.page import host_named
from scorekeeper.sheet.render import join_qr_svg, render_match
from scorekeeper.stream_caps import kept, stream_caps
from scorekeeper.stream_caps import refused as too_many_streams
from scorekeeper.terms import say


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


@bp.get("/<code>/qr")
def qr(code: str) -> str:
    """The join QR code full screen, for the table to scan."""
    match = match_or_404(code)
    return render_template(
        "sheet/qr.html", match=match, qr_svg=join_qr_svg(match), game_name=get_game(match.game).name
    )


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
        cell_notes=[say(tick.noted) for tick in found.ticks],
    )
