"""The game classes every game builds on, with the one loop that works a sheet out hand by hand,
and the points games' win rule."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from .base import (
    Aim,
    CalcField,
    Calculation,
    Conflict,
    CountError,
    EntryFacts,
    Goal,
    HandFacts,
    HandResult,
    Label,
    MatchState,
    PlayOn,
    Problem,
    Said,
    Settling,
    Standing,
    Table,
    TableFormat,
    TableRule,
    Term,
    Tick,
    Tie,
    WinRule,
    Won,
)
from .calculator import MOST_ALONE, MOST_NO, MOST_TIED
from .hand_checks import (
    Claim,
    Expected,
    all_by_calculator,
    claim_conflicts,
    cross_check,
    over_the_pack,
)
from .scoring import Scoring


class Outcome(NamedTuple):
    """What a complete hand settles besides its points: what it adds up and whom it favours."""

    # Added to each side's running total: a points game adds the hand's points, Brisca a round
    # won to the round's winner. Empty only for a hand that is not complete.
    adds: tuple[int, ...] = ()
    # Brisca: who took the round, or the sides level at the top that wait for the tick that
    # settles it (Game.settles).
    round_winner: int | None = None
    waiting: tuple[int, ...] = ()
    # Pastura: the side that won at once in this hand, whatever the totals.
    early_victory: int | None = None
    # How many complete hands the sheet holds with this one (the loop fills it in).
    played: int = 0
    # The hand's breakdowns, where a win rule reads them line by line (Escoba's and Scopa's
    # count to the target); empty where none does.
    breakdowns: tuple[Calculation | None, ...] = ()


def every_side(hand: HandFacts, sides: int) -> list[EntryFacts | None]:
    """The hand padded to one cell per side (a side not yet entered is None)."""
    cells = list(hand)
    if len(cells) > sides:
        raise ValueError(f"A hand has {len(cells)} entries for {sides} sides.")
    return cells + [None] * (sides - len(cells))


class Game:
    """A game, as the sheet, the forms and the pages ask it: what every game declares, what
    most share, the one loop that works a sheet out (state), and the hooks where they differ.
    Each game in the registry is a subclass: the one interface, declared once."""

    key: str
    name: Term
    formats: tuple[TableFormat, ...]
    # Target choices; empty for a free target (Other game). target_unit is "points" or
    # "rounds": a key (target_words says it to people).
    targets: tuple[int, ...]
    default_target: int
    target_unit: str
    # A game whose tables may also agree any target besides its usual ones (Escoba): the
    # target is typed, the usual ones offered beside it and said in `target_hint`.
    any_target: bool = False
    target_hint: Term | None = None
    table_rules: tuple[TableRule, ...] = ()
    # Bounds of a plain entry for one hand.
    min_points: int
    max_points: int
    # What a whole deck's card points come to, where an entry is card points (Brisca).
    deck_points: int | None = None
    # What one row of the sheet is called at the table, as a title ("Hand 3") and inside a
    # sentence ("Correct hand 3"), and the row under the sheet that adds up each side's points.
    hand_word = Term("hand")
    hand_noun = Term("hand.noun")
    # Some rows by their numbers inside a sentence ("hands 1–3, 5"), worded given how many
    # and which: Term.of(game.rows_numbered.code, num=4, numbers="1–3, 5").
    rows_numbered = Term("hands.numbered")
    total_word = Term("total")
    # The tick that settles a hand's tie once it waits for one (Brisca: who took the last
    # trick): the tied sides are asked it on the sheet; None where no tie waits.
    settles: Settling | None = None
    # The counts a hand must add up to when every side used the calculator.
    expected: tuple[Expected, ...] = ()
    # The words of this game's own codes (its Terms and its Problems), by code: its name, its
    # table rules, its calculator's lines, its refusals (scorekeeper/terms.py says them).
    words: Mapping[str, Said] = {}
    problem_words: Mapping[str, Said] = {}
    # What a phone's record counts of this game's hands besides points (feats_of), by key,
    # with the words it heads them with: Basra's basras, Pastura's pasturas...
    feats: tuple[tuple[str, Label], ...] = ()

    def ticks(self, table: Table) -> tuple[Tick, ...]:
        """The ticks a cell of this table may carry besides its points, in the order the forms
        ask them (the settling tick among them, asked only when a tie waits for it)."""
        return ()

    def entry_ticks(self, table: Table) -> tuple[Tick, ...]:
        """The ticks a side's own entry asks (its form, its calculator, the keeper's form for
        a whole hand): all but those asked only when a hand waits for them."""
        return tuple(tick for tick in self.ticks(table) if tick.on_entry)

    def calculator_ticks(self, table: Table) -> tuple[Tick, ...]:
        """The ticks a side's calculator asks: its entry's, but those its counts say."""
        return tuple(tick for tick in self.entry_ticks(table) if not tick.counted)

    def feats_of(
        self, table: Table, result: HandResult, facts: EntryFacts | None, at: int
    ) -> dict[str, int]:
        """What the side at `at` did in one hand, by the keys of `feats` (a record adds
        them up); read from the rules' own working of the hand (its breakdown)."""
        return {}

    def lowest_wins(self, table: Table) -> bool:
        """Whether the lowest total leads (a record's margins and deficits run the other way)."""
        return False

    @property
    def goes_negative(self) -> bool:
        """Whether a plain entry for one hand may be below zero."""
        return self.min_points < 0

    @property
    def min_sides(self) -> int:
        """The fewest sides any of the game's formats seats."""
        return min(table_format.sides for table_format in self.formats)

    @property
    def max_sides(self) -> int:
        """The most sides any of the game's formats seats."""
        return max(table_format.sides for table_format in self.formats)

    @property
    def sides_named_freely(self) -> bool:
        """A table seats as many sides as its format says."""
        return False

    @property
    def target_typed(self) -> bool:
        """The host picks one of the game's targets (typed where the game lists none, or
        where its tables may agree any)."""
        return not self.targets or self.any_target

    def unit_for(self, table: Table) -> str:
        """What this table's target counts, as a key ("points", "rounds"; Other: "hands")."""
        return self.target_unit

    def target_words(self, table: Table) -> Term:
        """This table's target with its unit, as the sheet's heading says it ("101 points")."""
        return self.target_label(table.target)

    def target_to(self, table: Table) -> Term:
        """This table's target after "to", as the sheet's heading says it ("to 101 points")."""
        return Term.of("to.points", num=table.target)

    def chart_target(self, table: Table) -> int | None:
        """The target as a line on a chart of the totals (None: it isn't a total)."""
        return table.target

    def target_label(self, target: int) -> Term:
        """The target as the create form and result line show it ("101 points", "3 rounds")."""
        return Term.of("points", num=target)

    def goal(self, target: int) -> Goal:
        """What wins, for a target in the game's unit ("101 points wins.", words.goal)."""
        return Goal(Aim.POINTS, target)

    def accepts_target(self, target: int) -> bool:
        """Whether a table may play to this target (any positive one when the game has no list
        or takes any)."""
        return target > 0 if self.target_typed else target in self.targets

    def format(self, key: str) -> TableFormat:
        """The table format with this key (KeyError for one this game doesn't offer)."""
        for table_format in self.formats:
            if table_format.key == key:
                return table_format
        raise KeyError(key)

    def choice(self, table: Table, key: str) -> str:
        """The table's choice for one of this game's rules, its default if the table has none."""
        # A table created before a rule existed still works out: it plays the default.
        for rule in self.table_rules:
            if rule.key == key:
                return table.rules.get(key, rule.default)
        raise KeyError(key)

    def calculator_fields(self, table: Table) -> tuple[CalcField, ...]:
        """The calculator's inputs for this table (empty: the game has no calculator)."""
        return ()

    def stated_counts(self, table: Table, hand: HandFacts, side: int) -> dict[str, int]:
        """The calculator counts another side's entry has already stated for `side` in this
        hand, by key: facts of the hand every side shares, shown as stated and not asked again
        (empty: every count is the side's own)."""
        return {}

    def calculate(self, table: Table, counts: Mapping[str, int], held_over: int = 0) -> Calculation:
        """One side's counts to a breakdown and total; raises CountError for impossible counts."""
        raise NotImplementedError

    def scoring(self, table: Table, held_over: int = 0) -> Scoring:
        """What `calculate` scores, as a table a page works out with no connection (every
        count `calculate` takes, worked out by scoring.worked_out, gives what it gives)."""
        return Scoring()

    def entries(
        self, table: Table, hand: HandFacts, held_over: int
    ) -> tuple[list[EntryFacts | None], list[int | None], list[Calculation | None], list[Problem]]:
        """Each side's cell, its points and breakdown (calculator entries re-derived)."""
        cells = every_side(hand, table.sides)
        points: list[int | None] = []
        breakdowns: list[Calculation | None] = []
        problems: list[Problem] = []
        for side, entry in enumerate(cells):
            if entry is None:
                points.append(None)
                breakdowns.append(None)
            # A plain total (the common case) is taken as entered, without asking the
            # calculator's fields: a long sheet asks this of every cell.
            elif entry.counts is None or not self.calculator_fields(table):
                points.append(entry.points)
                breakdowns.append(None)
            else:
                # Re-derived, not read back: a corrected earlier hand changes what a majority
                # is worth here, and the counts are the truth the side typed.
                try:
                    worked = self.calculate(table, entry.counts, held_over)
                except CountError as error:
                    # Counts stored before a rule or bound changed; keep the side's total and
                    # let the host see why rather than failing the whole sheet.
                    points.append(entry.points)
                    breakdowns.append(None)
                    problem = Problem.of(
                        "side_counts", side=table.side_name(side), problem=error.reason
                    )
                    problems.append(problem)
                else:
                    points.append(worked.total)
                    breakdowns.append(worked)
        return cells, points, breakdowns, problems

    def entry_conflicts(
        self, table: Table, hand: HandFacts, side: int, entry: EntryFacts, me: Label | None = None
    ) -> list[Conflict]:
        """Every way a side's entry can't stand beside what the other sides entered in this
        hand already (empty: it can), naming their entries: with the calculator on both, the
        pack holds only so many cards, aces, jacks…; only one side has the most cards alone.
        `me` names the entering side in the words (None: its own phone, "you")."""
        others = [
            (table.side_name(at), cell)
            for at, cell in enumerate(every_side(hand, table.sides))
            if at != side and cell is not None
        ]
        found: list[Conflict] = []
        if entry.counts is not None and self.expected:
            counted = [(name, cell.counts) for name, cell in others if cell.counts is not None]
            found += over_the_pack(counted, entry.counts, self.expected, me)
        mine = self.claim_of(table, entry)
        if mine is not None:
            claims = [
                (name, claim)
                for name, cell in others
                if (claim := self.claim_of(table, cell)) is not None
            ]
            found += claim_conflicts(mine, claims, me)
        return found

    def claim_of(self, table: Table, entry: EntryFacts) -> Claim | None:
        """What an entry says about who has the most cards (None: nothing): with three or
        more sides, the calculator's answer to "Most cards" and the count it was given with."""
        counts = entry.counts
        if counts is None or not any(
            calc_field.key == "most_cards" for calc_field in self.calculator_fields(table)
        ):
            return None
        answer = counts.get("most_cards", MOST_NO)
        return Claim(
            tied={MOST_TIED: True, MOST_ALONE: False}.get(answer),
            answer=answer,
            cards=counts.get("cards", 0),
            points=entry.points,
        )

    # The hooks the loop in state() calls: the games differ in how a sheet works out only here.

    def majority_worth(self, table: Table, held_over: int) -> int | None:
        """What the majority is worth going into a hand (None: no carried-over majority)."""
        return None

    def held_over_said(self, table: Table, held: int, worth: int | None = None) -> Term | None:
        """What a side entering a hand is told of the points held over into it (None:
        nothing held): worth, what they come to with the hand's own, where that is known."""
        return None

    def next_hand_said(self, table: Table, state: MatchState) -> Term | None:
        """What the foot of the sheet says the next hand carries (None: nothing of note)."""
        return None

    def held_after(self, table: Table, cells: Sequence[EntryFacts], held_over: int) -> int:
        """Points held over after a complete hand (only Basra holds any)."""
        return 0

    def hand_problems(
        self, table: Table, cells: Sequence[EntryFacts], points: Sequence[int]
    ) -> list[Problem]:
        """What a complete hand fails to add up to across sides (calculator on every side)."""
        if not self.expected or not all_by_calculator(cells):
            return []
        # The most-cards claims can be checked only where the calculator asked for them.
        asked = any(calc_field.key == "most_cards" for calc_field in self.calculator_fields(table))
        counts = [cell.counts or {} for cell in cells]
        return cross_check(counts, self.expected, most_cards=asked)

    def hand_outcome(
        self,
        table: Table,
        cells: Sequence[EntryFacts],
        points: Sequence[int],
        breakdowns: Sequence[Calculation | None],
    ) -> Outcome:
        """What a complete hand adds to each side's total, and whom it favours."""
        raise NotImplementedError

    def match_winner(
        self, table: Table, totals: Sequence[int], outcome: Outcome
    ) -> tuple[int, Won] | None:
        """The side that has won the match after this hand, and why; None to play on."""
        raise NotImplementedError

    def why_play_goes_on(self, table: Table, totals: Sequence[int], played: int) -> PlayOn | None:
        """Why nobody has won though the rule's end was reached: a tie (None if not)."""
        return None

    def standing(self, table: Table, state: MatchState) -> Standing:
        """Who leads by how much, how far each side is from the target, and what wins."""
        return standing(state.totals, table.target, self.goal(table.target))

    def state(self, table: Table, hands: Sequence[HandFacts]) -> MatchState:
        """The sheet worked out from every hand so far, in order (the last may be incomplete)."""
        held = 0
        totals = [0] * table.sides
        results: list[HandResult] = []
        running: list[tuple[int, ...]] = []
        winner: int | None = None
        won_at: int | None = None
        reason: Won | None = None
        for index, hand in enumerate(hands):
            cells, points, breakdowns, problems = self.entries(table, hand, held)
            worth = self.majority_worth(table, held)
            held_over = held if worth is not None else 0
            outcome = Outcome()
            entered = [cell for cell in cells if cell is not None]
            complete = len(entered) == len(cells)
            if complete:
                # A complete hand has every side's points, so none of these is None.
                scored = [side_points or 0 for side_points in points]
                problems += self.hand_problems(table, entered, scored)
                outcome = self.hand_outcome(table, entered, scored, breakdowns)
                outcome = outcome._replace(played=len(running) + 1)
                totals = [total + added for total, added in zip(totals, outcome.adds, strict=True)]
                running.append(tuple(totals))
                # The first side the rule names keeps the match: later hands change nothing.
                if winner is None:
                    found = self.match_winner(table, totals, outcome)
                    if found is not None:
                        (winner, reason), won_at = found, index
                held = self.held_after(table, entered, held)
            results.append(
                HandResult(
                    points=tuple(points),
                    breakdowns=tuple(breakdowns),
                    complete=complete,
                    majority_worth=worth,
                    held_over=held_over,
                    round_winner=outcome.round_winner,
                    waiting=outcome.waiting,
                    early_victory=outcome.early_victory,
                    problems=tuple(problems),
                )
            )
        waiting = next((i for i, result in enumerate(results) if result.waiting), None)
        open_hand: int | None = None
        if winner is None and waiting is None:
            # The last hand while a side has yet to enter it, else the next one.
            open_hand = len(results) if results and not results[-1].complete else len(results) + 1
        return MatchState(
            open_hand=open_hand,
            waiting_at=waiting,
            hands=tuple(results),
            running=tuple(running),
            totals=tuple(totals),
            winner=winner,
            won_at_hand=won_at,
            held_over=held,
            next_majority=self.majority_worth(table, held),
            reason=reason,
            play_on=self.why_play_goes_on(table, totals, len(running)) if winner is None else None,
        )


