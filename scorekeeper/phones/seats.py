"""Where the phones sit at a match: its seats as stored, and the Viewer of the phone looking at
it (phones/rules.py says what that viewer may do)."""

from __future__ import annotations

from collections.abc import Iterable

import sqlalchemy as sa

from scorekeeper.extensions import db
from scorekeeper.models import Match, Seat, Side, StoredMatch, StoredSeat, StoredSide
from scorekeeper.phones.identity import current_phone
from scorekeeper.phones.rules import Viewer

# Built once, as most requests run it: building a statement costs more than running it.
# Every seat of the match, a handful of rows, in the order they sat down: all its columns, as
# its read model (StoredSeat) has them all.
SEATS_OF = (
    sa.select(*Seat.__table__.c).where(Seat.match_id == sa.bindparam("match_id")).order_by(Seat.id)
)


def seats_at(match: StoredMatch) -> list[StoredSeat]:
    """Every phone's seat at the match, in the order they sat down, as stored now (a write
    reads them under its lock), each with its side from the match's as read."""
    sides: dict[int | None, StoredSide] = {side.id: side for side in match.sides}
    rows = db.session.execute(SEATS_OF, {"match_id": match.id})
    return [StoredSeat(**row._mapping, side=sides.get(row.side_id)) for row in rows]


def viewer_for(match: StoredMatch, seats: Iterable[StoredSeat] | None = None) -> Viewer:
    """Who is looking at this match from the phone of this request (viewer_at)."""
    return viewer_at(match, current_phone(), seats)


# The place of the side a phone held at the match whose rematch this one is (none: it held no
# side there, or this match is nobody's rematch). Through ix_match_rematch_code, then the
# seat's unique (match, phone).
PLACE_BEFORE = (
    sa.select(Side.position)
    .join(Seat, Seat.side_id == Side.id)
    .join(Match, Match.id == Seat.match_id)
    .where(Match.rematch_code == sa.bindparam("code"), Seat.phone == sa.bindparam("phone"))
)


def viewer_at(
    match: StoredMatch, phone: str | None, seats: Iterable[StoredSeat] | None = None
) -> Viewer:
    """Who is looking at this match from this phone: its seat among `seats` if given (the
    match's seats as already read), else read now."""
    found: StoredSeat | None = None
    held: set[int] = set()
    for seat in seats_at(match) if seats is None else seats:
        if seat.side_id is not None:
            held.add(seat.side_id)
        if phone is not None and seat.phone == phone:
            found = seat
    seat_id, side, player, released_from = (
        (found.id, found.side, found.player, found.released_from)
        if found
        else (None, None, "", None)
    )
    is_host = phone is not None and phone == match.host_phone
    played_before = None
    if match.is_open and match.closed and side is None and not is_host and phone is not None:
        # Asked only where a closed table keeps a phone from taking a side: not on every page
        # of every match.
        played_before = db.session.scalar(PLACE_BEFORE, {"code": match.code, "phone": phone})
    return Viewer(
        match,
        phone,
        seat_id,
        side,
        is_host,
        player,
        released_from,
        frozenset(held),
        played_before,
    )
