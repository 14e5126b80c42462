"""Who is at the table: how many phones may and do hold each side, and which sides still have
room for another phone."""

from __future__ import annotations

from collections.abc import Iterable

from scorekeeper.games import (
    get_game,
)
from scorekeeper.models import (
    StoredMatch,
    StoredSeat,
    StoredSide,
)


def players_per_side(match: StoredMatch) -> int:
    """How many phones may hold one side of this match (two in a partnership)."""
    return get_game(match.game).format(match.table_format).players_per_side


def phones_on(seats: Iterable[StoredSeat]) -> dict[int, int]:
    """How many phones hold each side, by side id (from the seats as read)."""
    held: dict[int, int] = {}
    for seat in seats:
        if seat.side_id is not None:
            held[seat.side_id] = held.get(seat.side_id, 0) + 1
    return held


def sides_with_room(match: StoredMatch, seats: Iterable[StoredSeat]) -> tuple[StoredSide, ...]:
    """The sides another phone may still take: fewer phones hold them than the table seats
    players on a side (the claim form offers these, and a claim is refused for any other)."""
    held, room = phones_on(seats), players_per_side(match)
    return tuple(side for side in match.sides if held.get(side.id, 0) < room)
