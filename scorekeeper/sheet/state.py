"""The sheet as a page shows it: the stored hands read through the game's rules."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import sqlalchemy as sa

from scorekeeper.extensions import db
from scorekeeper.games import EntryFacts, Game, HandResult, MatchState, Table, get_game
from scorekeeper.games.base import Calculation
from scorekeeper.models import Correction, Entry, Hand, Match, Side


@dataclass(frozen=True)
class StoredEntry:
    """A cell as stored, read as plain values: a sheet reads many of them, and a write changes
    one with a statement of its own (sheet/actions.py), so none needs to be a model object."""

    id: int
    side_id: int
    points: int
    counts: dict[str, int] | None
    even_split: bool
    last_trick: bool
    black_hand: bool
    # Goes up with every change, so a correction made from a stale page is caught.
    revision: int

    @cached_property
    def facts(self) -> EntryFacts:
        """The cell as the rules read it; worked out once, as kept hands carry their entries
        from one write to the next."""
        return EntryFacts(
            points=self.points,
            counts=dict(self.counts) if self.counts is not None else None,
            even_split=self.even_split,
            last_trick=self.last_trick,
            black_hand=self.black_hand,
        )

    def detail(self) -> dict[str, Any]:
        """The cell as kept in the corrections trail."""
        return {
            "points": self.points,
            "counts": self.counts,
            "even_split": self.even_split,
            "last_trick": self.last_trick,
            "black_hand": self.black_hand,
        }


@dataclass(frozen=True)
class StoredHand:
    """A started hand: its stored id and number, and its sides' entries so far."""

    id: int
    number: int
    entries: tuple[StoredEntry, ...]


@dataclass(frozen=True)
class Cell:
    """One side's cell in one hand."""

    side: Side
    entry: StoredEntry | None
    points: int | None
    breakdown: Calculation | None
    corrections: int


@dataclass(frozen=True)
class Row:
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

    match: Match
    game: Game
    table: Table
    sides: tuple[Side, ...]
    state: MatchState
    # The hand open for entries, or None when a side has won (End match) or the match is over.
    current_hand: int | None
    # The stored hands; their entries by hand, in side order; each cell's corrections by
    # (match id, hand number, side id).
    hands: Hands = field(repr=False)
    grid: tuple[tuple[StoredEntry | None, ...], ...] = field(repr=False)
    corrected: Mapping[tuple[int, int, int], int] = field(repr=False)

    @cached_property
    def rows(self) -> tuple[Row, ...]:
        """Every hand of the sheet, with the running totals after each complete one."""
        rows: list[Row] = []
        complete_seen = 0
        # Each side's attributes read once, not once per cell.
        columns = [(side, side.position, side.id) for side in self.sides]
        for index, (hand, result) in enumerate(zip(self.hands, self.state.hands, strict=True)):
            running = None
            if result.complete:
                running = self.state.running[complete_seen]
                complete_seen += 1
            rows.append(
                Row(
                    number=hand.number,
                    hand_id=hand.id,
                    cells=tuple(self._cell(index, *column) for column in columns),
                    result=result,
                    running=running,
                )
            )
        return tuple(rows)

    @property
    def last_trick_row(self) -> Row | None:
        """Brisca: a round tied at the top that waits for "who took the last trick"."""
        at = _waiting_for_last_trick(self.state)
        return self.rows[at] if at is not None else None

    @property
    def winner(self) -> Side | None:
        """The side the game's rule says has won, if any."""
        return self.sides[self.state.winner] if self.state.winner is not None else None

    @property
    def can_end(self) -> bool:
        """Whether End match is on offer: only once the rule names a winner."""
        return self.match.is_open and self.state.winner is not None

    def cell(self, hand_number: int, side: Side) -> Cell | None:
        """The cell of a side in a hand, if that hand has been started."""
        if not 1 <= hand_number <= len(self.hands):
            return None
        return self._cell(hand_number - 1, side, side.position, side.id)

    def _cell(self, index: int, side: Side, at: int, side_id: int) -> Cell:
        """The cell of the hand at `index` in the column `at` of `side` (whose id is given)."""
        result = self.state.hands[index]
        return Cell(
            side=side,
            entry=self.grid[index][at],
            points=result.points[at],
            breakdown=result.breakdowns[at],
            corrections=self.corrected.get((self.match.id, self.hands[index].number, side_id), 0),
        )

    def missing(self) -> tuple[Side, ...]:
        """The sides yet to enter the current hand."""
        if self.current_hand is None:
            return ()
        cell_row = self.rows[self.current_hand - 1] if self.current_hand <= len(self.rows) else None
        if cell_row is None:
            return self.sides
        return tuple(c.side for c in cell_row.cells if c.entry is None)


