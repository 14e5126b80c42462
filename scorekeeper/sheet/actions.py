"""Everything that changes a match, each in one transaction under the match's write lock.

Every action first bumps the match's version with an UPDATE: on PostgreSQL that row lock makes
the phones of one table take turns (two partners entering together, End match pressed twice),
and on SQLite the write lock does the same. Only then is the sheet read and the action checked,
so each check sees what the previous phone wrote.

One shortcut, for the entry every side makes after every hand, on PostgreSQL: checked against
the match as this worker last wrote or showed it, then written by a single statement that bumps
the version only if it is still the one checked (_write_at_once). If anyone wrote in between,
that statement writes nothing and the entry goes the long way above.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, replace
from datetime import datetime
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

# Matches whose standing a worker keeps between writes; the least recently written go first.
MAX_KEPT_STANDINGS = 1000

# Built once: building a statement costs more than running it, and every entry runs these.
_entries = Entry.__table__
_hands = Hand.__table__
NEW_HAND = sa.insert(_hands).returning(_hands.c.id)
NEW_ENTRY = sa.insert(_entries).returning(_entries.c.id)
NEXT_REVISION = (
    sa.update(_entries)
    .where(_entries.c.id == sa.bindparam("entry_id"))
    .values(revision=_entries.c.revision + 1)
)
# What a side entered (_cell_values), and what its cell is given besides, except its hand.
_VALUES = ("points", "counts", "even_split", "last_trick", "black_hand")
_CELL = ("side_id", *_VALUES, "entered_by")
# Every seat at a match: its phone, its id, the side it holds.
SEATS_OF = sa.select(Seat.phone, Seat.id, Seat.side_id).where(
    Seat.match_id == sa.bindparam("match_id")
)


def _now() -> sa.BindParameter[Any]:
    """The moment of a write, as one parameter of a statement."""
    return sa.bindparam("now", type_=_entries.c.entered_at.type)


def _hand_started(match_id: sa.ColumnElement[int]) -> sa.CTE:
    """PostgreSQL: a new hand, numbered by the parameter `number`, in the match `match_id`
    gives; a WITH for the INSERT of its first cell (_cell_added)."""
    return (
        sa.insert(_hands)
        .from_select(
            ["match_id", "number", "started_at"],
            sa.select(match_id, sa.bindparam("number", type_=_hands.c.number.type), _now()),
        )
        .returning(_hands.c.id)
        .cte("started")
    )


def _cell_added(hand_id: sa.ColumnElement[int], after: sa.CTE | None = None) -> sa.Insert:
    """A side's new cell, at its first revision, in the hand `hand_id` gives: the columns of
    _CELL from the parameters of the same names; only if `after` returned a row, if given."""
    cell = sa.select(
        hand_id,
        *(sa.bindparam(name, type_=_entries.c[name].type) for name in _CELL),
        _now(),
        sa.literal(1),
    )
    if after is not None:
        cell = cell.select_from(after)
    return (
        sa.insert(_entries)
        .from_select(["hand_id", *_CELL, "entered_at", "revision"], cell)
        .returning(_entries.c.id, _entries.c.hand_id)
    )


# PostgreSQL: a new hand and its first entry in one statement (one round trip, not two), the
# hand's INSERT feeding the entry's. SQLite has no INSERT in a WITH, and no round trips.
START_HAND = _cell_added(_hand_started(sa.bindparam("match_id", type_=_hands.c.match_id.type)).c.id)


@dataclass(frozen=True)
class Done:
    """What an action did, in words for the phone that asked."""

    message: str
    repeated: bool = False


@dataclass(frozen=True)
class Standing:
    """A match as one version left it, as far as an action's checks go: what actions change of
    its row (models.MATCH_CHANGING_COLUMNS, by key), each seated phone's seat (its id, and the
    id of the side it holds or None while it watches), and its started hands."""

    columns: Mapping[str, Any]
    seats: Mapping[str, tuple[int, int | None]]
    hands: Hands


class KeptStandings(NewestByMatch[Standing]):
    """Each match recently written or shown, as its newest version then stood, for one app in
    one worker: the next write checks against it instead of reading every hand again under its
    lock, and an entry may even be written at once (_write_at_once). Every write bumps the
    version, so what is kept for the version just before a write's is exactly what is stored."""

    def __init__(self, max_matches: int = MAX_KEPT_STANDINGS) -> None:
        super().__init__(max_matches)


