"""Everything that changes a match, each in one transaction under the match's write lock.

Every action first bumps the match's version with an UPDATE: on PostgreSQL that row lock makes
the phones of one table take turns (two partners entering together, End match pressed twice),
and on SQLite the write lock does the same. Only then is the sheet read and the action checked,
so each check sees what the previous phone wrote.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

import sqlalchemy as sa
from flask import Flask, current_app
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.attributes import set_committed_value

from scorekeeper.extensions import db
from scorekeeper.games import EntryFacts
from scorekeeper.models import (
    MATCH_CHANGING_COLUMNS,
    Correction,
    Entry,
    Hand,
    Match,
    Seat,
    Side,
    Submission,
    utcnow,
)
from scorekeeper.permissions import Action, Refusal, Viewer, require, seated_viewer
from scorekeeper.phones import current_phone
from scorekeeper.sheet.state import Hands, Sheet, StoredEntry, StoredHand, read_hands, work_out
from scorekeeper.versions import Known, NewestByMatch, announcement, versions

# Matches whose hands a worker keeps between writes; the least recently written go first.
MAX_KEPT_HANDS = 1000

# Built once: building a statement costs more than running it, and every entry runs these.
_entries = Entry.__table__
_hands = Hand.__table__
NEW_HAND = sa.insert(_hands).returning(_hands.c.id)
NEW_ENTRY = sa.insert(_entries).returning(_entries.c.id)
# What a side's cell is given when it is written, besides its hand.
_CELL = ("side_id", "points", "counts", "even_split", "last_trick", "black_hand", "entered_by")
# PostgreSQL: a new hand and its first entry in one statement (one round trip, not two), the
# hand's INSERT feeding the entry's. SQLite has no INSERT in a WITH, and no round trips.
_started = (
    sa.insert(_hands)
    .values(
        match_id=sa.bindparam("match_id"),
        number=sa.bindparam("number"),
        started_at=sa.bindparam("now", type_=_hands.c.started_at.type),
    )
    .returning(_hands.c.id)
    .cte("started")
)
START_HAND = (
    sa.insert(_entries)
    .from_select(
        ["hand_id", *_CELL, "entered_at", "revision"],
        sa.select(
            _started.c.id,
            *(sa.bindparam(name, type_=_entries.c[name].type) for name in _CELL),
            sa.bindparam("now", type_=_entries.c.entered_at.type),
            # A new cell's first revision.
            sa.literal(1),
        ),
    )
    .returning(_entries.c.id, _entries.c.hand_id)
)
NEXT_REVISION = (
    sa.update(_entries)
    .where(_entries.c.id == sa.bindparam("entry_id"))
    .values(revision=_entries.c.revision + 1)
)


@dataclass(frozen=True)
class Done:
    """What an action did, in words for the phone that asked."""

    message: str
    repeated: bool = False


class KeptHands(NewestByMatch[Hands]):
    """Each recently written match's hands as its newest version left them, for one app in one
    worker: the next write checks against them instead of reading every hand again under its
    lock. Every write bumps the version, so hands kept for the version just before the lock's
    are exactly what is stored."""

    def __init__(self, max_matches: int = MAX_KEPT_HANDS) -> None:
        super().__init__(max_matches)


def init_app(app: Flask) -> None:
    """Give the app its kept hands."""
    app.extensions["match_hands"] = KeptHands()


def kept_hands() -> KeptHands:
    """The current app's kept hands."""
    kept: KeptHands = current_app.extensions["match_hands"]
    return kept


