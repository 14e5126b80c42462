"""The host's corrections: one cell, or a whole hand at once; every old value kept in the trail.
And the host's fills: the open hand's cells of the sides no phone holds, one at a time or the
whole hand from one form, each checked as that side's own entry would be."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import sqlalchemy as sa

from scorekeeper.errors import Refusal
from scorekeeper.extensions import db
from scorekeeper.games import EntryFacts
from scorekeeper.models import Correction, StoredMatch, StoredSide, utcnow
from scorekeeper.phones.rules import Action, Viewer
from scorekeeper.scoresheet.entries import (
    as_entered,
    check_beside_the_others,
    check_open_hand,
    check_unchanged,
    write_cell,
)
from scorekeeper.scoresheet.sheet import Sheet, load_sheet
from scorekeeper.scoresheet.stored import StoredEntry, cell_values
from scorekeeper.scoresheet.writing import Done, Post, act, act_on_sides
from scorekeeper.terms import listed
from scorekeeper.words import corrections as words
from scorekeeper.words import entries

# The trail's new line, a statement of SQLAlchemy Core built once (as write_cell's).
CORRECTIONS: sa.Table = Correction.__table__  # type: ignore[assignment]
NEW_CORRECTION = sa.insert(CORRECTIONS)


class Fix(NamedTuple):
    """The host's new value for one cell, against the cell's revision the host saw (0: empty)."""

    side: StoredSide
    facts: EntryFacts
    seen_revision: int


def check_started(sheet: Sheet, number: int, last: int) -> None:
    """Refuse a correction of a hand past `last`: it hasn't started, nothing is there."""
    if not 1 <= number <= last:
        raise Refusal(words.not_started(sheet.game.hand_word, number), 409, sheet.match)


def _as_seen(sheet: Sheet, number: int, fix: Fix, viewer: Viewer) -> StoredEntry | None:
    """The cell's entry, if it is still as the host saw it; else the refusal that says so."""
    return check_unchanged(sheet, number, fix.side, fix.seen_revision, viewer, correcting=True)


def _record_fix(
    sheet: Sheet, number: int, fix: Fix, entry: StoredEntry | None, reason: str, phone: str
) -> None:
    """Write the host's value into the cell, and the old one into the trail."""
    # One moment for both: a cell the host filled is the host's correction, not an entry made
    # after it (a stale post names who changed the cell by comparing the two).
    now = utcnow()
    write_cell(sheet, number, fix.side, fix.facts, phone, restamp=False, at=now)
    trail = {
        "match_id": sheet.match.id,
        "hand_number": number,
        "side_id": fix.side.id,
        "old_points": entry.facts.points if entry else None,
        "new_points": fix.facts.points,
        "old_detail": cell_values(entry.facts) if entry else None,
        "new_detail": cell_values(fix.facts),
        "reason": reason.strip(),
        "by_phone": phone,
        "made_at": now,
    }
    db.session.connection().execute(NEW_CORRECTION, trail)


def is_fill(
    sheet: Sheet, number: int, side: StoredSide, entry: StoredEntry | None, viewer: Viewer
) -> bool:
    """Whether the host's value for this cell fills the open hand in a side's place (its cell
    empty, or the side held by no phone), rather than correcting what the side entered: a
    fill is held to the side's own checks (Action.FILL, the others' entries)."""
    return number == sheet.current_hand and (entry is None or side.id not in viewer.held)


def correct_cell(match: StoredMatch, number: int, fix: Fix, reason: str, post: Post) -> Done:
    """The host corrects a cell, or fills the open hand's cell of a side no phone holds
    (checked as that side's own entry would be); the old value goes to the trail."""

    def work(viewer: Viewer) -> Done:
        sheet = load_sheet(viewer.match, corrections=False)
        check_started(sheet, number, max(sheet.current_hand or 0, len(sheet.hands)))
        entry = _as_seen(sheet, number, fix, viewer)
        if is_fill(sheet, number, fix.side, entry, viewer):
            viewer.require(Action.FILL, fix.side)
        # A fill is held to the side's own checks, and a correction to the whole hand's: the
        # cell must stand beside the others as stored (a 26-26 split one side only says, two
        # sides with the most cards alone, past the pack) whichever way the host changes it.
        hand = as_entered(sheet, number)
        check_beside_the_others(sheet, number, fix.side, fix.facts, hand, named=True)
        _record_fix(sheet, number, fix, entry, reason, viewer.phone or "")
        hand_word, side, points = sheet.game.hand_word, fix.side.name, fix.facts.points
        if entry is None:
            # A fill is an entry made in the side's place, told as the side's own would be.
            return Done(entries.entered(hand_word, number, side, points, changed=False))
        return Done(words.cell_corrected(hand_word, number, side, entry.facts.points, points))

    return act(match, post, Action.CORRECT, work)


def _differs(entry: StoredEntry, fix: Fix) -> bool:
    """Whether the host's value for a cell changes its points or a tick (a form that carries no
    counts leaves a calculator cell's as they were), or the counts it carries."""
    if fix.facts.counts is not None:
        return entry.facts != fix.facts
    return entry.facts._replace(counts=None) != fix.facts._replace(counts=None)


