"""The checks across sides: what a complete hand's calculator entries must add up to, and
what one side's entry can't say beside what another side entered in the same hand."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from .base import Conflict, EntryFacts, Label, Problem
from .calculator import MOST_ALONE, MOST_CARDS_CHOICES, MOST_NO, MOST_TIED

# A side as a sentence names it: its name, or (not named) its place, a Term ("Side 2").
Name = Label


@dataclass(frozen=True)
class Expected:
    """One thing a whole hand's calculator entries must add up to across every side."""

    key: str
    noun: Label
    total: int
    # A single card (2♣) reads better as "claimed by 2 sides" than "add up to 2".
    single: bool = False

    def problem(self, got: int) -> Problem | None:
        """What a player reads when the hand doesn't add up on this count (None: it does)."""
        if got == self.total:
            return None
        if self.single:
            if got == 0:
                return Problem.of("unclaimed", what=self.noun)
            return Problem.of("claimed_by", num=got, what=self.noun)
        return Problem.of("add_up", what=self.noun, got=got, total=self.total)


def cross_check(
    counts: Sequence[Mapping[str, int]], expected: Sequence[Expected], most_cards: bool
) -> list[Problem]:
    """What a hand entered by calculator on every side fails to add up to."""
    problems = [
        problem
        for rule in expected
        if (problem := rule.problem(sum(side.get(rule.key, 0) for side in counts))) is not None
    ]
    if most_cards:
        problems.extend(most_cards_problems(counts))
    return problems


def most_cards_problems(counts: Sequence[Mapping[str, int]]) -> list[Problem]:
    """Three or more sides: the most-cards claims must match the card counts."""
    cards = [side.get("cards", 0) for side in counts]
    claims = [side.get("most_cards", MOST_NO) for side in counts]
    top = max(cards)
    holders = [side for side, count in enumerate(cards) if count == top]
    has_most = MOST_ALONE if len(holders) == 1 else MOST_TIED
    wanted = [has_most if side in holders else MOST_NO for side in range(len(counts))]
    if claims == wanted:
        return []
    return [Problem.of("most_cards_claims", counts=tuple(cards))]


def over_the_pack(
    theirs: Sequence[tuple[Name, Mapping[str, int]]],
    mine: Mapping[str, int],
    expected: Sequence[Expected],
    me: Name | None = None,
) -> list[Conflict]:
    """Every line on which one side's calculator counts can't be true beside the counts the
    other sides (named) entered in the same hand already: together they would hold more of
    something than the pack has. Empty if they can. `me` names the side entering (None: its
    own phone, "your")."""
    found: list[Conflict] = []
    for rule in expected:
        own = mine.get(rule.key, 0)
        held = [(name, side.get(rule.key, 0)) for name, side in theirs if side.get(rule.key, 0)]
        got = own + sum(count for _name, count in held)
        if not own or got <= rule.total:
            continue
        if rule.single:
            reason = Problem.of("taken_already", side=held[0][0], what=rule.noun)
        else:
            reason = Problem.of(
                "over_the_pack",
                what=rule.noun,
                me=me,
                named=tuple(held),
                own=own,
                got=got,
                total=rule.total,
            )
        found.append(Conflict(reason, rule.key))
    return found


class Claim(NamedTuple):
    """What one entry says about who has the most cards, as a refusal quotes it back."""

    # Whether it says nobody has the most alone (Basra's 26–26 split, a tie for most cards),
    # or that somebody has; None where it says neither.
    tied: bool | None
    # Its answer to the calculator's "Most cards" (three or more sides), None where not asked.
    answer: int | None = None
    # Its cards captured, where it was counted with the calculator.
    cards: int | None = None
    # The plain entry's tick that says it (its label), and the points entered with it.
    tick: Label = ""
    points: int = 0


def claim_conflicts(
    mine: Claim, theirs: Sequence[tuple[Name, Claim]], me: Name | None = None
) -> list[Conflict]:
    """Each other side (named) whose claim can't be true beside this entry's, in both sides'
    words. `me` names the side entering (None: its own phone, "you")."""
    field = "most_cards" if mine.answer is not None else "cards" if mine.cards is not None else None
    return [
        Conflict(both_said(claim_words(mine, me), claim_words(other, name), name, me), field)
        for name, other in theirs
        if contradicts(mine, other)
    ]


def contradicts(mine: Claim, theirs: Claim) -> bool:
    """Whether two entries' claims about the most cards can't both be true."""
    # Two counts alone (head to head, by calculator) say nothing to each other but their sum,
    # which the pack checks: 26 beside 20 is a hand short of 52, flagged once all are in.
    counted_only = mine.answer is None and theirs.answer is None
    if not (counted_only and mine.cards is not None and theirs.cards is not None):
        if mine.tied is not None and theirs.tied is not None and mine.tied != theirs.tied:
            return True
    return _belied(mine, theirs) or _belied(theirs, mine)


def _belied(claim: Claim, other: Claim) -> bool:
    """Whether a claim to the most cards (alone, or tied) is belied by another side's."""
    if claim.answer == MOST_ALONE:
        if other.answer == MOST_ALONE:
            return True
        return claim.cards is not None and other.cards is not None and other.cards >= claim.cards
    if claim.answer == MOST_TIED and claim.cards is not None and other.cards is not None:
        # Tied at the top with this count: a side with more can't be, nor one with as many
        # that says it hasn't the most.
        return other.cards > claim.cards or (other.cards == claim.cards and other.answer == MOST_NO)
    return False


def claim_words(claim: Claim, side: Name | None) -> Problem:
    """What an entry says about the most cards, as a sentence quotes it: of a side by its name,
    or (side None) of the phone's own, "you"."""
    if claim.answer is not None:
        answer = dict(MOST_CARDS_CHOICES)[claim.answer]
        return Problem.of("answered", side=side, answer=answer, num=claim.cards or 0)
    if claim.cards is not None:
        return Problem.of("counted", side=side, num=claim.cards)
    return ticked_words(claim.tick, bool(claim.tied), claim.points, side)


def ticked_words(tick: Label, ticked: bool, points: int, side: Name | None) -> Problem:
    """A plain entry's tick (its label) quoted back: ticked or not, by whom (None: "you")."""
    code = "ticked" if ticked else "not_ticked"
    return Problem.of(code, tick=tick, side=side, points=None if side is None else points)


def both_said(mine: Problem, theirs: Problem, name: Name, me: Name | None = None) -> Problem:
    """Two sides' words that can't both be true, and what to do about it: to a side's own
    phone, check with the other side; to the host writing for side `me`, make them agree."""
    return Problem.of("both_said", mine=mine, theirs=theirs, side=name, me=me)


def ticked_twice(
    tick: Label, mine: int, theirs: Sequence[tuple[Name, int]], me: Name | None = None
) -> list[Conflict]:
    """A tick only one side can make (a black hand, the last trick), made by this entry (its
    points `mine`) and by other sides already (named, with their points)."""
    return [
        Conflict(
            both_said(
                ticked_words(tick, True, mine, me),
                ticked_words(tick, True, points, name),
                name,
                me,
            )
        )
        for name, points in theirs
    ]


def all_by_calculator(cells: Sequence[EntryFacts | None]) -> bool:
    """Whether every side entered this hand and used the calculator to do it."""
    return all(cell is not None and cell.counts is not None for cell in cells)