class Locked:
    """A match under its write lock: its new version, and its hands as this action leaves them.

    The hands come from what this worker kept of the version before (nobody else can have
    written since, or the lock's version would be higher), else from the database. An action
    changes them through write_cell, or says it changed them otherwise (forget_hands); the
    hands after a committed action are kept for the next one.
    """

    def __init__(self, match: Match, known: Known, viewer: Viewer) -> None:
        self.match = match
        self.known = known
        # This phone at the match, read with the lock.
        self.viewer = viewer
        self._hands: Hands | None = None
        self._forgotten = False

    def require(
        self, action: Action, side: Side | None = None, among: Collection[int] = ()
    ) -> Viewer:
        """This phone, if it may take this action now (permissions.require); else a Refusal."""
        return require(self.match, action, side, among, viewer=self.viewer)

    @property
    def hands(self) -> Hands:
        """The started hands as they stand within this action."""
        if self._hands is None:
            match_id = self.known.match_id
            self._hands = kept_hands().get(match_id, self.known.version - 1)
            if self._hands is None:
                self._hands = read_hands([match_id])[match_id]
        return self._hands

    def sheet(self) -> Sheet:
        """The sheet as it stands, for an action's checks."""
        return work_out(self.match, self.hands)

    def write_cell(
        self, hand_number: int, side: Side, facts: EntryFacts, phone: str, *, restamp: bool
    ) -> None:
        """Store a side's cell: a new entry (starting the hand if need be), or the next revision
        of the one there. `restamp` records this phone as the one who entered it."""
        hands = self.hands
        values = _cell_values(facts)
        cell = {"side_id": side.id, "entered_by": phone, **values}
        stored = None
        if hand_number > len(hands):
            hand_id, entry_id = self._start_hand(hand_number, cell)
            hand = StoredHand(id=hand_id, number=hand_number, entries=())
        else:
            hand = hands[hand_number - 1]
            stored = next((e for e in hand.entries if e.side_id == side.id), None)
            if stored is None:
                entry_id = db.session.execute(NEW_ENTRY, {"hand_id": hand.id, **cell}).scalar_one()
        if stored is None:
            written = StoredEntry(id=entry_id, side_id=side.id, revision=1, **values)
            entries = (*hand.entries, written)
        else:
            stamp = {"entered_by": phone, "entered_at": utcnow()} if restamp else {}
            db.session.execute(NEXT_REVISION, {"entry_id": stored.id, **values, **stamp})
            written = replace(stored, revision=stored.revision + 1, **values)
            entries = tuple(written if e is stored else e for e in hand.entries)
        self._hands = (
            *hands[: hand_number - 1],
            replace(hand, entries=entries),
            *hands[hand_number:],
        )

    def _start_hand(self, number: int, cell: dict[str, Any]) -> tuple[int, int]:
        """Start hand `number` with a side's cell in it: the new hand's id and the entry's."""
        match_id = self.known.match_id
        if db.engine.dialect.name == "postgresql":
            row = db.session.execute(
                START_HAND, {"match_id": match_id, "number": number, "now": utcnow(), **cell}
            ).one()
            return row.hand_id, row.id
        hand_id = db.session.execute(
            NEW_HAND, {"match_id": match_id, "number": number}
        ).scalar_one()
        return hand_id, db.session.execute(NEW_ENTRY, {"hand_id": hand_id, **cell}).scalar_one()

    def forget_hands(self) -> None:
        """This action changed the hands other than through write_cell: keep nothing of them."""
        self._forgotten = True

    def keep_hands(self) -> None:
        """After the commit: keep the hands as this version stands, if this action knows them.
        (The commit expired the match: its id is read from `known`, not from the database.)"""
        if self._hands is not None and not self._forgotten:
            kept_hands().keep(self.known.match_id, self.known.version, self._hands)


def _lock(match: Match, key: str | None) -> tuple[Locked, bool]:
    """Take this match's write lock and read everything afresh under it: the match at its new
    version, and this phone's seat at it. Also record the form's idempotency key: False with
    the lock if that very post was already carried out.

    The same statement announces the new version to every worker (scorekeeper/versions.py),
    sent by PostgreSQL when the write commits and dropped if it rolls back.
    """
    # Everything read before may have changed, except the sides and the match's settings,
    # which no action alters, and what actions change of the match, which the UPDATE returns.
    for instance in list(db.session.identity_map.values()):
        if instance is match:
            db.session.expire(match, ["seats", "hands", "corrections", "winner"])
        elif not isinstance(instance, Side):
            db.session.expire(instance)
    phone = current_phone()
    dialect = db.engine.dialect.name
    parameters: dict[str, Any] = {"match_id": match.id, "phone": phone}
    if key:
        parameters |= {"key": key, "made_at": utcnow()}
    # On PostgreSQL, where every statement is a round trip, the key goes in the lock's.
    with_key = dialect == "postgresql" and bool(key)
    row = db.session.execute(_lock_statement(dialect, with_key), parameters).one()
    for column in MATCH_CHANGING_COLUMNS:
        set_committed_value(match, column.key, row._mapping[column])
    viewer = seated_viewer(match, phone, row.viewer_seat_id, row.viewer_side_id)
    locked = Locked(match, Known(match.id, match.version), viewer)
    if not key:
        first_time = True
    elif with_key:
        first_time = row.recorded == 1
    else:
        first_time = db.session.execute(_recording(dialect), parameters).first() is not None
    return locked, first_time


