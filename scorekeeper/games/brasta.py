"""Brasta: a two-player fishing game whose hands, and totals, can go below zero."""

from __future__ import annotations

from collections.abc import Mapping

from .base import (
    CalcField,
    Calculation,
    CountError,
    EntryFacts,
    HandResult,
    Label,
    Problem,
    Said,
    Table,
    TableFormat,
    Term,
    says,
    says_n,
)
from .calculator import (
    MAJORITY_CARDS,
    PACK,
    calculation,
    count_field,
    counted,
    flag_field,
    line,
    read_counts,
    require_cards_for_clears,
)
from .game import PointsGame
from .hand_checks import Expected
from .scoring import Scoring, Way, Within, each, reached

# The words of this game's codes (its Terms, and its Problems), in English as the catalogs
# translate them: scorekeeper/terms.py says them in the reader's language.
WORDS: dict[str, Said] = {
    # NOTE: The name of a card game.
    "game.brasta": says("Brasta"),
    # NOTE: The names of Brasta's three targets (201, 401, 601 points): a short, a standard and a
    # long match.
    "target.quick": says("Quick"),
    "target.standard": says("Standard"),
    "target.pro": says("Pro"),
    # NOTE: A Brasta target with its name, as the create form offers it: "401 Standard".
    "target.named": says("%(target)d %(name)s"),
    "brastas": says("Brastas"),
    "double_brastas": says("Double Brastas"),
    # NOTE: Brasta's bonus for the side that makes the last capture of a hand.
    "last_hand": says("Last Hand"),
    "failed_builds": says("Failed builds"),
    "jack_burns": says("Jack burns"),
    "all_aces": says("All four aces"),
    "all_clubs": says("All 13 clubs"),
    "most_clubs.over": says("Most clubs (%(num)d+)"),
    "hint.brasta.cards": says("27 or more: most cards, 10"),
    "hint.brasta.aces": says("5 each; all four: 10 more"),
    "hint.brasta.clubs": says("7 or more: most clubs, 10; all 13: 20"),
    "hint.brasta.last_hand": says("The final capture: 10"),
    # NOTE: %(points)d is what each costs, below zero ("-10"), written as every number is.
    "hint.brasta.jack_burns": says("A jack onto an empty table: %(points)d each"),
}
PROBLEM_WORDS: dict[str, Said] = {
    "brastas_need_cards": says_n(
        "%(num)d Brasta takes at least %(least)d cards, but the cards captured say %(cards)d.",
        "%(num)d Brastas take at least %(least)d cards, but the cards captured say %(cards)d.",
    ),
    "two_clubs_is_a_club": says("The 2♣ is a club: count it in your clubs too."),
    "all_clubs_two": says("All 13 clubs include the 2♣."),
    "all_clubs_ace": says("All 13 clubs include the ace of clubs."),
    "brasta_cards": says_n(
        "Your clubs, aces and 10♦ are at least %(num)d cards, "
        "but the cards captured say %(cards)d.",
        "Your clubs, aces and 10♦ are at least %(num)d cards, "
        "but the cards captured say %(cards)d.",
    ),
}

# docs/rules/brasta.md, "Target and winning": 201 Quick, 401 Standard, 601 Pro.
TARGET_NAMES = {
    201: Term("target.quick"),
    401: Term("target.standard"),
    601: Term("target.pro"),
}
CLUBS = 13
# Two sides share 13 clubs: 7 or more is the most, and there is no tie to break.
MOST_CLUBS = CLUBS // 2 + 1
# Two players, four cards a time after four to the table: 24 plays each.
PLAYS = (PACK - 4) // 2
# Breakdown lines: the most cards (27 or more) and the most clubs (7 or more).
MOST_CARDS_LABEL = Term.of("most_cards.over", num=MAJORITY_CARDS)
MOST_CLUBS_LABEL = Term.of("most_clubs.over", num=MOST_CLUBS)
CARDS, CARDS_CAPTURED, ACES, CLUBS_LABEL = (
    Term("cards"),
    Term("cards_captured"),
    Term("aces"),
    Term("clubs"),
)
BRASTAS, DOUBLE_BRASTAS, LAST_HAND = Term("brastas"), Term("double_brastas"), Term("last_hand")
FAILED_BUILDS, JACK_BURNS = Term("failed_builds"), Term("jack_burns")
# The calculator's hints, made once: a long sheet works out every calculator cell on each page.
TEN_POINTS, TEN_EACH = Term.of("points", num=10), Term.of("each", points=10)
# What a failed build and a jack burn cost: their minus sign is the one every number is written
# with (languages.number), where the words once carried a typographic "−" of their own.
COST = -10
COST_EACH = Term.of("each", points=COST)


