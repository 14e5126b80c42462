"""The calculator: its inputs, the checks on what a side counted, and the breakdown it shows."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext

from .base import CalcField, Calculation, CountError, ScoreLine

# The "most cards" question asked when three or more sides share the pack.
MOST_NO, MOST_ALONE, MOST_TIED = 0, 1, 2
MOST_CARDS_CHOICES = (
    # NOTE: An answer to the calculator's question "Most cards": this side does not have them.
    (MOST_NO, _l("No")),
    (MOST_ALONE, _l("Yes, alone")),
    (MOST_TIED, _l("Tied for most")),
)

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
        label=_l("Most cards"),
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
            # NOTE: %(label)s is a calculator field's label ("Aces", "Cards captured").
            reason = _("%(label)s: enter a whole number.", label=calc_field.label)
            raise CountError(calc_field.key, reason)
        if value < calc_field.minimum:
            # NOTE: %(label)s is a calculator field's label ("Aces", "Cards captured").
            reason = _(
                "%(label)s can't be below %(minimum)d.",
                label=calc_field.label,
                minimum=calc_field.minimum,
            )
            raise CountError(calc_field.key, reason)
        if value > calc_field.maximum:
            if calc_field.kind == "count":
                # NOTE: "5 aces? There can be at most 4." %(what)s is the calculator field's
                # label in lower case ("aces", "cards captured"), as it is translated.
                reason = ngettext(
                    "%(num)d %(what)s? There can be at most %(most)d.",
                    "%(num)d %(what)s? There can be at most %(most)d.",
                    value,
                    what=calc_field.label.lower(),
                    most=calc_field.maximum,
                )
            elif calc_field.kind == "flag":
                # NOTE: %(label)s is a calculator field's label ("2♣", "Last Hand").
                reason = _("%(label)s: either yes (1) or no (0).", label=calc_field.label)
            else:
                # NOTE: %(label)s is a calculator field's label ("Most cards").
                reason = _("%(label)s: pick one of the choices given.", label=calc_field.label)
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
                ngettext(
                    "That makes %(num)d scoring card in a pile of %(cards)d cards captured.",
                    "That makes %(num)d scoring cards in a pile of %(cards)d cards captured.",
                    claimed,
                    cards=cards,
                ),
            )


def require_cards_for_clears(
    values: Mapping[str, int], keys: Sequence[str], too_few: Callable[[int, int, int], str]
) -> None:
    """Each floor clearance takes the played card and at least one more, so two cards apiece.
    too_few(clears, least, cards) says so in the game's own word for a clearance."""
    clears = sum(values[key] for key in keys)
    if 2 * clears > values["cards"]:
        raise CountError(keys[0], too_few(clears, 2 * clears, values["cards"]))


def require_most_cards_claim(values: Mapping[str, int], sides: int) -> None:
    """A most-cards claim must be possible with the side's own card count."""
    cards, claim = values["cards"], values["most_cards"]
    # The most of 52 among three (alone or shared) takes at least 18: 17+17+17 leaves one over.
    least_for_most = -(-PACK // sides)
    if claim != MOST_NO and cards < least_for_most:
        reason = ngettext(
            "With %(num)d card you can't hold the most; it takes %(least)d.",
            "With %(num)d cards you can't hold the most; it takes %(least)d.",
            cards,
            least=least_for_most,
        )
        raise CountError("most_cards", reason)
    # More than half the pack is the most by itself; nobody can tie or beat it.
    if claim != MOST_ALONE and cards >= MAJORITY_CARDS:
        reason = ngettext(
            "%(num)d card is more than half the pack: most, alone.",
            "%(num)d cards is more than half the pack: most, alone.",
            cards,
        )
        raise CountError("most_cards", reason)


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


def line(key: str, label: str, count: int, points: int) -> ScoreLine:
    """A breakdown row (kept short so each game's calculate reads as its scoring table)."""
    return ScoreLine(key=key, label=label, count=count, points=points)


def calculation(lines: Sequence[ScoreLine]) -> Calculation:
    """A breakdown of the rows that score, as a player reads out a hand (zero rows left out)."""
    scoring = tuple(row for row in lines if row.points != 0)
    return Calculation(lines=scoring, total=sum(row.points for row in scoring))
