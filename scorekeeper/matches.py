"""What every blueprint does with a match: find it by its code or 404, pick a side, and answer
after an action (post/redirect/get). A code that finds no match counts as a guess against the
asking address (scorekeeper/guesses.py).
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlalchemy.orm as so
from flask import abort, flash, redirect, url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from scorekeeper.errors import Refusal
from scorekeeper.extensions import db
from scorekeeper.guesses import count_miss, refuse, used_up
from scorekeeper.models import Match, Side
from scorekeeper.permissions import viewer_for
from scorekeeper.scoresheet.writing import Done

# Built once, as every request to a match runs it: the match with its sides, which nearly
# every caller goes on to, and whether it follows another match (through
# ix_match_rematch_code), so that a match in no series walks none (scoresheet/series.py).
_before = so.aliased(Match)
MATCH_BY_CODE = (
    sa.select(Match)
    .where(Match.code == sa.bindparam("code"))
    .options(
        so.joinedload(Match.sides),
        so.with_expression(Match.follows, sa.exists().where(_before.rematch_code == Match.code)),
    )
)


def find_match(code: str) -> Match | None:
    """The match with this code as stored (callers normalise what was typed), with its sides;
    None if there is none, counted as a miss against the asking address (count_miss), which
    is answered 429 once its misses are used up, for any match its phone isn't at."""
    match = None
    if code.isalnum() and len(code) <= 12:
        match = db.session.scalars(MATCH_BY_CODE, {"code": code}).unique().first()
    if match is None:
        count_miss()
    elif (wait := used_up()) is not None and viewer_for(match).seat_id is None:
        # A guesser that used up its misses learns nothing from a hit either.
        refuse(wait)
    return match


def match_or_404(code: str) -> Match:
    """The match for a code in a URL, or 404 (a code is a few letters and digits: anything
    else cannot be one, and never reaches SQL)."""
    match = find_match(code.upper())
    if match is None:
        abort(404)
    return match


def side_at(match: Match, position: int | None) -> Side:
    """A side of this match by its column, or a refusal on the match page."""
    for side in match.sides:
        if side.position == position:
            return side
    raise Refusal(_("There is no such side in this match."), 404, match)


def answer(code: str, done: Done) -> Response:
    """After a post: say what happened, and back to the sheet (post/redirect/get). `code` is
    the match's, read before the action: its commit expires the match, and reading its code
    after would read the match again for nothing (answer(match.code, action(...)) reads it
    first too)."""
    flash(done.message, "repeated" if done.repeated else "done")
    return redirect(url_for("sheet.match", code=done.go_to or code))
