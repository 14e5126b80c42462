"""The match to keep: its sheet as a spreadsheet, the whole match as JSON, and its picture
for the group chat."""

from __future__ import annotations

import json

from flask import (
    Response,
    current_app,
    make_response,
    request,
)
from flask_babel import gettext as _

from scorekeeper.errors import Refusal
from scorekeeper.languages import direction, language
from scorekeeper.live.etags import (
    CACHE_CONTROL,
    VARY,
    not_modified_headers,
    unchanged,
)
from scorekeeper.matches import match_or_404
from scorekeeper.phones.rules import Action
from scorekeeper.phones.seats import seats_at, viewer_for
from scorekeeper.scoresheet.series import read_series
from scorekeeper.scoresheet.sheet import load_sheet
from scorekeeper.sheet.blueprint import bp
from scorekeeper.sheet.exports import match_json, sheet_csv
from scorekeeper.sheet.picture import PictureUnavailable, sheet_png
from scorekeeper.sheet.render import phone_etag


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
    etag = phone_etag(match, None)
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
