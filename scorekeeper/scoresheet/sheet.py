"""A match's sheet: its stored hands (scoresheet/stored.py) worked out through the game's
rules: rows, totals, who has won, the open hand, and the words a page repeats."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import NamedTuple

from scorekeeper import words
from scorekeeper.chart import Chart, running_chart
from scorekeeper.games import (
    EntryFacts,
    Game,
    HandResult,
    MatchState,
    Standing,
    Table,
    Tick,
    Won,
    get_game,
)
from scorekeeper.games.base import Calculation
from scorekeeper.models import (
    StoredMatch,
    StoredSide,
)
from scorekeeper.scoresheet.stored import (
    Corrected,
    Hands,
    StoredEntry,
    read_hands,
    read_trail,
)
from scorekeeper.terms import say


class Cell(NamedTuple):
    """One side's cell in one hand, with what the page draws beside its points. (A named
    tuple, as StoredEntry: a long sheet is hundreds of cells on every page.)"""

    side: StoredSide
    entry: StoredEntry | None
    points: int | None
    breakdown: Calculation | None
    corrections: int
    # Its column (the side's place), which its link names.
    at: int = 0
    # This side took the round (a game whose hands are rounds won).
    won: bool = False
    # The side's running total after the hand, once the hand is complete.
    run: int | None = None
    # The game's ticks the side ticked, in the order its game declares them (most cells: none).
    ticks: tuple[Tick, ...] = ()


class Row(NamedTuple):
    """One hand of the sheet, with the running totals after it."""

    number: int
    hand_id: int
    cells: tuple[Cell, ...]
    result: HandResult
    running: tuple[int, ...] | None

    @property
    def complete(self) -> bool:
        """Whether every side has entered this hand."""
        return self.result.complete


@dataclass(frozen=True)
class Sheet:
    """Everything a match page shows, worked out once per request. Its rows are laid out only
    when asked for: a write's checks need the rules' verdict and a cell or two, not every row."""

    match: StoredMatch
    game: Game
    table: Table
    sides: tuple[StoredSide, ...]
    state: MatchState
    # The hand open for entries, or None when a side has won (End match) or the match is over.
    current_hand: int | None
    # The stored hands; their entries by hand, in side order; each cell's corrections by
    # (hand number, side id).
    hands: Hands = field(repr=False)
    grid: tuple[tuple[StoredEntry | None, ...], ...] = field(repr=False)
    corrected: Mapping[tuple[int, int], int] = field(repr=False)
    # The host's changes and fills, oldest first (read only for a page).
    trail: tuple[Corrected, ...] = field(default=(), repr=False)

    @property
    def corrections(self) -> tuple[Corrected, ...]:
        """The trail's corrections: each a change to a value that was there."""
        return tuple(line for line in self.trail if not line.is_fill)

    @property
    def fills(self) -> tuple[Corrected, ...]:
        """The trail's fills: each a cell the host entered in its side's place (product.md:
        "the trail names the fill"), an entry rather than a correction."""
        return tuple(line for line in self.trail if line.is_fill)

    @cached_property
    def rows(self) -> tuple[Row, ...]:
        """Every hand of the sheet, with the running totals after each complete one."""
        running = iter(self.state.running)
        return tuple(
            self.row(index, next(running) if result.complete else None)
            for index, result in enumerate(self.state.hands)
        )

    def row(self, index: int, running: tuple[int, ...] | None = None) -> Row:
        """The hand at `index` as a row of cells, with the running totals given."""
        hand, result, entries = self.hands[index], self.state.hands[index], self.grid[index]
        corrected, number, winner = self.corrected, hand.number, result.round_winner
        cells = tuple(
            Cell(
                side,
                entry,
                result.points[at],
                result.breakdowns[at],
                corrected.get((number, side.id), 0),
                at,
                winner == at,
                running[at] if running else None,
                self.ticked(entry.facts) if entry is not None else (),
            )
            for at, (side, entry) in enumerate(zip(self.sides, entries, strict=True))
        )
        return Row(number, hand.id, cells, result, running)

    @property
    def waiting_row(self) -> Row | None:
        """A hand whose tie waits for the tick that settles it (Game.settles: "who took
        the last trick")."""
        at = self.state.waiting_at
        return self.row(at) if at is not None else None

    @property
    def waiting_sides(self) -> tuple[StoredSide, ...]:
        """The sides tied on the hand that waits for the settling tick, one of which says it."""
        row = self.waiting_row
        return tuple(self.sides[i] for i in row.result.waiting) if row else ()

    @cached_property
    def chart(self) -> Chart:
        """The running totals' chart laid out, as the sheet, the TV and History draw it."""
        names = [side.name for side in self.sides]
        target = self.game.chart_target(self.table)
        return running_chart(self.state.running, target, names, self.goal, self.hand_noun)

    # The game's words a page repeats (its chart and its heading, its sentences), each looked
    # up once.

    @cached_property
    def goal(self) -> str:
        """The match's target with what it counts: "101 points"."""
        return say(self.game.target_words(self.table))

    @cached_property
    def goal_to(self) -> str:
        """The match's target after "to", as its heading says it: "to 101 points"."""
        return say(self.game.target_to(self.table))

    @property
    def leads_in_rounds(self) -> bool:
        """Whether a lead is counted in rounds won (a game won by rounds), not in points."""
        return self.game.unit_for(self.table) == "rounds"

    @cached_property
    def hand_noun(self) -> str:
        """The game's word for a hand inside a sentence ("hand", or "round")."""
        return say(self.game.hand_noun)

    @cached_property
    def standing(self) -> Standing:
        """Who leads by how much, and how far each side is from the target."""
        return self.game.standing(self.table, self.state)

    @property
    def leaders(self) -> tuple[StoredSide, ...]:
        """The sides level at the top (one: the leader)."""
        return tuple(self.sides[at] for at in self.standing.leaders)

    @property
    def last_round(self) -> tuple[int, StoredSide, tuple[int | None, ...]] | None:
        """The last round someone took (a game whose hands are rounds won), as (its number,
        who took it, the card points), for "Ben took round 2, 61–59"; None before any (or in a
        points game). The taker's points come first, as a table says it, then the others' from
        most to fewest."""
        for hand, result in zip(reversed(self.hands), reversed(self.state.hands), strict=True):
            taker = result.round_winner
            if taker is not None:
                others = [p for at, p in enumerate(result.points) if at != taker]
                others.sort(key=lambda points: -(points or 0))
                return hand.number, self.sides[taker], (result.points[taker], *others)
        return None

    @property
    def in_play(self) -> bool:
        """Whether hands are still being played: the match is open and no side has won."""
        return self.match.is_open and self.state.winner is None

    @property
    def winner(self) -> StoredSide | None:
        """The side the game's rule says has won, if any."""
        return self.sides[self.state.winner] if self.state.winner is not None else None

    @property
    def result(self) -> str:
        """How the match ended, in the language of the phone that reads it: for an ended match,
        who won and why, from the winner and the reason End match stored ("Us won. Reached 101
        first"); "Abandoned." for an abandoned one; "" while it is open.

        The stored facts, not the rules' reading of the hands now: a match ended before a
        rule changed still says how it was won then."""
        match = self.match
        if match.is_abandoned:
            return words.abandoned()
        if not match.is_ended:
            return ""
        winner = next((side for side in self.sides if side.id == match.winner_side_id), None)
        if winner is None:
            return ""
        return words.result(winner.name, Won.from_stored(match.win_reason))

    def cell(self, hand_number: int, side: StoredSide) -> Cell | None:
        """The cell of a side in a hand, if that hand has been started."""
        if not 1 <= hand_number <= len(self.hands):
            return None
        return self.row(hand_number - 1).cells[side.position]

    @cached_property
    def ticks(self) -> tuple[Tick, ...]:
        """The ticks a cell of this match may carry besides its points, as its game declares
        them for this table: the host's correction asks them all."""
        return self.game.ticks(self.table)

    @cached_property
    def has_calculator(self) -> bool:
        """Whether this table's game has a calculator to count a hand with."""
        return bool(self.game.calculator_fields(self.table))

    def ticked(self, facts: EntryFacts) -> tuple[Tick, ...]:
        """The game's ticks a cell carries, in the order its game declares them (asked of every
        cell of a sheet, most of which carry none)."""
        if not facts.ticks:
            return ()
        return tuple(tick for tick in self.ticks if facts.ticked(tick.key))

    @cached_property
    def entry_ticks(self) -> tuple[Tick, ...]:
        """The ticks a side's own entry asks (the settling tick is asked only when a tie
        waits for it)."""
        return self.game.entry_ticks(self.table)

    def held_over_said(self, number: int | None, worth: bool = True) -> str:
        """What a side entering hand `number` is told of points held over into it, with what
        they come to where `worth` ("" where nothing is held over, or no hand is named: a
        form posted without one)."""
        if number is None or not 1 <= number <= len(self.state.hands) + 1:
            return ""
        held = self.held_going_into(number)
        if not held:
            return ""
        into = self.state.next_majority if worth and number > len(self.state.running) else None
        said = self.game.held_over_said(self.table, held, into)
        return say(said) if said is not None else ""

    @cached_property
    def next_hand_said(self) -> str:
        """What the foot of the sheet says the next hand carries, while a hand is open."""
        if self.current_hand is None:
            return ""
        said = self.game.next_hand_said(self.table, self.state)
        return say(said) if said is not None else ""

    def held_going_into(self, number: int) -> int:
        """Majority points held over into a hand (a game's carry-over; 0 for most)."""
        if number <= len(self.state.hands):
            return self.state.hands[number - 1].held_over
        return self.state.held_over

    def missing(self) -> tuple[StoredSide, ...]:
        """The sides yet to enter the current hand."""
        if self.current_hand is None:
            return ()
        if self.current_hand > len(self.grid):
            return self.sides
        entries = self.grid[self.current_hand - 1]
        return tuple(side for side, entry in zip(self.sides, entries, strict=True) if entry is None)


