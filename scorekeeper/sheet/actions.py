"""Everything that changes a match, each in one transaction under the match's write lock.

Every action first bumps the match's version with an UPDATE: on PostgreSQL that row lock makes
the phones of one table take turns (two partners entering together, End match pressed twice),
and on SQLite the write lock does the same. Only then is the sheet read and the action checked,
so each check sees what the previous phone wrote.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.attributes import set_committed_value

from scorekeeper.extensions import db
from scorekeeper.games import EntryFacts
from scorekeeper.models import Correction, Entry, Hand, Match, Seat, Side, Submission, utcnow
from scorekeeper.permissions import Action, Refusal, Viewer, require
from scorekeeper.sheet.state import Sheet, load_sheet
from scorekeeper.versions import Known, announcement, versions


@dataclass(frozen=True)
class Done:
    """What an action did, in words for the phone that asked."""

    message: str
    repeated: bool = False


def _lock(match: Match) -> Known:
    """Take this match's write lock and read everything afresh under it; the new version.

    The same statement announces the new version to every worker (scorekeeper/versions.py),
    sent by PostgreSQL when the write commits and dropped if it rolls back.
    """
    # Everything read before may have changed, except the sides, which no action alters, and
    # the match's own row, which the UPDATE returns as it now stands.
    for instance in list(db.session.identity_map.values()):
        if instance is match:
            db.session.expire(match, ["seats", "hands", "corrections", "winner"])
        elif not isinstance(instance, Side):
            db.session.expire(instance)
    columns = Match.__table__.c
    row = db.session.execute(
        sa.update(Match.__table__)
        .where(columns.id == match.id)
        .values(version=columns.version + 1)
        .returning(*columns, *announcement())
    ).one()
    for column in columns:
        set_committed_value(match, column.key, row._mapping[column])
    return Known(match.id, match.version)


def _first_time(match: Match, key: str | None) -> bool:
    """Record a form's idempotency key; False if that very post was already carried out."""
    if not key:
        return True
    # One statement either way: SQLite and PostgreSQL both say ON CONFLICT DO NOTHING.
    dialect = sqlite if db.engine.dialect.name == "sqlite" else postgresql
    stored = db.session.execute(
        dialect.insert(Submission)
        .values(key=key, match_id=match.id)
        .on_conflict_do_nothing(index_elements=[Submission.key])
        .returning(Submission.key)
    )
    return stored.first() is not None


def _run(match: Match, key: str | None, work) -> Done:  # type: ignore[no-untyped-def]
    """Lock, skip a repeated post, do the work, commit; undo everything on a refusal."""
    try:
        known = _lock(match)
        if not _first_time(match, key):
            db.session.rollback()
            return Done("Already recorded.", repeated=True)
        done = work()
        code = match.code
        db.session.commit()
        versions().wrote(code, known)
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


def _write_cell(
    sheet: Sheet, hand_number: int, side: Side, facts: EntryFacts, phone: str, *, restamp: bool
) -> None:
    """Store a side's cell under the lock: a new entry (starting the hand if need be), or the
    next revision of the one there. `restamp` records this phone as the one who entered it."""
    if hand_number <= len(sheet.rows):
        row = sheet.rows[hand_number - 1]
        hand_id, stored = row.hand_id, row.cells[side.position].entry
    else:
        hand_id = db.session.execute(
            sa.insert(Hand).values(match_id=sheet.match.id, number=hand_number).returning(Hand.id)
        ).scalar_one()
        stored = None
    values = _cell_values(facts)
    if stored is None:
        db.session.execute(
            sa.insert(Entry).values(hand_id=hand_id, side_id=side.id, entered_by=phone, **values)
        )
        return
    if restamp:
        values |= {"entered_by": phone, "entered_at": utcnow()}
    db.session.execute(
        sa.update(Entry)
        .where(Entry.id == stored.id)
        .values(revision=Entry.revision + 1, **values)
        .execution_options(synchronize_session=False)
    )


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

    def work() -> Done:
        viewer = require(match, Action.ENTER, side)
        sheet = load_sheet(match, corrections=False)
        _check_open_hand(sheet, hand_number)
        cell = sheet.cell(hand_number, side)
        _write_cell(sheet, hand_number, side, facts, viewer.phone or "", restamp=True)
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

    def work() -> Done:
        viewer = require(match, Action.CORRECT)
        sheet = load_sheet(match, corrections=False)
        open_hand = sheet.current_hand or len(sheet.rows)
        if not 1 <= hand_number <= max(open_hand, len(sheet.rows)):
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
        _write_cell(sheet, hand_number, side, facts, viewer.phone or "", restamp=False)
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

    def work() -> Done:
        sheet = load_sheet(match, corrections=False)
        row = sheet.last_trick_row
        if row is None or row.number != hand_number:
            raise Refusal("That round isn't waiting for the last trick.", 409, match)
        tied = {sheet.sides[i].id for i in row.result.needs_last_trick}
        require(match, Action.LAST_TRICK, among=tied)
        if taker.id not in tied:
            raise Refusal(f"{taker.name} isn't in the tie.", 409, match)
        db.session.execute(
            sa.update(Entry)
            .where(Entry.hand_id == row.hand_id)
            .values(last_trick=Entry.side_id == taker.id, revision=Entry.revision + 1)
            .execution_options(synchronize_session=False)
        )
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

    def work() -> Done:
        require(match, Action.END)
        sheet = load_sheet(match, corrections=False)
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

    def work() -> Done:
        require(match, Action.REOPEN)
        match.status = Match.OPEN
        match.winner_side_id = None
        match.result = ""
        match.ended_at = None
        _reorder_history(match)
        return Done("Match reopened.")

    return _run(match, key, work)


def abandon_match(match: Match, key: str | None) -> Done:
    """The host abandons an unfinished match; it stays in history as abandoned."""

    def work() -> Done:
        require(match, Action.ABANDON)
        match.status = Match.ABANDONED
        match.result = "Abandoned."
        match.ended_at = utcnow()
        _reorder_history(match)
        return Done("Match abandoned.")

    return _run(match, key, work)


def release_side(match: Match, side: Side, key: str | None) -> Done:
    """The host frees a side (a dead phone): its phones become watchers, the side is free."""

    def work() -> Done:
        require(match, Action.RELEASE)
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

    def work() -> Done:
        viewer = require(match, Action.HAND_OVER)
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

    def work() -> Done:
        viewer: Viewer = require(match, Action.CLAIM)
        held = seats_by_side(match).get(side.id, 0)
        if held >= players_per_side:
            raise Refusal(
                f"{side.name} is already held. If that phone is gone, the host can release it.",
                409,
                match,
            )
        seat = viewer.seat or Seat(match_id=match.id, phone=viewer_phone, **history_order(match))
        seat.side_id = side.id
        db.session.add(seat)
        return Done(f"This phone now holds {side.name}.")

    return _run(match, key, work)


def watch(match: Match, viewer_phone: str, key: str | None) -> Done:
    """A phone watches the match read-only; it lands in this phone's history."""

    def work() -> Done:
        viewer = require(match, Action.WATCH)
        if viewer.seat is None:
            # A write like any other: the page a watcher sees differs from a newcomer's.
            db.session.add(Seat(match_id=match.id, phone=viewer_phone, **history_order(match)))
        return Done("Watching this match.")

    return _run(match, key, work)