class Brasta(PointsGame):
    """Brasta's targets and calculator; totals may go negative."""

    words = WORDS
    problem_words = PROBLEM_WORDS

    key = "brasta"
    feats: tuple[tuple[str, Label], ...] = (
        ("brastas", BRASTAS),
        ("double_brastas", DOUBLE_BRASTAS),
    )
    name = Term("game.brasta")
    # docs/rules/brasta.md, "Table": two players, head to head, one 52-card pack.
    formats = (TableFormat("2", Term("format.2"), sides=2),)
    targets = tuple(TARGET_NAMES)
    default_target = 401
    target_unit = "points"
    # docs/rules/brasta.md, "Scoring a hand": failed builds and Jack burns are -10 each, so a
    # hand and a total can be negative.
    min_points = -999
    max_points = 999
    table_rules = ()
    expected = (
        Expected("cards", CARDS, PACK),
        Expected("aces", ACES, 4),
        Expected("clubs", CLUBS_LABEL, CLUBS),
        Expected("two_clubs", "2♣", 1, single=True),
        Expected("ten_diamonds", "10♦", 1, single=True),
        # docs/rules/brasta.md, "Scoring a hand": the Last Hand goes to whoever makes the
        # hand's final capture, so to one side.
        Expected("last_hand", LAST_HAND, 1, single=True),
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

    def target_label(self, target: int) -> Term:
        """The target with its name where it has one ("401 Standard")."""
        name = TARGET_NAMES.get(target)
        if name is None:
            return super().target_label(target)
        return Term.of("target.named", target=target, name=name)

    def calculator_fields(self, table: Table) -> tuple[CalcField, ...]:
        """Brasta's scoring reference as inputs, line by line."""
        return (
            count_field("cards", CARDS_CAPTURED, PACK, Term("hint.brasta.cards")),
            count_field("aces", ACES, 4, Term("hint.brasta.aces")),
            flag_field("two_clubs", "2♣", TEN_POINTS),
            flag_field("ten_diamonds", "10♦", TEN_POINTS),
            count_field("clubs", CLUBS_LABEL, CLUBS, Term("hint.brasta.clubs")),
            count_field("brastas", BRASTAS, PLAYS, TEN_EACH),
            count_field("double_brastas", DOUBLE_BRASTAS, 2, Term("hint.jack_onto_jack")),
            flag_field("last_hand", LAST_HAND, Term("hint.brasta.last_hand")),
            count_field("failed_builds", FAILED_BUILDS, PLAYS, COST_EACH),
            count_field(
                "jack_burns", JACK_BURNS, 4, Term.of("hint.brasta.jack_burns", points=COST)
            ),
        )

    def calculate(self, table: Table, counts: Mapping[str, int], held_over: int = 0) -> Calculation:
        """One side's hand to points (held_over is Basra's; Brasta holds nothing over)."""
        values = read_counts(self.calculator_fields(table), counts)
        cards, clubs, aces = values["cards"], values["clubs"], values["aces"]
        if values["two_clubs"] > clubs:
            raise CountError("two_clubs", Problem("two_clubs_is_a_club"))
        if clubs == CLUBS:
            if values["two_clubs"] != 1:
                raise CountError("two_clubs", Problem("all_clubs_two"))
            if aces < 1:
                raise CountError("aces", Problem("all_clubs_ace"))
        # The ace of clubs may be both an ace and a club; nothing else is counted twice.
        least = clubs + aces + values["ten_diamonds"] - min(1, clubs, aces)
        if least > cards:
            raise CountError("cards", Problem.of("brasta_cards", num=least, cards=cards))
        require_cards_for_clears(values, ["brastas", "double_brastas"], "brastas_need_cards")
        # docs/rules/brasta.md, "Scoring a hand", line by line.
        return calculation(
            [
                line(
                    "most_cards",
                    MOST_CARDS_LABEL,
                    cards,
                    10 if cards >= MAJORITY_CARDS else 0,
                ),
                line("aces", ACES, aces, 5 * aces),
                line("all_aces", Term("all_aces"), int(aces == 4), 10 if aces == 4 else 0),
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
                    Term("all_clubs"),
                    int(clubs == CLUBS),
                    10 if clubs == CLUBS else 0,
                ),
                line("brastas", BRASTAS, values["brastas"], 10 * values["brastas"]),
                line(
                    "double_brastas",
                    DOUBLE_BRASTAS,
                    values["double_brastas"],
                    20 * values["double_brastas"],
                ),
                line("last_hand", LAST_HAND, values["last_hand"], 10 * values["last_hand"]),
                line(
                    "failed_builds",
                    FAILED_BUILDS,
                    values["failed_builds"],
                    -10 * values["failed_builds"],
                ),
                line("jack_burns", JACK_BURNS, values["jack_burns"], -10 * values["jack_burns"]),
            ]
        )

    def scoring(self, table: Table, held_over: int = 0) -> Scoring:
        """calculate's lines as a table: the most cards and clubs 10, the scoring cards,
        brastas and the Last Hand so much each, failed builds and jack burns -10 each, and
        all four aces or all 13 clubs 10 more."""
        return Scoring(
            (
                reached("most_cards", MOST_CARDS_LABEL, "cards", MAJORITY_CARDS, 10),
                each("aces", ACES, 5),
                _all_of("all_aces", Term("all_aces"), "aces", 4),
                each("two_clubs", "2♣", 10),
                each("ten_diamonds", "10♦", 10),
                reached("most_clubs", MOST_CLUBS_LABEL, "clubs", MOST_CLUBS, 10),
                _all_of("all_clubs", Term("all_clubs"), "clubs", CLUBS),
                each("brastas", BRASTAS, 10),
                each("double_brastas", DOUBLE_BRASTAS, 20),
                each("last_hand", LAST_HAND, 10),
                each("failed_builds", FAILED_BUILDS, COST),
                each("jack_burns", JACK_BURNS, COST),
            )
        )


def _all_of(key: str, label: Label, count: str, every: int) -> tuple[Way, ...]:
    """A bonus line, shown once, worth 10 when a side holds every one of its cards."""
    return (Way(key, label, shows_value=1, points=10, when=(Within(count, every, every),)),)


BRASTA_GAME = Brasta()
