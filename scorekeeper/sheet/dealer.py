"""Who deals: the host says who dealt first, and the deal passes round the table.

brisca.txt: "For the next hands, the dealer is the next player in the direction of play." The
other rule texts are silent; product.md's table sits partners apart, so the deal goes round
the table in seating order: the first player of each side in turn, then the second of each.
"""

from __future__ import annotations

from collections.abc import Sequence

from flask_babel import gettext as _

from scorekeeper.models import Side
from scorekeeper.permissions import SeatAt


def dealing_order(sides: Sequence[Side], per_side: int, seats: Sequence[SeatAt]) -> list[str]:
    """The players round the table in the direction of play, by name where their phone gave
    one ("Omar (Us)"), else by side ("Us", or "Us, player 2" in a partnership)."""
    order: list[str] = []
    for place in range(per_side):
        for side in sides:
            holders = [seat for seat in seats if seat.side_id == side.id]
            if place < len(holders) and holders[place].player:
                order.append(holders[place].label)
            elif per_side > 1:
                # NOTE: a player of a partnership who gave no name: "Us, player 2". %(side)s is
                # the side's name, %(number)s the player's place on it.
                order.append(_("%(side)s, player %(number)s", side=side.name, number=place + 1))
            else:
                order.append(side.name)
    return order


def dealer_of(order: Sequence[str], first: int | None, hand_number: int) -> str | None:
    """Who deals this hand (None until the host says who dealt the first)."""
    if first is None or not order:
        return None
    return order[(first + hand_number - 1) % len(order)]
