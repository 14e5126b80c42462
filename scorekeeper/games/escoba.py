"""Escoba: the Spanish fishing game of 15, scored once a hand from five lines, played to 21."""

from __future__ import annotations

from collections.abc import Mapping

from .base import (
    CalcField,
    Calculation,
    EntryFacts,
    HandResult,
    Label,
    Problem,
    Said,
    Table,
    TableFormat,
    TableRule,
    Term,
    says,
    says_n,
)
from .calculator import (
    MOST_ALONE,
    calculation,
    contest_fields,
    count_field,
    counted,
    flag_field,
    line,
    most_cards_field,
    read_counts,
    require,
    require_cards_for_clears,
    took,
    took_most,
)
from .forty import (
    ALONE_HINT,
    COINS,
    DECK,
    MOST_OF,
    ONE_POINT,
    PRIMIERA_VALUES,
    SEVENS,
    SUITS,
    Contest,
    FortyCardGame,
    best_card_fields,
    most_labels,
    most_ways,
    primiera,
    question_field,
    require_best_cards,
    require_coins_and_sevens,
)
from .hand_checks import Expected
from .scoring import Scoring, Way, Within, answered, at_least, each

# The words of this game's codes (its Terms, and its Problems), in English as the catalogs
# translate them: scorekeeper/terms.py says them in the reader's language.
WORDS: dict[str, Said] = {
    # NOTE: The name of a card game: the Spanish fishing game of 15 (escoba).
    "game.escoba": says("Escoba"),
    # NOTE: New match's hint under Escoba's typed target.
    "target_hint": says("Usually 21 or 15 points; any the table agrees."),
    # NOTE: Escoba's coins suit (oros), as its players call it in every language.
    "oros": says("Oros"),
    "sevens": says("Sevens"),
    "sixes": says("Sixes"),
    "fives": says("Fives"),
    # NOTE: Escoba's point for the 7 of oros, called the velo (or guindis) by its players.
    "velo": says("7 of oros (velo)"),
    # NOTE: Escoba's sweeps: a capture that clears the table (escoba, plural escobas).
    "escobas": says("Escobas"),
    # NOTE: Escoba's point for the sevens (setenta).
    "setenta": says("Setenta"),
    # NOTE: Escoba's setenta counted by points from the best card in each suit (primera).
    "primera": says("Primera"),
    "most_oros": says("Most oros"),
    # NOTE: A breakdown line head to head: the most oros, %(num)d (always 6) or more.
    "most_oros.over": says("Most oros (%(num)d+)"),
    # NOTE: A breakdown line: the setenta for the most sevens, %(num)d (always 3) or more.
    "setenta.sevens_over": says("Setenta (%(num)d+ sevens)"),
    # NOTE: Escoba's bonus points (a table rule): %(num)d (always 31) or more cards score 2.
    "bonus.cards": says("%(num)d+ cards (bonus)"),
    "bonus.oros": says("All 10 oros (bonus)"),
    "bonus.sevens": says("All four sevens (bonus)"),
    # NOTE: The suits of the Spanish pack, as Escoba's players call them: coins, cups,
    # swords, clubs.
    "suit.oros": says("oros"),
    "suit.copas": says("copas"),
    "suit.espadas": says("espadas"),
    "suit.bastos": says("bastos"),
    "rule.setenta.sevens": says("Most sevens (2–2: nobody)"),
    "rule.setenta.cascade": says("Most sevens, then sixes, aces, fives"),
    "rule.setenta.primera": says("Primera: the best card in each suit, by points"),
    "rule.escoba_bonus": says("Bonus points: 31+ cards or all 10 oros 2, all four sevens 3"),
    "rule.opening_escoba": says("An escoba on the opening table goes to"),
    "rule.opening_escoba.dealer": says("The dealer"),
    # NOTE: The first player after the dealer, called "el mano" in Spanish.
    "rule.opening_escoba.mano": says("The first player (el mano)"),
    # NOTE: The hand's points are added line by line in this order; the first side to reach
    # the target wins.
    "rule.count_to_target.escobas_cards": says(
        "The first there counting escobas, cards, oros, velo, setenta"
    ),
    "rule.count_to_target.escobas_oros": says(
        "The first there counting escobas, oros, velo, setenta, cards"
    ),
    "hint.escoba.cards": says("21 or more is the most (1); 20 is a tie"),
    "hint.escoba.oros": says("6 or more is the most (1); 5 is a tie"),
    # NOTE: %(num)d is always 3.
    "hint.escoba.sevens": says("%(num)d or more take the setenta (1); 2 is a tie"),
    "hint.escoba.escobas.dealer": says("1 each, the opening table's among them if you dealt"),
    "hint.escoba.escobas.mano": says("1 each, the opening table's among them if you played first"),
    # NOTE: a phone's record: Escoba hands its side took the setenta.
    "setentas": says("Setentas taken"),
}
PROBLEM_WORDS: dict[str, Said] = {
    "escobas_need_cards": says_n(
        "%(num)d escoba takes at least %(least)d cards, but the cards captured say %(cards)d.",
        "%(num)d escobas take at least %(least)d cards, but the cards captured say %(cards)d.",
    ),
}