def keep_standing(match: Match, hands: Hands) -> None:
    """Keep the match as a page has just read it, for the next write on this worker.

    It is kept under its version, which the page must read first: seats and hands read after
    it can only be as new or newer. A write trusts what is kept only while that version is
    still the match's (the statement that writes checks it, or the lock returns the next one),
    and then it is exactly what is stored.
    """
    columns = {column.key: getattr(match, column.key) for column in MATCH_CHANGING_COLUMNS}
    seats = {seat.phone: (seat.id, seat.side_id) for seat in match.seats}
    kept_standings().keep(match.id, columns["version"], Standing(columns, seats, hands))


def init_app(app: Flask) -> None:
    """Give the app its kept standings."""
    app.extensions["match_standings"] = KeptStandings()


def kept_standings() -> KeptStandings:
    """The current app's kept standings."""
    kept: KeptStandings = current_app.extensions["match_standings"]
    return kept


@dataclass(frozen=True)
class CellWrite:
    """A side's cell as an action writes it, into the hands as they stood."""

    number: int
    side_id: int
    # Its columns as _cell_values gives them.
    values: dict[str, Any]
    phone: str
    # Whether this phone is recorded as the one who entered it (a correction keeps the side's).
    restamp: bool
    # The started hand it goes in (None: it starts hand `number`), and the cell there now,
    # revised (None: a new cell).
    hand: StoredHand | None
    stored: StoredEntry | None

    @property
    def columns(self) -> dict[str, Any]:
        """The cell's columns named in _CELL, as a statement's parameters."""
        return {"side_id": self.side_id, "entered_by": self.phone, **self.values}


