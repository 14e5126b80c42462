"""The win rule of the points games: first to the target, the higher when several get there."""

from __future__ import annotations

from collections.abc import Sequence

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
