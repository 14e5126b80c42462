"""The calculator: its inputs, the checks on what a side counted, and the breakdown it shows."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from .base import CalcField, Calculation, CountError, Label, Problem, ScoreLine, Term

# The "most cards" question asked when three or more sides share the pack.
MOST_NO, MOST_ALONE, MOST_TIED = 0, 1, 2
MOST_CARDS = Term("most_cards")
MOST_CARDS_CHOICES: tuple[tuple[int, Label], ...] = (
    (MOST_NO, Term("most_cards.no")),
    (MOST_ALONE, Term("most_cards.alone")),
    (MOST_TIED, Term("most_cards.tied")),
)

# The 52-card pack the fishing games (Basra, Pastura, Brasta) are played with.
PACK = 52
# Two sides: more than half the pack is the most cards; 26 is the even split.
MAJORITY_CARDS = PACK // 2 + 1


def count_field(key: str, label: Label, maximum: int, hint: Label = "") -> CalcField:
    """A calculator input counting something in a side's pile."""
    return CalcField(key=key, label=label, maximum=maximum, hint=hint)


def flag_field(key: str, label: Label, hint: Label = "") -> CalcField:
    """A calculator input for a single card or event a side either has or has not."""
    return CalcField(key=key, label=label, maximum=1, kind="flag", hint=hint)


def most_cards_field(hint: Label) -> CalcField:
    """The "who has the most cards" question for three or more sides."""
    return CalcField(
        key="most_cards",
        label=MOST_CARDS,
        maximum=MOST_TIED,
        kind="choice",
        choices=MOST_CARDS_CHOICES,
        hint=hint,
    )


def contest_fields(sides: int, count: CalcField, question: CalcField) -> tuple[CalcField, ...]:
    """A count a contest is decided by (the most cards), and with three sides or more the
    question its count can't settle alone (who took the most); head to head the count settles
    it, and only then its hint says how ("27 or more takes the majority")."""
    if sides >= 3:
        return (replace(count, hint=""), question)
    return (count,)


def took(values: Mapping[str, int], question: str) -> bool:
    """Whether the side answered that it took a contest alone."""
    return values.get(question, MOST_NO) == MOST_ALONE


def took_most(sides: int, values: Mapping[str, int], count: str, least: int, question: str) -> bool:
    """Whether a side took a contest: head to head, its count reaches `least` (more than
    half); with three sides or more, it answered that it took it alone."""
    return took(values, question) if sides >= 3 else values[count] >= least


def read_counts(fields: Sequence[CalcField], counts: Mapping[str, int]) -> dict[str, int]:
    """The calculator's counts checked against each field's bounds; missing keys count as 0."""
    values: dict[str, int] = {}
    for calc_field in fields:
        value = counts.get(calc_field.key, 0)
        # bool is an int, and a ticked box arriving as True is a fair 1.
        if not isinstance(value, int):
            raise CountError(calc_field.key, Problem.of("not_whole", label=calc_field.label))
        if value < calc_field.minimum:
            reason = Problem.of("below", label=calc_field.label, minimum=calc_field.minimum)
            raise CountError(calc_field.key, reason)
        if value > calc_field.maximum:
            if calc_field.kind == "count":
                reason = Problem.of(
                    "too_many", num=value, what=calc_field.label, most=calc_field.maximum
                )
            elif calc_field.kind == "flag":
                reason = Problem.of("yes_or_no", label=calc_field.label)
            else:
                reason = Problem.of("pick_a_choice", label=calc_field.label)
            raise CountError(calc_field.key, reason)
        values[calc_field.key] = int(value)
    return values


def require(condition: bool, field_key: str, reason: Problem) -> None:
    """Raise CountError on field_key unless a cross-field condition holds."""
    if not condition:
        raise CountError(field_key, reason)


def require_within_cards(values: Mapping[str, int], keys: Sequence[str]) -> None:
    """The scoring cards a side claims sit in its pile, so together they fit in its card count."""
    cards = values["cards"]
    claimed = 0
    for key in keys:
        claimed += values[key]
        if claimed > cards:
            # Named on the field that tipped it over: with 0 cards, ticking the 2♣ is the slip.
            raise CountError(key, Problem.of("scoring_cards_over", num=claimed, cards=cards))


def require_cards_for_clears(values: Mapping[str, int], keys: Sequence[str], too_few: str) -> None:
    """Each floor clearance takes the played card and at least one more, so two cards apiece.
    too_few is the problem's code, in the game's own word for a clearance ("basras_need_cards")."""
    clears = sum(values[key] for key in keys)
    if 2 * clears > values["cards"]:
        reason = Problem.of(too_few, num=clears, least=2 * clears, cards=values["cards"])
        raise CountError(keys[0], reason)


def require_most_cards_claim(values: Mapping[str, int], sides: int) -> None:
    """A most-cards claim must be possible with the side's own card count."""
    cards, claim = values["cards"], values["most_cards"]
    # The most of 52 among three (alone or shared) takes at least 18: 17+17+17 leaves one over.
    least_for_most = -(-PACK // sides)
    if claim != MOST_NO and cards < least_for_most:
        reason = Problem.of("too_few_for_most", num=cards, least=least_for_most)
        raise CountError("most_cards", reason)
    # More than half the pack is the most by itself; nobody can tie or beat it.
    if claim != MOST_ALONE and cards >= MAJORITY_CARDS:
        raise CountError("most_cards", Problem.of("most_alone", num=cards))


def counted(breakdown: Calculation | None, *keys: str, scoring: bool = False) -> int:
    """How many of these lines' things a breakdown holds (with `scoring`: how many of them
    scored points, as a majority taken or not): what a phone's record adds up."""
    if breakdown is None:
        return 0
    return sum(
        (int(scored.points > 0) if scoring else scored.count)
        for scored in breakdown.lines
        if scored.key in keys
    )


def line(key: str, label: Label, count: int, points: int) -> ScoreLine:
    """A breakdown row (kept short so each game's calculate reads as its scoring table)."""
    return ScoreLine(key=key, label=label, count=count, points=points)


def calculation(lines: Sequence[ScoreLine]) -> Calculation:
    """A breakdown of the rows that score, as a player reads out a hand (zero rows left out)."""
    scoring = tuple(row for row in lines if row.points != 0)
    return Calculation(lines=scoring, total=sum(row.points for row in scoring))