class Locked:
    """A match at the version an action makes, as the action checks and changes it: under its
    write lock, read with the lock (_lock), or as this worker kept it (_write_at_once).

    Under the lock the hands come from what this worker kept of the version before (nobody
    else can have written since, or the lock's version would be higher), else from the
    database. An action changes them through write_cell; the standing after a committed action
    that changed nothing else is kept for the next one.
    """

    def __init__(
        self,
        match: Match,
        known: Known,
        columns: Mapping[str, Any],
        seats: Mapping[str, tuple[int, int | None]],
        hands: Hands | None = None,
    ) -> None:
        self.match = match
        self.known = known
        # What actions change of the match, as it stands: on the request's copy too, which
        # reads them from here rather than from the database.
        for name, value in columns.items():
            set_committed_value(match, name, value)
        self._columns = columns
        self._seats = seats
        phone = current_phone()
        seat = seats.get(phone) if phone is not None else None
        # This phone at the match, as it stands.
        self.viewer = seated_viewer(match, phone, *(seat or (None, None)))
        self._hands = hands

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
            kept = kept_standings().get(match_id, self.known.version - 1)
            self._hands = kept.hands if kept else read_hands([match_id])[match_id]
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
        hand = hands[hand_number - 1] if hand_number <= len(hands) else None
        stored = next((e for e in hand.entries if e.side_id == side.id), None) if hand else None
        self._store(
            CellWrite(hand_number, side.id, _cell_values(facts), phone, restamp, hand, stored)
        )

    def _store(self, cell: CellWrite) -> None:
        """Write a cell now, in the session's transaction."""
        now = utcnow()
        if cell.hand is None:
            hand_id, entry_id = self._start_hand(cell, now)
        elif cell.stored is None:
            hand_id = cell.hand.id
            entry_id = db.session.execute(
                NEW_ENTRY, {"hand_id": hand_id, "entered_at": now, **cell.columns}
            ).scalar_one()
        else:
            stamp = {"entered_by": cell.phone, "entered_at": now} if cell.restamp else {}
            db.session.execute(NEXT_REVISION, {"entry_id": cell.stored.id, **cell.values, **stamp})
            hand_id, entry_id = cell.hand.id, cell.stored.id
        self.stored(cell, hand_id, entry_id)

    def stored(self, cell: CellWrite, hand_id: int, entry_id: int) -> None:
        """The hands as they stand with this cell written (by these ids)."""
        hand = cell.hand or StoredHand(id=hand_id, number=cell.number, entries=())
        if cell.stored is None:
            written = StoredEntry(id=entry_id, side_id=cell.side_id, revision=1, **cell.values)
            entries = (*hand.entries, written)
        else:
            written = replace(cell.stored, revision=cell.stored.revision + 1, **cell.values)
            entries = tuple(written if e is cell.stored else e for e in hand.entries)
        hands = self.hands
        self._hands = (
            *hands[: cell.number - 1],
            replace(hand, entries=entries),
            *hands[cell.number :],
        )

    def _start_hand(self, cell: CellWrite, now: datetime) -> tuple[int, int]:
        """Start the cell's hand with the cell in it: the new hand's id and the entry's."""
        started = {"match_id": self.known.match_id, "number": cell.number}
        if db.engine.dialect.name == "postgresql":
            row = db.session.execute(START_HAND, {**started, "now": now, **cell.columns}).one()
            return row.hand_id, row.id
        hand_id = db.session.execute(NEW_HAND, {**started, "started_at": now}).scalar_one()
        entry_id = db.session.execute(
            NEW_ENTRY, {"hand_id": hand_id, "entered_at": now, **cell.columns}
        ).scalar_one()
        return hand_id, entry_id

    def keep(self) -> None:
        """After the commit: keep the match as this version left it, for the next write. Only
        for actions that changed nothing but cells (through write_cell). (The commit expired
        the match: its id is read from `known`, not from the database.)"""
        if self._hands is not None:
            columns = {**self._columns, "version": self.known.version}
            standing = Standing(columns, self._seats, self._hands)
            kept_standings().keep(self.known.match_id, self.known.version, standing)


class Drafted(Locked):
    """The match as this worker kept it, for an entry written at once: write_cell notes the
    cell for _write_at_once's statement instead of writing it."""

    cell: CellWrite | None = None

    def _store(self, cell: CellWrite) -> None:
        """Note the cell: one statement writes it, with everything else the entry records."""
        if self.cell is not None:
            raise RuntimeError("an entry written at once writes one cell")
        self.cell = cell


