"""A side's entries: its total for the open hand (typed, or from the calculator), and which tied
side settles a hand that waits for it."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import sqlalchemy as sa

from scorekeeper.errors import Refusal
from scorekeeper.extensions import db
from scorekeeper.games import Conflict, EntryFacts
from scorekeeper.models import Correction, Entry, Hand, StoredMatch, StoredSide, person, utcnow
from scorekeeper.phones.rules import Action, Viewer
from scorekeeper.phones.seats import seats_at
from scorekeeper.scoresheet.sheet import Sheet, load_sheet
from scorekeeper.scoresheet.stored import StoredEntry, cell_values
from scorekeeper.scoresheet.writing import Done, Post, act
from scorekeeper.terms import say
from scorekeeper.words import entries as words

# A cell's writes, as statements of SQLAlchemy Core built once (scoresheet/writing.py): each
# write binds its values to them, and none goes through the ORM's flush or bulk update.
HANDS: sa.Table = Hand.__table__  # type: ignore[assignment]
ENTRIES: sa.Table = Entry.__table__  # type: ignore[assignment]
NEW_HAND = sa.insert(HANDS).returning(HANDS.c.id)
NEW_ENTRY = sa.insert(ENTRIES)
# Given the entry's id and its new columns (its values, and who entered it if restamped).
NEXT_REVISION = (
    sa.update(ENTRIES)
    .where(ENTRIES.c.id == sa.bindparam("entry_id"))
    .values(revision=ENTRIES.c.revision + 1)
)


def write_cell(
    sheet: Sheet,
    number: int,
    side: StoredSide,
    facts: EntryFacts,
    phone: str,
    *,
    restamp: bool,
    at: datetime | None = None,
) -> None:
    """Store a side's cell: a new entry (starting the hand if need be), or the next revision
    of the one there. `restamp` records this phone as the one who entered it (an entry does;
    a correction keeps the side's); `at` is when a new entry was made (now if not given)."""
    values = cell_values(facts)
    cell = sheet.cell(number, side)
    connection = db.session.connection()
    if cell is not None and cell.entry is not None:
        stamp = {"entered_by": phone, "entered_at": utcnow()} if restamp else {}
        connection.execute(NEXT_REVISION, {"entry_id": cell.entry.id, **values, **stamp})
        return
    if number <= len(sheet.hands):
        hand_id = sheet.hands[number - 1].id
    else:
        hand_id = connection.execute(
            NEW_HAND, {"match_id": sheet.match.id, "number": number}
        ).scalar_one()
    made = {"hand_id": hand_id, "side_id": side.id, "entered_by": phone}
    connection.execute(NEW_ENTRY, {**made, "entered_at": at or utcnow(), **values})


def no_open_hand(sheet: Sheet) -> Refusal:
    """Why no hand takes entries now, in words: a side has won, a tied hand waits for the
    tick that settles it, or the match is over."""
    match = sheet.match
    if sheet.winner is not None:
        message = words.won(sheet.winner.name)
    elif sheet.waiting_row is not None and (settling := sheet.game.settles) is not None:
        message = say(settling.say(settling.first, sheet.waiting_row.number))
    else:
        message = words.no_open_hand()
    return Refusal(message, 409, match)


def _completed_first(sheet: Sheet, number: int, viewer: Viewer, facts: EntryFacts) -> Refusal:
    """An entry for a hand that completed before it arrived: given back, in the form for the
    open hand, to enter again; what it says fits this phone and how the entry was made."""
    # The phone's form was drawn before the other sides finished the hand: what was typed is
    # likely the next hand's, or a change the host makes from the sheet.
    message = words.completed_first(
        sheet.game.hand_word,
        sheet.game.hand_noun,
        number,
        sheet.current_hand,
        facts.points,
        counts=facts.counts is not None,
        host=viewer.is_host,
    )
    return Refusal(message, 409, sheet.match, given_back=facts)


def check_open_hand(sheet: Sheet, number: int, viewer: Viewer, facts: EntryFacts) -> None:
    """Refuse an entry for any hand but the one open now, saying why in the words that fit
    this phone; an entry for a hand that completed meanwhile is given back."""
    if sheet.current_hand is None:
        raise no_open_hand(sheet)
    if number < sheet.current_hand:
        raise _completed_first(sheet, number, viewer, facts)
    if number > sheet.current_hand:
        raise Refusal(
            words.not_complete_yet(
                sheet.game.hand_word, sheet.current_hand, sheet.game.hand_noun, number
            ),
            409,
            sheet.match,
        )


def check_beside_the_others(
    sheet: Sheet,
    number: int,
    side: StoredSide,
    facts: EntryFacts,
    hand: list[EntryFacts | None],
    *,
    named: bool = False,
) -> None:
    """Refuse an entry the other sides' entries in `hand` make impossible (a 26–26 split one
    side says and the other does not, two sides with the most cards alone, card points
    past the deck's, the calculators' cards past the pack), saying every way it is, in both
    sides' words, and giving back what was typed. `named`: the words name the side entered
    for (the host's, filling or correcting) rather than say "you" (its own phone)."""
    me = side.name if named else None
    conflicts = sheet.game.entry_conflicts(sheet.table, hand, side.position, facts, me)
    if conflicts:
        raise Refusal(refused_beside(sheet, number, conflicts), 409, sheet.match, given_back=facts)


def names_the_side(viewer: Viewer) -> bool:
    """Whether a refusal beside the others' entries names the side entered for rather than
    say "you": to the host, who may write every side's cell (a keeper typing both totals, or
    filling one), "check with Lucía; the host can correct it" speaks to nobody."""
    return viewer.is_host


def as_entered(sheet: Sheet, number: int) -> list[EntryFacts | None]:
    """Hand `number` as the sides entered it so far, in column order (None: nothing yet)."""
    if number > len(sheet.grid):
        return [None] * len(sheet.sides)
    return [entry.facts if entry else None for entry in sheet.grid[number - 1]]


def refused_beside(sheet: Sheet, number: int, conflicts: Sequence[Conflict]) -> str:
    """The words of an entry refused beside the others' entries: every reason at once."""
    why = " ".join(say(conflict.reason) for conflict in conflicts)
    return words.refused_beside(sheet.game.hand_word, number, why)


def check_unchanged(
    sheet: Sheet,
    number: int,
    side: StoredSide,
    seen_revision: int,
    viewer: Viewer,
    *,
    correcting: bool,
) -> StoredEntry | None:
    """The cell's entry, if it is as this phone's form saw it (its revision; 0: empty); else
    the refusal that says it changed meanwhile, to what, and what to do now: enter again (a
    side's phone: told who changed it), or, `correcting`, look again."""
    cell = sheet.cell(number, side)
    entry = cell.entry if cell else None
    if seen_revision == (entry.revision if entry else 0):
        return entry
    if entry is None:
        message = words.emptied(side.name, sheet.game.hand_noun, number, correcting=correcting)
    else:
        message = _changed_by(sheet, number, side, entry, viewer, correcting=correcting)
    raise Refusal(message, 409, sheet.match)


def _changed_by(
    sheet: Sheet,
    number: int,
    side: StoredSide,
    entry: StoredEntry,
    viewer: Viewer,
    *,
    correcting: bool,
) -> str:
    """A stale entry or correction refused, naming who changed the cell since: this phone on
    another page, the host (a correction since the side's entry), or the phone that entered
    it, by the name the table knows them by; a phone that gave none is told as it can be."""
    stored = db.session.get_one(Entry, entry.id)
    corrected_by = db.session.scalar(
        sa.select(Correction.by_phone)
        .where(
            Correction.match_id == sheet.match.id,
            Correction.hand_number == number,
            Correction.side_id == side.id,
            Correction.made_at >= stored.entered_at,
        )
        .order_by(Correction.id.desc())
        .limit(1)
    )
    by = corrected_by or stored.entered_by
    seat = next((seat for seat in seats_at(sheet.match) if seat.phone == by), None)
    if corrected_by is not None:
        # As the corrections trail names the host: "Omar (Us)", or the side the host holds; a
        # host watching without a name has none to give.
        named = seat is not None and (seat.player != "" or seat.side_id is not None)
        name = seat.label if seat is not None and named else None
    else:
        # The player's name with the side they entered for (since released or not); the
        # side's name alone would only repeat whose cell it is.
        name = person(seat.player, side) if seat is not None and seat.player else None
    return words.changed_by(
        side.name,
        sheet.game.hand_noun,
        number,
        entry.facts.points,
        correcting=correcting,
        mine=by == viewer.phone,
        corrected=corrected_by is not None,
        by_host=corrected_by is not None and corrected_by == sheet.match.host_phone,
        person=name,
    )


def enter_hand(
    match: StoredMatch,
    side: StoredSide,
    number: int,
    facts: EntryFacts,
    post: Post,
    seen_revision: int | None = None,
) -> Done:
    """A side enters (or changes, until every side has entered) its total for the open hand.

    `seen_revision` is the cell's revision the phone's form was drawn with (0: empty): if a
    partner or the host changed the cell since, nothing is saved and the phone is told who
    changed it to what. (None: a form from before forms said, taken as it comes.)
    """

    def work(viewer: Viewer) -> Done:
        sheet = load_sheet(viewer.match, corrections=False)
        check_open_hand(sheet, number, viewer, facts)
        cell = sheet.cell(number, side)
        if seen_revision is not None:
            check_unchanged(sheet, number, side, seen_revision, viewer, correcting=False)
        hand = as_entered(sheet, number)
        named = names_the_side(viewer)
        check_beside_the_others(sheet, number, side, facts, hand, named=named)
        write_cell(sheet, number, side, facts, viewer.phone or "", restamp=True)
        changed = cell is not None and cell.entry is not None
        return Done(
            words.entered(sheet.game.hand_word, number, side.name, facts.points, changed=changed)
        )

    return act(match, post, Action.ENTER, work, side)


def settle_tie(match: StoredMatch, number: int, taker: StoredSide, post: Post) -> Done:
    """Settle a hand tied on its game's settling tick (a round tied at the top goes to the
    tied side that took the last trick): the side that says it ticks it, the others not."""

    def tied(locked: StoredMatch) -> set[int]:
        return {side.id for side in load_sheet(locked, corrections=False).waiting_sides}

    def work(viewer: Viewer) -> Done:
        sheet = load_sheet(viewer.match, corrections=False)
        row, settling = sheet.waiting_row, sheet.game.settles
        if settling is None:
            raise Refusal(words.no_open_hand(), 409, viewer.match)
        if row is None or row.number != number:
            raise Refusal(say(settling.say(settling.stale, number)), 409, viewer.match)
        if taker.id not in {side.id for side in sheet.waiting_sides}:
            raise Refusal(words.not_in_the_tie(taker.name), 409, viewer.match)
        for cell in row.cells:
            if cell.entry is None:
                continue
            facts = cell.entry.facts
            ticks = facts.ticks - {settling.tick.key}
            if cell.side.id == taker.id:
                ticks = ticks | {settling.tick.key}
            if ticks != facts.ticks:
                write_cell(
                    sheet,
                    number,
                    cell.side,
                    facts._replace(ticks=ticks),
                    viewer.phone or "",
                    restamp=False,
                )
        return Done(say(settling.say(settling.said, number, taker.name)))

    # The tie is read under the lock, for the write path's check, and again by the work:
    # a tie that waits for its tick is rare, and one sheet read more is cheap.
    return act(match, post, Action.SETTLE, work, among=tied)
