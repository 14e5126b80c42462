"""The words of moving a history to another phone (scoresheet/moving.py): how long a code
works, what opening one did, and why a code cannot be opened."""

from __future__ import annotations

from flask_babel import gettext as _
from flask_babel import ngettext


def open_within(minutes: int) -> str:
    """A code shown: how long it works."""
    return ngettext(
        "Open this code on your other phone within %(num)d minute.",
        "Open this code on your other phone within %(num)d minutes.",
        minutes,
    )


def kept_here_already() -> str:
    """A code opened on the phone that showed it."""
    return _("This phone keeps this history already: open the code on your other phone or tablet.")


def histories_joined(count: int) -> str:
    """A code opened by a browser with matches of its own: both keep one history now."""
    return ngettext(
        "Your two histories are one now: %(num)d match, on both phones.",
        "Your two histories are one now: %(num)d matches, on both phones.",
        count,
    )


def history_moved(count: int) -> str:
    """A code opened by a browser with no matches of its own: it keeps the history now."""
    return ngettext(
        "This phone now keeps your history: %(num)d match, with your sides and record.",
        "This phone now keeps your history: %(num)d matches, with your sides and record.",
        count,
    )


def unknown(code: str) -> str:
    """A code no history has, as it was typed."""
    # NOTE: %(code)s is the code as it was typed, between quotes.
    return _("No history has the code %(code)s. Check it on your other phone.", code=repr(code))


def opened_already() -> str:
    """A code opened a second time."""
    return _("This code was opened already: a code works once. Show a new one on your other phone.")


def no_longer_works(minutes: int) -> str:
    """A code past its minutes, or not the newest its phone showed."""
    return ngettext(
        "This code no longer works: a code works for %(num)d minute, and only the newest "
        "one a phone showed. Show a new one on your other phone.",
        "This code no longer works: a code works for %(num)d minutes, and only the newest "
        "one a phone showed. Show a new one on your other phone.",
        minutes,
    )
