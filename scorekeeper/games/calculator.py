"""The calculator: its inputs, the checks on what a side counted, and the breakdown it shows."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .base import CalcField, Calculation, CountError, ScoreLine

# The "most cards" question asked when three or more sides share the pack.
MOST_NO, MOST_ALONE, MOST_TIED = 0, 1, 2
MOST_CARDS_CHOICES = ((MOST_NO, "No"), (MOST_ALONE, "Yes, alone"), (MOST_TIED, "Tied for most"))

# The 52-card pack the fishing games (Basra, Pastura, Brasta) are played with.
PACK = 52
# Two sides: more than half the pack is the most cards; 26 is the even split.
MAJORITY_CARDS = PACK // 2 + 1


def count_field(key: str, label: str, maximum: int, hint: str = "") -> CalcField:
    """A calculator input counting something in a side's pile."""
    return CalcField(key=key, label=label, maximum=maximum, hint=hint)


def flag_field(key: str, label: str, hint: str = "") -> CalcField:
    """A calculator input for a single card or event a side either has or has not."""
    return CalcField(key=key, label=label, maximum=1, kind="flag", hint=hint)


def most_cards_field(hint: str) -> CalcField:
    """The "who has the most cards" question for three or more sides."""
    return CalcField(
        key="most_cards",
        label="Most cards",
        maximum=MOST_TIED,
        kind="choice",
        choices=MOST_CARDS_CHOICES,
        hint=hint,
    )


def read_counts(fields: Sequence[CalcField], counts: Mapping[str, int]) -> dict[str, int]:
    """The calculator's counts checked against each field's bounds; missing keys count as 0."""
    values: dict[str, int] = {}
    for calc_field in fields:
        value = counts.get(calc_field.key, 0)
        # bool is an int, and a ticked box arriving as True is a fair 1.
        if not isinstance(value, int):
            raise CountError(calc_field.key, f"{calc_field.label}: enter a whole number.")
        if value < calc_field.minimum:
            raise CountError(
                calc_field.key, f"{calc_field.label} can't be below {calc_field.minimum}."
            )
        if value > calc_field.maximum:
            if calc_field.kind == "count":
                reason = (
                    f"{value} {calc_field.label.lower()}? "
                    f"There can be at most {calc_field.maximum}."
                )
            elif calc_field.kind == "flag":
                reason = f"{calc_field.label}: either yes (1) or no (0)."
            else:
                reason = f"{calc_field.label}: pick one of the choices given."
            raise CountError(calc_field.key, reason)
        values[calc_field.key] = int(value)
    return values


def require(condition: bool, field_key: str, reason: str) -> None:
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
            raise CountError(
                key,
                f"That makes {claimed} scoring {'card' if claimed == 1 else 'cards'} "
                f"in a pile of {cards} cards captured.",
            )


def require_cards_for_clears(values: Mapping[str, int], keys: Sequence[str], noun: str) -> None:
    """Each floor clearance takes the played card and at least one more, so two cards apiece."""
    clears = sum(values[key] for key in keys)
    if 2 * clears > values["cards"]:
        raise CountError(
            keys[0],
            f"{clears} {noun} take at least {2 * clears} cards, "
            f"but the cards captured say {values['cards']}.",
        )


def require_most_cards_claim(values: Mapping[str, int], sides: int) -> None:
    """A most-cards claim must be possible with the side's own card count."""
    cards, claim = values["cards"], values["most_cards"]
    # The most of 52 among three (alone or shared) takes at least 18: 17+17+17 leaves one over.
    least_for_most = -(-PACK // sides)
    if claim != MOST_NO and cards < least_for_most:
        raise CountError(
            "most_cards", f"With {cards} cards you can't hold the most; it takes {least_for_most}."
        )
    # More than half the pack is the most by itself; nobody can tie or beat it.
    if claim != MOST_ALONE and cards >= MAJORITY_CARDS:
        raise CountError("most_cards", f"{cards} cards is more than half the pack: most, alone.")


def line(key: str, label: str, count: int, points: int) -> ScoreLine:
    """A breakdown row (kept short so each game's calculate reads as its scoring table)."""
    return ScoreLine(key=key, label=label, count=count, points=points)


def calculation(lines: Sequence[ScoreLine]) -> Calculation:
    """A breakdown of the rows that score, as a player reads out a hand (zero rows left out)."""
    scoring = tuple(row for row in lines if row.points != 0)
    return Calculation(lines=scoring, total=sum(row.points for row in scoring))