# docs/rules/escoba.md, "Setenta": the three ways a table settles the setenta.
SEVENS_RULE, CASCADE, PRIMERA = "sevens", "cascade", "primera"
# docs/rules/escoba.md, "Table rules": more than 30 cards score 2 for the cards.
BONUS_CARDS = 31
# The cascade's order when the sevens are level: sixes, then aces, then fives.
CASCADE_KEYS = ("sevens", "sixes", "aces", "fives")
# docs/rules/escoba.md, "Table rules": the orders a table counts a hand in to see who reached
# the target first (the 7 of oros's step holds the all-four-sevens bonus that replaces it).
COUNT_ORDERS = {
    "escobas_cards": (
        ("escobas",),
        ("most_cards",),
        ("most_coins",),
        ("seven_coins", "all_sevens"),
        ("setenta",),
    ),
    "escobas_oros": (
        ("escobas",),
        ("most_coins",),
        ("seven_coins", "all_sevens"),
        ("setenta",),
        ("most_cards",),
    ),
}
# The opening table's escobas (a 15 is one, a 30 two) are counted with the side's escobas.
OPENING_ESCOBAS = 2
OROS, SEVENS_WORD, VELO = Term("oros"), Term("sevens"), Term("velo")
ESCOBAS, CARDS, CARDS_CAPTURED = Term("escobas"), Term("cards"), Term("cards_captured")
SUIT_NAMES: dict[str, Label] = {
    "coins": Term("suit.oros"),
    "cups": Term("suit.copas"),
    "swords": Term("suit.espadas"),
    "clubs": Term("suit.bastos"),
}
SETENTA = Term("setenta")
# Breakdown lines head to head: more than half of the cards, oros and sevens.
MOST_OROS_OVER = Term.of("most_oros.over", num=MOST_OF["coins"])
SETENTA_SEVENS_OVER = Term.of("setenta.sevens_over", num=MOST_OF["sevens"])


def _cards(counts: Mapping[str, int]) -> int:
    return counts.get("cards", 0)


def _coins(counts: Mapping[str, int]) -> int:
    return counts.get("coins", 0)


def _sevens(counts: Mapping[str, int]) -> int:
    return counts.get("sevens", 0)


def _cascade(counts: Mapping[str, int]) -> tuple[int, ...]:
    return tuple(counts.get(key, 0) for key in CASCADE_KEYS)


def _primera(counts: Mapping[str, int]) -> int | None:
    return primiera(counts, PRIMIERA_VALUES)