def _lock(match: Match, key: str | None) -> tuple[Locked, bool]:
    """Take this match's write lock and read everything afresh under it: the match at its new
    version, and the phones seated at it. Also record the form's idempotency key: False with
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
    dialect = db.engine.dialect.name
    parameters: dict[str, Any] = {"match_id": match.id}
    if key:
        parameters |= {"key": key, "made_at": utcnow()}
    # On PostgreSQL, where every statement is a round trip, the key goes in the lock's.
    with_key = dialect == "postgresql" and bool(key)
    row = db.session.execute(_lock_statement(dialect, with_key), parameters).one()
    columns = {column.key: row._mapping[column] for column in MATCH_CHANGING_COLUMNS}
    seated = row.seats or ()
    if dialect == "postgresql" and row.before != row.version - 1:
        # The UPDATE waited for another writer's lock and then took the row as that writer
        # left it; but its subqueries read the database as it was when the statement began,
        # so the seats it returned may be older (a side released meanwhile): read them now.
        seated = db.session.execute(SEATS_OF, {"match_id": match.id}).all()
    seats = {phone: (seat_id, side_id) for phone, seat_id, side_id in seated}
    locked = Locked(match, Known(match.id, row.version), columns, seats)
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
    and every seat at the match (phone, seat id, side id) as JSON (on PostgreSQL also the
    version the statement's subqueries saw); `with_key` (PostgreSQL) also records the
    idempotency key, and returns whether it did."""
    columns = Match.__table__.c
    seats = Seat.__table__.c
    if dialect == "postgresql":
        array_of, row_of = sa.func.json_agg, sa.func.json_build_array
    else:
        array_of, row_of = sa.func.json_group_array, sa.func.json_array
    returning = [
        *MATCH_CHANGING_COLUMNS,
        # By the id given, not correlated: SQLite's RETURNING names the match's columns
        # unqualified.
        sa.select(array_of(row_of(seats.phone, seats.id, seats.side_id), type_=sa.JSON))
        .where(seats.match_id == sa.bindparam("match_id"))
        .scalar_subquery()
        .label("seats"),
        *announcement(dialect),
    ]
    if dialect == "postgresql":
        # The version as the statement's subqueries see it: one below the new one, unless the
        # UPDATE waited for another writer (see _lock).
        before = Match.__table__.alias("before")
        returning.append(
            sa.select(before.c.version)
            .where(before.c.id == sa.bindparam("match_id"))
            .scalar_subquery()
            .label("before")
        )
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
def _recording(dialect: str, row: sa.Select | None = None) -> sa.Insert:
    """Record a post's idempotency key, returning it and its match, unless it is there
    already: SQLite and PostgreSQL both say ON CONFLICT DO NOTHING. A resent post's INSERT
    waits on the unique key until the first one commits (then does nothing) or rolls back
    (then records it): the two cannot both go ahead.

    From the parameters key, match_id and made_at; or from `row`, a SELECT of the key, the
    match and the moment, which records nothing if it gives no row. Built once for each
    database kind and each `row`.
    """
    insert = sqlite.insert if dialect == "sqlite" else postgresql.insert
    submissions = Submission.__table__
    if row is None:
        recording = insert(submissions).values(
            key=sa.bindparam("key"),
            match_id=sa.bindparam("match_id"),
            made_at=sa.bindparam("made_at"),
        )
    else:
        recording = insert(submissions).from_select(["key", "match_id", "made_at"], row)
    return recording.on_conflict_do_nothing(index_elements=[submissions.c.key]).returning(
        submissions.c.key, submissions.c.match_id
    )


def _run(
    match: Match, key: str | None, work: Callable[[Locked], Done], *, keeps: bool = False
) -> Done:
    """Lock, skip a repeated post, do the work, commit; undo everything on a refusal.

    `keeps`: the work changes nothing but cells, through Locked.write_cell, so the match as
    the lock read it, with those cells, is how the new version stands (kept for the next write).
    """
    try:
        locked, first_time = _lock(match, key)
        if not first_time:
            db.session.rollback()
            return Done("Already recorded.", repeated=True)
        done = work(locked)
        code = match.code
        db.session.commit()
        versions().wrote(code, locked.known)
        if keeps:
            locked.keep()
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


