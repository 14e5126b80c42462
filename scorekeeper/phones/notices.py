"""What the host did to a phone since its last page of a match showed it (its side released,
the host role handed to it), told once on its next page, from what its cookie kept."""

from __future__ import annotations

from flask import session

from scorekeeper.phones.rules import Viewer
from scorekeeper.words import notices

# What the page of each match last showed this phone: the place of the side it held (None:
# none) and whether it was the host, in its cookie for the matches it opened last. A later page
# that finds it otherwise says what the host did, whichever worker serves it, and nothing
# is written but the cookie.
SEEN_KEPT = 8


def told(viewer: Viewer, *, keep: bool) -> list[str]:
    """What the host did to this phone since its last page of the match showed it (its side
    released, the host role handed to it), in words; none on its first page there. `keep`
    records what this page shows, so the next one says nothing more of it."""
    seen = session.get("seen")
    seen = dict(seen) if isinstance(seen, dict) else {}
    match = viewer.match
    now = [viewer.side.position if viewer.side else None, viewer.is_host]
    before = seen.get(match.code)
    said: list[str] = []
    if isinstance(before, list) and len(before) == 2 and before != now:
        held, hosted = before
        released = next((s for s in match.sides if s.position == viewer.released_from), None)
        # The host that released its own side did it itself: its answer said so.
        if released is not None and held == released.position and not viewer.is_host:
            said.append(notices.released(released.name))
        if viewer.is_host and not hosted:
            said.append(notices.now_the_host())
    if keep and viewer.phone is not None and before != now:
        seen.pop(match.code, None)
        seen[match.code] = now
        session["seen"] = dict(list(seen.items())[-SEEN_KEPT:])
    return said