class PointsGame(Game):
    """A game scored in points added hand by hand, won under first_over_target."""

    def early_victory(
        self,
        table: Table,
        cells: Sequence[EntryFacts],
        breakdowns: Sequence[Calculation | None],
    ) -> int | None:
        """A side that won at once in this hand, whatever the totals (only Pastura has one)."""
        return None

    def hand_outcome(
        self,
        table: Table,
        cells: Sequence[EntryFacts],
        points: Sequence[int],
        breakdowns: Sequence[Calculation | None],
    ) -> Outcome:
        """The hand's points go on the totals; an early victory is noted with them."""
        return Outcome(
            adds=tuple(points), early_victory=self.early_victory(table, cells, breakdowns)
        )

    def match_winner(
        self, table: Table, totals: Sequence[int], outcome: Outcome
    ) -> tuple[int, Won] | None:
        """An early victory, else the first over the target (the higher when several are)."""
        if outcome.early_victory is not None:
            return outcome.early_victory, Won(WinRule.EARLY_VICTORY)
        return first_over_target(totals, table.target)

    def why_play_goes_on(self, table: Table, totals: Sequence[int], played: int) -> PlayOn | None:
        """Sides level at the top past the target play on (first_over_target's tie)."""
        return level_past_target(totals, table.target)