def _write_at_once(match: Match, key: str | None, work: Callable[[Locked], Done]) -> Done | None:
    """PostgreSQL: an entry checked against the match as this worker kept it (the version it
    last wrote or showed), then written by one statement that is its own transaction, which
    goes ahead only if the match is still at that version: one round trip instead of four
    (BEGIN, the lock, the cell, COMMIT). Every phone enters after every hand, and at a busy
    table this is most of what the server does.

    None when it cannot be done so (nothing kept, a stale or refused check, a repeated post):
    then nothing was written, and the caller takes the lock (_run), which decides for sure.
    """
    if not key or db.engine.dialect.name != "postgresql":
        return None
    newest = kept_standings().recall(match.id)
    if newest is None:
        return None
    version, standing = newest
    heard = versions().heard(match.code)
    if heard is not None and heard.version != version:
        return None
    draft = Drafted(
        match, Known(match.id, version + 1), standing.columns, standing.seats, standing.hands
    )
    try:
        done = work(draft)
    except Refusal:
        # Perhaps only because what was kept is stale: the lock tells.
        return None
    cell = draft.cell
    if cell is None or not cell.restamp:
        # Nothing to write, or not as an entry writes it (the statement stamps the phone).
        return None
    kind = "start" if cell.hand is None else "add" if cell.stored is None else "revise"
    parameters = {"match_id": match.id, "seen": version, "key": key, "now": utcnow()}
    parameters |= cell.columns
    if cell.hand is None:
        parameters["number"] = cell.number
    elif cell.stored is None:
        parameters["hand_id"] = cell.hand.id
    else:
        # A revision keeps its side: a column given as a parameter would be SET as well.
        parameters["entry_id"] = cell.stored.id
        del parameters["side_id"]
    try:
        with db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
            row = connection.execute(_at_once_statement(kind), parameters).first()
    except IntegrityError:
        # That hand or cell is there already: the match moved on, and nothing was written.
        return None
    if row is None:
        # The match moved on since, or this very post was recorded: nothing was written.
        return None
    versions().wrote(match.code, draft.known)
    # The request's copy of the match as it now stands, should anything read it after this.
    set_committed_value(match, "version", row.version)
    if row.entry_id is None:
        return Done("Already recorded.", repeated=True)
    draft.stored(cell, row.hand_id, row.entry_id)
    draft.keep()
    return done


@cache
def _at_once_statement(kind: str) -> sa.Select:
    """_write_at_once's statement, built once for each `kind` of cell write: a cell that
    starts its hand ("start"), a new cell in a started hand ("add"), or a revised one
    ("revise", stamped with this phone).

    Each part runs only if the one before returned a row: the match's version bumped from the
    one the checks saw, and only if this post's key is new (with the announcement of the new
    version, as _lock's); then the key recorded; then the cell. Returns the new version and
    the cell's ids, or no row if the match wasn't at that version or the key was recorded.
    """
    matches = Match.__table__
    submissions = Submission.__table__
    locked = (
        sa.update(matches)
        .where(
            matches.c.id == sa.bindparam("match_id"),
            matches.c.version == sa.bindparam("seen"),
            ~sa.exists().where(submissions.c.key == sa.bindparam("key")),
        )
        .values(version=matches.c.version + 1)
        .returning(matches.c.id, matches.c.version, *announcement("postgresql"))
        .cte("locked")
    )
    key = sa.bindparam("key", type_=submissions.c.key.type)
    recorded = _recording("postgresql", sa.select(key, locked.c.id, _now())).cte("recorded")
    written: sa.Insert | sa.Update
    if kind == "start":
        written = _cell_added(_hand_started(recorded.c.match_id).c.id)
    elif kind == "add":
        written = _cell_added(sa.bindparam("hand_id", type_=_entries.c.hand_id.type), recorded)
    else:
        revised = {
            name: sa.bindparam(name, type_=_entries.c[name].type)
            for name in (*_VALUES, "entered_by")
        }
        written = (
            sa.update(_entries)
            .where(_entries.c.id == sa.bindparam("entry_id"), sa.exists(recorded.select()))
            .values(revision=_entries.c.revision + 1, entered_at=_now(), **revised)
            .returning(_entries.c.id, _entries.c.hand_id)
        )
    cell = written.cte("written")
    return sa.select(locked.c.version, cell.c.id.label("entry_id"), cell.c.hand_id).select_from(
        locked.outerjoin(cell, sa.true())
    )


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

    return _write_at_once(match, key, work) or _run(match, key, work, keeps=True)


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

    return _run(match, key, work, keeps=True)


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
