"""The checks on a complete hand across sides: what the calculator entries must add up to."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .base import EntryFacts
from .calculator import MOST_ALONE, MOST_NO, MOST_TIED


@dataclass(frozen=True)
class Expected:
    """One thing a whole hand's calculator entries must add up to across every side."""

    key: str
    noun: str
    total: int
    # A single card (2♣) reads better as "claimed by 2 sides" than "add up to 2".
    single: bool = False

    def problem(self, got: int) -> str | None:
        """The sentence a player reads when the hand doesn't add up on this count."""
        if got == self.total:
            return None
        if self.single:
            if got == 0:
                return f"No side claimed the {self.noun}; exactly one should"
            return f"The {self.noun} is claimed by {got} sides, not 1"
        return f"{self.noun} add up to {got}, not {self.total}"


def cross_check(
    counts: Sequence[Mapping[str, int]], expected: Sequence[Expected], most_cards: bool
) -> list[str]:
    """What a hand entered by calculator on every side fails to add up to."""
    problems = [
        problem
        for rule in expected
        if (problem := rule.problem(sum(side.get(rule.key, 0) for side in counts))) is not None
    ]
    if most_cards:
        problems.extend(most_cards_problems(counts))
    return problems


def most_cards_problems(counts: Sequence[Mapping[str, int]]) -> list[str]:
    """Three or more sides: the most-cards claims must match the card counts."""
    cards = [side.get("cards", 0) for side in counts]
    claims = [side.get("most_cards", MOST_NO) for side in counts]
    top = max(cards)
    holders = [side for side, count in enumerate(cards) if count == top]
    has_most = MOST_ALONE if len(holders) == 1 else MOST_TIED
    wanted = [has_most if side in holders else MOST_NO for side in range(len(counts))]
    if claims == wanted:
        return []
    shown = ", ".join(str(count) for count in cards)
    return [f"Most cards: the claims don't match the card counts ({shown})"]


def over_the_pack(
    theirs: Sequence[tuple[str, Mapping[str, int]]],
    mine: Mapping[str, int],
    expected: Sequence[Expected],
) -> str | None:
    """Why one side's calculator counts can't be true beside the counts the other sides
    (named) entered in the same hand already: together they would hold more of something
    than the pack has. None if they can."""
    for rule in expected:
        own = mine.get(rule.key, 0)
        held = [(name, side.get(rule.key, 0)) for name, side in theirs if side.get(rule.key, 0)]
        got = own + sum(count for _, count in held)
        if not own or got <= rule.total:
            continue
        if rule.single:
            return f"{held[0][0]} has the {rule.noun} already: only one side can."
        named = ", ".join(f"{name} {count}" for name, count in held)
        return (
            f"{rule.noun}: {named} already, and your {own} would make {got}; "
            f"there are only {rule.total}."
        )
    return None


def all_by_calculator(cells: Sequence[EntryFacts | None]) -> bool:
    """Whether every side entered this hand and used the calculator to do it."""
    return all(cell is not None and cell.counts is not None for cell in cells)
