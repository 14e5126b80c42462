"""What the write path, a match's life and its seats tell the phone that posted
(scoresheet/writing.py, life.py, seats.py): what its action did, or why nothing was written."""

from __future__ import annotations

from flask_babel import gettext as _
from flask_babel import ngettext

from scorekeeper.games import Term

# The write path (scoresheet/writing.py).


def sent_before(made: bool) -> str:
    """A post whose key was used before with other values: nothing was made (a new match) or
    saved (anything else)."""
    if made:
        return _(
            "This form was sent before with other values, so nothing was made. "
            "Reload the page and try again."
        )
    return _(
        "This form was sent before with other values, so nothing was saved. "
        "Reload the page and try again."
    )


def already_recorded() -> str:
    """The same post again, its answer lost: it was carried out once."""
    return _("Already recorded.")


def clashed() -> str:
    """Two writers met at a constraint of the database."""
    return _("Someone else changed the sheet at the same moment. Try again.")


# A match's life (scoresheet/life.py).


def not_won_yet() -> str:
    """End match pressed before any side has won."""
    return _("No side has won yet: play on.")


def match_over(winner: str) -> str:
    """End match, with the side that won."""
    return _("Match over: %(side)s won.", side=winner)


def reopened() -> str:
    """An ended or abandoned match opened again."""
    return _("Match reopened.")


def abandoned() -> str:
    """The host abandoned the match."""
    return _("Match abandoned.")


def note_as_it_was() -> str:
    """The note saved unchanged."""
    return _("The note is as it was.")


def note_written(note: str) -> str:
    """The note saved, or cleared ("")."""
    return _("Note saved.") if note else _("Note cleared.")


def rematch_ready() -> str:
    """A rematch asked for once it was started: the phone goes on to it."""
    return _("The rematch is ready.")


def rematch_started() -> str:
    """The rematch started."""
    return _("Rematch! Every phone of the last match is asked to take its side.")


# Where the phones sit (scoresheet/seats.py).


def held_already(side: str) -> str:
    """A side claimed that has no room left."""
    return _(
        "%(side)s is already held. If that phone is gone, the host can release it.",
        side=side,
    )


def now_holds(side: str) -> str:
    """A side claimed."""
    return _("This phone now holds %(side)s.", side=side)


def watching_already() -> str:
    """Watching asked by a phone already at the match."""
    return _("This phone is watching this match already.")


def no_more_watchers(most: int) -> str:
    """Watching asked when the most watchers a match takes are watching."""
    return ngettext(
        "%(num)d phone is watching this match already: no more can join them.",
        "%(num)d phones are watching this match already: no more can join them.",
        most,
    )


def watching() -> str:
    """Watching started."""
    return _("Watching this match.")


def named_already(phone: str) -> str:
    """A phone renamed to the name it has."""
    # NOTE: %(phone)s is a phone as the table knows it: "Omar (Us)", a side's name.
    return _("This phone is %(phone)s already.", phone=phone)


def named(phone: str) -> str:
    """A phone renamed."""
    return _("This phone is now %(phone)s.", phone=phone)


def free_already(side: str) -> str:
    """A side released that no phone holds."""
    return _("%(side)s is already free.", side=side)


def released(side: str) -> str:
    """A side released by the host."""
    return _("%(side)s is free to be claimed again.", side=side)


def host_went_to(phone: str) -> str:
    """The host role handed over."""
    # NOTE: %(phone)s is a phone as the table knows it: "Omar (Us)", a side's name.
    return _("The host role went to %(phone)s.", phone=phone)


def table_closed() -> str:
    """The host closed the table to new phones."""
    return _("The table is closed: no new phone can take a side.")


def table_open() -> str:
    """The host opened the table again."""
    return _("The table is open: a new phone can take a free side.")


def pick_a_player() -> str:
    """A first dealer asked for who is not at this table."""
    return _("Pick a player at this table.")


def dealt_first(player: str, noun: Term) -> str:
    """Who dealt the first hand, said by the host."""
    # NOTE: %(player)s is a player's name, or a side's ("Us, player 2"); %(noun)s the
    # game's word for a hand inside a sentence ("hand", or "round").
    return _("%(player)s dealt the first %(noun)s.", player=player, noun=noun)


def off_the_list(code: str) -> str:
    """A match removed from this phone's list."""
    # NOTE: %(code)s is the match's code (six letters).
    return _("Match %(code)s is off this phone's list.", code=code)
