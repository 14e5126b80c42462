"""Scopa: Italy's fishing game of the 40-card pack, with Scopone for two partnerships, the
primiera, and the common Italian table rules (Napola, Re Bello, Napoleone, cappotto)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

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
    WinRule,
    Won,
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
    ONE_EACH,
    ONE_POINT,
    PRIMIERA_VALUES,
    SOUTHERN_VALUES,
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
from .game import Outcome
from .hand_checks import Expected
from .scoring import Scoring, Way, Within, each

# The words of this game's codes (its Terms, and its Problems), in English as the catalogs
# translate them: scorekeeper/terms.py says them in the reader's language.
WORDS: dict[str, Said] = {
    # NOTE: The name of a card game: Italy's fishing game (scopa).
    "game.scopa": says("Scopa"),
    # NOTE: Scopa for four players in two partnerships has its own name, Scopone.
    "format.scopone": says("Scopone: 4 in 2 partnerships"),
    # NOTE: Scopa's coins suit (denari), as its players call it in every language.
    "denari": says("Denari"),
    # NOTE: Scopa's point for the 7 of denari, the settebello.
    "settebello": says("Settebello (7 of denari)"),
    # NOTE: Scopa's sweeps: a capture that clears the table (scopa, plural scope).
    "scope": says("Scope"),
    # NOTE: Scopa's point for the best card in each suit added up (primiera).
    "primiera": says("Primiera"),
    # NOTE: Scopa's bonus for the king of denari (re bello).
    "re_bello": says("Re bello (king of denari)"),
    # NOTE: Scopa's bonus for the ace, 2 and 3 of denari and the run beyond (napola).
    "napola": says("Napola"),
    "napola.run": says("Denari in a row from the ace"),
    "most_denari": says("Most denari"),
    # NOTE: A breakdown line head to head: the most denari, %(num)d (always 6) or more.
    "most_denari.over": says("Most denari (%(num)d+)"),
    # NOTE: The suits of the Italian pack, as Scopa's players call them: coins, cups, swords,
    # clubs.
    "suit.denari": says("denari"),
    "suit.coppe": says("coppe"),
    "suit.spade": says("spade"),
    "suit.bastoni": says("bastoni"),
    "rule.primiera_pictures": says("Pictures in the primiera"),
    "rule.primiera_pictures.ten": says("10 each"),
    "rule.primiera_pictures.southern": says("King 10, horse 9, jack 8 (the south)"),
    "rule.napola.run": says("Ace-2-3 scores 3, and 1 for each denaro that carries on the run"),
    "rule.napola.to_six": says("The same, 6 at the most"),
    "rule.napoleone": says("All ten denari win the match (Napoleone)"),
    "rule.re_bello": says("Re bello: the king of denari scores 1"),
    "rule.cappotto": says("Cappotto: 7 to nothing wins the match"),
    # NOTE: The hand's points are added line by line in this order; the first side to reach
    # the target wins.
    "rule.count_to_target.parlett": says(
        "The first there counting cards, denari, settebello, primiera, scope"
    ),
    "hint.scopa.cards": says("21 or more is the most (1); 20 is a tie"),
    "hint.scopa.denari": says("6 or more is the most (1); 5 is a tie"),
    "hint.scopa.primiera": says(
        "The higher total of best cards (7 = 21, 6 = 18, ace 16…); a side missing a suit "
        "can't take it"
    ),
    "hint.napola": says("Ace, 2, 3: 3 points, then 1 for each next denaro"),
    # NOTE: Why a match was won: one side took all ten coins (denari) in a hand.
    "won.napoleone": says("All ten denari: Napoleone"),
    # NOTE: Why a match was won: 7 points while the other sides had none.
    "won.cappotto": says("Seven to nothing: cappotto"),
    # NOTE: a phone's record: Scopa hands its side took the primiera (plural of primiera).
    "primiere": says("Primiere taken"),
    # NOTE: a phone's record: Scopa hands its side scored a napola (plural napole).
    "napole": says("Napole"),
}
PROBLEM_WORDS: dict[str, Said] = {
    "scope_need_cards": says_n(
        "%(num)d scopa takes at least %(least)d cards, but the cards captured say %(cards)d.",
        "%(num)d scope take at least %(least)d cards, but the cards captured say %(cards)d.",
    ),
    "napola_coins": says_n(
        "A run of %(num)d denaro, but the denari say %(coins)d.",
        "A run of %(num)d denari, but the denari say %(coins)d.",
    ),
    # NOTE: %(card)s is the card the run holds: "Settebello (7 of denari)", "Re bello".
    "napola_holds": says("A run of %(num)d denari holds the %(card)s: tick it too."),
    "napola_all_coins": says("All ten denari are a run of 10."),
}

# docs/rules/scopa.md, "Napola": the ace, 2 and 3 of denari score 3, and each denaro that
# carries the run on one more; capped at 6 where the table says so.
NAPOLA_LEAST, NAPOLA_CAP = 3, 6
RUN, TO_SIX = "run", "to_six"
# docs/rules/scopa.md, "Table rules": Parlett's count of the last hand when several sides pass
# the target in it.
PARLETT_ORDER = (("most_cards",), ("most_coins",), ("seven_coins",), ("primiera",), ("scope",))
# docs/rules/scopa.md, "Table rules": cappotto, 7 points while every other side has none.
CAPPOTTO = 7
DENARI, SETTEBELLO, SCOPE = Term("denari"), Term("settebello"), Term("scope")
CARDS, CARDS_CAPTURED, PRIMIERA, RE_BELLO = (
    Term("cards"),
    Term("cards_captured"),
    Term("primiera"),
    Term("re_bello"),
)
NAPOLA = Term("napola")
SUIT_NAMES: dict[str, Label] = {
    "coins": Term("suit.denari"),
    "cups": Term("suit.coppe"),
    "swords": Term("suit.spade"),
    "clubs": Term("suit.bastoni"),
}
MOST_DENARI_OVER = Term.of("most_denari.over", num=MOST_OF["coins"])


class Scopa(FortyCardGame):
    """Scopa's formats, primiera, table rules and calculator."""

    words = WORDS
    problem_words = PROBLEM_WORDS

    key = "scopa"
    name = Term("game.scopa")
    feats: tuple[tuple[str, Label], ...] = (
        ("scope_made", SCOPE),
        ("primiere", Term("primiere")),
        ("napole", Term("napole")),
    )
    formats = (
        TableFormat("2", Term("format.2"), sides=2),
        TableFormat("3", Term("format.3"), sides=3),
        TableFormat("2v2", Term("format.scopone"), sides=2, players_per_side=2),
    )
    # docs/rules/scopa.md, "Target and winning": 11 by default, 16, 21 or 31.
    targets = (11, 16, 21, 31)
    default_target = 11
    target_unit = "points"
    on_off = (("off", Term("rule.off")), ("on", Term("rule.on")))
    table_rules = (
        TableRule(
            "pictures",
            Term("rule.primiera_pictures"),
            (
                ("ten", Term("rule.primiera_pictures.ten")),
                ("southern", Term("rule.primiera_pictures.southern")),
            ),
            default="ten",
        ),
        TableRule(
            "napola",
            NAPOLA,
            (
                ("off", Term("rule.off")),
                (RUN, Term("rule.napola.run")),
                (TO_SIX, Term("rule.napola.to_six")),
            ),
            default="off",
        ),
        TableRule("napoleone", Term("rule.napoleone"), on_off, default="off"),
        TableRule("re_bello", Term("rule.re_bello"), on_off, default="off"),
        TableRule("cappotto", Term("rule.cappotto"), on_off, default="off"),
        TableRule(
            "count_to_target",
            Term("rule.same_hand"),
            (
                ("off", Term("rule.same_hand.higher")),
                ("parlett", Term("rule.count_to_target.parlett")),
            ),
            default="off",
        ),
    )
    expected = (
        Expected("cards", CARDS, DECK),
        Expected("coins", DENARI, COINS),
        Expected("seven_coins", SETTEBELLO, 1, single=True),
    )

    def count_order(self, table: Table) -> tuple[tuple[str, ...], ...]:
        """Parlett's order for counting the last hand, where the table plays it."""
        return PARLETT_ORDER if self.choice(table, "count_to_target") == "parlett" else ()

    def expected_for(self, table: Table) -> tuple[Expected, ...]:
        """With Re Bello, one side holds the king of denari too."""
        if self.choice(table, "re_bello") == "on":
            return (*self.expected, Expected("re_bello", RE_BELLO, 1, single=True))
        return self.expected

    def schedule(self, table: Table) -> Mapping[int, int]:
        """The primiera's card values at this table."""
        southern = self.choice(table, "pictures") == "southern"
        return SOUTHERN_VALUES if southern else PRIMIERA_VALUES

    def contests(self, table: Table) -> tuple[Contest, ...]:
        """The primiera always (it needs the other sides' best cards); with three sides the
        most cards and denari as well."""
        schedule = self.schedule(table)
        found: list[Contest] = []
        if table.sides >= 3:
            found += [
                Contest(
                    "most_cards",
                    Term("most_cards"),
                    lambda counts: counts.get("cards", 0),
                    "cards",
                    CARDS_CAPTURED,
                ),
                Contest(
                    "most_coins",
                    Term("most_denari"),
                    lambda counts: counts.get("coins", 0),
                    "coins",
                    DENARI,
                ),
            ]
        found.append(Contest("primiera", PRIMIERA, lambda counts: primiera(counts, schedule)))
        return tuple(found)

    def calculator_fields(self, table: Table) -> tuple[CalcField, ...]:
        """Cards, denari, the settebello, the best card in each suit and who took the
        primiera, scope; the king of denari and the Napola where the table plays them."""
        cards = count_field("cards", CARDS_CAPTURED, DECK, Term("hint.scopa.cards"))
        coins = count_field("coins", DENARI, COINS, Term("hint.scopa.denari"))
        fields: list[CalcField] = [
            *contest_fields(table.sides, cards, most_cards_field(ALONE_HINT)),
            *contest_fields(table.sides, coins, question_field("most_coins", Term("most_denari"))),
            flag_field("seven_coins", SETTEBELLO, ONE_POINT),
        ]
        if self.choice(table, "re_bello") == "on":
            fields.append(flag_field("re_bello", RE_BELLO, ONE_POINT))
        fields += best_card_fields(SUIT_NAMES)
        fields.append(question_field("primiera", PRIMIERA, Term("hint.scopa.primiera")))
        fields.append(count_field("scope", SCOPE, DECK // table.sides, ONE_EACH))
        if self.choice(table, "napola") != "off":
            fields.append(count_field("napola", Term("napola.run"), COINS, Term("hint.napola")))
        return tuple(fields)

    def calculate(self, table: Table, counts: Mapping[str, int], held_over: int = 0) -> Calculation:
        """One side's pile to its points, line by line (docs/rules/scopa.md, "Scoring a
        hand")."""
        values = read_counts(self.calculator_fields(table), counts)
        cards, coins = values["cards"], values["coins"]
        require_coins_and_sevens(values, SETTEBELLO)
        require_best_cards(values)
        re_bello = values.get("re_bello", 0)
        require(
            values["seven_coins"] + re_bello <= coins,
            "re_bello",
            Problem.of("scoring_cards_over", num=values["seven_coins"] + re_bello, cards=coins),
        )
        strength = primiera(values, self.schedule(table))
        if took(values, "primiera"):
            require(strength is not None, "primiera", Problem("primiera_missing_suit"))
        require_cards_for_clears(values, ["scope"], "scope_need_cards")
        run = values.get("napola", 0)
        if "napola" in values:
            self._require_run(values, run)
        most_cards = took_most(table.sides, values, "cards", MOST_OF["cards"], "most_cards")
        most_coins = took_most(table.sides, values, "coins", MOST_OF["coins"], "most_coins")
        napola = 0
        if run >= NAPOLA_LEAST:
            napola = min(run, NAPOLA_CAP) if self.choice(table, "napola") == TO_SIX else run
        # docs/rules/scopa.md, "Scoring a hand": scope a point each; the most cards, the most
        # denari, the settebello and the primiera a point each, a tie scoring nobody.
        cards_label, coins_label = most_labels(table.sides, Term("most_denari"), MOST_DENARI_OVER)
        return calculation(
            [
                line("scope", SCOPE, values["scope"], values["scope"]),
                line("most_cards", cards_label, cards, int(most_cards)),
                line("most_coins", coins_label, coins, int(most_coins)),
                line("seven_coins", SETTEBELLO, values["seven_coins"], values["seven_coins"]),
                line("primiera", PRIMIERA, strength or 0, int(took(values, "primiera"))),
                line("re_bello", RE_BELLO, re_bello, re_bello),
                line("napola", NAPOLA, run, napola),
            ]
        )

    def scoring(self, table: Table, held_over: int = 0) -> Scoring:
        """calculate's lines as a table (docs/rules/scopa.md, "Scoring a hand"): scope, the
        settebello and the re bello a point each; the most cards and denari a point to the
        side that takes them (head to head, by its counts; else by its answer), the primiera
        by its answer; a Napola its run from 3 (with the table's cap, 6)."""
        most_cards, most_coins = most_ways(table.sides, Term("most_denari"), MOST_DENARI_OVER)
        schedule = self.schedule(table)
        primiera_way = Way(
            "primiera",
            PRIMIERA,
            points=1,
            when=(Within("primiera", MOST_ALONE, MOST_ALONE),),
            tally=tuple((f"best_{suit}", schedule) for suit in SUITS),
        )
        # A run of 3 or more denari from the ace scores a point a card; "to six", 6 at most.
        top = NAPOLA_CAP if self.choice(table, "napola") == TO_SIX else COINS
        run = (Within("napola", NAPOLA_LEAST, top),)
        napola = (
            Way("napola", NAPOLA, shows="napola", each=1, per="napola", when=run),
            Way(
                "napola",
                NAPOLA,
                shows="napola",
                points=NAPOLA_CAP,
                when=(Within("napola", top + 1, COINS),),
            ),
        )
        return Scoring(
            (
                each("scope", SCOPE, 1),
                (most_cards,),
                (most_coins,),
                each("seven_coins", SETTEBELLO, 1),
                (primiera_way,),
                each("re_bello", RE_BELLO, 1),
                napola,
            )
        )

    @staticmethod
    def _require_run(values: Mapping[str, int], run: int) -> None:
        """The run of denari from the ace is among the side's denari: past the 6 it holds the
        settebello, at 10 the king; all ten denari are a run of 10."""
        coins = values["coins"]
        require(run <= coins, "napola", Problem.of("napola_coins", num=run, coins=coins))
        require(
            run < 7 or values["seven_coins"] == 1,
            "napola",
            Problem.of("napola_holds", num=run, card=SETTEBELLO),
        )
        if "re_bello" in values:
            require(
                run < COINS or values["re_bello"] == 1,
                "napola",
                Problem.of("napola_holds", num=run, card=RE_BELLO),
            )
        require(coins < COINS or run == COINS, "napola", Problem("napola_all_coins"))

    def early_victory(
        self,
        table: Table,
        cells: Sequence[EntryFacts],
        breakdowns: Sequence[Calculation | None],
    ) -> int | None:
        """Napoleone: with the table rule, the side whose calculator counted all ten denari."""
        # docs/rules/scopa.md, "Table rules": a plain total doesn't say what it holds.
        if self.choice(table, "napoleone") != "on":
            return None
        holders = [
            side
            for side, cell in enumerate(cells)
            if cell.counts is not None and cell.counts.get("coins", 0) == COINS
        ]
        return holders[0] if len(holders) == 1 else None

    def match_winner(
        self, table: Table, totals: Sequence[int], outcome: Outcome
    ) -> tuple[int, Won] | None:
        """Napoleone, else the first over the target (the higher when several are; level,
        play on), else with the table rule a cappotto: 7 while no other side has a point."""
        if outcome.early_victory is not None:
            return outcome.early_victory, Won(WinRule.DECLARED, said=Term("won.napoleone"))
        found = super().match_winner(table, totals, outcome)
        if found is not None or self.choice(table, "cappotto") != "on":
            return found
        leaders = [side for side, total in enumerate(totals) if total >= CAPPOTTO]
        others_nil = all(total == 0 for side, total in enumerate(totals) if side not in leaders)
        if len(leaders) == 1 and others_nil:
            return leaders[0], Won(WinRule.DECLARED, said=Term("won.cappotto"))
        return None

    def feats_of(
        self, table: Table, result: HandResult, facts: EntryFacts | None, at: int
    ) -> dict[str, int]:
        """Scope, primiere taken and napole scored, from the breakdown."""
        breakdown = result.breakdowns[at]
        if breakdown is None:
            return {}
        return {
            "scope_made": counted(breakdown, "scope"),
            "primiere": counted(breakdown, "primiera", scoring=True),
            "napole": counted(breakdown, "napola", scoring=True),
        }


SCOPA_GAME = Scopa()
