"""Who deals: the host says who dealt first, and the deal passes round the table.

docs/rules/README.md, "Who deals": the deal passes to the next player round the table. Partners
sit apart, so the deal goes round in seating order: the first player of each side in turn,
then the second of each."""

from __future__ import annotations

import re
from collections.abc import Sequence

from scorekeeper import words
from scorekeeper.models import (
    StoredSeat,
    StoredSide,
    person,
)

# What separates the players the host typed for one side ("Omar, Sara", "Omar & Sara"): the
# list marks of the four languages, never a space (one player may have two names).
PLAYERS_APART = re.compile(r"\s*[,،;&/+]\s*")


def typed_players(side: StoredSide) -> list[str]:
    """The players the host typed for a side at creation, in the order typed."""
    return [name for name in PLAYERS_APART.split(side.players.strip()) if name]


def dealing_order(
    sides: Sequence[StoredSide], per_side: int, seats: Sequence[StoredSeat]
) -> list[str]:
    """The players round the table in the direction of play, by name where their phone gave
    one ("Omar (Us)"), else by the names the host typed for the side, else by side ("Us", or
    "Us, player 2" in a partnership)."""
    places: dict[int, list[str | None]] = {}
    for side in sides:
        holders = [seat for seat in seats if seat.side_id == side.id]
        names: list[str | None] = [
            holders[place].label if place < len(holders) and holders[place].player else None
            for place in range(per_side)
        ]
        # The host's typed names fill the places no phone named, in the order typed, leaving
        # out anyone a phone already named: a player is one place at the table, not two.
        said = {seat.player.casefold() for seat in holders if seat.player}
        typed = iter(n for n in typed_players(side) if n.casefold() not in said)
        for place, name in enumerate(names):
            if name is None:
                player = next(typed, None)
                if player is not None:
                    names[place] = person(player, side)
        places[side.id] = names
    order: list[str] = []
    for place in range(per_side):
        for side in sides:
            name = places[side.id][place]
            if name is not None:
                order.append(name)
            elif per_side > 1:
                order.append(words.unnamed_partner(side.name, place + 1))
            else:
                order.append(side.name)
    return order


def dealer_of(order: Sequence[str], first: int | None, hand_number: int) -> str | None:
    """Who deals this hand (None until the host says who dealt the first)."""
    if first is None or not order:
        return None
    return order[(first + hand_number - 1) % len(order)]
