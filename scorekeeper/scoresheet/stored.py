"""A match's hands and corrections as stored, read in a fixed number of statements of plain
rows, each read model made from its model's columns: the hands and their cells (StoredHand,
StoredEntry) in the order the rules read them, and the corrections' trail."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

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
    picked,
    tuple_of,
)

if TYPE_CHECKING:
    _EntryColumns = Entry
    _HandColumns = Hand
else:
    _EntryColumns = tuple_of(Entry, "facts")
    _HandColumns = tuple_of(Hand, "entries")


class StoredEntry(_EntryColumns):
    """A cell as stored, read as plain values made from its model's columns (tuple_of: a
    sheet reads hundreds of them, and model objects for each cell would cost more than the
    rules do), with what the side entered as the rules read it (`facts`, made once as the cell
    is read); a write changes one with a statement of its own (scoresheet/entries.py)."""

    __slots__ = ()

    if TYPE_CHECKING:
        facts: EntryFacts

        def __init__(self, *values: Any) -> None: ...


class StoredHand(_HandColumns):
    """A started hand as stored, read as plain values made from its model's columns, with its
    sides' entries so far."""

    __slots__ = ()

    if TYPE_CHECKING:
        entries: tuple[StoredEntry, ...]  # type: ignore[assignment]

        def __init__(self, *values: Any) -> None: ...


def cell_values(facts: EntryFacts) -> dict[str, Any]:
    """What a side entered, as its cell's columns (and as the corrections trail keeps it)."""
    return {
        "points": facts.points,
        "counts": dict(facts.counts) if facts.counts is not None else None,
        # Sorted, so a cell stores and the trail compares one list for the same ticks.
        "ticks": sorted(facts.ticks),
    }


# A cell with no tick (most are), read as one shared empty set.
NO_TICKS: frozenset[str] = frozenset()

# A match's started hands in order, as read.
Hands = tuple[StoredHand, ...]

# Built once, on the tables themselves: a long sheet is hundreds of rows, and the ORM's work
# on each (it would make no objects of them anyway) cost more than reading them. Every column
# of both, as StoredHand and StoredEntry have them all, named by table (hand_number,
# entry_points...).
_hand, _entry = Hand.__table__, Entry.__table__
HANDS_OF = (
    sa.select(*_hand.c, *_entry.c)
    .set_label_style(sa.LABEL_STYLE_TABLENAME_PLUS_COL)
    .outerjoin(_entry, _entry.c.hand_id == _hand.c.id)
    .where(_hand.c.match_id.in_(sa.bindparam("ids", expanding=True)))
    .order_by(_hand.c.match_id, _hand.c.number)
)
# A row's hand and entry, each in its model's order (an outer join's row of a hand with no
# entry yet has an entry of nothing but None), and what the rules read of the entry.
_hand_of, _entry_of = picked(HANDS_OF, _hand.c), picked(HANDS_OF, _entry.c)
_facts_of = picked(HANDS_OF, [_entry.c.points, _entry.c.counts, _entry.c.ticks])
_NO_ENTRY = (None,) * len(_entry.c)


def read_hands(ids: list[int], connection: sa.Connection | None = None) -> dict[int, Hands]:
    """The started hands of several matches with their entries, in one statement of plain rows
    (on the request's connection, or a migration's)."""
    read: list[tuple[tuple[Any, ...], list[StoredEntry]]] = []
    if ids:
        connection = connection or db.session.connection()
        hand: tuple[Any, ...] = ()
        entries: list[StoredEntry] = []
        # This runs for every cell of every sheet read: each row's values are picked whole
        # (picked's itemgetter, its places found once), not by name: a row's attributes or
        # its _mapping took three to six times as long for a 200-hand sheet's 800 cells.
        for row in connection.execute(HANDS_OF, {"ids": ids}).all():
            if _hand_of(row) != hand:
                hand, entries = _hand_of(row), []
                read.append((hand, entries))
            values = _entry_of(row)
            if values != _NO_ENTRY:
                points, counts, ticks = _facts_of(row)
                facts = EntryFacts(points, counts, frozenset(ticks) if ticks else NO_TICKS)
                entries.append(StoredEntry(*values, facts))
    hands: dict[int, list[StoredHand]] = {i: [] for i in ids}
    for values, entries in read:
        stored = StoredHand(*values, tuple(entries))
        hands[stored.match_id].append(stored)
    return {match_id: tuple(them) for match_id, them in hands.items()}


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
