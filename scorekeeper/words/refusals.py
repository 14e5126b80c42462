"""Why a phone may not take an action, in words: the rules' refusals (phones/rules.py at a
match, phones/group_rules.py in a group), worded only when read (lazily): a page asks the rules
whether far more often than it shows why. Then a one-button form's refusals (sheet/actions.py).
"""

from __future__ import annotations

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel.speaklater import LazyString

# At a match (phones/rules.py).

MATCH_ENDED = _l("This match has ended: nothing on it can change.")

MATCH_ABANDONED = _l("This match was abandoned: nothing on it can change.")

HOST_ONLY = _l("Only the host's phone can do that.")


def holds_already(side: str) -> LazyString:
    """A claim by a phone that holds a side already."""
    # NOTE: %(side)s is the name of the side this phone holds, as the players named it.
    return _l("This phone already holds %(side)s.", side=side)


TABLE_CLOSED = _l(
    "The host has closed the table: no new phone can take a side. You can still watch."
)


def holds_not_watching(side: str) -> LazyString:
    """Watching asked by a phone that holds a side."""
    # NOTE: %(side)s is the name of the side this phone holds, as the players named it.
    return _l(
        "This phone holds %(side)s: it is at the table, not watching.",
        side=side,
    )


CLAIM_FIRST = _l("You can only enter your own side's total. Claim a side first.")


def holds_another(side: str) -> LazyString:
    """An entry for another side than the one this phone holds."""
    # NOTE: %(side)s is the name of the side this phone holds, as the players named it.
    return _l(
        "This phone holds %(side)s: it cannot enter for another side.",
        side=side,
    )


NO_SUCH_SIDE = _l("There is no such side in this match.")


def holds_fill_in_the_form(side: str) -> LazyString:
    """The host filling the side it holds itself: its own form enters it."""
    # NOTE: %(side)s is the name of the side this phone holds, as the players named it.
    return _l(
        "This phone holds %(side)s: enter its total in the form on the sheet.",
        side=side,
    )


def held_by_a_phone(side: str) -> LazyString:
    """The host filling a side a phone holds: that phone enters it."""
    # NOTE: %(side)s is a side's name, as the players named it.
    return _l(
        "A phone holds %(side)s: only that phone enters its total. Nothing was saved.",
        side=side,
    )


TIE_ONLY = _l("Only a side in the tie (or the host) can say who settles it.")

SEATED_TO_END = _l("Only a phone at the table (holding a side) can end the match.")

PICK_ANOTHER_PHONE = _l("Pick another phone at this match.")

HOST_GOES_TO_A_SIDE = _l("The host role goes to a phone that holds a side.")

HOST_REOPENS = _l("Only the host can reopen a match.")

OPEN_ALREADY = _l("This match is open already.")

TABLE_CLOSED_ALREADY = _l("The table is closed already.")

TABLE_OPEN_ALREADY = _l("The table is open already.")

NOT_AT_THE_MATCH = _l("This phone isn't at this match: claim a side or watch first.")

REMATCH_AFTER_THE_END = _l("A rematch follows a match that has ended.")

REMATCH_BY_PLAYERS = _l("Only a phone that played (or the host) can start a rematch.")

NOT_IN_THE_LIST = _l("This match isn't in this phone's list.")

STILL_PLAYING = _l(
    "This phone is still playing this match: end or abandon it first (or ask "
    "the host to release your side)."
)

HOST_WRITES_THE_NOTE = _l("Only the host can write the match's note.")

GROUP_AFTER_THE_END = _l("A table becomes a group once its match has ended.")

GROUP_BY_PLAYERS = _l("Only a phone that played (or the host) can keep this table as a group.")

COOKIE_MISSING = _l("This phone's cookie is missing: reload the page and try again.")


# In a group (phones/group_rules.py).

GROUP_CLOSED = _l("The host has closed this group to new phones. You can still read its standings.")

GROUP_HOST_ONLY = _l("Only the group's host can do that.")

JOIN_THE_GROUP_FIRST = _l("Join the group first.")

GROUP_HOST_HANDS_OVER_FIRST = _l("Hand the host role to another phone of the group first.")

NOT_IN_THE_GROUP = _l("This phone is not in this group.")

PICK_ANOTHER_IN_THE_GROUP = _l("Pick another phone of the group.")

GROUP_CLOSED_ALREADY = _l("The group is closed already.")

GROUP_OPEN_ALREADY = _l("The group is open already.")


# A one-button form refused (sheet/actions.py).


def name_refused(problem: str) -> str:
    """The player's name the form carried, refused: what is wrong with it."""
    # NOTE: a name refused; %(problem)s says what is wrong with it.
    return _("Your name: %(problem)s", problem=problem)


def form_incomplete() -> str:
    """A form that lost a field on the way (CSRF, key, target)."""
    return _("That button's form was incomplete: reload and try again.")
