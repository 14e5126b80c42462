"""Brasta: a two-player fishing game whose hands, and totals, can go below zero."""

from __future__ import annotations

from collections.abc import Mapping

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import lazy_ngettext, ngettext

from .base import CalcField, Calculation, EntryFacts, HandResult, Table, TableFormat
from .calculator import (
    MAJORITY_CARDS,
    PACK,
    calculation,
    count_field,
    counted,
    flag_field,
    line,
    read_counts,
    require,
    require_cards_for_clears,
)
from .game import PointsGame
from .hand_checks import Expected

# docs/rules/brasta.md, "Target and winning": 201 Quick, 401 Standard, 601 Pro.
# NOTE: The names of Brasta's three targets (201, 401, 601 points): a short, a standard and a
# long match.
TARGET_NAMES = {201: _l("Quick"), 401: _l("Standard"), 601: _l("Pro")}
CLUBS = 13
# Two sides share 13 clubs: 7 or more is the most, and there is no tie to break.
MOST_CLUBS = CLUBS // 2 + 1
# Two players, four cards a time after four to the table: 24 plays each.
PLAYS = (PACK - 4) // 2
# NOTE: Breakdown lines: the most cards (%(num)d, always 27, or more) and the most clubs
# (%(num)d, always 7, or more).
MOST_CARDS_LABEL = _l("Most cards (%(num)d+)", num=MAJORITY_CARDS)
MOST_CLUBS_LABEL = _l("Most clubs (%(num)d+)", num=MOST_CLUBS)


