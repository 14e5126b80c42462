"""The win rule of the points games: first to the target, the higher when several get there."""

from __future__ import annotations

from collections.abc import Sequence

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext

from .base import Standing

# Words for "Higher of two over 101": a result line reads better than "Higher of 2".
_HOW_MANY = {
    # NOTE: Why a match was won: the top of several sides that reached the target (%(target)d).
    2: _l("Higher of two over %(target)d"),
    3: _l("Highest of three over %(target)d"),
    4: _l("Highest of four over %(target)d"),
    5: _l("Highest of five over %(target)d"),
    6: _l("Highest of six over %(target)d"),
    7: _l("Highest of seven over %(target)d"),
    8: _l("Highest of eight over %(target)d"),
}


def both(names: Sequence[str]) -> str:
    """Two or more side names as a sentence lists them: "Us and Them" ("A and B and C")."""
    joined = names[0]
    for name in names[1:]:
        # NOTE: Two side names (or a list of them so far, and one more) joined: "Us and Them".
        joined = _("%(first)s and %(second)s", first=joined, second=name)
    return joined


def first_over_target(totals: Sequence[int], target: int) -> tuple[int, str] | None:
    """The winner under "first to the target; several there: the higher; level: play on"."""
    # basra.txt: "If both sides reach 101 in the very same hand, the higher score wins it;
    # if they are level there too, deal again until the tie breaks."
    over = [side for side, total in enumerate(totals) if total >= target]
    if not over:
        return None
    top = max(totals[side] for side in over)
    leaders = [side for side in over if totals[side] == top]
    if len(leaders) > 1:
        return None
    if len(over) == 1:
        # NOTE: Why a match was won: the one side that reached the target.
        return leaders[0], _("Reached %(target)d first", target=target)
    words = _HOW_MANY.get(len(over))
    if words is not None:
        return leaders[0], str(words) % {"target": target}
    return leaders[0], ngettext(
        "Highest of %(num)d over %(target)d",
        "Highest of %(num)d over %(target)d",
        len(over),
        target=target,
    )


def level_past_target(totals: Sequence[int], target: int, names: Sequence[str]) -> str:
    """Why play goes on though sides reached the target: they are level at the top ("" if no
    side reached it, or one is ahead: first_over_target names it)."""
    # basra.txt: "if they are level there too, deal again until the tie breaks."
    over = [side for side, total in enumerate(totals) if total >= target]
    if not over:
        return ""
    top = max(totals[side] for side in over)
    level = [names[side] for side in over if totals[side] == top]
    if len(level) < 2:
        return ""
    # NOTE: %(names)s is two or more side names ("Us and Them"); the form follows how many.
    return ngettext(
        "%(names)s are level at %(top)d, past %(target)d: play on until the tie breaks.",
        "%(names)s are level at %(top)d, past %(target)d: play on until the tie breaks.",
        len(level),
        names=both(level),
        top=top,
        target=target,
    )


def standing(totals: Sequence[int], target: int, goal: str = "") -> Standing:
    """Who leads (the highest) and by how much, and how far each side is from the target."""
    if not totals:
        return Standing((), 0, (), goal)
    top = max(totals)
    leaders = tuple(side for side, total in enumerate(totals) if total == top)
    rest = [total for total in totals if total != top]
    lead = top - max(rest) if len(leaders) == 1 and rest else 0
    return Standing(leaders, lead, tuple(max(target - total, 0) for total in totals), goal)