def table_of(match: StoredMatch) -> Table:
    """The rules' view of a match's settings."""
    return Table(
        game=match.game,
        format=match.table_format,
        sides=len(match.sides),
        target=match.target,
        rules=dict(match.table_rules or {}),
        names=tuple(side.name for side in match.sides),
    )


def load_sheet(match: StoredMatch, *, corrections: bool = True) -> Sheet:
    """Read one match's hands and work its sheet out; with `corrections`, also its corrections
    (the page's trail, and each cell's mark), which a write's checks don't need."""
    trail = read_trail(match) if corrections else ()
    # A cell the host filled is not marked as corrected (on a table of one phone, every cell
    # is a fill): the trail names the fill.
    corrected = Counter((line.hand_number, line.side_id) for line in trail if not line.is_fill)
    return work_out(match, read_hands([match.id])[match.id], corrected, trail)


def load_sheets(matches: list[StoredMatch]) -> list[Sheet]:
    """Work out several sheets (history's cards) in one statement, however many hands."""
    hands_of = read_hands([m.id for m in matches])
    return [work_out(m, hands_of[m.id]) for m in matches]


def work_out(
    match: StoredMatch,
    hands: Hands,
    corrected: dict[tuple[int, int], int] | None = None,
    trail: tuple[Corrected, ...] = (),
) -> Sheet:
    """One match's stored hands read through its game's rules; `corrected` counts each cell's
    corrections by (hand number, side id), for the page."""
    corrected = corrected or {}
    game = get_game(match.game)
    table = table_of(match)
    sides = tuple(match.sides)
    position = {side.id: side.position for side in sides}
    positions = len(sides)
    grid: list[list[StoredEntry | None]] = []
    for hand in hands:
        cells: list[StoredEntry | None] = [None] * positions
        for entry in hand.entries:
            cells[position[entry.side_id]] = entry
        grid.append(cells)
    state = game.state(table, [[e.facts if e else None for e in cells] for cells in grid])

    # The hand the rules leave open takes entries while the match is open.
    current_hand = state.open_hand if match.is_open else None
    return Sheet(
        match=match,
        game=game,
        table=table,
        sides=sides,
        state=state,
        current_hand=current_hand,
        hands=hands,
        grid=tuple(tuple(cells) for cells in grid),
        corrected=corrected,
        trail=trail,
    )
