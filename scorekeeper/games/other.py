"""Other game: any game scored in points, 2 to 8 sides named freely, no calculator; won by
the highest first to the target, by the lowest when a side reaches it (Hearts), or by the
highest after a fixed number of hands."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .base import (
    Aim,
    Calculation,
    Goal,
    MatchState,
    PlayOn,
    Said,
    Standing,
    Table,
    TableFormat,
    TableRule,
    Term,
    Tie,
    WinRule,
    Won,
    says,
    says_n,
)
from .game import Outcome, PointsGame, level_past_target, standing

# The words of this game's codes (its Terms, and its Problems), in English as the catalogs
# translate them: scorekeeper/terms.py says them in the reader's language.
WORDS: dict[str, Said] = {
    # NOTE: The app's choice for a card game it has no rules for, scored in plain points.
    "game.other": says("Other game"),
    "hands.target": says_n("%(num)d hand", "%(num)d hands"),
    "rule.winner": says("Who wins"),
    "rule.winner.highest": says("The first to the target (the higher when several reach it)"),
    "rule.winner.lowest": says("The lowest total when a side reaches the target (as in Hearts)"),
    "rule.winner.hands": says(
        "The highest total after a number of hands: the target is that number"
    ),
}

# How the table's game is won (the table rule "winner").
HIGHEST, LOWEST, HANDS = "highest", "lowest", "hands"


class Other(PointsGame):
    """Plain totals, won as the table chose: as Basra is (first to the target, the higher when
    several are), by the lowest total once a side reaches the target, or by the highest after
    as many hands as the target says."""

    words = WORDS

    key = "other"
    name = Term("game.other")
    # The host adds sides freely, so the format's two sides are only where the form starts;
    # min_sides and max_sides are the real bounds.
    formats = (TableFormat("free", Term("format.free"), sides=2),)
    # Empty: any positive target (accepts_target says which).
    targets = ()
    default_target = 100
    target_unit = "points"
    min_points = -9999
    max_points = 9999
    table_rules = (
        TableRule(
            "winner",
            Term("rule.winner"),
            (
                (HIGHEST, Term("rule.winner.highest")),
                (LOWEST, Term("rule.winner.lowest")),
                (HANDS, Term("rule.winner.hands")),
            ),
            default=HIGHEST,
        ),
    )

    @property
    def min_sides(self) -> int:
        """Two sides at the least."""
        return 2

    @property
    def max_sides(self) -> int:
        """Eight sides at the most (docs/rules/other.md, "Table")."""
        return 8

    @property
    def sides_named_freely(self) -> bool:
        """As many sides as the host names."""
        return True

    def calculate(self, table: Table, counts: Mapping[str, int], held_over: int = 0) -> Calculation:
        """No calculator: nothing to count, so nothing scores (entries are plain totals)."""
        return Calculation(lines=(), total=0)

    def unit_for(self, table: Table) -> str:
        """Points, or (a fixed number of hands) hands."""
        return "hands" if self.choice(table, "winner") == HANDS else self.target_unit

    def target_words(self, table: Table) -> Term:
        """The target with its unit: "500 points", or a number of hands ("10 hands")."""
        if self.choice(table, "winner") == HANDS:
            return Term.of("hands.target", num=table.target)
        return super().target_words(table)

    def chart_target(self, table: Table) -> int | None:
        """No target line on a chart of points when the target is a number of hands."""
        return None if self.choice(table, "winner") == HANDS else table.target

    def match_winner(
        self, table: Table, totals: Sequence[int], outcome: Outcome
    ) -> tuple[int, Won] | None:
        """The winner under the table's choice; None to play on (a tie where it counts)."""
        rule = self.choice(table, "winner")
        if rule == HIGHEST:
            return super().match_winner(table, totals, outcome)
        if rule == LOWEST:
            if max(totals) < table.target:
                return None
            lowest = _sides_at(totals, min(totals))
            if len(lowest) > 1:
                return None
            return lowest[0], Won(WinRule.LOWEST_AT_LIMIT, target=table.target)
        # A fixed number of hands: the highest once they are played (level: one more hand).
        if outcome.played < table.target:
            return None
        highest = _sides_at(totals, max(totals))
        if len(highest) > 1:
            return None
        return highest[0], Won(WinRule.HIGHEST_AFTER_HANDS, hands=outcome.played)

    def why_play_goes_on(self, table: Table, totals: Sequence[int], played: int) -> PlayOn | None:
        """A tie where the rule needs one side: play on until it breaks."""
        rule = self.choice(table, "winner")
        if rule == HIGHEST:
            return level_past_target(totals, table.target)
        if rule == LOWEST and totals and max(totals) >= table.target:
            low = min(totals)
            level = tuple(_sides_at(totals, low))
            return PlayOn(Tie.LEVEL_AT_LOWEST, level, total=low, target=table.target)
        if rule == HANDS and played >= table.target:
            level = tuple(_sides_at(totals, max(totals)))
            return PlayOn(Tie.LEVEL_AFTER_HANDS, level, total=max(totals), hands=played)
        return None

    def lowest_wins(self, table: Table) -> bool:
        """The table plays for the lowest total (Hearts)."""
        return self.choice(table, "winner") == LOWEST

    def standing(self, table: Table, state: MatchState) -> Standing:
        """Who leads (the lowest, when the lowest wins), how far each side is from the target
        (no distances when the target is a number of hands), and what wins."""
        rule, totals, target = self.choice(table, "winner"), state.totals, table.target
        if rule == HIGHEST:
            return super().standing(table, state)
        if rule == HANDS:
            left = max(target - len(state.running), 0)
            goal = Goal(Aim.HIGHEST_AFTER_HANDS, target, left=left)
            return standing(totals, target, goal)._replace(to_go=())
        flipped = standing([-total for total in totals], 0)
        # Reaching the target ends the match: nobody heads for it, each side keeps clear of it.
        return Standing(
            flipped.leaders,
            flipped.lead,
            (),
            Goal(Aim.LOWEST_AT_LIMIT, target),
            to_limit=tuple(max(target - total, 0) for total in totals),
        )


def _sides_at(totals: Sequence[int], value: int) -> list[int]:
    """The sides whose total is this one (the lowest, the highest): one wins, several play on."""
    return [side for side, total in enumerate(totals) if total == value]


OTHER_GAME = Other()
