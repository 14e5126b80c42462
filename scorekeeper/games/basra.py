"""Basra: the fishing game played to 101 (or 121), with its carried-over majority."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .base import (
    CalcField,
    Calculation,
    CountError,
    EntryFacts,
    HandResult,
    Label,
    MatchState,
    Problem,
    Said,
    Table,
    TableFormat,
    TableRule,
    Term,
    Tick,
    says,
    says_n,
)
from .calculator import (
    MAJORITY_CARDS,
    MOST_TIED,
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
from .hand_checks import Claim, Expected
from .scoring import Scoring, contested, each

# The words of this game's codes (its Terms, and its Problems), in English as the catalogs
# translate them: scorekeeper/terms.py says them in the reader's language.
WORDS: dict[str, Said] = {
    # The games, as the home page and the create form offer them.
    # NOTE: The name of a card game.
    "game.basra": says("Basra"),
    "rule.carry_over": says("Second 26–26 in a row"),
    "rule.carry_over.stack": says(
        "Stack: the held-over 30 keeps growing (90 for the next majority)"
    ),
    "rule.carry_over.lapse": says(
        "Lapse: only the new tie's 30 is held (a majority is never over 60)"
    ),
    "rule.three_tie": says("Tied for most cards (3 players)"),
    "rule.three_tie.held": says("Held over, like a 26–26 split"),
    "rule.three_tie.nobody": says("Nobody scores the majority"),
    "rule.double_basra": says("Double basra (a jack onto a lone jack: 20)"),
    "rule.basra_value": says("What a basra is worth"),
    "rule.basra_value.by_card": says("By its card: twice the face value, pictures 10"),
    "rule.seven_diamonds": says("Seven of diamonds basra"),
    "rule.seven_diamonds.standard": says("Numerals adding to 10 or less"),
    "rule.seven_diamonds.other": says(
        "Under 10, or all tens and pictures, or equal groups under 10"
    ),
    "basras": says("Basras"),
    "double_basras": says("Double basras"),
    "basras_made.ace": says("Basras made with an ace"),
    "basras_with.ace": says("Basras with an ace"),
    # NOTE: %(rank)d is a card's number, 2 to 10, "Basras made with 7s" (7s: the sevens).
    "basras_made.rank": says("Basras made with %(rank)ds"),
    # NOTE: %(rank)d is a card's number, 2 to 10, "Basras with 7s" (7s: the sevens).
    "basras_with.rank": says("Basras with %(rank)ds"),
    "basras_made.picture": says("Basras made with a queen or king"),
    "basras_with.picture": says("Basras with a queen or king"),
    # NOTE: A breakdown line: the majority's points with the points held over from
    # earlier ties (%(num)d).
    "majority.most_held": says_n(
        "Majority (most cards, %(num)d held over)", "Majority (most cards, %(num)d held over)"
    ),
    "majority.most": says("Majority (most cards)"),
    # NOTE: A breakdown line: the majority (%(cards)d, always 27, or more cards) with
    # the points held over from earlier ties (%(num)d).
    "majority.cards_held": says_n(
        "Majority (%(cards)d+ cards, %(num)d held over)",
        "Majority (%(cards)d+ cards, %(num)d held over)",
    ),
    # NOTE: A breakdown line: the majority, %(num)d (always 27) or more cards.
    "majority.cards": says_n("Majority (%(num)d+ card)", "Majority (%(num)d+ cards)"),
    "hint.basra.alone": says("Alone: 30 for the majority, plus anything held over"),
    "hint.basra.cards": says("27 or more takes the majority; 26 is a tie"),
    "hint.jack_onto_jack": says("A jack onto a lone jack: 20"),
    # The ticks (games.Tick): as the forms ask them, as a refusal quotes them, and as a cell
    # and the key under the sheet note them.
    "tick.split.label": says("Cards split evenly (26–26): nobody took the majority"),
    "tick.split": says("Cards split evenly (26–26)"),
    # NOTE: what a cell carries, in a sentence ("A plain total, cards split evenly.") and in
    # the key to the sheet's marks.
    "tick.split.noted": says("cards split evenly"),
    "tick.tied.label": says("Tied for most cards: nobody took the majority"),
    "tick.tied": says("Tied for most cards"),
    # NOTE: as "cards split evenly", with three players: two or three tied for the most cards.
    "tick.tied.noted": says("tied for most cards"),
    # Points held over into a hand (Game.held_over_said), told where a side enters it.
    "held_over": says_n(
        "%(num)d majority points are held over: whoever takes the majority this hand adds them.",
        "%(num)d majority points are held over: whoever takes the majority this hand adds them.",
    ),
    # NOTE: %(worth)s is the points the majority is worth this hand.
    "held_over.worth": says_n(
        "%(num)d majority points are held over: whoever takes the majority this hand adds "
        "them (the majority is worth %(worth)s).",
        "%(num)d majority points are held over: whoever takes the majority this hand adds "
        "them (the majority is worth %(worth)s).",
    ),
    # NOTE: Basra's majority (most cards) bonus: %(worth)s is the points it is worth next
    # hand, %(fresh)s its usual part and %(num)d the points held over from earlier hands.
    "majority.next.held": says_n(
        "Next majority worth %(worth)s: %(fresh)s, and %(num)d held over because nobody "
        "took the majority before.",
        "Next majority worth %(worth)s: %(fresh)s, and %(num)d held over because nobody "
        "took the majority before.",
    ),
    "majority.next": says("Next majority worth %(worth)s."),
    # A phone's record (Game.feats).
    # NOTE: a phone's record: how many hands its side took Basra's majority (most cards).
    "majorities": says("Majorities taken"),
}
PROBLEM_WORDS: dict[str, Said] = {
    "basras_in_hand": says_n(
        "%(num)d basra in one hand? Each side plays only %(plays)d cards.",
        "%(num)d basras in one hand? Each side plays only %(plays)d cards.",
    ),
    "basras_need_cards": says_n(
        "%(num)d basra takes at least %(least)d cards, but the cards captured say %(cards)d.",
        "%(num)d basras take at least %(least)d cards, but the cards captured say %(cards)d.",
    ),
    "double_basra_jacks": says("Each double basra takes two jacks, but the jacks say %(jacks)d."),
}

# docs/rules/basra.md, "Majority": 27 or more of the 52 cards take the majority, worth 30.
MAJORITY = 30
BASRA = 10
# docs/rules/basra.md, "Table rules": a jack onto a lone jack is a double basra, worth 20.
DOUBLE_BASRA = 20
# The cards a basra can be made with when scored by its card (docs/rules/basra.md, "Table
# rules": twice the face value of the card that made it, a queen or a king 20). A jack never
# makes a basra, so it has no row; queens and kings share one.
# Each row: its key, its calculator field's label, its breakdown line's label, value, most.
BASRA_CARDS: tuple[tuple[str, Term, Term, int, int], ...] = (
    ("basra_ace", Term("basras_made.ace"), Term("basras_with.ace"), 1, 4),
    *(
        (
            f"basra_{rank}",
            Term.of("basras_made.rank", rank=rank),
            Term.of("basras_with.rank", rank=rank),
            rank,
            4,
        )
        for rank in range(2, 11)
    ),
    ("basra_picture", Term("basras_made.picture"), Term("basras_with.picture"), 10, 8),
)
# The plain entry's tick that says nobody took the majority: head to head, the cards split
# evenly; three players, two or three tied for the most. Stored by one key either way.
SPLIT_TICK = Tick(
    "even_split",
    Term("tick.split.label"),
    Term("tick.split"),
    Term("tick.split.noted"),
    mark="=",
    counted=True,
)
TIED_TICK = Tick(
    "even_split",
    Term("tick.tied.label"),
    Term("tick.tied"),
    Term("tick.tied.noted"),
    mark="=",
    counted=True,
)
# docs/rules/basra.md, "Calculator": after four to the floor the other 48 cards are dealt out
# to the players, so a side plays at most 48 / sides cards, and every basra is made by one.
DEALT = PACK - 4
CARDS, CARDS_CAPTURED, ACES, JACKS = (
    Term("cards"),
    Term("cards_captured"),
    Term("aces"),
    Term("jacks"),
)
BASRAS, DOUBLE_BASRAS = Term("basras"), Term("double_basras")
# The majority's breakdown line head to head, 27 (MAJORITY_CARDS) or more cards.
MAJORITY_LABEL = Term.of("majority.cards", num=MAJORITY_CARDS)
# The calculator's hints, made once: a long sheet works out every calculator cell on each page.
ONE_EACH, TWO_POINTS, THREE_POINTS = (
    Term.of("points_each", num=1),
    Term.of("points", num=2),
    Term.of("points", num=3),
)
TEN_EACH = Term.of("each", points=10)
BY_CARD_HINTS = {value: Term.of("each", points=2 * value) for *_row, value, _most in BASRA_CARDS}


class Basra(PointsGame):
    """Basra's formats, table rules, calculator and carried-over majority."""

    words = WORDS
    problem_words = PROBLEM_WORDS

    key = "basra"
    feats: tuple[tuple[str, Label], ...] = (
        ("basras", Term("basras")),
        ("double_basras", Term("double_basras")),
        ("majorities", Term("majorities")),
    )
    name = Term("game.basra")
    formats = (
        TableFormat("2", Term("format.2"), sides=2),
        TableFormat("2v2", Term("format.2v2"), sides=2, players_per_side=2),
        TableFormat("3", Term("format.3"), sides=3),
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
            Term("rule.carry_over"),
            (
                ("stack", Term("rule.carry_over.stack")),
                ("lapse", Term("rule.carry_over.lapse")),
            ),
            default="stack",
        ),
        TableRule(
            "three_tie",
            Term("rule.three_tie"),
            (
                ("held", Term("rule.three_tie.held")),
                ("nobody", Term("rule.three_tie.nobody")),
            ),
            default="held",
            formats=("3",),
        ),
        TableRule(
            "double_basra",
            Term("rule.double_basra"),
            (("off", Term("rule.off")), ("on", Term("rule.on"))),
            default="off",
        ),
        TableRule(
            "basra_value",
            Term("rule.basra_value"),
            (
                ("flat", TEN_EACH),
                ("by_card", Term("rule.basra_value.by_card")),
            ),
            default="flat",
        ),
        # Kept for the record only: it changes what counts as a basra at the table, and the
        # calculator just counts basras made, so the scoring is the same either way.
        TableRule(
            "seven_diamonds",
            Term("rule.seven_diamonds"),
            (
                ("standard", Term("rule.seven_diamonds.standard")),
                ("other", Term("rule.seven_diamonds.other")),
            ),
            default="standard",
        ),
    )
    expected = (
        Expected("cards", CARDS, PACK),
        Expected("aces", ACES, 4),
        Expected("jacks", JACKS, 4),
        Expected("two_clubs", "2♣", 1, single=True),
        Expected("ten_diamonds", "10♦", 1, single=True),
    )

    def ticks(self, table: Table) -> tuple[Tick, ...]:
        """Nobody took the majority: the cards split evenly, or (3 players) tied for most."""
        return (SPLIT_TICK if table.sides == 2 else TIED_TICK,)

    def calculator_fields(self, table: Table) -> tuple[CalcField, ...]:
        """Cards, the scoring cards and basras, shaped by the table's rules."""
        cards = count_field("cards", CARDS_CAPTURED, PACK, Term("hint.basra.cards"))
        fields = [
            *contest_fields(table.sides, cards, most_cards_field(Term("hint.basra.alone"))),
            count_field("aces", ACES, 4, ONE_EACH),
            count_field("jacks", JACKS, 4, ONE_EACH),
            flag_field("two_clubs", "2♣", TWO_POINTS),
            flag_field("ten_diamonds", "10♦", THREE_POINTS),
        ]
        plays = DEALT // table.sides
        if self.choice(table, "basra_value") == "by_card":
            fields += [
                count_field(key, made_with, most, BY_CARD_HINTS[value])
                for key, made_with, _line, value, most in BASRA_CARDS
            ]
        else:
            fields.append(count_field("basras", BASRAS, plays, TEN_EACH))
        if self.choice(table, "double_basra") == "on":
            fields.append(
                count_field("double_basras", DOUBLE_BASRAS, 2, Term("hint.jack_onto_jack"))
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
        if made > plays:
            raise CountError(clear_keys[0], Problem.of("basras_in_hand", num=made, plays=plays))
        require_cards_for_clears(values, clear_keys, "basras_need_cards")
        if double:
            # docs/rules/basra.md, "Calculator": a jack onto a lone jack puts both jacks in
            # this side's pile.
            if values["jacks"] < 2 * values["double_basras"]:
                reason = Problem.of("double_basra_jacks", jacks=values["jacks"])
                raise CountError("double_basras", reason)

        worth = MAJORITY + held_over
        majority_label = self._majority_label(table, held_over)
        if table.sides >= 3:
            require_most_cards_claim(values, table.sides)
        # docs/rules/basra.md, "Three players": the majority goes to the one player with the
        # most cards alone.
        took_majority = took_most(table.sides, values, "cards", MAJORITY_CARDS, "most_cards")

        lines = [
            line("majority", majority_label, cards, worth if took_majority else 0),
            line("aces", ACES, values["aces"], values["aces"]),
            line("jacks", JACKS, values["jacks"], values["jacks"]),
            line("two_clubs", "2♣", values["two_clubs"], 2 * values["two_clubs"]),
            line("ten_diamonds", "10♦", values["ten_diamonds"], 3 * values["ten_diamonds"]),
        ]
        if by_card:
            lines += [
                line(key, line_label, values[key], 2 * value * values[key])
                for key, _made_with, line_label, value, _most in BASRA_CARDS
            ]
        else:
            lines.append(line("basras", BASRAS, values["basras"], BASRA * values["basras"]))
        if double:
            lines.append(
                line(
                    "double_basras",
                    DOUBLE_BASRAS,
                    values["double_basras"],
                    DOUBLE_BASRA * values["double_basras"],
                )
            )
        return calculation(lines)

    @staticmethod
    def _majority_label(table: Table, held_over: int) -> Term:
        """The majority's breakdown line: most cards (three players) or 27+, with what is held
        over."""
        if table.sides >= 3:
            if held_over:
                return Term.of("majority.most_held", num=held_over)
            return Term("majority.most")
        if held_over:
            return Term.of("majority.cards_held", num=held_over, cards=MAJORITY_CARDS)
        return MAJORITY_LABEL

    def scoring(self, table: Table, held_over: int = 0) -> Scoring:
        """calculate's lines as a table: the majority (27+ cards, or most cards alone with
        three) worth 30 and what is held over, the scoring cards and basras so much each."""
        worth, label = MAJORITY + held_over, self._majority_label(table, held_over)
        majority = contested(
            table.sides, "majority", label, "cards", MAJORITY_CARDS, worth, "most_cards"
        )
        lines = [
            (majority,),
            each("aces", ACES, 1),
            each("jacks", JACKS, 1),
            each("two_clubs", "2♣", 2),
            each("ten_diamonds", "10♦", 3),
        ]
        if self.choice(table, "basra_value") == "by_card":
            lines += [
                each(key, line_label, 2 * value)
                for key, _made_with, line_label, value, _most in BASRA_CARDS
            ]
        else:
            lines.append(each("basras", BASRAS, BASRA))
        if self.choice(table, "double_basra") == "on":
            lines.append(each("double_basras", DOUBLE_BASRAS, DOUBLE_BASRA))
        return Scoring(tuple(lines))

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

    def held_over_said(self, table: Table, held: int, worth: int | None = None) -> Term | None:
        """The majority points held over into this hand, and what the majority is worth."""
        if not held:
            return None
        if worth is None:
            return Term.of("held_over", num=held)
        return Term.of("held_over.worth", num=held, worth=worth)

    def next_hand_said(self, table: Table, state: MatchState) -> Term | None:
        """What the next majority is worth, and why when points are held over."""
        worth = state.next_majority
        if worth is None:
            return None
        if state.held_over:
            return Term.of("majority.next.held", num=state.held_over, worth=worth, fresh=MAJORITY)
        return Term.of("majority.next", worth=worth)

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
            (tick,) = self.ticks(table)
            return Claim(tied=entry.ticked(tick.key), tick=tick.quoted, points=entry.points)
        if table.sides >= 3:
            return super().claim_of(table, entry)
        cards = entry.counts.get("cards", 0)
        return Claim(tied=cards == PACK // 2, cards=cards, points=entry.points)

    def tied(self, table: Table, cells: Sequence[EntryFacts]) -> bool:
        """Whether nobody took the majority this hand, as the entries tell it."""
        # docs/rules/basra.md, "Carry-over": a tie scores nobody and its 30 is held over; one
        # entry saying so is enough (the checks across sides keep the others from denying it).
        for cell in cells:
            if cell.ticked(SPLIT_TICK.key):
                return True
            counts = cell.counts or {}
            if table.sides >= 3:
                if counts.get("most_cards") == MOST_TIED:
                    return True
            elif cell.counts is not None and counts.get("cards", 0) == PACK // 2:
                return True
        return False


BASRA_GAME = Basra()
