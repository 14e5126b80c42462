"""What a confirm page asks before an action taken with a second tap (sheet/actions.py):
abandoning a match, releasing a side, handing the host role over."""

from __future__ import annotations

from typing import NamedTuple

from flask_babel import gettext as _


class Asked(NamedTuple):
    """A confirm page's words: its question, what will happen, and its button."""

    question: str
    consequence: str
    yes: str


def abandon() -> Asked:
    """The host abandoning the match."""
    return Asked(
        _("Abandon this match?"),
        _(
            "No more hands can be entered. The sheet stays in every phone's history as "
            "abandoned, and you, the host, can reopen it."
        ),
        # NOTE: a button.
        _("Yes, abandon it"),
    )


def release(side: str, closed: bool) -> Asked:
    """The host freeing a side whose phone is gone, at a closed table or an open one."""
    return Asked(
        # NOTE: %(side)s is a side's name, in this and the next two messages.
        _("Release %(side)s?", side=side),
        _(
            "The phones holding %(side)s become watchers. The table is closed: only a "
            "phone that played %(side)s, or you, can take it again. Its entries stay on "
            "the sheet.",
            side=side,
        )
        if closed
        else _(
            "The phones holding %(side)s become watchers, and any phone can claim "
            "%(side)s. Its entries stay on the sheet.",
            side=side,
        ),
        # NOTE: a button; %(side)s is a side's name.
        _("Yes, release %(side)s", side=side),
    )


def hand_over(phone: str) -> Asked:
    """The host handing the host role to another phone at the match."""
    return Asked(
        # NOTE: %(phone)s is a phone as the table knows it: "Omar (Us)", a side's name.
        _("Make %(phone)s the host?", phone=phone),
        _(
            "This phone loses the host's tools (corrections, releasing a side, abandoning); "
            "only the new host can give them back."
        ),
        # NOTE: a button; %(phone)s is a phone as the table knows it: "Omar (Us)".
        _("Yes, make %(phone)s the host", phone=phone),
    )
