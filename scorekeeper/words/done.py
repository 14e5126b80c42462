"""What the write path and a match's life tell the phone that posted (scoresheet/writing.py,
scoresheet/life.py): what its action did, or why nothing was written."""

from __future__ import annotations

from flask_babel import gettext as _

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
