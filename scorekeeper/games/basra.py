"""Basra: the fishing game played to 101 (or 121), with its carried-over majority."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from flask_babel import lazy_gettext as _l
from flask_babel import lazy_ngettext, ngettext

from .base import CalcField, Calculation, EntryFacts, HandResult, Table, TableFormat, TableRule
from .calculator import (
    MAJORITY_CARDS,
    MOST_ALONE,
    MOST_TIED,
    PACK,
    calculation,
    count_field,
    counted,
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
from .hand_checks import Claim, Expected

# docs/rules/basra.md, "Majority": 27 or more of the 52 cards take the majority, worth 30.
MAJORITY = 30
BASRA = 10
# docs/rules/basra.md, "Table rules": a jack onto a lone jack is a double basra, worth 20.
DOUBLE_BASRA = 20
# The cards a basra can be made with when scored by its card (docs/rules/basra.md, "Table
# rules": twice the face value of the card that made it, a queen or a king 20). A jack never
# makes a basra, so it has no row; queens and kings share one.
# Each row: its key, its calculator field's label, its breakdown line's label, value, most.
BASRA_CARDS: tuple[tuple[str, str, str, int, int], ...] = (
    ("basra_ace", _l("Basras made with an ace"), _l("Basras with an ace"), 1, 4),
    *(
        (
            f"basra_{rank}",
            # NOTE: %(rank)d is a card's number, 2 to 10: "Basras made with a 7".
            _l("Basras made with a %(rank)d", rank=rank),
            # NOTE: %(rank)d is a card's number, 2 to 10: "Basras with a 7".
            _l("Basras with a %(rank)d", rank=rank),
            rank,
            4,
        )
        for rank in range(2, 11)
    ),
    (
        "basra_picture",
        _l("Basras made with a queen or king"),
        _l("Basras with a queen or king"),
        10,
        8,
    ),
)
# The plain entry's tick that says nobody took the majority, as a refusal quotes it: head to
# head, the cards split evenly; three players, two or three tied for the most.
SPLIT_TICK = _l("Cards split evenly (26–26)")
TIED_TICK = _l("Tied for most cards")
# docs/rules/basra.md, "Calculator": after four to the floor the other 48 cards are dealt out
# to the players, so a side plays at most 48 / sides cards, and every basra is made by one.
DEALT = PACK - 4


class Basra(PointsGame):
    """Basra's formats, table rules, calculator and carried-over majority."""

    key = "basra"
    feats = (
        ("basras", _l("Basras")),
        ("double_basras", _l("Double basras")),
        # NOTE: a phone's record: how many hands its side took Basra's majority (most cards).
        ("majorities", _l("Majorities taken")),
    )
    # NOTE: The name of a card game.
    name = _l("Basra")
    formats = (
        TableFormat("2", _l("2 head to head"), sides=2),
        TableFormat("2v2", _l("4 in 2 partnerships"), sides=2, players_per_side=2),
        TableFormat("3", _l("3 each for themselves"), sides=3),
    )
    # docs/rules/basra.md, "Target and winning": 101, or the older Egyptian 121.
    targets = (101, 121)
    default_target = 101
    target_unit = "points"
    min_points = 0
    max_points = 999
    table_rules = (
        TableRule(
            "carry_over",
            _l("Second 26–26 in a row"),
            (
                ("stack", _l("Stack: the held-over 30 keeps growing (90 for the next majority)")),
                ("lapse", _l("Lapse: only the new tie's 30 is held (a majority is never over 60)")),
            ),
            default="stack",
        ),
        TableRule(
            "three_tie",
            _l("Tied for most cards (3 players)"),
            (
                ("held", _l("Held over, like a 26–26 split")),
                ("nobody", _l("Nobody scores the majority")),
            ),
            default="held",
            formats=("3",),
        ),
        TableRule(
            "double_basra",
            _l("Double basra (a jack onto a lone jack: 20)"),
            # NOTE: Whether a table plays a rule: off (not played) or on (played).
            (("off", _l("Off")), ("on", _l("On"))),
            default="off",
        ),
        TableRule(
            "basra_value",
            _l("What a basra is worth"),
            (
                # NOTE: What each one is worth, in points: "10 each".
                ("flat", _l("%(points)d each", points=10)),
                ("by_card", _l("By its card: twice the face value, pictures 10")),
            ),
            default="flat",
        ),
        # Kept for the record only: it changes what counts as a basra at the table, and the
        # calculator just counts basras made, so the scoring is the same either way.
        TableRule(
            "seven_diamonds",
            _l("Seven of diamonds basra"),
            (
                ("standard", _l("Numerals adding to 10 or less")),
                ("other", _l("Under 10, or all tens and pictures, or equal groups under 10")),
            ),
            default="standard",
        ),
    )
    expected = (
        Expected("cards", _l("Cards"), PACK),
        Expected("aces", _l("Aces"), 4),
        Expected("jacks", _l("Jacks"), 4),
        Expected("two_clubs", "2♣", 1, single=True),
        Expected("ten_diamonds", "10♦", 1, single=True),
    )

    def calculator_fields(self, table: Table) -> tuple[CalcField, ...]:
        """Cards, the scoring cards and basras, shaped by the table's rules."""
        fields: list[CalcField] = []
        # Lazy, as every label and hint here: a long sheet works out every calculator cell on
        # each page, and only the calculator's own page shows them.
        if table.sides >= 3:
            fields.append(count_field("cards", _l("Cards captured"), PACK))
            fields.append(
                most_cards_field(_l("Alone: 30 for the majority, plus anything held over"))
            )
        else:
            fields.append(
                count_field(
                    "cards",
                    _l("Cards captured"),
                    PACK,
                    _l("27 or more takes the majority; 26 is a tie"),
                )
            )
        one_each = lazy_ngettext("%(num)d point each", "%(num)d points each", 1)
        fields += [
            count_field("aces", _l("Aces"), 4, one_each),
            count_field("jacks", _l("Jacks"), 4, one_each),
            flag_field("two_clubs", "2♣", lazy_ngettext("%(num)d point", "%(num)d points", 2)),
            flag_field("ten_diamonds", "10♦", lazy_ngettext("%(num)d point", "%(num)d points", 3)),
        ]
        plays = DEALT // table.sides
        if self.choice(table, "basra_value") == "by_card":
            fields += [
                count_field(key, made_with, most, _l("%(points)d each", points=2 * value))
                for key, made_with, _line, value, most in BASRA_CARDS
            ]
        else:
            fields.append(
                count_field("basras", _l("Basras"), plays, _l("%(points)d each", points=10))
            )
        if self.choice(table, "double_basra") == "on":
            fields.append(
                count_field(
                    "double_basras", _l("Double basras"), 2, _l("A jack onto a lone jack: 20")
                )
            )
        return tuple(fields)

    def calculate(self, table: Table, counts: Mapping[str, int], held_over: int = 0) -> Calculation:
        """One side's pile to points, the majority worth 30 plus anything held over."""
        fields = self.calculator_fields(table)
        values = read_counts(fields, counts)
        cards = values["cards"]
        require_within_cards(values, ("aces", "jacks", "two_clubs", "ten_diamonds"))
        by_card = self.choice(table, "basra_value") == "by_card"
        basra_keys = [key for key, *_rest in BASRA_CARDS] if by_card else ["basras"]
        double = "double_basras" in values
        clear_keys = basra_keys + (["double_basras"] if double else [])
        made = sum(values[key] for key in clear_keys)
        plays = DEALT // table.sides
        # The refusals are lazy: made on every calculation, read only when one is refused.
        require(
            made <= plays,
            clear_keys[0],
            lazy_ngettext(
                "%(num)d basra in one hand? Each side plays only %(plays)d cards.",
                "%(num)d basras in one hand? Each side plays only %(plays)d cards.",
                made,
                plays=plays,
            ),
        )
        require_cards_for_clears(values, clear_keys, _too_few_for_basras)
        if double:
            # docs/rules/basra.md, "Calculator": a jack onto a lone jack puts both jacks in
            # this side's pile.
            require(
                values["jacks"] >= 2 * values["double_basras"],
                "double_basras",
                _l(
                    "Each double basra takes two jacks, but the jacks say %(jacks)d.",
                    jacks=values["jacks"],
                ),
            )

        worth = MAJORITY + held_over
        if table.sides >= 3:
            require_most_cards_claim(values, table.sides)
            # docs/rules/basra.md, "Three players": the majority goes to the one player with
            # the most cards alone.
            took_majority = values["most_cards"] == MOST_ALONE
            majority_label = (
                # NOTE: A breakdown line: the majority's points with the points held over from
                # earlier ties (%(num)d).
                lazy_ngettext(
                    "Majority (most cards, %(num)d held over)",
                    "Majority (most cards, %(num)d held over)",
                    held_over,
                )
                if held_over
                else _l("Majority (most cards)")
            )
        else:
            took_majority = cards >= MAJORITY_CARDS
            majority_label = (
                # NOTE: A breakdown line: the majority (%(cards)d, always 27, or more cards) with
                # the points held over from earlier ties (%(num)d).
                lazy_ngettext(
                    "Majority (%(cards)d+ cards, %(num)d held over)",
                    "Majority (%(cards)d+ cards, %(num)d held over)",
                    held_over,
                    cards=MAJORITY_CARDS,
                )
                if held_over
                # NOTE: A breakdown line: the majority, %(num)d (always 27) or more cards.
                else lazy_ngettext(
                    "Majority (%(num)d+ card)", "Majority (%(num)d+ cards)", MAJORITY_CARDS
                )
            )

        lines = [
            line("majority", majority_label, cards, worth if took_majority else 0),
            line("aces", _l("Aces"), values["aces"], values["aces"]),
            line("jacks", _l("Jacks"), values["jacks"], values["jacks"]),
            line("two_clubs", "2♣", values["two_clubs"], 2 * values["two_clubs"]),
            line("ten_diamonds", "10♦", values["ten_diamonds"], 3 * values["ten_diamonds"]),
        ]
        if by_card:
            lines += [
                line(key, line_label, values[key], 2 * value * values[key])
                for key, _made_with, line_label, value, _most in BASRA_CARDS
            ]
        else:
            lines.append(line("basras", _l("Basras"), values["basras"], BASRA * values["basras"]))
        if double:
            lines.append(
                line(
                    "double_basras",
                    _l("Double basras"),
                    values["double_basras"],
                    DOUBLE_BASRA * values["double_basras"],
                )
            )
        return calculation(lines)

    def feats_of(
        self, table: Table, result: HandResult, facts: EntryFacts | None, at: int
    ) -> dict[str, int]:
        """Basras however the table scores them, double basras, and the majority taken (27+
        cards, or most cards alone with 3), from the calculator's breakdown."""
        breakdown = result.breakdowns[at]
        if breakdown is None:
            return {}
        return {
            "basras": counted(breakdown, "basras", *(row[0] for row in BASRA_CARDS)),
            "double_basras": counted(breakdown, "double_basras"),
            "majorities": counted(breakdown, "majority", scoring=True),
        }

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
        # docs/rules/basra.md, "Carry-over": stack, the held-over points keep growing (90
        # after two ties); lapse, the old 30 is lost and the new tie's 30 is held.
        if self.choice(table, "carry_over") == "lapse":
            return MAJORITY
        return held_over + MAJORITY

    def claim_of(self, table: Table, entry: EntryFacts) -> Claim | None:
        """Besides the calculator's answer to "Most cards": a plain entry's tick (or its
        absence) says whether nobody took the majority, and so does a count of 26 of 52 head
        to head (docs/at-the-table.md, "Entering a hand": a split one side ticks and the other
        does not)."""
        if entry.counts is None:
            tick = SPLIT_TICK if table.sides == 2 else TIED_TICK
            return Claim(tied=entry.even_split, tick=str(tick), points=entry.points)
        if table.sides >= 3:
            return super().claim_of(table, entry)
        cards = entry.counts.get("cards", 0)
        return Claim(tied=cards == PACK // 2, cards=cards, points=entry.points)

    def tied(self, table: Table, cells: Sequence[EntryFacts]) -> bool:
        """Whether nobody took the majority this hand, as the entries tell it."""
        # docs/rules/basra.md, "Carry-over": a tie scores nobody and its 30 is held over; one
        # entry saying so is enough (the checks across sides keep the others from denying it).
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


def _too_few_for_basras(clears: int, least: int, cards: int) -> str:
    """Basras (and double basras) that need more cards than the side captured."""
    return ngettext(
        "%(num)d basra takes at least %(least)d cards, but the cards captured say %(cards)d.",
        "%(num)d basras take at least %(least)d cards, but the cards captured say %(cards)d.",
        clears,
        least=least,
        cards=cards,
    )


BASRA_GAME = Basra()