@cache
def _lock_statement(dialect: str, with_key: bool) -> sa.Update:
    """The lock's statement, built once per database kind: bump the version, return the row
    and the phone's seat; `with_key` (PostgreSQL) also records the idempotency key, and
    returns whether it did."""
    columns = Match.__table__.c
    seats = Seat.__table__.c
    # By the id given, not correlated: SQLite's RETURNING names the match's columns unqualified.
    phones_seat = sa.and_(
        seats.match_id == sa.bindparam("match_id"), seats.phone == sa.bindparam("phone")
    )
    returning = [
        *MATCH_CHANGING_COLUMNS,
        sa.select(seats.id).where(phones_seat).scalar_subquery().label("viewer_seat_id"),
        sa.select(seats.side_id).where(phones_seat).scalar_subquery().label("viewer_side_id"),
        *announcement(dialect),
    ]
    if with_key:
        recorded = _recording(dialect).cte("recorded")
        returning.append(
            sa.select(sa.func.count()).select_from(recorded).scalar_subquery().label("recorded")
        )
    return (
        sa.update(Match.__table__)
        .where(columns.id == sa.bindparam("match_id"))
        .values(version=columns.version + 1)
        .returning(*returning)
    )


@cache
def _recording(dialect: str) -> sa.Insert:
    """Record a post's idempotency key, returning it, unless it is there already: SQLite and
    PostgreSQL both say ON CONFLICT DO NOTHING. A resent post's INSERT waits on the unique key
    until the first one commits (then does nothing) or rolls back (then records it): the two
    cannot both go ahead."""
    insert = sqlite.insert if dialect == "sqlite" else postgresql.insert
    submissions = Submission.__table__
    return (
        insert(submissions)
        .values(
            key=sa.bindparam("key"),
            match_id=sa.bindparam("match_id"),
            made_at=sa.bindparam("made_at"),
        )
        .on_conflict_do_nothing(index_elements=[submissions.c.key])
        .returning(submissions.c.key)
    )


def _run(match: Match, key: str | None, work: Callable[[Locked], Done]) -> Done:
    """Lock, skip a repeated post, do the work, commit; undo everything on a refusal."""
    try:
        locked, first_time = _lock(match, key)
        if not first_time:
            db.session.rollback()
            return Done("Already recorded.", repeated=True)
        done = work(locked)
        code = match.code
        db.session.commit()
        versions().wrote(code, locked.known)
        locked.keep_hands()
        return done
    except Refusal:
        db.session.rollback()
        raise
    except IntegrityError as clash:
        # Only reachable if two writers slipped past the lock (they cannot on SQLite or
        # PostgreSQL); the database's own constraints then keep the sheet whole.
        db.session.rollback()
        raise Refusal(
            "Someone else changed the sheet at the same moment. Try again.", 409, match
        ) from clash


def _cell_values(facts: EntryFacts) -> dict[str, Any]:
    """What a side entered, as its cell's columns (and as the corrections trail keeps it)."""
    return {
        "points": facts.points,
        "counts": dict(facts.counts) if facts.counts is not None else None,
        "even_split": facts.even_split,
        "last_trick": facts.last_trick,
        "black_hand": facts.black_hand,
    }


def _check_open_hand(sheet: Sheet, hand_number: int) -> None:
    """Refuse an entry for any hand but the one open now, saying why."""
    match = sheet.match
    if sheet.current_hand is None:
        if sheet.winner is not None:
            raise Refusal(
                f"{sheet.winner.name} has won: end the match, or the host can correct a hand.",
                409,
                match,
            )
        if sheet.last_trick_row is not None:
            raise Refusal(
                f"Round {sheet.last_trick_row.number} is tied: say who took the last trick first.",
                409,
                match,
            )
        raise Refusal("No hand is open for entries.", 409, match)
    if hand_number < sheet.current_hand:
        raise Refusal(
            f"Hand {hand_number} is complete: only the host can change it now.", 409, match
        )
    if hand_number > sheet.current_hand:
        raise Refusal(
            f"Hand {sheet.current_hand} isn't complete yet: hand {hand_number} can't start.",
            409,
            match,
        )


