"""What a phone is told once, on its next page, of what happened to it: its cookie unreadable
(phones/identity.py), its side released or the host role handed to it (phones/notices.py)."""

from __future__ import annotations

from flask_babel import gettext as _


def cookie_unreadable() -> str:
    """A phone whose cookie could not be read: treated as a new one."""
    return _(
        "This phone was not recognised (its cookie could not be read), so it is "
        "treated as a new phone: it may need to claim its side again."
    )


def released(side: str) -> str:
    """This phone's side released by the host since its last page."""
    # NOTE: %(side)s is the name of the side (team) this phone held.
    return _(
        "The host released %(side)s from this phone, which now only watches. If "
        "%(side)s is still free you can take it back below; otherwise ask the host.",
        side=side,
    )


def now_the_host() -> str:
    """The host role handed to this phone since its last page."""
    return _(
        "This phone is now the host: it can correct any cell, say who dealt first, "
        "release a side whose phone is gone, close the table to new phones, abandon "
        "the match and hand the role on (the Host card below)."
    )