# The win rule of the points games: first to the target, the higher when several get there.


def first_over_target(totals: Sequence[int], target: int) -> tuple[int, Won] | None:
    """The winner under "first to the target; several there: the higher; level: play on"."""
    # docs/rules/README.md, "First to the target": several there in the same hand, the highest
    # wins; level at the top, play on.
    over = [side for side, total in enumerate(totals) if total >= target]
    if not over:
        return None
    top = max(totals[side] for side in over)
    leaders = [side for side in over if totals[side] == top]
    if len(leaders) > 1:
        return None
    if len(over) == 1:
        return leaders[0], Won(WinRule.REACHED_FIRST, target=target)
    return leaders[0], Won(WinRule.HIGHEST_OVER, target=target, sides=len(over))


def level_past_target(totals: Sequence[int], target: int) -> PlayOn | None:
    """Why play goes on though sides reached the target: they are level at the top (None if no
    side reached it, or one is ahead: first_over_target names it)."""
    # docs/rules/README.md, "First to the target": level at the top, play on.
    over = [side for side, total in enumerate(totals) if total >= target]
    if not over:
        return None
    top = max(totals[side] for side in over)
    level = tuple(side for side in over if totals[side] == top)
    if len(level) < 2:
        return None
    return PlayOn(Tie.LEVEL_PAST_TARGET, level, total=top, target=target)


def standing(totals: Sequence[int], target: int, goal: Goal | None = None) -> Standing:
    """Who leads (the highest) and by how much, and how far each side is from the target."""
    if not totals:
        return Standing((), 0, (), goal)
    top = max(totals)
    leaders = tuple(side for side, total in enumerate(totals) if total == top)
    rest = [total for total in totals if total != top]
    lead = top - max(rest) if len(leaders) == 1 and rest else 0
    return Standing(leaders, lead, tuple(max(target - total, 0) for total in totals), goal)
