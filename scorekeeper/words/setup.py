"""The words of making a match (scoresheet/setup.py): why the New match form cannot make one,
what a side left unnamed is called, and the brake on many new matches (new_matches.py)."""

from __future__ import annotations

from flask_babel import gettext as _
from flask_babel import ngettext


def name_the_sides(low: int, high: int) -> str:
    """A game whose sides are named freely, with fewer or more names than it takes."""
    # NOTE: %(low)d is the fewest sides a game needs, %(num)d the most (2 to 8).
    return ngettext(
        "Name %(low)d to %(num)d side: one name per side.",
        "Name %(low)d to %(num)d sides: one name per side.",
        high,
        low=low,
    )


def unnamed_side(number: int) -> str:
    """A side the host left unnamed, as the form's placeholder calls it: "Side 2"."""
    return _("Side %(number)s", number=number)


def choose_the_target() -> str:
    """A target the game doesn't offer (a post made by hand, or an older page)."""
    return _("Choose the target.")


def sides_at_the_table(sides: int) -> str:
    """The host's side past the sides the table has."""
    return ngettext("This table has %(num)d side.", "This table has %(num)d sides.", sides)


def wait_to_make(minutes: int) -> str:
    """A new match refused by the brake on many new matches: how long to wait, in whole
    minutes."""
    return ngettext(
        "This phone, or this network, made many matches in a short time. Wait %(num)d "
        "minute, then create this one: what you chose is kept below.",
        "This phone, or this network, made many matches in a short time. Wait %(num)d "
        "minutes, then create this one: what you chose is kept below.",
        minutes,
    )
