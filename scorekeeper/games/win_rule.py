"""The win rule of the points games: first to the target, the higher when several get there."""

from __future__ import annotations

from collections.abc import Sequence

from .base import Standing

# Words for "Higher of two over 101": a result line reads better than "Higher of 2".
_HOW_MANY = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}


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
        return leaders[0], f"Reached {target} first"
    word = "Higher" if len(over) == 2 else "Highest"
    return leaders[0], f"{word} of {_HOW_MANY.get(len(over), str(len(over)))} over {target}"


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
    return f"{' and '.join(level)} are level at {top}, past {target}: play on until the tie breaks."


def standing(totals: Sequence[int], target: int, goal: str = "") -> Standing:
    """Who leads (the highest) and by how much, and how far each side is from the target."""
    if not totals:
        return Standing((), 0, (), goal)
    top = max(totals)
    leaders = tuple(side for side, total in enumerate(totals) if total == top)
    rest = [total for total in totals if total != top]
    lead = top - max(rest) if len(leaders) == 1 and rest else 0
    return Standing(leaders, lead, tuple(max(target - total, 0) for total in totals), goal)