def enter_hand(
    match: Match, side: Side, hand_number: int, facts: EntryFacts, key: str | None
) -> Done:
    """A side enters (or changes, until every side has entered) its total for the open hand."""

    def work(locked: Locked) -> Done:
        viewer = locked.require(Action.ENTER, side)
        sheet = locked.sheet()
        _check_open_hand(sheet, hand_number)
        cell = sheet.cell(hand_number, side)
        locked.write_cell(hand_number, side, facts, viewer.phone or "", restamp=True)
        if cell is None or cell.entry is None:
            return Done(f"Hand {hand_number}: {side.name} {facts.points} recorded.")
        return Done(f"Hand {hand_number}: {side.name} changed to {facts.points}.")

    return _run(match, key, work)


def correct_cell(
    match: Match,
    side: Side,
    hand_number: int,
    facts: EntryFacts,
    seen_revision: int,
    reason: str,
    key: str | None,
) -> Done:
    """The host corrects a cell, or fills one a side cannot; the old value goes to the trail."""

    def work(locked: Locked) -> Done:
        viewer = locked.require(Action.CORRECT)
        sheet = locked.sheet()
        open_hand = sheet.current_hand or len(sheet.hands)
        if not 1 <= hand_number <= max(open_hand, len(sheet.hands)):
            raise Refusal(
                f"Hand {hand_number} hasn't started: there is nothing to correct.", 409, match
            )
        cell = sheet.cell(hand_number, side)
        entry = cell.entry if cell else None
        current_revision = entry.revision if entry else 0
        if current_revision != seen_revision:
            now = f"it now reads {entry.points}" if entry else "it is empty again"
            raise Refusal(
                f"Someone changed {side.name}'s hand {hand_number} meanwhile: {now}. "
                "Nothing was saved; look again and correct it if it is still wrong.",
                409,
                match,
            )
        old_points = entry.points if entry else None
        old_detail = entry.detail() if entry else None
        locked.write_cell(hand_number, side, facts, viewer.phone or "", restamp=False)
        db.session.add(
            Correction(
                match_id=match.id,
                hand_number=hand_number,
                side_id=side.id,
                old_points=old_points,
                new_points=facts.points,
                old_detail=old_detail,
                new_detail=_cell_values(facts),
                reason=reason.strip(),
                by_phone=viewer.phone or "",
            )
        )
        verb = "filled in" if old_points is None else f"corrected from {old_points}"
        return Done(f"Hand {hand_number}: {side.name} {verb} to {facts.points}.")

    return _run(match, key, work)


def say_last_trick(match: Match, hand_number: int, taker: Side, key: str | None) -> Done:
    """Settle a Brisca round tied at the top: the tied side that took the last trick wins it."""

    def work(locked: Locked) -> Done:
        sheet = locked.sheet()
        row = sheet.last_trick_row
        if row is None or row.number != hand_number:
            raise Refusal("That round isn't waiting for the last trick.", 409, match)
        tied = {sheet.sides[i].id for i in row.result.needs_last_trick}
        locked.require(Action.LAST_TRICK, among=tied)
        if taker.id not in tied:
            raise Refusal(f"{taker.name} isn't in the tie.", 409, match)
        db.session.execute(
            sa.update(Entry)
            .where(Entry.hand_id == row.hand_id)
            .values(last_trick=Entry.side_id == taker.id, revision=Entry.revision + 1)
            .execution_options(synchronize_session=False)
        )
        locked.forget_hands()
        return Done(f"Round {hand_number}: {taker.name} took the last trick.")

    return _run(match, key, work)


def history_order(match: Match) -> dict[str, Any]:
    """What a phone's history is ordered by, as every seat at the match must carry it.

    Give it to each new seat, Seat(..., **history_order(match)), and after each change of status
    call _reorder_history(match): history reads seats alone, through ix_seat_history.
    """
    return {"match_open": match.is_open, "match_created_at": match.created_at}


def _reorder_history(match: Match) -> None:
    """The match's status changed: move it in the history of every phone seated at it."""
    db.session.execute(
        sa.update(Seat).where(Seat.match_id == match.id).values(**history_order(match))
    )


