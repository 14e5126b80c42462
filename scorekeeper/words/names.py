"""How the table names a phone (models.person): by its player's name and the side it holds
("Omar (Us)"), or as a watching phone."""

from __future__ import annotations

from flask_babel import gettext as _


def watching_phone() -> str:
    """A phone that holds no side and whose player gave no name."""
    # NOTE: Who a phone is when it holds no side and its player gave no name; it goes into
    # sentences, as in "This phone is now a watching phone."
    return _("a watching phone")


def player_on_side(player: str, side: str) -> str:
    """A player and the side they hold: "Omar (Us)"."""
    # NOTE: A player and the side they hold, as the table reads it: "Omar (Us)".
    return _("%(player)s (%(side)s)", player=player, side=side)