class Escoba(FortyCardGame):
    """Escoba's formats, setenta methods, bonus points and calculator."""

    words = WORDS
    problem_words = PROBLEM_WORDS

    key = "escoba"
    name = Term("game.escoba")
    feats: tuple[tuple[str, Label], ...] = (("escobas", ESCOBAS), ("setentas", Term("setentas")))
    formats = (
        TableFormat("2", Term("format.2"), sides=2),
        TableFormat("3", Term("format.3"), sides=3),
        TableFormat("2v2", Term("format.2v2"), sides=2, players_per_side=2),
    )
    # docs/rules/escoba.md, "Target and winning": 21 by default, 15, or any the table agrees.
    targets = (21, 15)
    default_target = 21
    target_unit = "points"
    any_target = True
    target_hint = Term("target_hint")
    table_rules = (
        TableRule(
            "setenta",
            SETENTA,
            (
                (SEVENS_RULE, Term("rule.setenta.sevens")),
                (CASCADE, Term("rule.setenta.cascade")),
                (PRIMERA, Term("rule.setenta.primera")),
            ),
            default=SEVENS_RULE,
        ),
        TableRule(
            "bonus",
            Term("rule.escoba_bonus"),
            (("off", Term("rule.off")), ("on", Term("rule.on"))),
            default="off",
        ),
        # docs/rules/escoba.md, "Table rules": who takes the opening table's escoba changes
        # which side counts it, not what it is worth; the calculator's hint says which.
        TableRule(
            "opening_escoba",
            Term("rule.opening_escoba"),
            (
                ("dealer", Term("rule.opening_escoba.dealer")),
                ("mano", Term("rule.opening_escoba.mano")),
            ),
            default="dealer",
        ),
        TableRule(
            "count_to_target",
            Term("rule.same_hand"),
            (
                ("off", Term("rule.same_hand.higher")),
                ("escobas_cards", Term("rule.count_to_target.escobas_cards")),
                ("escobas_oros", Term("rule.count_to_target.escobas_oros")),
            ),
            default="off",
        ),
    )
    expected = (
        Expected("cards", CARDS, DECK),
        Expected("coins", OROS, COINS),
        Expected("sevens", SEVENS_WORD, SEVENS),
        Expected("seven_coins", VELO, 1, single=True),
    )

    def count_order(self, table: Table) -> tuple[tuple[str, ...], ...]:
        """The table's order for counting a hand to the target, if it counts one."""
        return COUNT_ORDERS.get(self.choice(table, "count_to_target"), ())

    def contests(self, table: Table) -> tuple[Contest, ...]:
        """What the calculator asks rather than works out: every contest with three sides, and
        the primera whatever the table (it needs the other side's best cards)."""
        method = self.choice(table, "setenta")
        found: list[Contest] = []
        if table.sides >= 3:
            found += [
                Contest("most_cards", Term("most_cards"), _cards, "cards", CARDS_CAPTURED),
                Contest("most_coins", Term("most_oros"), _coins, "coins", OROS),
            ]
            if method == SEVENS_RULE:
                found.append(Contest("setenta", SETENTA, _sevens, "sevens", SEVENS_WORD))
            elif method == CASCADE:
                # Decided by four counts, quoted by the first of them, the sevens: a refusal
                # says each side's answer with a count, as for the most sevens.
                found.append(Contest("setenta", SETENTA, _cascade, "sevens", SEVENS_WORD))
        if method == PRIMERA:
            found.append(Contest("setenta", Term("primera"), _primera))
        return tuple(found)

    def calculator_fields(self, table: Table) -> tuple[CalcField, ...]:
        """Cards, oros, sevens, the velo and escobas; what the table's setenta needs."""
        three = table.sides >= 3
        method = self.choice(table, "setenta")
        cards = count_field("cards", CARDS_CAPTURED, DECK, Term("hint.escoba.cards"))
        coins = count_field("coins", OROS, COINS, Term("hint.escoba.oros"))
        fields: list[CalcField] = [
            *contest_fields(table.sides, cards, most_cards_field(ALONE_HINT)),
            *contest_fields(table.sides, coins, question_field("most_coins", Term("most_oros"))),
            count_field("sevens", SEVENS_WORD, SEVENS, self._sevens_hint(table)),
            flag_field("seven_coins", VELO, ONE_POINT),
        ]
        if method == CASCADE:
            fields += [
                count_field("sixes", Term("sixes"), SEVENS),
                count_field("aces", Term("aces"), SEVENS),
                count_field("fives", Term("fives"), SEVENS),
            ]
        if method == PRIMERA:
            fields += best_card_fields(SUIT_NAMES)
        if method == PRIMERA or three:
            fields.append(question_field("setenta", self._setenta_label(table)))
        hint = (
            Term("hint.escoba.escobas.mano")
            if self.choice(table, "opening_escoba") == "mano"
            else Term("hint.escoba.escobas.dealer")
        )
        fields.append(count_field("escobas", ESCOBAS, self.plays(table) + OPENING_ESCOBAS, hint))
        return tuple(fields)

    def _sevens_hint(self, table: Table) -> Label:
        """What the sevens count is for at this table: the setenta head to head (method a)."""
        if table.sides == 2 and self.choice(table, "setenta") == SEVENS_RULE:
            return Term.of("hint.escoba.sevens", num=MOST_OF["sevens"])
        return ""

    def _setenta_label(self, table: Table) -> Term:
        """The setenta's question and line: "Primera" when it is counted by points."""
        return Term("primera") if self.choice(table, "setenta") == PRIMERA else SETENTA

    def calculate(self, table: Table, counts: Mapping[str, int], held_over: int = 0) -> Calculation:
        """One side's pile to its points, line by line (docs/rules/escoba.md, "Scoring a
        hand")."""
        values = read_counts(self.calculator_fields(table), counts)
        cards, coins, sevens = values["cards"], values["coins"], values["sevens"]
        require_coins_and_sevens(values, VELO)
        method = self.choice(table, "setenta")
        if method == CASCADE:
            least = sum(values[key] for key in CASCADE_KEYS)
            require(
                least <= cards, "cards", Problem.of("scoring_cards_over", num=least, cards=cards)
            )
        if method == PRIMERA:
            require_best_cards(values)
            if took(values, "setenta"):
                require(_primera(values) is not None, "setenta", Problem("primiera_missing_suit"))
        require_cards_for_clears(values, ["escobas"], "escobas_need_cards")
        bonus = self.choice(table, "bonus") == "on"
        head_to_head = table.sides == 2

        # docs/rules/escoba.md, "Scoring a hand": the most cards, the most oros, the velo and
        # the setenta are a point each; a tie scores nobody; each escoba is a point.
        most_cards = took_most(table.sides, values, "cards", MOST_OF["cards"], "most_cards")
        most_coins = took_most(table.sides, values, "coins", MOST_OF["coins"], "most_coins")
        if method == PRIMERA or not head_to_head:
            setenta = took(values, "setenta")
        elif method == SEVENS_RULE:
            setenta = sevens >= MOST_OF["sevens"]
        else:
            # The cascade head to head: the first of sevens, sixes, aces, fives not split 2–2
            # goes to the side holding 3 or 4 of them.
            split = next((values[key] for key in CASCADE_KEYS if values[key] != 2), 2)
            setenta = split > 2
        setenta_count = (_primera(values) or 0) if method == PRIMERA else sevens

        cards_points = int(most_cards)
        coins_points = int(most_coins)
        cards_label, coins_label = most_labels(table.sides, Term("most_oros"), MOST_OROS_OVER)
        # docs/rules/escoba.md, "Table rules": the bonus points.
        if bonus and cards >= BONUS_CARDS:
            cards_points, cards_label = 2, Term.of("bonus.cards", num=BONUS_CARDS)
        if bonus and coins == COINS:
            coins_points, coins_label = 2, Term("bonus.oros")
        lines = [
            line("escobas", ESCOBAS, values["escobas"], values["escobas"]),
            line("most_cards", cards_label, cards, cards_points),
            line("most_coins", coins_label, coins, coins_points),
        ]
        if bonus and sevens == SEVENS:
            # All four sevens are 3 points in place of the velo's and the setenta's 2.
            lines.append(line("all_sevens", Term("bonus.sevens"), sevens, 3))
        else:
            setenta_label = (
                SETENTA_SEVENS_OVER
                if head_to_head and method == SEVENS_RULE
                else self._setenta_label(table)
            )
            lines += [
                line("seven_coins", VELO, values["seven_coins"], values["seven_coins"]),
                line("setenta", setenta_label, setenta_count, int(setenta)),
            ]
        return calculation(lines)

    def scoring(self, table: Table, held_over: int = 0) -> Scoring:
        """calculate's lines as a table (docs/rules/escoba.md, "Scoring a hand"): escobas a
        point each; the most cards, oros and the setenta a point to the side that takes them
        (head to head, by its counts; else by its answer), the velo a point; with the bonus,
        31+ cards or all 10 oros 2, and all four sevens 3 in place of the velo and setenta."""
        bonus = self.choice(table, "bonus") == "on"
        method = self.choice(table, "setenta")
        most_cards, most_coins = most_ways(table.sides, Term("most_oros"), MOST_OROS_OVER)
        # With the bonus, 31+ cards or all 10 oros score 2, in place of their point.
        bonus_cards: tuple[Way, ...] = ()
        bonus_coins: tuple[Way, ...] = ()
        if bonus:
            bonus_cards = (
                at_least(
                    "most_cards", Term.of("bonus.cards", num=BONUS_CARDS), "cards", BONUS_CARDS, 2
                ),
            )
            bonus_coins = (at_least("most_coins", Term("bonus.oros"), "coins", COINS, 2),)
        # With the bonus, all four sevens score 3 in place of the velo's and the setenta's lines.
        all_sevens = (Within("sevens", SEVENS, SEVENS),)
        replaced = [Way("all_sevens", Term("bonus.sevens"), when=all_sevens)] if bonus else []
        lines: list[tuple[Way, ...]] = [
            each("escobas", ESCOBAS, 1),
            (*bonus_cards, most_cards),
            (*bonus_coins, most_coins),
        ]
        if bonus:
            lines.append(
                (
                    Way(
                        "all_sevens",
                        Term("bonus.sevens"),
                        shows="sevens",
                        points=3,
                        when=all_sevens,
                    ),
                )
            )
        lines.append((*replaced, *each("seven_coins", VELO, 1)))
        lines.append((*replaced, *self._setenta_ways(table, method)))
        return Scoring(tuple(lines))

    def _setenta_ways(self, table: Table, method: str) -> tuple[Way, ...]:
        """How the setenta's point is taken: by the side's answer (the primera, or three
        sides), by 3+ sevens, or by the cascade: the first of sevens, sixes, aces and fives
        not split 2–2 decides."""
        if table.sides == 2 and method == SEVENS_RULE:
            return (at_least("setenta", SETENTA_SEVENS_OVER, "sevens", MOST_OF["sevens"], 1),)
        label = self._setenta_label(table)
        if method == PRIMERA:
            tally = tuple((f"best_{suit}", PRIMIERA_VALUES) for suit in SUITS)
            took_it = (Within("setenta", MOST_ALONE, MOST_ALONE),)
            return (Way("setenta", label, points=1, when=took_it, tally=tally),)
        if table.sides >= 3:
            return (answered("setenta", label, "setenta", MOST_ALONE, 1, "sevens"),)
        ways: list[Way] = []
        for key in CASCADE_KEYS:
            ways.append(
                Way("setenta", label, shows="sevens", points=1, when=(Within(key, 3, SEVENS),))
            )
            ways.append(Way("setenta", label, shows="sevens", when=(Within(key, 0, 1),)))
        return tuple(ways)

    def feats_of(
        self, table: Table, result: HandResult, facts: EntryFacts | None, at: int
    ) -> dict[str, int]:
        """Escobas, and the setentas taken (all four sevens among them), from the breakdown."""
        breakdown = result.breakdowns[at]
        if breakdown is None:
            return {}
        return {
            "escobas": counted(breakdown, "escobas"),
            "setentas": counted(breakdown, "setenta", "all_sevens", scoring=True),
        }


ESCOBA_GAME = Escoba()