def as_it_was(sheet: Sheet, number: int) -> Done:
    """The answer to a whole hand's form that changes no cell: nothing written."""
    return Done(words.as_it_was(sheet.game.hand_word, number), changed=False)


def correct_hand(
    match: StoredMatch, number: int, fixes: Sequence[Fix], reason: str, post: Post
) -> Done:
    """The host corrects a whole hand at once: every side's cell checked together (as the
    game checks an entry beside the others) and saved together, so a 26-26 hand made 27-25
    never shows half-fixed. Cells left as they were are not touched."""

    def work(viewer: Viewer) -> Done:
        sheet = load_sheet(viewer.match, corrections=False)
        check_started(sheet, number, len(sheet.hands))
        seen = [(fix, _as_seen(sheet, number, fix, viewer)) for fix in fixes]
        # Compared on what the form carries (points and ticks): a calculator cell the host
        # left as it was keeps its counts and breakdown.
        changed = [(fix, entry) for fix, entry in seen if entry is None or _differs(entry, fix)]
        word = sheet.game.hand_word
        if not changed:
            return as_it_was(sheet, number)
        for fix, entry in changed:
            # The open hand's empty cells are a side's own to enter, or the host's to fill
            # where no phone holds the side (the sheet's one form does that).
            if is_fill(sheet, number, fix.side, entry, viewer):
                viewer.require(Action.FILL, fix.side)
        # The hand as it would stand: a cell left as it was keeps its counts, so the changed
        # ones are checked against those too (a split ticked beside a count of 30 cards).
        hand: list[EntryFacts | None] = [None] * len(sheet.sides)
        for fix, entry in seen:
            kept = entry is not None and not _differs(entry, fix)
            hand[fix.side.position] = entry.facts if entry is not None and kept else fix.facts
        for fix, _entry in changed:
            check_beside_the_others(sheet, number, fix.side, fix.facts, hand, named=True)
        for fix, entry in changed:
            _record_fix(sheet, number, fix, entry, reason, viewer.phone or "")
        said = listed(_cell_change(fix, entry) for fix, entry in changed)
        return Done(words.hand_corrected(word, number, said))

    return act(match, post, Action.CORRECT, work)


def fill_hand(match: StoredMatch, number: int, fixes: Sequence[Fix], post: Post) -> Done:
    """The host enters the open hand from one form for every side it may: its own side's
    entry, and a fill (kept in the trail) for each side no phone holds. Each is checked as
    that side's own entry would be, in column order, beside what the others entered before
    it; all are saved together, or none. Cells left as they were are not touched."""

    def work(viewer: Viewer) -> Done:
        sheet = load_sheet(viewer.match, corrections=False)
        own = viewer.side.id if viewer.side is not None else None
        if sheet.current_hand is None or number != sheet.current_hand:
            _not_open(sheet, number, viewer, fixes)
        changed: list[tuple[Fix, StoredEntry | None]] = []
        for fix in sorted(fixes, key=lambda fix: fix.side.position):
            entry = check_unchanged(
                sheet, number, fix.side, fix.seen_revision, viewer, correcting=False
            )
            if entry is None or _differs(entry, fix):
                changed.append((fix, entry))
        # The hand as it would stand, every changed cell in it: each is checked beside the
        # others' new values, not the old ones this form replaces (a tie unticked on two
        # lines at once, card points of 90–10 replacing 40–40).
        hand = as_entered(sheet, number)
        for fix, _entry in changed:
            hand[fix.side.position] = fix.facts
        # The keeper typed every total in this form: the words name each side, its own too.
        for fix, _entry in changed:
            check_beside_the_others(sheet, number, fix.side, fix.facts, hand, named=True)
        word = sheet.game.hand_word
        if not changed:
            return as_it_was(sheet, number)
        for fix, entry in changed:
            if fix.side.id == own:
                write_cell(sheet, number, fix.side, fix.facts, viewer.phone or "", restamp=True)
            else:
                _record_fix(sheet, number, fix, entry, "", viewer.phone or "")
            if number > len(sheet.hands):
                # The first cell written started the hand: the next ones go into it.
                sheet = load_sheet(viewer.match, corrections=False)
        said = listed(words.side_total(fix.side.name, fix.facts.points) for fix, _entry in changed)
        return Done(words.hand_recorded(word, number, said))

    return act_on_sides(match, post, [fix.side for fix in fixes], work)


def _not_open(sheet: Sheet, number: int, viewer: Viewer, fixes: Sequence[Fix]) -> None:
    """Refuse a whole hand's form for a hand that isn't open now, saying why: one that
    completed before it arrived is given back (the route puts it in the open hand's form)."""
    if sheet.current_hand is not None and number < sheet.current_hand:
        raise Refusal(
            words.complete_before(
                sheet.game.hand_word, sheet.game.hand_noun, number, sheet.current_hand
            ),
            409,
            sheet.match,
        )
    check_open_hand(sheet, number, viewer, fixes[0].facts if fixes else EntryFacts(0))


def _cell_change(fix: Fix, entry: StoredEntry | None) -> str:
    """One cell of a corrected hand, as its answer lists it: "Ana 61 → 70"."""
    old = entry.facts.points if entry is not None else None
    return words.cell_change(fix.side.name, old, fix.facts.points)
