"""Pastura: points from the scoring cards and pasturas, with an early victory."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .base import (
    CalcField,
    Calculation,
    EntryFacts,
    HandResult,
    Label,
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
    contest_fields,
    count_field,
    counted,
    flag_field,
    line,
    most_cards_field,
    read_counts,
    require_cards_for_clears,
    require_most_cards_claim,
    require_within_cards,
    took_most,
)
from .game import PointsGame
from .hand_checks import Expected
from .scoring import Scoring, contested, each

# The words of this game's codes (its Terms, and its Problems), in English as the catalogs
# translate them: scorekeeper/terms.py says them in the reader's language.
WORDS: dict[str, Said] = {
    # NOTE: The name of a card game.
    "game.pastura": says("Pastura"),
    "pasturas": says("Pasturas"),
    "hint.pastura.alone": says("Alone: 3 points; nobody scores a tie"),
    "hint.pastura.cards": says("27 or more is the most (3); 26 is a tie"),
}
PROBLEM_WORDS: dict[str, Said] = {
    "pasturas_need_cards": says_n(
        "%(num)d pastura takes at least %(least)d cards, but the cards captured say %(cards)d.",
        "%(num)d pasturas take at least %(least)d cards, but the cards captured say %(cards)d.",
    ),
}

# docs/rules/pastura.md, "Scoring a hand": the most cards score 3, nobody on a tie.
MOST_CARDS = 3
PASTURA = 1
# Lines that count toward an early victory (docs/rules/pastura.md, "Early victory"): the
# scoring cards and the most cards; pasturas do not count.
CARD_LINES = frozenset({"most_cards", "aces", "jacks", "two_clubs", "ten_diamonds"})
# A breakdown line: the most cards, 27 (MAJORITY_CARDS) or more.
MOST_CARDS_LABEL = Term.of("most_cards.over", num=MAJORITY_CARDS)
CARDS, CARDS_CAPTURED, ACES, JACKS = (
    Term("cards"),
    Term("cards_captured"),
    Term("aces"),
    Term("jacks"),
)
PASTURAS = Term("pasturas")
# The calculator's hints, made once: a long sheet works out every calculator cell on each page.
ONE_EACH, TWO_POINTS, THREE_POINTS = (
    Term.of("points_each", num=1),
    Term.of("points", num=2),
    Term.of("points", num=3),
)
PASTURA_EACH = Term.of("each", points=1)


class Pastura(PointsGame):
    """Pastura's formats, calculator and early victory."""

    words = WORDS
    problem_words = PROBLEM_WORDS

    key = "pastura"
    feats: tuple[tuple[str, Label], ...] = (("pasturas", PASTURAS),)
    name = Term("game.pastura")
    formats = (
        TableFormat("2", Term("format.2"), sides=2),
        TableFormat("3", Term("format.3"), sides=3),
        TableFormat("2v2", Term("format.2v2"), sides=2, players_per_side=2),
    )
    # docs/rules/pastura.md, "Target and winning": 51 or 101.
    targets = (51, 101)
    default_target = 51
    target_unit = "points"
    min_points = 0
    max_points = 999
    table_rules = ()
    expected = (
        Expected("cards", CARDS, PACK),
        Expected("aces", ACES, 4),
        Expected("jacks", JACKS, 4),
        Expected("two_clubs", "2♣", 1, single=True),
        Expected("ten_diamonds", "10♦", 1, single=True),
    )

    def feats_of(
        self, table: Table, result: HandResult, facts: EntryFacts | None, at: int
    ) -> dict[str, int]:
        """Pasturas, from the calculator's breakdown."""
        breakdown = result.breakdowns[at]
        return {"pasturas": counted(breakdown, "pasturas")} if breakdown is not None else {}

    def calculator_fields(self, table: Table) -> tuple[CalcField, ...]:
        """Pastura's scoring table as inputs, line by line."""
        cards = count_field("cards", CARDS_CAPTURED, PACK, Term("hint.pastura.cards"))
        return (
            *contest_fields(table.sides, cards, most_cards_field(Term("hint.pastura.alone"))),
            count_field("aces", ACES, 4, ONE_EACH),
            count_field("jacks", JACKS, 4, ONE_EACH),
            flag_field("two_clubs", "2♣", TWO_POINTS),
            flag_field("ten_diamonds", "10♦", THREE_POINTS),
            # Not "1 point each" (Spanish says "por carta"): a pastura is a capture, not a card.
            count_field("pasturas", PASTURAS, PACK // 2, PASTURA_EACH),
        )

    def calculate(self, table: Table, counts: Mapping[str, int], held_over: int = 0) -> Calculation:
        """One side's pile to points (held_over is Basra's; Pastura holds nothing over)."""
        values = read_counts(self.calculator_fields(table), counts)
        cards = values["cards"]
        require_within_cards(values, ("aces", "jacks", "two_clubs", "ten_diamonds"))
        require_cards_for_clears(values, ["pasturas"], "pasturas_need_cards")
        if table.sides >= 3:
            require_most_cards_claim(values, table.sides)
        has_most = took_most(table.sides, values, "cards", MAJORITY_CARDS, "most_cards")
        most_label = _most_label(table)
        return calculation(
            [
                line("most_cards", most_label, cards, MOST_CARDS if has_most else 0),
                line("aces", ACES, values["aces"], values["aces"]),
                line("jacks", JACKS, values["jacks"], values["jacks"]),
                line("two_clubs", "2♣", values["two_clubs"], 2 * values["two_clubs"]),
                line("ten_diamonds", "10♦", values["ten_diamonds"], 3 * values["ten_diamonds"]),
                line("pasturas", PASTURAS, values["pasturas"], PASTURA * values["pasturas"]),
            ]
        )

    def scoring(self, table: Table, held_over: int = 0) -> Scoring:
        """calculate's lines as a table: the most cards (27+, or alone with three) 3, the
        scoring cards and pasturas so much each."""
        most = contested(
            table.sides,
            "most_cards",
            _most_label(table),
            "cards",
            MAJORITY_CARDS,
            MOST_CARDS,
            "most_cards",
        )
        return Scoring(
            (
                (most,),
                each("aces", ACES, 1),
                each("jacks", JACKS, 1),
                each("two_clubs", "2♣", 2),
                each("ten_diamonds", "10♦", 3),
                each("pasturas", PASTURAS, PASTURA),
            )
        )

    def early_victory(
        self,
        table: Table,
        cells: Sequence[EntryFacts],
        breakdowns: Sequence[Calculation | None],
    ) -> int | None:
        """The one side that earned card and most-cards points while nobody else did."""
        # docs/rules/pastura.md, "Early victory": only when every side used the calculator,
        # as a plain total (no breakdown) hides what its points came from.
        if any(worked is None for worked in breakdowns):
            return None
        earners = [
            side
            for side, worked in enumerate(breakdowns)
            if worked is not None and any(row.key in CARD_LINES for row in worked.lines)
        ]
        return earners[0] if len(earners) == 1 else None


def _most_label(table: Table) -> Term:
    """The most cards' line: 27+ head to head; with three, the most (said by the answer)."""
    return Term("most_cards") if table.sides >= 3 else MOST_CARDS_LABEL


PASTURA_GAME = Pastura()
