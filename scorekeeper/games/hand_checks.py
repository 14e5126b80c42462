"""The checks on a complete hand across sides: what the calculator entries must add up to."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from flask_babel import gettext as _
from flask_babel import ngettext

from .base import EntryFacts, listed
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
                # NOTE: %(what)s is a single card or event: "2♣", "10♦", "Last Hand".
                return _("No side claimed the %(what)s; exactly one should", what=self.noun)
            # NOTE: %(what)s is a single card or event: "2♣", "10♦", "Last Hand".
            return ngettext(
                "The %(what)s is claimed by %(num)d side, not 1",
                "The %(what)s is claimed by %(num)d sides, not 1",
                got,
                what=self.noun,
            )
        # NOTE: "Aces add up to 5, not 4": %(what)s is what was counted ("Cards", "Aces").
        return _(
            "%(what)s add up to %(got)d, not %(total)d", what=self.noun, got=got, total=self.total
        )


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
    shown = listed(str(count) for count in cards)
    # NOTE: %(counts)s is each side's card count, as "20, 16, 16".
    return [_("Most cards: the claims don't match the card counts (%(counts)s)", counts=shown)]


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
        got = own + sum(count for _name, count in held)
        if not own or got <= rule.total:
            continue
        if rule.single:
            # NOTE: %(side)s is a side's name; %(what)s a single card or event: "2♣", "Last Hand".
            return _(
                "%(side)s has the %(what)s already: only one side can.",
                side=held[0][0],
                what=rule.noun,
            )
        named = listed(f"{name} {count}" for name, count in held)
        # NOTE: "Aces: Side 1 3 already, and your 2 would make 5; there are only 4." %(what)s is
        # what was counted; %(named)s each other side's name and count.
        return _(
            "%(what)s: %(named)s already, and your %(own)d would make %(got)d; "
            "there are only %(total)d.",
            what=rule.noun,
            named=named,
            own=own,
            got=got,
            total=rule.total,
        )
    return None


def all_by_calculator(cells: Sequence[EntryFacts | None]) -> bool:
    """Whether every side entered this hand and used the calculator to do it."""
    return all(cell is not None and cell.counts is not None for cell in cells)
