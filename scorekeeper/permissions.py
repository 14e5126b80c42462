"""Who may do what at a match: the one place every action is checked, on the server."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from enum import Enum
from typing import NamedTuple

import sqlalchemy as sa
from flask_babel import gettext as _

from scorekeeper.extensions import db
from scorekeeper.games import EntryFacts
from scorekeeper.models import Match, Seat, Side, person
from scorekeeper.phones import current_phone

# Built once, as most requests run them: building a statement costs more than running it.
SEAT_OF = sa.select(Seat.id, Seat.side_id, Seat.player).where(
    Seat.match_id == sa.bindparam("match_id"), Seat.phone == sa.bindparam("phone")
)
_seat = Seat.__table__.c
SEATS_AT = (
    sa.select(_seat.id, _seat.phone, _seat.side_id, _seat.player)
    .where(_seat.match_id == sa.bindparam("match_id"))
    .order_by(_seat.id)
)


class SeatAt(NamedTuple):
    """A phone's seat at a match as a page shows it: the side it holds (None: watching)."""

    id: int
    phone: str
    side_id: int | None
    player: str
    side: Side | None

    @property
    def label(self) -> str:
        """Who this phone is, as the table says it: "Omar (Us)"."""
        return person(self.player, self.side)


def seats_at(match: Match) -> tuple[SeatAt, ...]:
    """Every phone's seat at the match, in the order they sat down, as plain rows."""
    sides = {side.id: side for side in match.sides}
    rows = db.session.connection().execute(SEATS_AT, {"match_id": match.id})
    return tuple(
        SeatAt(seat_id, phone, side_id, player, sides.get(side_id) if side_id is not None else None)
        for seat_id, phone, side_id, player in rows
    )


