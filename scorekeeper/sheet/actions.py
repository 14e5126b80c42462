"""Everything that changes a match: one transaction each, read top to bottom.

Every action runs the same steps (_run): take the match's write lock by bumping its version
(on PostgreSQL the row lock makes the phones of one table take turns: two partners entering
together, End match pressed twice; on SQLite the database's write lock does the same), record
the post's idempotency key (a resent post stops there), then read what the check needs, check
(permissions.py and the game's rules), write, commit. Nothing the check relies on is read
before the lock, so each check sees what the previous phone wrote.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

import sqlalchemy as sa
from flask_babel import force_locale, ngettext, pgettext
from flask_babel import gettext as _
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError

from scorekeeper.extensions import db
from scorekeeper.games import EntryFacts, get_game
from scorekeeper.models import (
    Correction,
    Entry,
    Hand,
    Match,
    Seat,
    Side,
    Submission,
    history_order,
    seat_at,
    utcnow,
)
from scorekeeper.permissions import Action, Refusal, SeatAt, Viewer, seats_at, viewer_for
from scorekeeper.sheet.forms import what_was_posted
from scorekeeper.sheet.state import Sheet, StoredEntry, cell_values, load_sheet
from scorekeeper.tables.setup import NewMatch, add_match
from scorekeeper.versions import announcement, versions

# Phones that may watch one match: a TV, friends, family; beyond it, a stranger's script.
MAX_WATCHERS = 50

# The columns of a match that actions change (the lock bumps the version; end, reopen,
# abandon, hand over, closing the table, the rematch and the dealer change the rest): read
# again under the lock, so an action checks them as the last writer left them.
CHANGING = [
    "version",
    "status",
    "host_phone",
    "winner_side_id",
    "result",
    "ended_at",
    "closed",
    "rematch_code",
    "first_dealer",
]


@dataclass(frozen=True)
class Done:
    """What an action did, in words for the phone that asked."""

    message: str
    repeated: bool = False
    # False when the action found nothing to change: its lock is let go without a new version,
    # so no phone at the table fetches its page again for nothing.
    changed: bool = True
    # The match the phone goes on to, if not this one (a rematch).
    go_to: str | None = None


def _lock(match: Match) -> int:
    """Take the match's write lock by bumping its version, and read its row as it now stands
    (status, host) into `match`; the new version. The same statement announces the version
    to every worker (versions.py), sent by PostgreSQL when the write commits."""
    # What an action may have changed since the request read the match is read again, from
    # the row the lock returns; its settings and sides stay as read (no action changes them).
    db.session.expire(match, CHANGING)
    bumped = (
        sa.update(Match)
        .where(Match.id == match.id)
        .values(version=Match.version + 1)
        .returning(Match, *announcement(db.engine.dialect.name))
    )
    db.session.execute(bumped).one()
    return match.version


def _first_time(match: Match, key: str | None) -> bool:
    """Record a post's idempotency key; False if that very post was carried out already; a
    Refusal if the key came before with other values or for another match (a page's key
    reused by hand or by a bug: taking it for the first post would hide this one).

    Under the lock, a resent post finds the first one's key committed; without a key (an old
    page) the post is simply carried out.
    """
    if not key:
        return True
    posted = what_was_posted()
    insert = sqlite.insert if db.engine.dialect.name == "sqlite" else postgresql.insert
    recorded = (
        insert(Submission)
        .values(key=key, match_id=match.id, made_at=utcnow(), posted=posted)
        .on_conflict_do_nothing(index_elements=[Submission.key])
        .returning(Submission.key)
    )
    if db.session.execute(recorded).first() is not None:
        return True
    first = db.session.execute(
        sa.select(Submission.match_id, Submission.posted).where(Submission.key == key)
    ).one()
    if first.match_id != match.id or first.posted not in (None, posted):
        raise Refusal(
            _(
                "This form was sent before with other values, so nothing was saved. "
                "Reload the page and try again."
            ),
            409,
            match,
        )
    return False


def _run(match: Match, key: str | None, work: Callable[[Viewer], Done]) -> Done:
    """Lock, skip a repeated post, read this phone's seat, do the work, commit; undo
    everything on a refusal."""
    code = match.code
    try:
        version = _lock(match)
        if not _first_time(match, key):
            db.session.rollback()
            return Done(_("Already recorded."), repeated=True)
        done = work(viewer_for(match))
        if not done.changed:
            db.session.rollback()
            return done
        db.session.commit()
    except Refusal:
        db.session.rollback()
        raise
    except IntegrityError as clash:
        # Only reachable if two writers slipped past the lock (they cannot on SQLite or
        # PostgreSQL); the database's own constraints then keep the sheet whole.
        db.session.rollback()
        raise Refusal(
            _("Someone else changed the sheet at the same moment. Try again."), 409, match
        ) from clash
    versions().wrote(code, version)
    return done


def _write_cell(
    sheet: Sheet, number: int, side: Side, facts: EntryFacts, phone: str, *, restamp: bool
) -> None:
    """Store a side's cell: a new entry (starting the hand if need be), or the next revision
    of the one there. `restamp` records this phone as the one who entered it (an entry does;
    a correction keeps the side's)."""
    values = cell_values(facts)
    cell = sheet.cell(number, side)
    if cell is not None and cell.entry is not None:
        stamp = {"entered_by": phone, "entered_at": utcnow()} if restamp else {}
        db.session.execute(
            sa.update(Entry)
            .where(Entry.id == cell.entry.id)
            .values(revision=Entry.revision + 1, **values, **stamp)
        )
        return
    entry = Entry(side_id=side.id, entered_by=phone, **values)
    if number <= len(sheet.hands):
        entry.hand_id = sheet.hands[number - 1].id
    else:
        entry.hand = Hand(match_id=sheet.match.id, number=number)
    db.session.add(entry)


def _check_open_hand(sheet: Sheet, hand_number: int, viewer: Viewer, facts: EntryFacts) -> None:
    """Refuse an entry for any hand but the one open now, saying why in the words that fit
    this phone; an entry for a hand that completed meanwhile is given back, in the form for
    the open hand, to enter again."""
    match = sheet.match
    if sheet.current_hand is None:
        if sheet.winner is not None:
            raise Refusal(
                # NOTE: %(side)s is the name of the side that has won.
                _(
                    "%(side)s has won: end the match, or the host can correct a hand.",
                    side=sheet.winner.name,
                ),
                409,
                match,
            )
        if sheet.last_trick_row is not None:
            raise Refusal(
                # NOTE: Brisca: a round tied at the top; %(number)s is the round's number.
                _(
                    "Round %(number)s is tied: say who took the last trick first.",
                    number=sheet.last_trick_row.number,
                ),
                409,
                match,
            )
        raise Refusal(_("No hand is open for entries."), 409, match)
    word = sheet.game.hand_word
    if hand_number < sheet.current_hand:
        # The phone's form was drawn before the other sides finished the hand: what was typed
        # is likely the next hand's, or a change the host makes from the sheet.
        said = {
            "hand": word,
            "number": hand_number,
            "points": facts.points,
            "noun": sheet.game.hand_noun,
            "current": sheet.current_hand,
        }
        if viewer.is_host:
            # NOTE: %(hand)s is the game's word for a hand ("Hand", Brisca's "Round"), %(noun)s
            # the same word inside a sentence; %(points)s what the host typed; %(number)s and
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
        raise Refusal(message, 409, match, given_back=facts)
    if hand_number > sheet.current_hand:
        raise Refusal(
            # NOTE: %(hand)s is the game's word for a hand ("Hand", Brisca's "Round"), at the
            # start of the sentence; %(noun)s the same word inside it ("hand", "round").
            _(
                "%(hand)s %(current)s isn't complete yet: %(noun)s %(number)s can't start.",
                hand=word,
                current=sheet.current_hand,
                noun=sheet.game.hand_noun,
                number=hand_number,
            ),
            409,
            match,
        )


def _check_beside_the_others(sheet: Sheet, hand_number: int, side: Side, facts: EntryFacts) -> None:
    """Refuse an entry the other sides' entries in the same hand make impossible (Brisca's
    card points past 120, the calculators' cards past the pack), naming their entries."""
    hand: list[EntryFacts | None] = []
    if hand_number <= len(sheet.grid):
        hand = [entry.facts if entry else None for entry in sheet.grid[hand_number - 1]]
    conflict = sheet.game.entry_conflict(sheet.table, hand, side.position, facts)
    if conflict is not None:
        raise Refusal(nothing_saved(sheet, hand_number, conflict), 409, sheet.match)


def nothing_saved(sheet: Sheet, hand_number: int, conflict: str) -> str:
    """An entry refused beside the other sides' entries: which hand, and why."""
    # NOTE: %(hand)s is the game's word for a hand ("Hand", Brisca's "Round"); %(why)s is a
    # sentence saying what doesn't add up.
    return _(
        "%(hand)s %(number)s: nothing was saved. %(why)s",
        hand=sheet.game.hand_word,
        number=hand_number,
        why=conflict,
    )


def enter_hand(
    match: Match,
    side: Side,
    hand_number: int,
    facts: EntryFacts,
    key: str | None,
    seen_revision: int | None = None,
) -> Done:
    """A side enters (or changes, until every side has entered) its total for the open hand.

    `seen_revision` is the cell's revision the phone's form was drawn with (0: empty): if a
    partner or the host changed the cell since, nothing is saved and the phone is told who
    changed it to what. (None: a form from before forms said, taken as it comes.)
    """

    def work(viewer: Viewer) -> Done:
        viewer.require(Action.ENTER, side)
        sheet = load_sheet(match, corrections=False)
        _check_open_hand(sheet, hand_number, viewer, facts)
        cell = sheet.cell(hand_number, side)
        entry = cell.entry if cell else None
        if seen_revision is not None and seen_revision != (entry.revision if entry else 0):
            raise _changed_meanwhile(match, side, hand_number, entry, viewer)
        _check_beside_the_others(sheet, hand_number, side, facts)
        _write_cell(sheet, hand_number, side, facts, viewer.phone or "", restamp=True)
        said = {
            "hand": sheet.game.hand_word,
            "number": hand_number,
            "side": side.name,
            "points": facts.points,
        }
        if cell is None or cell.entry is None:
            # NOTE: "Hand 2: Bob 10 recorded." %(hand)s is the game's word for a hand ("Hand",
            # Brisca's "Round"), %(side)s a side's name, %(points)s the points it entered.
            return Done(_("%(hand)s %(number)s: %(side)s %(points)s recorded.", **said))
        return Done(_("%(hand)s %(number)s: %(side)s changed to %(points)s.", **said))

    return _run(match, key, work)


def _changed_meanwhile(
    match: Match, side: Side, hand_number: int, entry: StoredEntry | None, viewer: Viewer
) -> Refusal:
    """The refusal of an edit made from a form older than the cell: who changed it to what."""
    # NOTE: %(side)s is a side's name, %(noun)s the game's word for a hand inside a sentence
    # ("hand", Brisca's "round"), %(number)s its number, %(points)s what the cell reads now.
    said = {"side": side.name, "noun": get_game(match.game).hand_noun, "number": hand_number}
    if entry is None:
        message = _(
            "The host changed %(side)s's %(noun)s %(number)s meanwhile: it is empty again. "
            "Nothing was saved: the form below shows it now; enter yours again if it should "
            "change.",
            **said,
        )
        return Refusal(message, 409, match)
    stored = db.session.get_one(Entry, entry.id)
    corrected_at = db.session.scalar(
        sa.select(sa.func.max(Correction.made_at)).where(
            Correction.match_id == match.id,
            Correction.hand_number == hand_number,
            Correction.side_id == side.id,
        )
    )
    if corrected_at is not None and corrected_at >= stored.entered_at:
        message = _(
            "The host changed %(side)s's %(noun)s %(number)s meanwhile: it now reads %(points)s. "
            "Nothing was saved: the form below shows it now; enter yours again if it should "
            "change.",
            points=entry.points,
            **said,
        )
    elif stored.entered_by != viewer.phone:
        message = _(
            "Your partner's phone changed %(side)s's %(noun)s %(number)s meanwhile: it now reads "
            "%(points)s. Nothing was saved: the form below shows it now; enter yours again if "
            "it should change.",
            points=entry.points,
            **said,
        )
    else:
        message = _(
            "This phone, on another page, changed %(side)s's %(noun)s %(number)s meanwhile: it now "
            "reads %(points)s. Nothing was saved: the form below shows it now; enter yours "
            "again if it should change.",
            points=entry.points,
            **said,
        )
    return Refusal(message, 409, match)


class Fix(NamedTuple):
    """The host's new value for one cell, against the cell's revision the host saw (0: empty)."""

    side: Side
    facts: EntryFacts
    seen_revision: int


def check_started(sheet: Sheet, hand_number: int, last: int) -> None:
    """Refuse a correction of a hand past `last`: it hasn't started, nothing is there."""
    if not 1 <= hand_number <= last:
        raise Refusal(
            # NOTE: %(hand)s is the game's word for a hand ("Hand", Brisca's "Round").
            _(
                "%(hand)s %(number)s hasn't started: there is nothing to correct.",
                hand=sheet.game.hand_word,
                number=hand_number,
            ),
            409,
            sheet.match,
        )


def _as_seen(sheet: Sheet, hand_number: int, fix: Fix) -> StoredEntry | None:
    """The cell's entry, if it is still as the host saw it; else the refusal that says what
    it reads now."""
    cell = sheet.cell(hand_number, fix.side)
    entry = cell.entry if cell else None
    if (entry.revision if entry else 0) != fix.seen_revision:
        # NOTE: %(side)s is a side's name; %(noun)s the game's word for a hand, inside a
        # sentence ("hand", Brisca's "round"); %(points)s what the cell reads now.
        said = {"side": fix.side.name, "noun": sheet.game.hand_noun}
        if entry is None:
            message = _(
                "Someone changed %(side)s's %(noun)s %(number)s meanwhile: it is empty again. "
                "Nothing was saved; look again and correct it if it is still wrong.",
                number=hand_number,
                **said,
            )
        else:
            message = _(
                "Someone changed %(side)s's %(noun)s %(number)s meanwhile: it now reads "
                "%(points)s. Nothing was saved; look again and correct it if it is still wrong.",
                number=hand_number,
                points=entry.points,
                **said,
            )
        raise Refusal(message, 409, sheet.match)
    return entry


def _record_fix(
    sheet: Sheet, hand_number: int, fix: Fix, entry: StoredEntry | None, reason: str, phone: str
) -> None:
    """Write the host's value into the cell, and the old one into the trail."""
    _write_cell(sheet, hand_number, fix.side, fix.facts, phone, restamp=False)
    db.session.add(
        Correction(
            match_id=sheet.match.id,
            hand_number=hand_number,
            side_id=fix.side.id,
            old_points=entry.points if entry else None,
            new_points=fix.facts.points,
            old_detail=entry.detail() if entry else None,
            new_detail=cell_values(fix.facts),
            reason=reason.strip(),
            by_phone=phone,
        )
    )


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

    def work(viewer: Viewer) -> Done:
        viewer.require(Action.CORRECT)
        sheet = load_sheet(match, corrections=False)
        check_started(sheet, hand_number, max(sheet.current_hand or 0, len(sheet.hands)))
        fix = Fix(side, facts, seen_revision)
        entry = _as_seen(sheet, hand_number, fix)
        _record_fix(sheet, hand_number, fix, entry, reason, viewer.phone or "")
        # NOTE: %(hand)s is the game's word for a hand ("Hand", Brisca's "Round"), %(side)s a
        # side's name, %(old)s and %(points)s the cell's points before and after.
        said = {"hand": sheet.game.hand_word, "number": hand_number, "side": side.name}
        if entry is None:
            return Done(
                _(
                    "%(hand)s %(number)s: %(side)s filled in to %(points)s.",
                    points=facts.points,
                    **said,
                )
            )
        return Done(
            _(
                "%(hand)s %(number)s: %(side)s corrected from %(old)s to %(points)s.",
                old=entry.points,
                points=facts.points,
                **said,
            )
        )

    return _run(match, key, work)


def _differs(entry: StoredEntry, fix: Fix) -> bool:
    """Whether the host's value for a cell changes its points or a tick."""
    had, wants = entry.facts, fix.facts
    return (had.points, had.even_split, had.last_trick, had.black_hand) != (
        wants.points,
        wants.even_split,
        wants.last_trick,
        wants.black_hand,
    )


def correct_hand(
    match: Match, hand_number: int, fixes: Sequence[Fix], reason: str, key: str | None
) -> Done:
    """The host corrects a whole hand at once: every side's cell checked together (as the
    game checks an entry beside the others) and saved together, so a 26-26 hand made 27-25
    never shows half-fixed. Cells left as they were are not touched."""

    def work(viewer: Viewer) -> Done:
        viewer.require(Action.CORRECT)
        sheet = load_sheet(match, corrections=False)
        check_started(sheet, hand_number, len(sheet.hands))
        seen = [(fix, _as_seen(sheet, hand_number, fix)) for fix in fixes]
        # Compared on what the form carries (points and ticks): a calculator cell the host
        # left as it was keeps its counts and breakdown.
        changed = [(fix, entry) for fix, entry in seen if entry is None or _differs(entry, fix)]
        word = sheet.game.hand_word
        if not changed:
            return Done(
                # NOTE: %(hand)s is the game's word for a hand ("Hand", Brisca's "Round").
                _(
                    "%(hand)s %(number)s is as it was: nothing to change.",
                    hand=word,
                    number=hand_number,
                ),
                changed=False,
            )
        hand: list[EntryFacts | None] = [None] * len(sheet.sides)
        for fix in fixes:
            hand[fix.side.position] = fix.facts
        for fix, _entry in changed:
            conflict = sheet.game.entry_conflict(sheet.table, hand, fix.side.position, fix.facts)
            if conflict is not None:
                raise Refusal(nothing_saved(sheet, hand_number, conflict), 409, match)
        for fix, entry in changed:
            _record_fix(sheet, hand_number, fix, entry, reason, viewer.phone or "")
        said = listed(_cell_change(fix, entry) for fix, entry in changed)
        # NOTE: "Hand 1 corrected: Ana 61 → 70, Bea 59 → 50." %(hand)s is the game's word for a
        # hand ("Hand", Brisca's "Round"); %(changes)s the cells changed, as a list.
        return Done(
            _(
                "%(hand)s %(number)s corrected: %(changes)s.",
                hand=word,
                number=hand_number,
                changes=said,
            )
        )

    return _run(match, key, work)


def _cell_change(fix: Fix, entry: StoredEntry | None) -> str:
    """One cell of a corrected hand, as its answer lists it: "Ana 61 → 70"."""
    side, now = fix.side.name, fix.facts.points
    if entry is None:
        # NOTE: one cell of a corrected hand: a side's name, empty before, its points after.
        return _("%(side)s empty → %(new)s", side=side, new=now)
    # NOTE: one cell of a corrected hand: a side's name, its points before → after.
    return _("%(side)s %(old)s → %(new)s", side=side, old=entry.points, new=now)


def say_last_trick(match: Match, hand_number: int, taker: Side, key: str | None) -> Done:
    """Settle a Brisca round tied at the top: the tied side that took the last trick wins it."""

    def work(viewer: Viewer) -> Done:
        sheet = load_sheet(match, corrections=False)
        row = sheet.last_trick_row
        tied = {side.id for side in sheet.last_trick_sides}
        viewer.require(Action.LAST_TRICK, among=tied)
        if row is None or row.number != hand_number:
            raise Refusal(
                # NOTE: Brisca: %(number)s is a round's number.
                _(
                    "Round %(number)s isn't waiting for the last trick: look at the sheet again.",
                    number=hand_number,
                ),
                409,
                match,
            )
        if taker.id not in tied:
            raise Refusal(_("%(side)s isn't in the tie.", side=taker.name), 409, match)
        db.session.execute(
            sa.update(Entry)
            .where(Entry.hand_id == row.hand_id)
            .values(last_trick=Entry.side_id == taker.id, revision=Entry.revision + 1)
        )
        # NOTE: Brisca: "Round 2: Ana took the last trick." %(side)s is a side's name.
        return Done(
            _(
                "Round %(number)s: %(side)s took the last trick.",
                number=hand_number,
                side=taker.name,
            )
        )

    return _run(match, key, work)


def _reorder_history(match: Match) -> None:
    """The match's status changed: move it in the history of every phone seated at it."""
    db.session.execute(
        sa.update(Seat).where(Seat.match_id == match.id).values(**history_order(match))
    )


def end_match(match: Match, key: str | None) -> Done:
    """Any seated phone ends the match, once the game's rule says a side has won."""

    def work(viewer: Viewer) -> Done:
        viewer.require(Action.END)
        sheet = load_sheet(match, corrections=False)
        if sheet.winner is None:
            raise Refusal(_("No side has won yet: play on."), 409, match)
        match.status = Match.ENDED
        match.winner_side_id = sheet.winner.id
        match.result = _stored_result(sheet, sheet.winner)
        match.ended_at = utcnow()
        _reorder_history(match)
        return Done(_("Match over: %(side)s won.", side=sheet.winner.name))

    return _run(match, key, work)


def _stored_result(sheet: Sheet, winner: Side) -> str:
    """Who won and why, as End match stores it: in English, whatever the language of the phone
    that ended it, as it always was (the JSON export carries it as stored). Pages show
    Sheet.result instead, in the language of the phone that reads it."""
    # The rules' reason, worked out again in English (the sheet's may be in this phone's).
    with force_locale("en"):
        hands = [[entry.facts if entry else None for entry in cells] for cells in sheet.grid]
        reason = str(sheet.game.state(sheet.table, hands).reason)
    return f"{winner.name} won. {reason}".strip()


def reopen_match(match: Match, key: str | None) -> Done:
    """The host reopens a match ended or abandoned by mistake."""

    def work(viewer: Viewer) -> Done:
        viewer.require(Action.REOPEN)
        match.status = Match.OPEN
        match.winner_side_id = None
        match.result = ""
        match.ended_at = None
        # Played on, it is no longer the match the rematch followed: its end offers a new one.
        match.rematch_code = None
        _reorder_history(match)
        return Done(_("Match reopened."))

    return _run(match, key, work)


def abandon_match(match: Match, key: str | None) -> Done:
    """The host abandons an unfinished match; it stays in history as abandoned."""

    def work(viewer: Viewer) -> Done:
        viewer.require(Action.ABANDON)
        match.status = Match.ABANDONED
        # Stored in English (see end_match): a page shows Sheet.result.
        match.result = "Abandoned."
        match.ended_at = utcnow()
        _reorder_history(match)
        return Done(_("Match abandoned."))

    return _run(match, key, work)


def rematch(match: Match, key: str | None) -> Done:
    """Start the next match of an ended one: the same game, table, target, rules and side
    names, this phone its host on the side it held. Every phone of the ended match is then
    offered its side there; a second tap (from any phone) goes to the same rematch."""

    def work(viewer: Viewer) -> Done:
        viewer.require(Action.REMATCH)
        if match.rematch_code is not None:
            return Done(_("The rematch is ready."), changed=False, go_to=match.rematch_code)
        choice = NewMatch(
            table_format=match.table_format,
            target=match.target,
            rules=dict(match.table_rules or {}),
            names=[(side.name, side.players) for side in match.sides],
            host_side=viewer.side.position if viewer.side else None,
            host_player=viewer.player,
        )
        # The host of the last match hosts this one; the phone that asked takes its side.
        started = add_match(get_game(match.game), choice, match.host_phone, viewer.phone or "")
        match.rematch_code = started.code
        return Done(
            _("Rematch! Every phone of the last match is asked to take its side."),
            go_to=started.code,
        )

    return _run(match, key, work)


def close_table(match: Match, key: str | None) -> Done:
    """The host closes the table: no new phone may take a side; watching stays open."""

    def work(viewer: Viewer) -> Done:
        viewer.require(Action.CLOSE_TABLE)
        match.closed = True
        return Done(_("The table is closed: no new phone can take a side."))

    return _run(match, key, work)


def open_table(match: Match, key: str | None) -> Done:
    """The host opens the table again to new phones."""

    def work(viewer: Viewer) -> Done:
        viewer.require(Action.OPEN_TABLE)
        match.closed = False
        return Done(_("The table is open: a new phone can take a free side."))

    return _run(match, key, work)


def release_side(match: Match, side: Side, key: str | None) -> Done:
    """The host frees a side (a dead phone): its phones become watchers, the side is free."""

    def work(viewer: Viewer) -> Done:
        viewer.require(Action.RELEASE)
        seats = db.session.scalars(
            sa.select(Seat).where(Seat.match_id == match.id, Seat.side_id == side.id)
        ).all()
        if not seats:
            raise Refusal(_("%(side)s is already free.", side=side.name), 409, match)
        for seat in seats:
            seat.side_id = None
        return Done(_("%(side)s is free to be claimed again.", side=side.name))

    return _run(match, key, work)


def hand_over_host(match: Match, seat_id: int, key: str | None) -> Done:
    """The host gives the host role to another phone at the match."""

    def work(viewer: Viewer) -> Done:
        viewer.require(Action.HAND_OVER)
        seat = other_seat(match, seat_id, viewer)
        match.host_phone = seat.phone
        # NOTE: %(phone)s is a phone as the table knows it: "Omar (Us)", a side's name.
        return Done(_("The host role went to %(phone)s.", phone=seat.label))

    return _run(match, key, work)


def other_seat(match: Match, seat_id: int, viewer: Viewer) -> Seat:
    """Another phone's seat at this match, by its id; a refusal for any other seat."""
    seat = db.session.get(Seat, seat_id)
    if seat is None or seat.match_id != match.id or seat.phone == viewer.phone:
        raise Refusal(_("Pick another phone at this match."), 409, match)
    return seat


def phones_on(seats: Iterable[Seat | SeatAt]) -> dict[int, int]:
    """How many phones hold each side, by side id (from the seats as read)."""
    held: dict[int, int] = {}
    for seat in seats:
        if seat.side_id is not None:
            held[seat.side_id] = held.get(seat.side_id, 0) + 1
    return held


def sides_with_room(match: Match, seats: Iterable[Seat | SeatAt]) -> tuple[Side, ...]:
    """The sides another phone may still take: fewer phones hold them than the table seats
    players on a side (the claim form offers these, and a claim is refused for any other)."""
    held, room = phones_on(seats), players_per_side(match)
    return tuple(side for side in match.sides if held.get(side.id, 0) < room)


def claim_side(match: Match, side: Side, key: str | None, player: str = "") -> Done:
    """This phone claims a side that still has room (a partnership's phones may share one);
    `player` is the name its player gave (a blank one keeps the name the seat has)."""

    def work(viewer: Viewer) -> Done:
        viewer.require(Action.CLAIM)
        if side not in sides_with_room(match, seats_at(match)):
            raise Refusal(
                _(
                    "%(side)s is already held. If that phone is gone, the host can release it.",
                    side=side.name,
                ),
                409,
                match,
            )
        if viewer.seat_id is not None:
            seat = db.session.get_one(Seat, viewer.seat_id)
            seat.side_id = side.id
            seat.player = player or seat.player
        else:
            db.session.add(seat_at(match, viewer.phone or "", side.id, player))
        return Done(_("This phone now holds %(side)s.", side=side.name))

    return _run(match, key, work)


def watch(match: Match, key: str | None, player: str = "") -> Done:
    """This phone watches the match read-only; it lands in this phone's history."""

    def work(viewer: Viewer) -> Done:
        viewer.require(Action.WATCH)
        if viewer.seat_id is not None:
            return Done(_("This phone is watching this match already."), changed=False)
        watching = db.session.scalar(
            sa.select(sa.func.count())
            .select_from(Seat)
            .where(Seat.match_id == match.id, Seat.side_id.is_(None))
        )
        if watching >= MAX_WATCHERS:
            raise Refusal(
                ngettext(
                    "%(num)d phone is watching this match already: no more can join them.",
                    "%(num)d phones are watching this match already: no more can join them.",
                    MAX_WATCHERS,
                ),
                409,
                match,
            )
        # A write like any other: the page a watcher sees differs from a newcomer's.
        db.session.add(seat_at(match, viewer.phone or "", player=player))
        return Done(_("Watching this match."))

    return _run(match, key, work)


def rename_player(match: Match, player: str, key: str | None) -> Done:
    """The person with this phone gives (or changes) their name at this match."""

    def work(viewer: Viewer) -> Done:
        viewer.require(Action.RENAME)
        if player == viewer.player:
            # NOTE: %(phone)s is a phone as the table knows it: "Omar (Us)", a side's name.
            return Done(_("This phone is %(phone)s already.", phone=viewer.label), changed=False)
        seat = db.session.get_one(Seat, viewer.seat_id)
        seat.player = player
        return Done(_("This phone is now %(phone)s.", phone=seat.label))

    return _run(match, key, work)


def pick_dealer(match: Match, first: int | None, order: Sequence[str], key: str | None) -> Done:
    """The host says who dealt the first hand (a place in the dealing order); the sheet then
    passes the deal round the table."""

    def work(viewer: Viewer) -> Done:
        viewer.require(Action.DEALER)
        if first is None or not 0 <= first < len(order):
            raise Refusal(_("Pick a player at this table."), 409, match)
        match.first_dealer = first
        # NOTE: %(player)s is a player's name, or a side's ("Us, player 2"); %(noun)s the
        # game's word for a hand inside a sentence ("hand", Brisca's "round").
        noun = get_game(match.game).hand_noun
        return Done(_("%(player)s dealt the first %(noun)s.", player=order[first], noun=noun))

    return _run(match, key, work)


def forget(match: Match, key: str | None) -> Done:
    """Take a finished (or only watched) match off this phone's history and Home; the match
    and everything on it stay for the other phones."""

    def work(viewer: Viewer) -> Done:
        viewer.require(Action.FORGET)
        # The seat stays (a reopened match finds its side still held): only the list forgets.
        db.session.execute(sa.update(Seat).where(Seat.id == viewer.seat_id).values(listed=False))
        # NOTE: %(code)s is the match's code (six letters).
        return Done(_("Match %(code)s is off this phone's list.", code=match.code))

    return _run(match, key, work)


def listed(items: Iterable[str]) -> str:
    """Several things in a row, as the phone's language separates them ("a, b, c")."""
    # NOTE: what separates the items of a list ("Ana 61 → 70, Bea 59 → 50"), with its space.
    return pgettext("list separator", ", ").join(items)


def players_per_side(match: Match) -> int:
    """How many phones may hold one side of this match (two in a partnership)."""
    return get_game(match.game).format(match.table_format).players_per_side