def end_match(match: Match, key: str | None) -> Done:
    """Any seated phone ends the match, once the game's rule says a side has won."""

    def work(locked: Locked) -> Done:
        locked.require(Action.END)
        sheet = locked.sheet()
        if sheet.winner is None:
            raise Refusal("No side has won yet: play on.", 409, match)
        match.status = Match.ENDED
        match.winner_side_id = sheet.winner.id
        match.result = f"{sheet.winner.name} won. {sheet.state.reason}".strip()
        match.ended_at = utcnow()
        _reorder_history(match)
        return Done(f"Match over: {sheet.winner.name} won.")

    return _run(match, key, work)


def reopen_match(match: Match, key: str | None) -> Done:
    """The host reopens a match ended by mistake."""

    def work(locked: Locked) -> Done:
        locked.require(Action.REOPEN)
        match.status = Match.OPEN
        match.winner_side_id = None
        match.result = ""
        match.ended_at = None
        _reorder_history(match)
        return Done("Match reopened.")

    return _run(match, key, work)


def abandon_match(match: Match, key: str | None) -> Done:
    """The host abandons an unfinished match; it stays in history as abandoned."""

    def work(locked: Locked) -> Done:
        locked.require(Action.ABANDON)
        match.status = Match.ABANDONED
        match.result = "Abandoned."
        match.ended_at = utcnow()
        _reorder_history(match)
        return Done("Match abandoned.")

    return _run(match, key, work)


def release_side(match: Match, side: Side, key: str | None) -> Done:
    """The host frees a side (a dead phone): its phones become watchers, the side is free."""

    def work(locked: Locked) -> Done:
        locked.require(Action.RELEASE)
        seats = db.session.scalars(
            sa.select(Seat).where(Seat.match_id == match.id, Seat.side_id == side.id)
        ).all()
        if not seats:
            raise Refusal(f"{side.name} is already free.", 409, match)
        for seat in seats:
            seat.side_id = None
        return Done(f"{side.name} is free to be claimed again.")

    return _run(match, key, work)


def hand_over_host(match: Match, seat_id: int, key: str | None) -> Done:
    """The host gives the host role to another phone at the match."""

    def work(locked: Locked) -> Done:
        viewer = locked.require(Action.HAND_OVER)
        seat = db.session.get(Seat, seat_id)
        if seat is None or seat.match_id != match.id or seat.phone == viewer.phone:
            raise Refusal("Pick another phone at this match.", 409, match)
        match.host_phone = seat.phone
        who = seat.side.name if seat.side else "a watching phone"
        return Done(f"The host role went to {who}.")

    return _run(match, key, work)


def seats_by_side(match: Match) -> dict[int, int]:
    """How many phones hold each side (under the lock, the seats are read afresh)."""
    held: dict[int, int] = {}
    for seat in match.seats:
        if seat.side_id is not None:
            held[seat.side_id] = held.get(seat.side_id, 0) + 1
    return held


def claim_side(
    match: Match, viewer_phone: str, side: Side, players_per_side: int, key: str | None
) -> Done:
    """A phone claims a side that still has room (a partnership's two phones may share one)."""

    def work(locked: Locked) -> Done:
        viewer = locked.require(Action.CLAIM)
        held = seats_by_side(match).get(side.id, 0)
        if held >= players_per_side:
            raise Refusal(
                f"{side.name} is already held. If that phone is gone, the host can release it.",
                409,
                match,
            )
        seat = (
            db.session.get(Seat, viewer.seat_id)
            if viewer.seat_id is not None
            else Seat(match_id=match.id, phone=viewer_phone, **history_order(match))
        )
        seat.side_id = side.id
        db.session.add(seat)
        return Done(f"This phone now holds {side.name}.")

    return _run(match, key, work)


def watch(match: Match, viewer_phone: str, key: str | None) -> Done:
    """A phone watches the match read-only; it lands in this phone's history."""

    def work(locked: Locked) -> Done:
        viewer = locked.require(Action.WATCH)
        if viewer.seat_id is None:
            # A write like any other: the page a watcher sees differs from a newcomer's.
            db.session.add(Seat(match_id=match.id, phone=viewer_phone, **history_order(match)))
        return Done("Watching this match.")

    return _run(match, key, work)
