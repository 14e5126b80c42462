"""What every blueprint does with a match: find it by its code or 404, pick a side, and answer
after an action (post/redirect/get). A code that finds no match counts as a guess against the
asking address (scorekeeper/guesses.py).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import sqlalchemy as sa
from flask import abort, flash, redirect, url_for
from werkzeug.wrappers import Response

from scorekeeper.errors import Refusal
from scorekeeper.extensions import db
from scorekeeper.guesses import count_miss, refuse, used_up
from scorekeeper.models import Match, Side, StoredMatch, StoredSide
from scorekeeper.phones.seats import viewer_for
from scorekeeper.scoresheet.writing import Done
from scorekeeper.words import refusals

# A match with its sides as plain rows, one row a side: every request to a match reads one,
# and the ORM's objects for it cost more than the statement. Built once, on the tables: the
# match's columns, whether it follows another match (through ix_match_rematch_code, so that a
# match in no series walks none: scoresheet/series.py), then the side's.
_match, _side = Match.__table__.c, Side.__table__.c
_before = Match.__table__.alias("earlier")
# Each value read by its name: the match's columns and "follows" as StoredMatch names them, the
# side's columns prefixed "side_". Every column of each table, as their read models have them all.
MATCHES_WITH_SIDES = sa.select(
    *_match,
    sa.exists().where(_before.c.rematch_code == _match.code).label("follows"),
    *(column.label(f"side_{column.key}") for column in _side),
).join(Side.__table__, _side.match_id == _match.id)
MATCH_BY_CODE = MATCHES_WITH_SIDES.where(_match.code == sa.bindparam("code")).order_by(
    _side.position
)
# The names a row of MATCHES_WITH_SIDES gives the match's values and the side's.
_MATCH_NAMES = [*(column.key for column in _match), "follows"]
_SIDE_NAMES = [(f"side_{column.key}", column.key) for column in _side]


def matches_of(rows: Iterable[sa.Row[Any]]) -> list[StoredMatch]:
    """The matches in rows of MATCHES_WITH_SIDES, in the rows' order, each with its sides."""
    found: dict[int, tuple[dict[str, Any], list[StoredSide]]] = {}
    for row in rows:
        values = row._mapping
        if values["id"] not in found:
            found[values["id"]] = ({name: values[name] for name in _MATCH_NAMES}, [])
        side = {name: values[labelled] for labelled, name in _SIDE_NAMES}
        found[values["id"]][1].append(StoredSide(**side))
    return [StoredMatch(**match, sides=tuple(sides)) for match, sides in found.values()]


def read_match(code: str) -> StoredMatch | None:
    """The match with this code as stored now, with its sides (None if there is none)."""
    found = matches_of(db.session.execute(MATCH_BY_CODE, {"code": code}))
    return found[0] if found else None


def read_matches(where: sa.ColumnElement[bool], *order: Any) -> list[StoredMatch]:
    """The matches `where` selects, with their sides, in `order` (a phone's lists of them)."""
    statement = MATCHES_WITH_SIDES.where(where).order_by(*order, _side.position)
    return matches_of(db.session.execute(statement))


def find_match(code: str) -> StoredMatch | None:
    """The match with this code as stored (callers normalise what was typed), with its sides;
    None if there is none, counted as a miss against the asking address (count_miss), which
    is answered 429 once its misses are used up, for any match its phone isn't at."""
    match = None
    if code.isalnum() and len(code) <= 12:
        match = read_match(code)
    if match is None:
        count_miss()
    elif (wait := used_up()) is not None and viewer_for(match).seat_id is None:
        # A guesser that used up its misses learns nothing from a hit either.
        refuse(wait)
    return match


def match_or_404(code: str) -> StoredMatch:
    """The match for a code in a URL, or 404 (a code is a few letters and digits: anything
    else cannot be one, and never reaches SQL)."""
    match = find_match(code.upper())
    if match is None:
        abort(404)
    return match


def side_at(match: StoredMatch, position: int | None) -> StoredSide:
    """A side of this match by its column, or a refusal on the match page."""
    for side in match.sides:
        if side.position == position:
            return side
    raise Refusal(refusals.NO_SUCH_SIDE, 404, match)


def answer(code: str, done: Done) -> Response:
    """After a post: say what happened, and back to the sheet (post/redirect/get)."""
    flash(done.message, "repeated" if done.repeated else "done")
    return redirect(url_for("sheet.match", code=done.go_to or code))
