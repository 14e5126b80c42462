"""Basra: the fishing game played to 101 (or 121), with its carried-over majority."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .base import CalcField, Calculation, EntryFacts, Table, TableFormat, TableRule
from .calculator import (
    MAJORITY_CARDS,
    MOST_ALONE,
    MOST_TIED,
    PACK,
    calculation,
    count_field,
    flag_field,
    line,
    most_cards_field,
    read_counts,
    require,
    require_cards_for_clears,
    require_most_cards_claim,
    require_within_cards,
)
from .game import PointsGame
from .hand_checks import Expected

# basra.txt: "The side with more than half of them — twenty-seven or more out of fifty-two —
# scores 30 points for the majority."
MAJORITY = 30
BASRA = 10
# basra.txt: "the clearance counts as a double basra — worth 20 points".
DOUBLE_BASRA = 20
# The cards a basra can be made with when scored by its card. basra.txt: "twice the face value
# of the card that made it, picture cards counting as 10". A jack never makes a basra ("a jack's
# sweep is never a basra"), so it has no row; queens and kings share one.
BASRA_CARDS: tuple[tuple[str, str, int, int], ...] = (
    ("basra_ace", "an ace", 1, 4),
    *((f"basra_{rank}", f"a {rank}", rank, 4) for rank in range(2, 11)),
    ("basra_picture", "a queen or king", 10, 8),
)
# basra.txt: "the other forty-eight go out four to each player at a time", so a side plays
# at most 48 / sides cards, and every basra is made by one of them.
DEALT = PACK - 4


class Basra(PointsGame):
    """Basra's formats, table rules, calculator and carried-over majority."""

    key = "basra"
    name = "Basra"
    formats = (
        TableFormat("2", "2 head to head", sides=2),
        TableFormat("2v2", "4 in 2 partnerships", sides=2, players_per_side=2),
        TableFormat("3", "3 each for themselves", sides=3),
    )
    # basra.txt: "Some tables, by tradition the Egyptian ones, play to 121 rather than 101."
    targets = (101, 121)
    default_target = 101
    target_unit = "points"
    min_points = 0
    max_points = 999
    table_rules = (
        TableRule(
            "carry_over",
            "Second 26–26 in a row",
            (
                ("stack", "Stack: the held-over 30 keeps growing (90 for the next majority)"),
                ("lapse", "Lapse: only the new tie's 30 is held (a majority is never over 60)"),
            ),
            default="stack",
        ),
        TableRule(
            "three_tie",
            "Tied for most cards (3 players)",
            (
                ("held", "Held over, like a 26–26 split"),
                ("nobody", "Nobody scores the majority"),
            ),
            default="held",
            formats=("3",),
        ),
        TableRule(
            "double_basra",
            "Double basra (a jack onto a lone jack: 20)",
            (("off", "Off"), ("on", "On")),
            default="off",
        ),
        TableRule(
            "basra_value",
            "What a basra is worth",
            (
                ("flat", "10 each"),
                ("by_card", "By its card: twice the face value, pictures 10"),
            ),
            default="flat",
        ),
        # Kept for the record only: it changes what counts as a basra at the table, and the
        # calculator just counts basras made, so the scoring is the same either way.
        TableRule(
            "seven_diamonds",
            "Seven of diamonds basra",
            (
                ("standard", "Numerals adding to 10 or less"),
                ("other", "Under 10, or all tens and pictures, or equal groups under 10"),
            ),
            default="standard",
        ),
    )
    expected = (
        Expected("cards", "Cards", PACK),
        Expected("aces", "Aces", 4),
        Expected("jacks", "Jacks", 4),
        Expected("two_clubs", "2♣", 1, single=True),
        Expected("ten_diamonds", "10♦", 1, single=True),
    )

    def calculator_fields(self, table: Table) -> tuple[CalcField, ...]:
        """Cards, the scoring cards and basras, shaped by the table's rules."""
        fields: list[CalcField] = []
        if table.sides >= 3:
            fields.append(count_field("cards", "Cards captured", PACK))
            fields.append(most_cards_field("Alone: 30 for the majority, plus anything held over"))
        else:
            fields.append(
                count_field(
                    "cards", "Cards captured", PACK, "27 or more takes the majority; 26 is a tie"
                )
            )
        fields += [
            count_field("aces", "Aces", 4, "1 point each"),
            count_field("jacks", "Jacks", 4, "1 point each"),
            flag_field("two_clubs", "2♣", "2 points"),
            flag_field("ten_diamonds", "10♦", "3 points"),
        ]
        plays = DEALT // table.sides
        if self.choice(table, "basra_value") == "by_card":
            fields += [
                count_field(key, f"Basras made with {card}", most, f"{2 * value} each")
                for key, card, value, most in BASRA_CARDS
            ]
        else:
            fields.append(count_field("basras", "Basras", plays, "10 each"))
        if self.choice(table, "double_basra") == "on":
            fields.append(
                count_field("double_basras", "Double basras", 2, "A jack onto a lone jack: 20")
            )
        return tuple(fields)

    def calculate(self, table: Table, counts: Mapping[str, int], held_over: int = 0) -> Calculation:
        """One side's pile to points, the majority worth 30 plus anything held over."""
        fields = self.calculator_fields(table)
        values = read_counts(fields, counts)
        cards = values["cards"]
        require_within_cards(values, ("aces", "jacks", "two_clubs", "ten_diamonds"))
        by_card = self.choice(table, "basra_value") == "by_card"
        basra_keys = [key for key, *_ in BASRA_CARDS] if by_card else ["basras"]
        double = "double_basras" in values
        clear_keys = basra_keys + (["double_basras"] if double else [])
        made = sum(values[key] for key in clear_keys)
        plays = DEALT // table.sides
        require(
            made <= plays,
            clear_keys[0],
            f"{made} basras in one hand? Each side plays only {plays} cards.",
        )
        require_cards_for_clears(values, clear_keys, "basras")
        if double:
            # basra.txt: "if the floor holds exactly one card, and that card is also a jack":
            # both jacks end up in this side's pile.
            require(
                values["jacks"] >= 2 * values["double_basras"],
                "double_basras",
                f"Each double basra takes two jacks, but the jacks say {values['jacks']}.",
            )

        worth = MAJORITY + held_over
        held_note = f", {held_over} held over" if held_over else ""
        if table.sides >= 3:
            require_most_cards_claim(values, table.sides)
            # basra.txt (three at the table): the majority goes to "one player" with the most.
            took_majority = values["most_cards"] == MOST_ALONE
            majority_label = f"Majority (most cards{held_note})"
        else:
            took_majority = cards >= MAJORITY_CARDS
            majority_label = f"Majority ({MAJORITY_CARDS}+ cards{held_note})"

        lines = [
            line("majority", majority_label, cards, worth if took_majority else 0),
            line("aces", "Aces", values["aces"], values["aces"]),
            line("jacks", "Jacks", values["jacks"], values["jacks"]),
            line("two_clubs", "2♣", values["two_clubs"], 2 * values["two_clubs"]),
            line("ten_diamonds", "10♦", values["ten_diamonds"], 3 * values["ten_diamonds"]),
        ]
        if by_card:
            lines += [
                line(key, f"Basras with {card}", values[key], 2 * value * values[key])
                for key, card, value, _ in BASRA_CARDS
            ]
        else:
            lines.append(line("basras", "Basras", values["basras"], BASRA * values["basras"]))
        if double:
            lines.append(
                line(
                    "double_basras",
                    "Double basras",
                    values["double_basras"],
                    DOUBLE_BASRA * values["double_basras"],
                )
            )
        return calculation(lines)

    def majority_worth(self, table: Table, held_over: int) -> int | None:
        """The 30 majority plus whatever earlier ties held over."""
        return MAJORITY + held_over

    def held_after(self, table: Table, cells: Sequence[EntryFacts], held_over: int) -> int:
        """Points held over after a complete hand, under the table's carry-over rules."""
        if not self.tied(table, cells):
            # Someone took the majority, and with it everything held over.
            return 0
        if table.sides >= 3 and self.choice(table, "three_tie") == "nobody":
            return 0
        # basra.txt: "some let the 30 keep stacking (90 for whoever finally takes a majority),
        # others let it lapse". Lapse: the old 30 is lost, the new tie's 30 is held.
        if self.choice(table, "carry_over") == "lapse":
            return MAJORITY
        return held_over + MAJORITY

    def tied(self, table: Table, cells: Sequence[EntryFacts]) -> bool:
        """Whether nobody took the majority this hand, as the entries tell it."""
        # basra.txt: "A 26–26 split scores nobody; instead, hold the 30 points over".
        for cell in cells:
            if cell.even_split:
                return True
            counts = cell.counts or {}
            if table.sides >= 3:
                if counts.get("most_cards") == MOST_TIED:
                    return True
            elif cell.counts is not None and counts.get("cards", 0) == PACK // 2:
                return True
        return False


BASRA_GAME = Basra()
