"""A side's entries: its total for the open hand (typed, or from the calculator), and which tied
side settles a hand that waits for it."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import sqlalchemy as sa
from flask_babel import gettext as _

from scorekeeper.errors import Refusal
from scorekeeper.extensions import db
from scorekeeper.games import Conflict, EntryFacts
from scorekeeper.models import Correction, Entry, Hand, StoredMatch, StoredSide, person, utcnow
from scorekeeper.phones.rules import Action, Viewer
from scorekeeper.phones.seats import seats_at
from scorekeeper.scoresheet.sheet import Sheet, StoredEntry, cell_values, load_sheet
from scorekeeper.scoresheet.writing import Done, Post, act
from scorekeeper.terms import say

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
        # NOTE: %(side)s is the name of the side that has won.
        message = _(
            "%(side)s has won: end the match, or the host can correct a hand.",
            side=sheet.winner.name,
        )
    elif sheet.waiting_row is not None and (settling := sheet.game.settles) is not None:
        message = say(settling.say(settling.first, sheet.waiting_row.number))
    else:
        message = _("No hand is open for entries.")
    return Refusal(message, 409, match)


def _completed_first(sheet: Sheet, number: int, viewer: Viewer, facts: EntryFacts) -> Refusal:
    """An entry for a hand that completed before it arrived: given back, in the form for the
    open hand, to enter again; what it says fits this phone and how the entry was made."""
    said = {
        "hand": sheet.game.hand_word,
        "number": number,
        "points": facts.points,
        "noun": sheet.game.hand_noun,
        "current": sheet.current_hand,
    }
    # The phone's form was drawn before the other sides finished the hand: what was typed is
    # likely the next hand's, or a change the host makes from the sheet.
    # The calculator's words name its counts; %(posted)s is the hand they were counted for.
    counted = {"hand": said["hand"], "noun": said["noun"], "posted": number}
    if facts.counts is not None and viewer.is_host:
        # NOTE: %(hand)s is the game's word for a hand ("Hand", or "Round"), %(noun)s
        # the same inside a sentence; %(posted)s and %(number)s are hand numbers.
        message = _(
            "%(hand)s %(posted)s was complete before your counts arrived, so they were not "
            "saved. They are below for %(noun)s %(number)s: enter them if they are that "
            "%(noun)s's; to change %(noun)s %(posted)s, tap its cell on the sheet.",
            number=sheet.current_hand,
            **counted,
        )
    elif facts.counts is not None:
        # NOTE: as the message before, to a phone that is not the host's.
        message = _(
            "%(hand)s %(posted)s was complete before your counts arrived, so they were not "
            "saved: only the host can change %(noun)s %(posted)s now. They are below for "
            "%(noun)s %(number)s: enter them if they are that %(noun)s's.",
            number=sheet.current_hand,
            **counted,
        )
    elif viewer.is_host:
        # NOTE: %(hand)s is the game's word for a hand ("Hand", or "Round"), %(noun)s the
        # same word inside a sentence; %(points)s what the host typed; %(number)s and
        # %(current)s are hand numbers.
        message = _(
            "%(hand)s %(number)s was complete before your %(points)s arrived, so it was not "
            "saved. It is in the form for %(noun)s %(current)s below: enter it if it is "
            "that %(noun)s's; to change %(noun)s %(number)s, tap its cell on the sheet.",
            **said,
        )
    else:
        # NOTE: as the message before, to a phone that is not the host's.
        message = _(
            "%(hand)s %(number)s was complete before your %(points)s arrived, so it was not "
            "saved: only the host can change %(noun)s %(number)s now. Your %(points)s is in "
            "the form for %(noun)s %(current)s below: enter it if it is that %(noun)s's.",
            **said,
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
            # NOTE: %(hand)s is the game's word for a hand ("Hand", or "Round"), at the
            # start of the sentence; %(noun)s the same word inside it ("hand", "round").
            _(
                "%(hand)s %(current)s isn't complete yet: %(noun)s %(number)s can't start.",
                hand=sheet.game.hand_word,
                current=sheet.current_hand,
                noun=sheet.game.hand_noun,
                number=number,
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
    # NOTE: %(hand)s is the game's word for a hand ("Hand", or "Round"); %(why)s is
    # one or more sentences saying what doesn't add up.
    return _(
        "%(hand)s %(number)s: nothing was saved. %(why)s",
        hand=sheet.game.hand_word,
        number=number,
        why=" ".join(say(conflict.reason) for conflict in conflicts),
    )


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
    # NOTE: %(side)s is a side's name, %(noun)s the game's word for a hand inside a sentence
    # ("hand", or "round"), %(number)s its number, %(points)s what the cell reads now.
    said = {"side": side.name, "noun": sheet.game.hand_noun, "number": number}
    if entry is None and correcting:
        message = _(
            "Someone changed the cell of %(side)s in %(noun)s %(number)s meanwhile: it is empty "
            "again. Nothing was saved; look again and correct it if it is still wrong.",
            **said,
        )
    elif entry is None:
        message = _(
            "The host changed the cell of %(side)s in %(noun)s %(number)s meanwhile: it is empty "
            "again. Nothing was saved: the form below shows it now; enter yours again if it should "
            "change.",
            **said,
        )
    else:
        message = _changed_by(sheet, number, side, entry, viewer, said, correcting=correcting)
    raise Refusal(message, 409, sheet.match)


def _changed_by(
    sheet: Sheet,
    number: int,
    side: StoredSide,
    entry: StoredEntry,
    viewer: Viewer,
    said: dict[str, object],
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
    said = {**said, "points": entry.facts.points}
    if by == viewer.phone and correcting:
        return _(
            "This phone, on another page, changed the cell of %(side)s in %(noun)s %(number)s "
            "meanwhile: it now reads %(points)s. Nothing was saved; look again and correct it if "
            "it is still wrong.",
            **said,
        )
    if by == viewer.phone:
        return _(
            "This phone, on another page, changed the cell of %(side)s in %(noun)s %(number)s "
            "meanwhile: it now reads %(points)s. Nothing was saved: the form below shows it now; "
            "enter yours again if it should change.",
            **said,
        )
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
    if correcting and name is not None:
        # NOTE: %(person)s is a player and their side: "Omar (Us)"; %(side)s a side's name.
        return _(
            "%(person)s changed the cell of %(side)s in %(noun)s %(number)s meanwhile: it now "
            "reads %(points)s. Nothing was saved; look again and correct it if it is still wrong.",
            person=name,
            **said,
        )
    if correcting and corrected_by is not None:
        # The host role has moved since: the correction was the host's before this phone's.
        return _(
            "The previous host changed the cell of %(side)s in %(noun)s %(number)s meanwhile: it "
            "now reads %(points)s. Nothing was saved; look again and correct it if it is still "
            "wrong.",
            **said,
        )
    if correcting:
        # A phone that gave no name: the side it held says whose it was.
        # NOTE: %(side)s is a side's name, said twice: "A phone holding Ben changed the cell of
        # Ben…".
        return _(
            "A phone holding %(side)s changed the cell of %(side)s in %(noun)s %(number)s "
            "meanwhile: it now reads %(points)s. Nothing was saved; look again and correct it if "
            "it is still wrong.",
            **said,
        )
    if corrected_by is not None and name is not None and corrected_by == sheet.match.host_phone:
        # NOTE: %(person)s is the host, as the table knows them: "Omar (Us)".
        return _(
            "%(person)s, the host, changed the cell of %(side)s in %(noun)s %(number)s meanwhile: "
            "it now reads %(points)s. Nothing was saved: the form below shows it now; enter yours "
            "again if it should change.",
            person=name,
            **said,
        )
    if corrected_by is not None and name is None:
        return _(
            "The host changed the cell of %(side)s in %(noun)s %(number)s meanwhile: it now reads "
            "%(points)s. Nothing was saved: the form below shows it now; enter yours again if it "
            "should change.",
            **said,
        )
    if name is not None:
        # NOTE: %(person)s is the partner who entered it, or a host who has since handed the
        # role on, with their side: "Omar (Us)".
        return _(
            "%(person)s changed the cell of %(side)s in %(noun)s %(number)s meanwhile: it now "
            "reads %(points)s. Nothing was saved: the form below shows it now; enter yours again "
            "if it should change.",
            person=name,
            **said,
        )
    return _(
        "Your partner's phone changed the cell of %(side)s in %(noun)s %(number)s meanwhile: it "
        "now reads %(points)s. Nothing was saved: the form below shows it now; enter yours again "
        "if it should change.",
        **said,
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
        said = {
            "hand": sheet.game.hand_word,
            "number": number,
            "side": side.name,
            "points": facts.points,
        }
        if cell is None or cell.entry is None:
            # NOTE: "Hand 2: Bob 10 recorded." %(hand)s is the game's word for a hand ("Hand",
            # or "Round"), %(side)s a side's name, %(points)s the points it entered.
            return Done(_("%(hand)s %(number)s: %(side)s %(points)s recorded.", **said))
        return Done(_("%(hand)s %(number)s: %(side)s changed to %(points)s.", **said))

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
            raise Refusal(_("No hand is open for entries."), 409, viewer.match)
        if row is None or row.number != number:
            raise Refusal(say(settling.say(settling.stale, number)), 409, viewer.match)
        if taker.id not in {side.id for side in sheet.waiting_sides}:
            raise Refusal(_("%(side)s isn't in the tie.", side=taker.name), 409, viewer.match)
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