def table_of(match: Match) -> Table:
    """The rules' view of a match's settings."""
    return Table(
        game=match.game,
        format=match.table_format,
        sides=len(match.sides),
        target=match.target,
        rules=dict(match.table_rules or {}),
        names=tuple(side.name for side in match.sides),
    )


# A match's started hands in order, as a write left them or a read found them: plain values
# that no request changes, so a worker may keep them from one version of the match to the next
# (sheet/actions.py).
Hands = tuple[StoredHand, ...]

# Built once: building a statement costs more than running it, and a write runs this one.
HANDS_OF = (
    sa.select(
        Hand.match_id,
        Hand.id.label("hand_id"),
        Hand.number,
        Entry.id,
        Entry.side_id,
        Entry.points,
        Entry.counts,
        Entry.even_split,
        Entry.last_trick,
        Entry.black_hand,
        Entry.revision,
    )
    .outerjoin(Entry, Entry.hand_id == Hand.id)
    .where(Hand.match_id.in_(sa.bindparam("ids", expanding=True)))
    .order_by(Hand.match_id, Hand.number)
)


def read_hands(ids: list[int]) -> dict[int, Hands]:
    """The started hands of several matches with their entries, in one statement of plain rows:
    a write reads them under its lock, and model objects for each cell would cost more than the
    rules do."""
    read: dict[int, list[tuple[int, int, list[StoredEntry]]]] = {i: [] for i in ids}
    if ids:
        last: tuple[int, int, list[StoredEntry]] | None = None
        for row in db.session.execute(HANDS_OF, {"ids": ids}):
            if last is None or last[0] != row.hand_id:
                last = (row.hand_id, row.number, [])
                read[row.match_id].append(last)
            if row.id is not None:
                last[2].append(
                    StoredEntry(
                        id=row.id,
                        side_id=row.side_id,
                        points=row.points,
                        counts=row.counts,
                        even_split=row.even_split,
                        last_trick=row.last_trick,
                        black_hand=row.black_hand,
                        revision=row.revision,
                    )
                )
    return {
        match_id: tuple(StoredHand(id=i, number=n, entries=tuple(e)) for i, n, e in hands)
        for match_id, hands in read.items()
    }


def load_sheet(match: Match, *, corrections: bool = True) -> Sheet:
    """Read one match's hands and work its sheet out; `corrections=False` skips counting each
    cell's corrections, which only the page shows (a write's checks don't need them)."""
    return load_sheets([match], corrections=corrections)[0]


def load_sheets(matches: list[Match], *, corrections: bool = True) -> list[Sheet]:
    """Work out several sheets with a fixed number of queries, however many hands they hold."""
    ids = [m.id for m in matches]
    hands_of = read_hands(ids)
    corrected: dict[tuple[int, int, int], int] = {}
    if ids and corrections:
        for match_id, hand_number, side_id, count in db.session.execute(
            sa.select(
                Correction.match_id, Correction.hand_number, Correction.side_id, sa.func.count()
            )
            .where(Correction.match_id.in_(ids))
            .group_by(Correction.match_id, Correction.hand_number, Correction.side_id)
        ):
            corrected[(match_id, hand_number, side_id)] = count
    return [work_out(m, hands_of[m.id], corrected) for m in matches]


def work_out(
    match: Match, hands: Hands, corrected: dict[tuple[int, int, int], int] | None = None
) -> Sheet:
    """One match's stored hands read through its game's rules; `corrected` counts each cell's
    corrections by (match id, hand number, side id), for the page."""
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

    waiting = _waiting_for_last_trick(state)
    current_hand: int | None
    if not match.is_open or state.winner is not None or waiting is not None:
        current_hand = None
    elif hands and not state.hands[-1].complete:
        current_hand = hands[-1].number
    else:
        current_hand = len(hands) + 1
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
    )


def _waiting_for_last_trick(state: MatchState) -> int | None:
    """Brisca: the index of the round tied at the top that waits for the last trick, if any."""
    return next((i for i, result in enumerate(state.hands) if result.needs_last_trick), None)