class Brasta(PointsGame):
    """Brasta's targets and calculator; totals may go negative."""

    key = "brasta"
    feats = (("brastas", _l("Brastas")), ("double_brastas", _l("Double Brastas")))
    # NOTE: The name of a card game.
    name = _l("Brasta")
    # docs/rules/brasta.md, "Table": two players, head to head, one 52-card pack.
    formats = (TableFormat("2", _l("2 head to head"), sides=2),)
    targets = tuple(TARGET_NAMES)
    default_target = 401
    target_unit = "points"
    # docs/rules/brasta.md, "Scoring a hand": failed builds and Jack burns are -10 each, so a
    # hand and a total can be negative.
    min_points = -999
    max_points = 999
    table_rules = ()
    expected = (
        Expected("cards", _l("Cards"), PACK),
        Expected("aces", _l("Aces"), 4),
        Expected("clubs", _l("Clubs"), CLUBS),
        Expected("two_clubs", "2♣", 1, single=True),
        Expected("ten_diamonds", "10♦", 1, single=True),
        # docs/rules/brasta.md, "Scoring a hand": the Last Hand goes to whoever makes the
        # hand's final capture, so to one side.
        # NOTE: Brasta's bonus for the side that makes the last capture of a hand.
        Expected("last_hand", _l("Last Hand"), 1, single=True),
    )

    def feats_of(
        self, table: Table, result: HandResult, facts: EntryFacts | None, at: int
    ) -> dict[str, int]:
        """Brastas and Double Brastas, from the calculator's breakdown."""
        breakdown = result.breakdowns[at]
        if breakdown is None:
            return {}
        return {
            "brastas": counted(breakdown, "brastas"),
            "double_brastas": counted(breakdown, "double_brastas"),
        }

    def target_label(self, target: int) -> str:
        """The target with its name where it has one ("401 Standard")."""
        name = TARGET_NAMES.get(target)
        if name is None:
            return super().target_label(target)
        # NOTE: A Brasta target with its name, as the create form offers it: "401 Standard".
        return _("%(target)d %(name)s", target=target, name=name)

    def calculator_fields(self, table: Table) -> tuple[CalcField, ...]:
        """Brasta's scoring reference as inputs, line by line."""
        # Lazy, as every label and hint here: a long sheet works out every calculator cell on
        # each page, and only the calculator's own page shows them.
        ten = lazy_ngettext("%(num)d point", "%(num)d points", 10)
        return (
            count_field("cards", _l("Cards captured"), PACK, _l("27 or more: most cards, 10")),
            count_field("aces", _l("Aces"), 4, _l("5 each; all four: 10 more")),
            flag_field("two_clubs", "2♣", ten),
            flag_field("ten_diamonds", "10♦", ten),
            count_field("clubs", _l("Clubs"), CLUBS, _l("7 or more: most clubs, 10; all 13: 20")),
            count_field("brastas", _l("Brastas"), PLAYS, _l("%(points)d each", points=10)),
            count_field(
                "double_brastas", _l("Double Brastas"), 2, _l("A jack onto a lone jack: 20")
            ),
            flag_field("last_hand", _l("Last Hand"), _l("The final capture: 10")),
            count_field("failed_builds", _l("Failed builds"), PLAYS, _l("−10 each")),
            count_field(
                "jack_burns", _l("Jack burns"), 4, _l("A jack onto an empty table: −10 each")
            ),
        )

    def calculate(self, table: Table, counts: Mapping[str, int], held_over: int = 0) -> Calculation:
        """One side's hand to points (held_over is Basra's; Brasta holds nothing over)."""
        values = read_counts(self.calculator_fields(table), counts)
        cards, clubs, aces = values["cards"], values["clubs"], values["aces"]
        # The refusals are lazy: made on every calculation, read only when one is refused.
        require(
            values["two_clubs"] <= clubs,
            "two_clubs",
            _l("The 2♣ is a club: count it in your clubs too."),
        )
        if clubs == CLUBS:
            require(values["two_clubs"] == 1, "two_clubs", _l("All 13 clubs include the 2♣."))
            require(aces >= 1, "aces", _l("All 13 clubs include the ace of clubs."))
        # The ace of clubs may be both an ace and a club; nothing else is counted twice.
        least = clubs + aces + values["ten_diamonds"] - min(1, clubs, aces)
        require(
            least <= cards,
            "cards",
            lazy_ngettext(
                "Your clubs, aces and 10♦ are at least %(num)d cards, "
                "but the cards captured say %(cards)d.",
                "Your clubs, aces and 10♦ are at least %(num)d cards, "
                "but the cards captured say %(cards)d.",
                least,
                cards=cards,
            ),
        )
        require_cards_for_clears(values, ["brastas", "double_brastas"], _too_few_for_brastas)
        # docs/rules/brasta.md, "Scoring a hand", line by line.
        return calculation(
            [
                line(
                    "most_cards",
                    MOST_CARDS_LABEL,
                    cards,
                    10 if cards >= MAJORITY_CARDS else 0,
                ),
                line("aces", _l("Aces"), aces, 5 * aces),
                line("all_aces", _l("All four aces"), int(aces == 4), 10 if aces == 4 else 0),
                line("two_clubs", "2♣", values["two_clubs"], 10 * values["two_clubs"]),
                line("ten_diamonds", "10♦", values["ten_diamonds"], 10 * values["ten_diamonds"]),
                line(
                    "most_clubs",
                    MOST_CLUBS_LABEL,
                    clubs,
                    10 if clubs >= MOST_CLUBS else 0,
                ),
                # docs/rules/brasta.md, "Scoring a hand": all 13 clubs add 10 to the most
                # clubs' 10, 20 in all.
                line(
                    "all_clubs",
                    _l("All 13 clubs"),
                    int(clubs == CLUBS),
                    10 if clubs == CLUBS else 0,
                ),
                line("brastas", _l("Brastas"), values["brastas"], 10 * values["brastas"]),
                line(
                    "double_brastas",
                    _l("Double Brastas"),
                    values["double_brastas"],
                    20 * values["double_brastas"],
                ),
                line("last_hand", _l("Last Hand"), values["last_hand"], 10 * values["last_hand"]),
                line(
                    "failed_builds",
                    _l("Failed builds"),
                    values["failed_builds"],
                    -10 * values["failed_builds"],
                ),
                line(
                    "jack_burns", _l("Jack burns"), values["jack_burns"], -10 * values["jack_burns"]
                ),
            ]
        )


def _too_few_for_brastas(clears: int, least: int, cards: int) -> str:
    """Brastas (and double Brastas) that need more cards than the side captured."""
    return ngettext(
        "%(num)d Brasta takes at least %(least)d cards, but the cards captured say %(cards)d.",
        "%(num)d Brastas take at least %(least)d cards, but the cards captured say %(cards)d.",
        clears,
        least=least,
        cards=cards,
    )


BRASTA_GAME = Brasta()
