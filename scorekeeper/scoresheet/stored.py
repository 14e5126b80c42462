"""A match's hands and corrections as stored, read in a fixed number of statements of plain
rows: the cells (StoredEntry) in the order the rules read them, and the corrections' trail."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

import sqlalchemy as sa

from scorekeeper.extensions import db
from scorekeeper.games import (
    EntryFacts,
)
from scorekeeper.models import (
    Correction,
    Entry,
    Hand,
    StoredMatch,
    StoredSide,
    columns_of,
)


class StoredEntry(NamedTuple):
    """A cell as stored, read as plain values: a sheet reads hundreds of them, and model
    objects for each cell would cost more than the rules do; a write changes one with a
    statement of its own (scoresheet/entries.py)."""

    id: int
    side_id: int
    # Goes up with every change, so a correction made from a stale page is caught.
    revision: int
    # What the side entered, as the rules read it.
    facts: EntryFacts


def cell_values(facts: EntryFacts) -> dict[str, Any]:
    """What a side entered, as its cell's columns (and as the corrections trail keeps it)."""
    return {
        "points": facts.points,
        "counts": dict(facts.counts) if facts.counts is not None else None,
        # Sorted, so a cell stores and the trail compares one list for the same ticks.
        "ticks": sorted(facts.ticks),
    }


@dataclass(frozen=True)
class StoredHand:
    """A started hand: its stored id and number, and its sides' entries so far."""

    id: int
    number: int
    entries: tuple[StoredEntry, ...]


# A cell with no tick (most are), read as one shared empty set.
NO_TICKS: frozenset[str] = frozenset()

# A match's started hands in order, as read.
Hands = tuple[StoredHand, ...]

# Built once, on the tables themselves: a long sheet is hundreds of rows, and the ORM's work
# on each (it would make no objects of them anyway) cost more than reading them.
_hand, _entry = Hand.__table__.c, Entry.__table__.c
HANDS_OF = (
    sa.select(
        _hand.match_id,
        _hand.id,
        _hand.number,
        _entry.id,
        _entry.side_id,
        _entry.revision,
        _entry.points,
        _entry.counts,
        _entry.ticks,
    )
    .outerjoin(Entry.__table__, _entry.hand_id == _hand.id)
    .where(_hand.match_id.in_(sa.bindparam("ids", expanding=True)))
    .order_by(_hand.match_id, _hand.number)
)


def read_hands(ids: list[int], connection: sa.Connection | None = None) -> dict[int, Hands]:
    """The started hands of several matches with their entries, in one statement of plain rows
    (on the request's connection, or a migration's)."""
    read: dict[int, list[tuple[int, int, list[StoredEntry]]]] = {i: [] for i in ids}
    if ids:
        last: tuple[int, int, list[StoredEntry]] = (0, 0, [])
        connection = connection or db.session.connection()
        rows = connection.execute(HANDS_OF, {"ids": ids}).all()
        # Each row unpacked whole, and the entry's tuple made from its values in order (HANDS_OF
        # reads them in EntryFacts' order): this runs for every cell of every sheet read, and
        # keywords and a starred list were a third of its time.
        for (
            match_id,
            hand_id,
            number,
            entry_id,
            side_id,
            revision,
            points,
            counts,
            ticks,
        ) in rows:
            if last[0] != hand_id:
                last = (hand_id, number, [])
                read[match_id].append(last)
            if entry_id is not None:
                facts = EntryFacts(points, counts, frozenset(ticks) if ticks else NO_TICKS)
                last[2].append(StoredEntry(entry_id, side_id, revision, facts))
    return {
        match_id: tuple(StoredHand(id=i, number=n, entries=tuple(e)) for i, n, e in hands)
        for match_id, hands in read.items()
    }


if TYPE_CHECKING:
    _CorrectionColumns = Correction
else:
    _CorrectionColumns = columns_of(Correction, "side")


class Corrected(_CorrectionColumns):
    """A correction as the trail shows it, read as plain values made from its model's columns
    (the page and the exports only print it; a correction is written as a model,
    scoresheet/corrections.py), with its side from the match's as read."""

    if TYPE_CHECKING:
        side: StoredSide

    @property
    def is_fill(self) -> bool:
        """Whether the host filled an empty cell in its side's place (an entry, as the side's
        own would have been) rather than changing a value that was there (a correction)."""
        return self.old_points is None


# Built once, on the table itself, as HANDS_OF is: most pages read an empty trail, and the
# ORM's machinery cost more than the statement. Every column, as Corrected has them all.
_correction = Correction.__table__.c
TRAIL_OF = (
    sa.select(*_correction)
    .where(_correction.match_id == sa.bindparam("match_id"))
    .order_by(_correction.id)
)


def read_trail(match: StoredMatch) -> tuple[Corrected, ...]:
    """The match's corrections, oldest first, each with its side from the match's as read."""
    sides = {side.id: side for side in match.sides}
    rows = db.session.execute(TRAIL_OF, {"match_id": match.id})
    return tuple(Corrected(**row._mapping, side=sides[row.side_id]) for row in rows)
