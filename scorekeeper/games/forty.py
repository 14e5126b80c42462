"""What the 40-card fishing games (Escoba and Scopa) share: the pack, the contests for the most
cards, coins and sevens, the primiera of each side's best card in every suit, and the checks
that a hand's piles add up to the pack.

A side's points can only be worked out from its own pile, so a contest it cannot settle alone
(three sides; a primiera, which needs the other side's best cards) is asked as a question, No /
Yes, alone / Tied for most, and the answers are checked against each other's counts.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .base import (
    CalcField,
    Calculation,
    Conflict,
    EntryFacts,
    HandFacts,
    Label,
    Problem,
    Table,
    Term,
    WinRule,
    Won,
)
from .calculator import MOST_ALONE, MOST_CARDS_CHOICES, MOST_NO, MOST_TIED, require
from .game import Outcome, PointsGame, every_side
from .hand_checks import Expected, both_said, cross_check, most_cards_problems, over_the_pack
from .scoring import Way, contested

# docs/rules/escoba.md and scopa.md, "Table": the 40-card Spanish or Italian pack, four suits
# of ten, one seven and one ace of each.
DECK = 40
COINS = 10
SEVENS = 4
SUITS = ("coins", "cups", "swords", "clubs")
# Two sides: more than half is the most (21 of 40 cards, 6 of 10 coins, 3 of 4 sevens).
MOST_OF = {"cards": DECK // 2 + 1, "coins": COINS // 2 + 1, "sevens": SEVENS // 2 + 1}
# A side's best card in a suit, as the calculator asks it: its rank (ace 1, jack 8, horse 9,
# king 10), 0 when the side holds no card of that suit.
NO_CARD, ACE, JACK, HORSE, KING = 0, 1, 8, 9, 10
CARD_CHOICES: tuple[tuple[int, Label], ...] = (
    (NO_CARD, Term("card.none")),
    (7, "7"),
    (6, "6"),
    (ACE, Term("card.ace")),
    (5, "5"),
    (4, "4"),
    (3, "3"),
    (2, "2"),
    (KING, Term("card.king")),
    (HORSE, Term("card.horse")),
    (JACK, Term("card.jack")),
)
# docs/rules/scopa.md, "Primiera": 7 = 21, 6 = 18, ace 16, 5 = 15, 4 = 14, 3 = 13, 2 = 12,
# each picture 10 (escoba.md, "Setenta", the same for the primera).
PRIMIERA_VALUES = {7: 21, 6: 18, ACE: 16, 5: 15, 4: 14, 3: 13, 2: 12, JACK: 10, HORSE: 10, KING: 10}
# docs/rules/scopa.md, "Table rules": the south values the pictures king 10, horse 9, jack 8.
SOUTHERN_VALUES = {**PRIMIERA_VALUES, HORSE: 9, JACK: 8}
ANSWER_WORDS = dict(MOST_CARDS_CHOICES)
MOST_CARDS_OVER = Term.of("most_cards.over", num=MOST_OF["cards"])
# The calculator's hints, made once: a long sheet works out every calculator cell on each page.
ONE_EACH, ONE_POINT = Term.of("points_each", num=1), Term.of("points", num=1)
ALONE_HINT = Term("hint.forty.alone")


def best_card_fields(suit_names: Mapping[str, Label]) -> tuple[CalcField, ...]:
    """The best card a side holds in each suit, for a primiera (its four fields)."""
    return tuple(
        CalcField(
            key=f"best_{suit}",
            label=Term.of("best_in", suit=suit_names[suit]),
            maximum=KING,
            kind="choice",
            choices=CARD_CHOICES,
        )
        for suit in SUITS
    )


def question_field(key: str, label: Label, hint: Label = ALONE_HINT) -> CalcField:
    """A contest the side's own pile can't settle: No / Yes, alone / Tied for most."""
    return CalcField(
        key=key,
        label=label,
        maximum=MOST_TIED,
        kind="choice",
        choices=MOST_CARDS_CHOICES,
        hint=hint,
    )


def primiera(values: Mapping[str, int], schedule: Mapping[int, int]) -> int | None:
    """A side's primiera: the values of its best card in each suit added up; None when it has
    no card at all in some suit (docs/rules/scopa.md, "Primiera": it can't make one)."""
    best = [values.get(f"best_{suit}", NO_CARD) for suit in SUITS]
    if NO_CARD in best:
        return None
    return sum(schedule[card] for card in best)


def require_best_cards(values: Mapping[str, int]) -> None:
    """The best cards agree with the pile: a 7 is the best card of its suit, so the suits
    whose best card is a 7 are the sevens (where counted); the coins' best card is there only
    with coins, and is the 7 with the 7 of coins; each suit with a card takes one of the pile."""
    best = {suit: values[f"best_{suit}"] for suit in SUITS}
    with_seven = sum(card == 7 for card in best.values())
    if "sevens" in values:
        require(
            with_seven == values["sevens"],
            "sevens",
            Problem.of("best_sevens", num=with_seven, sevens=values["sevens"]),
        )
    require(
        (best["coins"] == NO_CARD) == (values["coins"] == 0), "best_coins", Problem("best_coins")
    )
    if values["seven_coins"]:
        require(best["coins"] == 7, "best_coins", Problem("best_seven_coins"))
    held = sum(card != NO_CARD for card in best.values())
    require(held <= values["cards"], "cards", Problem.of("best_cards", num=held))


def require_coins_and_sevens(values: Mapping[str, int], seven_coins: Label) -> None:
    """Coins and sevens (where counted) sit in the side's pile, the 7 of coins one of each,
    and the 7 of coins is one of the side's coins and of its sevens."""
    cards, coins, sevens = values["cards"], values["coins"], values.get("sevens", 0)
    if values["seven_coins"]:
        require(coins >= 1, "coins", Problem.of("seven_coins_is_a_coin", card=seven_coins))
        if "sevens" in values:
            require(sevens >= 1, "sevens", Problem.of("seven_coins_is_a_seven", card=seven_coins))
    # All ten coins, or all four sevens, hold the 7 of coins.
    if coins == COINS:
        require(
            values["seven_coins"] == 1,
            "seven_coins",
            Problem.of("all_coins_hold", card=seven_coins),
        )
    if sevens == SEVENS:
        require(
            values["seven_coins"] == 1,
            "seven_coins",
            Problem.of("all_sevens_hold", card=seven_coins),
        )
    least = coins + sevens - (values["seven_coins"] if "sevens" in values else 0)
    require(least <= cards, "cards", Problem.of("scoring_cards_over", num=least, cards=cards))


@dataclass(frozen=True)
class Contest:
    """One line a single side wins or nobody does (a tie scores nobody): the most cards, coins,
    sevens, the setenta or primiera. Its question's key is its breakdown line's key."""

    key: str
    label: Label
    # The side's strength in it from its counts (more wins; None: it can't compete).
    strength: Callable[[Mapping[str, int]], Any]
    # The counts whose total it is about (refusals quote them), e.g. "coins"; None: primiera.
    count: str | None = None
    # What the quoted count is ("oros"), for a refusal's words.
    noun: Label = ""


def contest_winner(strengths: Sequence[Any]) -> tuple[int, ...]:
    """The sides at the top of a contest (one: it wins; several: a tie, nobody scores; none:
    no side could compete)."""
    valid = [s for s in strengths if s is not None]
    if not valid:
        return ()
    top = max(valid)
    return tuple(side for side, s in enumerate(strengths) if s is not None and s == top)


def wanted_answers(strengths: Sequence[Any]) -> list[int]:
    """What each side should answer to a contest's question, given every side's strength."""
    top = contest_winner(strengths)
    if len(top) == 1:
        return [MOST_ALONE if side in top else MOST_NO for side in range(len(strengths))]
    return [MOST_TIED if side in top else MOST_NO for side in range(len(strengths))]


def most_labels(sides: int, coins: Term, coins_over: Term) -> tuple[Term, Term]:
    """The most cards' and coins' breakdown lines: head to head with the count that takes them
    ("Most cards (21+)"), with three sides or more as their questions ask them."""
    if sides >= 3:
        return Term("most_cards"), coins
    return MOST_CARDS_OVER, coins_over


def most_ways(sides: int, coins: Term, coins_over: Term) -> tuple[Way, Way]:
    """The most cards and the most coins as a scoring table's ways: a point each to the side
    that takes them (calculator.took_most)."""
    cards_label, coins_label = most_labels(sides, coins, coins_over)
    return (
        contested(sides, "most_cards", cards_label, "cards", MOST_OF["cards"], 1, "most_cards"),
        contested(sides, "most_coins", coins_label, "coins", MOST_OF["coins"], 1, "most_coins"),
    )


class FortyCardGame(PointsGame):
    """Escoba's and Scopa's share: 40 cards, the contests, the checks across sides."""

    min_points = 0
    max_points = 99

    def count_order(self, table: Table) -> tuple[tuple[str, ...], ...]:
        """The order a table counts a hand's lines in to see who reached the target first
        (each step a breakdown line's keys); empty: the table doesn't, the higher total wins."""
        return ()

    def hand_outcome(
        self,
        table: Table,
        cells: Sequence[EntryFacts],
        points: Sequence[int],
        breakdowns: Sequence[Calculation | None],
    ) -> Outcome:
        """The hand's points, with its breakdowns for a count to the target."""
        outcome = super().hand_outcome(table, cells, points, breakdowns)
        return outcome._replace(breakdowns=tuple(breakdowns))

    def match_winner(
        self, table: Table, totals: Sequence[int], outcome: Outcome
    ) -> tuple[int, Won] | None:
        """Only after a complete hand: a side at the target wins; several, the higher; level,
        play on. With the table's count to the target, several sides that reached it in the
        same hand are settled by counting its lines in the agreed order."""
        counted = self.counted_first(table, totals, outcome)
        if counted is not None:
            return counted, Won(WinRule.COUNTED_FIRST, target=table.target)
        return super().match_winner(table, totals, outcome)

    def counted_first(self, table: Table, totals: Sequence[int], outcome: Outcome) -> int | None:
        """The side the count to the target names (None: the table doesn't count, or the count
        can't say: a plain total, or sides that reach it on the same line)."""
        order = self.count_order(table)
        if not order or not outcome.breakdowns or None in outcome.breakdowns:
            return None
        before = [total - added for total, added in zip(totals, outcome.adds, strict=True)]
        crossed = [
            side for side, total in enumerate(totals) if total >= table.target > before[side]
        ]
        if len(crossed) < 2:
            return None
        # docs/rules/escoba.md, "Table rules": the lines in the agreed order; lines the order
        # doesn't name (Napola, Re bello) come last, together.
        named = {key for step in order for key in step}
        rest = tuple(
            {row.key for worked in outcome.breakdowns if worked for row in worked.lines} - named
        )
        running = list(before)
        for step in (*order, rest):
            for side, worked in enumerate(outcome.breakdowns):
                running[side] += (
                    sum(row.points for row in worked.lines if row.key in step) if worked else 0
                )
            reached = [side for side in crossed if running[side] >= table.target]
            if len(reached) == 1:
                return reached[0]
            if reached:
                return None
        return None

    def expected_for(self, table: Table) -> tuple[Expected, ...]:
        """What a hand's calculator entries add up to at this table."""
        return self.expected

    def contests(self, table: Table) -> tuple[Contest, ...]:
        """The contests this table's calculator asks as questions (those one pile can't
        settle)."""
        raise NotImplementedError

    def plays(self, table: Table) -> int:
        """The cards a side plays in a hand: the pack, less the four to the table, dealt out."""
        return (DECK - 4) // table.sides

    def hand_problems(
        self, table: Table, cells: Sequence[EntryFacts], points: Sequence[int]
    ) -> list[Problem]:
        """Cards add to 40, coins to 10, sevens to 4, one 7 of coins; each question's answers
        match the counts behind them (calculator on every side)."""
        if not all(cell.counts is not None for cell in cells):
            return []
        counts = [cell.counts or {} for cell in cells]
        problems = cross_check(counts, self.expected_for(table), most_cards=False)
        for contest in self.contests(table):
            answers = [side.get(contest.key, MOST_NO) for side in counts]
            if contest.key == "most_cards":
                problems += most_cards_problems(counts)
            elif answers != wanted_answers([contest.strength(side) for side in counts]):
                problems.append(Problem.of("contest_answers", what=contest.label))
        return problems

    def entry_conflicts(
        self, table: Table, hand: HandFacts, side: int, entry: EntryFacts, me: Label | None = None
    ) -> list[Conflict]:
        """Beside the pack's counts and the most cards: two sides can't both take a contest
        alone, nor one take it beside a side as strong or stronger."""
        found = self._over_the_pack(table, hand, side, entry, me)
        if entry.counts is None:
            return found
        mine = entry.counts
        for at, cell in enumerate(every_side(hand, table.sides)):
            if at == side or cell is None or cell.counts is None:
                continue
            theirs, name = cell.counts, table.side_name(at)
            for contest in self.contests(table):
                if contest.key == "most_cards" or not self._contradict(contest, mine, theirs):
                    continue
                said = both_said(
                    self._answer_words(contest, mine, me),
                    self._answer_words(contest, theirs, name),
                    name,
                    me,
                )
                found.append(Conflict(said, contest.key))
        return found

    def _over_the_pack(
        self, table: Table, hand: HandFacts, side: int, entry: EntryFacts, me: Label | None
    ) -> list[Conflict]:
        """The shared checks (Game.entry_conflicts) on this table's expected counts."""
        # Game.entry_conflicts reads self.expected; a table rule (Re Bello) adds to it here.
        shared = super().entry_conflicts(table, hand, side, entry, me)
        extra = [rule for rule in self.expected_for(table) if rule not in self.expected]
        if not extra or entry.counts is None:
            return shared
        others = [
            (table.side_name(at), cell.counts)
            for at, cell in enumerate(every_side(hand, table.sides))
            if at != side and cell is not None and cell.counts is not None
        ]
        return shared + over_the_pack(others, entry.counts, extra)

    @staticmethod
    def _contradict(contest: Contest, mine: Mapping[str, int], theirs: Mapping[str, int]) -> bool:
        """Whether two sides' answers to a contest can't both be true."""
        answers = (mine.get(contest.key, MOST_NO), theirs.get(contest.key, MOST_NO))
        if answers == (MOST_ALONE, MOST_ALONE):
            return True
        strengths = (contest.strength(mine), contest.strength(theirs))
        if None in strengths:
            # A side that can't compete (no card in some suit) contradicts nobody's claim.
            return False
        for own, other, own_strength, other_strength in (
            (answers[0], answers[1], strengths[0], strengths[1]),
            (answers[1], answers[0], strengths[1], strengths[0]),
        ):
            if own == MOST_ALONE and other_strength >= own_strength:
                return True
            if own == MOST_TIED and (
                other_strength > own_strength
                or (other_strength == own_strength and other == MOST_NO)
            ):
                return True
        return False

    def _answer_words(
        self, contest: Contest, counts: Mapping[str, int], side: Label | None
    ) -> Problem:
        """A side's answer to a contest quoted back, with the count or primiera behind it."""
        answer = ANSWER_WORDS[counts.get(contest.key, MOST_NO)]
        strength = contest.strength(counts)
        if contest.count is not None:
            return Problem.of(
                "answered_count",
                side=side,
                answer=answer,
                question=contest.label,
                num=counts.get(contest.count, 0),
                what=contest.noun,
            )
        if strength is None:
            return Problem.of("answered_no_best", side=side, answer=answer, question=contest.label)
        return Problem.of(
            "answered_best", side=side, answer=answer, question=contest.label, num=strength
        )
