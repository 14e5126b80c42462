"""Brasta: a two-player fishing game whose hands, and totals, can go below zero."""

from __future__ import annotations

from collections.abc import Mapping

from .base import CalcField, Calculation, Table, TableFormat
from .calculator import (
    MAJORITY_CARDS,
    PACK,
    calculation,
    count_field,
    flag_field,
    line,
    read_counts,
    require,
    require_cards_for_clears,
)
from .game import PointsGame
from .hand_checks import Expected

# brasta.txt: "201 for Quick, 401 for Standard, or 601 for Pro".
TARGET_NAMES = {201: "Quick", 401: "Standard", 601: "Pro"}
CLUBS = 13
# Two sides share 13 clubs: 7 or more is the most, and there is no tie to break.
MOST_CLUBS = CLUBS // 2 + 1
# Two players, four cards a time after four to the table: 24 plays each.
PLAYS = (PACK - 4) // 2


class Brasta(PointsGame):
    """Brasta's targets and calculator; totals may go negative."""

    key = "brasta"
    name = "Brasta"
    # brasta.txt: "Brasta supports two players with one 52-card deck."
    formats = (TableFormat("2", "2 head to head", sides=2),)
    targets = tuple(TARGET_NAMES)
    default_target = 401
    target_unit = "points"
    # brasta.txt: "failed build: -10; Jack burn: -10", so a hand and a total can be negative.
    min_points = -999
    max_points = 999
    table_rules = ()
    expected = (
        Expected("cards", "Cards", PACK),
        Expected("aces", "Aces", 4),
        Expected("clubs", "Clubs", CLUBS),
        Expected("two_clubs", "2♣", 1, single=True),
        Expected("ten_diamonds", "10♦", 1, single=True),
        # brasta.txt: "the player who makes the final capture ... receives the +10 Last Hand".
        Expected("last_hand", "Last Hand", 1, single=True),
    )

    def target_label(self, target: int) -> str:
        """The target with its name where it has one ("401 Standard")."""
        name = TARGET_NAMES.get(target)
        return f"{target} {name}" if name else super().target_label(target)

    def calculator_fields(self, table: Table) -> tuple[CalcField, ...]:
        """Brasta's scoring reference as inputs, line by line."""
        return (
            count_field("cards", "Cards captured", PACK, "27 or more: most cards, 10"),
            count_field("aces", "Aces", 4, "5 each; all four: 10 more"),
            flag_field("two_clubs", "2♣", "10 points"),
            flag_field("ten_diamonds", "10♦", "10 points"),
            count_field("clubs", "Clubs", CLUBS, "7 or more: most clubs, 10; all 13: 20"),
            count_field("brastas", "Brastas", PLAYS, "10 each"),
            count_field("double_brastas", "Double Brastas", 2, "A jack onto a lone jack: 20"),
            flag_field("last_hand", "Last Hand", "The final capture: 10"),
            count_field("failed_builds", "Failed builds", PLAYS, "−10 each"),
            count_field("jack_burns", "Jack burns", 4, "A jack onto an empty table: −10 each"),
        )

    def calculate(self, table: Table, counts: Mapping[str, int], held_over: int = 0) -> Calculation:
        """One side's hand to points (held_over is Basra's; Brasta holds nothing over)."""
        values = read_counts(self.calculator_fields(table), counts)
        cards, clubs, aces = values["cards"], values["clubs"], values["aces"]
        require(
            values["two_clubs"] <= clubs,
            "two_clubs",
            "The 2♣ is a club: count it in your clubs too.",
        )
        if clubs == CLUBS:
            require(values["two_clubs"] == 1, "two_clubs", "All 13 clubs include the 2♣.")
            require(aces >= 1, "aces", "All 13 clubs include the ace of clubs.")
        # The ace of clubs may be both an ace and a club; nothing else is counted twice.
        least = clubs + aces + values["ten_diamonds"] - min(1, clubs, aces)
        require(
            least <= cards,
            "cards",
            f"Your clubs, aces and 10♦ are at least {least} cards, "
            f"but the cards captured say {cards}.",
        )
        require_cards_for_clears(values, ["brastas", "double_brastas"], "Brastas")
        # brasta.txt scoring reference, line by line.
        return calculation(
            [
                line(
                    "most_cards",
                    f"Most cards ({MAJORITY_CARDS}+)",
                    cards,
                    10 if cards >= MAJORITY_CARDS else 0,
                ),
                line("aces", "Aces", aces, 5 * aces),
                line("all_aces", "All four aces", int(aces == 4), 10 if aces == 4 else 0),
                line("two_clubs", "2♣", values["two_clubs"], 10 * values["two_clubs"]),
                line("ten_diamonds", "10♦", values["ten_diamonds"], 10 * values["ten_diamonds"]),
                line(
                    "most_clubs",
                    f"Most clubs ({MOST_CLUBS}+)",
                    clubs,
                    10 if clubs >= MOST_CLUBS else 0,
                ),
                # brasta.txt: "Most Clubs: +10; all Clubs add +10 for +20 total."
                line("all_clubs", "All 13 clubs", int(clubs == CLUBS), 10 if clubs == CLUBS else 0),
                line("brastas", "Brastas", values["brastas"], 10 * values["brastas"]),
                line(
                    "double_brastas",
                    "Double Brastas",
                    values["double_brastas"],
                    20 * values["double_brastas"],
                ),
                line("last_hand", "Last Hand", values["last_hand"], 10 * values["last_hand"]),
                line(
                    "failed_builds",
                    "Failed builds",
                    values["failed_builds"],
                    -10 * values["failed_builds"],
                ),
                line("jack_burns", "Jack burns", values["jack_burns"], -10 * values["jack_burns"]),
            ]
        )


BRASTA_GAME = Brasta()
