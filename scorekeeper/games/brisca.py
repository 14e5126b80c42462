"""Brisca: each hand is a round won on card points; the match goes to rounds won."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ._common import (
    Expected,
    GameBase,
    all_by_calculator,
    calculation,
    count_field,
    cross_check,
    line,
    read_counts,
)
from .base import (
    CalcField,
    Calculation,
    EntryFacts,
    HandFacts,
    HandResult,
    MatchState,
    Table,
    TableFormat,
    TableRule,
)

# brisca.txt: "The total value of the cards in a suit is 30 points. Correspondingly, the whole
# deck is 120 points."
DECK_POINTS = 120
# brisca.txt: "Ace: 11 points, Three: 10 points, King: 4 points, Horse: 3 points, Jack: 2 points".
CARD_VALUES: tuple[tuple[str, str, int], ...] = (
    ("aces", "Aces", 11),
    ("threes", "Threes", 10),
    ("kings", "Kings", 4),
    ("horses", "Horses", 3),
    ("jacks", "Jacks", 2),
)
# Four suits in the 40-card Spanish deck: four of each counting card.
SUITS = 4


class Brisca(GameBase):
    """Brisca's formats, Black hand rule, card-point calculator and rounds won."""

    key = "brisca"
    name = "Brisca"
    formats = (
        TableFormat("2", "2 head to head", sides=2),
        TableFormat("3", "3 each for themselves", sides=3),
        TableFormat("2v2", "4 in 2 partnerships", sides=2, players_per_side=2),
        TableFormat("3v3", "6 in 2 teams of 3", sides=2, players_per_side=3),
    )
    # brisca.txt: "The first team that wins a specific number of rounds (as set for the table,
    # for example 3) wins the session."
    targets = tuple(range(1, 11))
    default_target = 3
    target_unit = "rounds"
    # A plain entry is the side's card points for the round.
    min_points = 0
    max_points = DECK_POINTS
    table_rules = (
        TableRule(
            "black_hand",
            "Black hand (Ace, Three and King of trumps win the round)",
            (("off", "Off"), ("on", "On")),
            default="off",
        ),
    )
    expected = tuple(Expected(key, label, SUITS) for key, label, _ in CARD_VALUES)

    def calculator_fields(self, table: Table) -> tuple[CalcField, ...]:
        """The counting cards in a side's tricks, one count per rank."""
        return tuple(
            count_field(key, label, SUITS, f"{value} points each")
            for key, label, value in CARD_VALUES
        )

    def calculate(self, table: Table, counts: Mapping[str, int], held_over: int = 0) -> Calculation:
        """A side's counting cards to its card points for the round."""
        values = read_counts(self.calculator_fields(table), counts)
        return calculation(
            [
                line(key, label, values[key], value * values[key])
                for key, label, value in CARD_VALUES
            ]
        )

    def round_winner(
        self, table: Table, cells: Sequence[EntryFacts], points: Sequence[int]
    ) -> tuple[int | None, tuple[int, ...], list[str]]:
        """Who won a complete round, which tied sides need the last trick, and what's amiss."""
        if self.choice(table, "black_hand") == "on":
            claims = [side for side, cell in enumerate(cells) if cell.black_hand]
            # brisca.txt: "if it happens that you hold the three strongest trump cards (Ace,
            # Three, King) you would win the round."
            if len(claims) == 1:
                return claims[0], (), []
            if len(claims) > 1:
                return (
                    None,
                    (),
                    [
                        f"{len(claims)} sides claim a black hand; only one can hold "
                        "the Ace, Three and King of trumps"
                    ],
                )
        top = max(points)
        tied = [side for side, side_points in enumerate(points) if side_points == top]
        if len(tied) == 1:
            return tied[0], (), []
        # brisca.txt: "In case both teams won 60 points, the winner is the team that won the
        # last trick." With three sides (decided here): the last trick among the tied.
        took_last = [side for side in tied if cells[side].last_trick]
        if len(took_last) == 1:
            return took_last[0], (), []
        return None, tuple(tied), []

    def round_problems(
        self, table: Table, cells: Sequence[EntryFacts], points: Sequence[int]
    ) -> list[str]:
        """What a complete round fails to add up to."""
        problems: list[str] = []
        last_claims = sum(cell.last_trick for cell in cells)
        if last_claims > 1:
            problems.append(f"{last_claims} sides say they took the last trick; only one did")
        # A black hand ends the round before every card is won, so its points need not add up.
        if self.choice(table, "black_hand") == "on" and any(cell.black_hand for cell in cells):
            return problems
        total = sum(points)
        if total != DECK_POINTS:
            problems.append(f"Card points add up to {total}, not {DECK_POINTS}")
        if all_by_calculator(cells):
            counts = [cell.counts or {} for cell in cells]
            problems.extend(cross_check(counts, self.expected, most_cards=False))
        return problems

    def state(self, table: Table, hands: Sequence[HandFacts]) -> MatchState:
        """The sheet worked out: card points per round, rounds won as the totals."""
        rounds_won = [0] * table.sides
        results: list[HandResult] = []
        running: list[tuple[int, ...]] = []
        winner: int | None = None
        won_at: int | None = None
        reason = ""
        for index, hand in enumerate(hands):
            cells, points, breakdowns, problems = self.entries(table, hand, 0)
            complete = all(cell is not None for cell in cells)
            round_winner: int | None = None
            needs_last_trick: tuple[int, ...] = ()
            if complete:
                entered = [cell for cell in cells if cell is not None]
                card_points = [side_points or 0 for side_points in points]
                round_winner, needs_last_trick, claims = self.round_winner(
                    table, entered, card_points
                )
                problems += claims + self.round_problems(table, entered, card_points)
                if round_winner is not None:
                    rounds_won[round_winner] += 1
                running.append(tuple(rounds_won))
                if winner is None and round_winner is not None:
                    if rounds_won[round_winner] >= table.target:
                        winner, won_at = round_winner, index
                        reason = f"First to {self.target_label(table.target)}"
            results.append(
                HandResult(
                    points=tuple(points),
                    breakdowns=tuple(breakdowns),
                    complete=complete,
                    round_winner=round_winner,
                    needs_last_trick=needs_last_trick,
                    problems=tuple(problems),
                )
            )
        return MatchState(
            hands=tuple(results),
            running=tuple(running),
            totals=tuple(rounds_won),
            winner=winner,
            won_at_hand=won_at,
            reason=reason,
        )


BRISCA_GAME = Brisca()