class Refusal(Exception):
    """An action this phone may not take now, with the words to show it; `given_back` is what
    the player typed, put in the entry form of the page that says so, to enter again."""

    def __init__(
        self,
        message: str,
        status: int = 403,
        match: Match | None = None,
        given_back: EntryFacts | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.match = match
        self.given_back = given_back


class Action(Enum):
    """Everything a phone can do to a match."""

    CLAIM = "claim"
    WATCH = "watch"
    ENTER = "enter"
    LAST_TRICK = "last_trick"
    END = "end"
    CORRECT = "correct"
    RELEASE = "release"
    HAND_OVER = "hand_over"
    ABANDON = "abandon"
    REOPEN = "reopen"
    CLOSE_TABLE = "close_table"
    OPEN_TABLE = "open_table"
    RENAME = "rename"
    REMATCH = "rematch"
    FORGET = "forget"
    DEALER = "dealer"
    NOTE = "note"


# Actions only the host's phone may take.
HOST_ONLY = {
    Action.CORRECT,
    Action.DEALER,
    Action.RELEASE,
    Action.HAND_OVER,
    Action.ABANDON,
    Action.REOPEN,
    Action.CLOSE_TABLE,
    Action.OPEN_TABLE,
}


@dataclass(frozen=True)
class Viewer:
    """This phone as a match sees it: its seat (if any), the side it holds (if any), and
    whether it holds the host role. Views and templates ask it what it may do."""

    match: Match
    phone: str | None
    # Its seat at the match, holding a side or watching; None while it isn't at the table.
    seat_id: int | None
    side: Side | None
    is_host: bool
    # The name its player gave at this match ("" if none).
    player: str = ""

    @property
    def label(self) -> str:
        """Who this phone is, as the table says it: "Omar (Us)"."""
        return person(self.player, self.side)

    @property
    def is_seated(self) -> bool:
        """Whether this phone holds a side."""
        return self.side is not None

    def may(
        self,
        action: Action,
        side: Side | None = None,
        among: Collection[int] = (),
        to: Seat | SeatAt | None = None,
    ) -> bool:
        """Whether this phone may take this action now (for showing its button)."""
        return refusal(self, action, side, among, to) is None

    def require(
        self,
        action: Action,
        side: Side | None = None,
        among: Collection[int] = (),
        to: Seat | SeatAt | None = None,
    ) -> Viewer:
        """This viewer, if it may take this action now; else the Refusal that says why."""
        refused = refusal(self, action, side, among, to)
        if refused is not None:
            raise refused
        return self


def viewer_for(match: Match, seats: Iterable[Seat | SeatAt] | None = None) -> Viewer:
    """Who is looking at this match from the phone of this request (viewer_at)."""
    return viewer_at(match, current_phone(), seats)


def viewer_at(
    match: Match, phone: str | None, seats: Iterable[Seat | SeatAt] | None = None
) -> Viewer:
    """Who is looking at this match from this phone: its seat among `seats` if given (the
    match's seats as already read), else read now."""
    seat_id = side_id = None
    player = ""
    if phone is not None and seats is not None:
        seat = next((s for s in seats if s.phone == phone), None)
        if seat is not None:
            seat_id, side_id, player = seat.id, seat.side_id, seat.player
    elif phone is not None:
        row = db.session.execute(SEAT_OF, {"match_id": match.id, "phone": phone}).first()
        if row is not None:
            seat_id, side_id, player = row
    side = next((s for s in match.sides if s.id == side_id), None) if side_id is not None else None
    is_host = phone is not None and phone == match.host_phone
    return Viewer(
        match=match, phone=phone, seat_id=seat_id, side=side, is_host=is_host, player=player
    )


def refusal(
    viewer: Viewer,
    action: Action,
    side: Side | None = None,
    among: Collection[int] = (),
    to: Seat | SeatAt | None = None,
) -> Refusal | None:
    """Why this phone may not take this action on its match now, or None if it may.

    `side` is the column an entry goes into; `among` the ids of the sides tied on a Brisca
    round, whose phones (and the host) may say who took the last trick; `to` the seat at this
    match the host role would go to.
    """
    match = viewer.match
    if action is Action.REOPEN:
        if not viewer.is_host:
            return Refusal(_("Only the host can reopen a match."), match=match)
        if match.is_open:
            return Refusal(_("This match is open already."), 409, match)
        return None
    if action is Action.REMATCH:
        if not match.is_ended:
            return Refusal(_("A rematch follows a match that has ended."), 409, match)
        if not (viewer.is_seated or viewer.is_host):
            return Refusal(
                _("Only a phone that played (or the host) can start a rematch."), match=match
            )
        return None
    if action is Action.FORGET:
        if viewer.seat_id is None:
            return Refusal(_("This match isn't in this phone's list."), 404, match)
        if match.is_open and (viewer.side is not None or viewer.is_host):
            return Refusal(
                _(
                    "This phone is still playing this match: end or abandon it first (or ask "
                    "the host to release your side)."
                ),
                409,
                match,
            )
        return None
    if action is Action.NOTE:
        # Written after the last hand as often as before the first: on a match in any state.
        if not viewer.is_host:
            return Refusal(_("Only the host can write the match's note."), match=match)
        return None
    if action is not Action.WATCH and not match.is_open:
        if match.is_ended:
            return Refusal(_("This match has ended: nothing on it can change."), 409, match)
        return Refusal(_("This match was abandoned: nothing on it can change."), 409, match)
    if action in HOST_ONLY and not viewer.is_host:
        return Refusal(_("Only the host's phone can do that."), match=match)
    if action is Action.WATCH and viewer.side is not None:
        # It would give up its side without a word: release is the host's to do.
        return Refusal(
            # NOTE: %(side)s is the name of the side this phone holds, as the players named it.
            _(
                "This phone holds %(side)s: it is at the table, not watching.",
                side=viewer.side.name,
            ),
            409,
            match,
        )
    if action is Action.CLAIM and viewer.side is not None:
        return Refusal(
            # NOTE: %(side)s is the name of the side this phone holds, as the players named it.
            _("This phone already holds %(side)s.", side=viewer.side.name),
            409,
            match,
        )
    if action is Action.CLAIM and match.closed:
        return Refusal(
            _("The host has closed the table: no new phone can take a side. You can still watch."),
            409,
            match,
        )
    if action is Action.CLOSE_TABLE and match.closed:
        return Refusal(_("The table is closed already."), 409, match)
    if action is Action.OPEN_TABLE and not match.closed:
        return Refusal(_("The table is open already."), 409, match)
    if action is Action.ENTER and (
        side is None or viewer.side is None or viewer.side.id != side.id
    ):
        if viewer.side is None:
            return Refusal(
                _("You can only enter your own side's total. Claim a side first."), match=match
            )
        return Refusal(
            # NOTE: %(side)s is the name of the side this phone holds, as the players named it.
            _(
                "This phone holds %(side)s: it cannot enter for another side.",
                side=viewer.side.name,
            ),
            match=match,
        )
    if action is Action.LAST_TRICK and not viewer.is_host:
        if viewer.side is None or viewer.side.id not in among:
            return Refusal(
                _("Only a side in the tie (or the host) can say who took the last trick."),
                match=match,
            )
    if action is Action.HAND_OVER and (to is None or to.phone == viewer.phone):
        return Refusal(_("Pick another phone at this match."), 409, match)
    if action is Action.HAND_OVER and to is not None and to.side_id is None:
        # A watching phone may be a TV across the room: the host's tools go to a player.
        return Refusal(_("The host role goes to a phone that holds a side."), 409, match)
    if action is Action.RENAME and viewer.seat_id is None:
        return Refusal(
            _("This phone isn't at this match: claim a side or watch first."), match=match
        )
    if action is Action.END and not (viewer.is_seated or viewer.is_host):
        return Refusal(
            _("Only a phone at the table (holding a side) can end the match."), match=match
        )
    return None
