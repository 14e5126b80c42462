"""The host's corrections: one cell, or a whole hand at once; every old value kept in the trail."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from flask_babel import gettext as _

from scorekeeper.extensions import db
from scorekeeper.games import EntryFacts, listed
from scorekeeper.models import Correction, Match, Side, utcnow
from scorekeeper.permissions import Action, Refusal, Viewer
from scorekeeper.scoresheet.entries import check_beside_the_others, check_unchanged, write_cell
from scorekeeper.scoresheet.sheet import Sheet, StoredEntry, cell_values, load_sheet
from scorekeeper.scoresheet.writing import Done, Post, act


class Fix(NamedTuple):
    """The host's new value for one cell, against the cell's revision the host saw (0: empty)."""

    side: Side
    facts: EntryFacts
    seen_revision: int


def check_started(sheet: Sheet, number: int, last: int) -> None:
    """Refuse a correction of a hand past `last`: it hasn't started, nothing is there."""
    if not 1 <= number <= last:
        raise Refusal(
            # NOTE: %(hand)s is the game's word for a hand ("Hand", Brisca's "Round").
            _(
                "%(hand)s %(number)s hasn't started: there is nothing to correct.",
                hand=sheet.game.hand_word,
                number=number,
            ),
            409,
            sheet.match,
        )


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
    db.session.add(
        Correction(
            match_id=sheet.match.id,
            hand_number=number,
            side_id=fix.side.id,
            old_points=entry.facts.points if entry else None,
            new_points=fix.facts.points,
            old_detail=cell_values(entry.facts) if entry else None,
            new_detail=cell_values(fix.facts),
            reason=reason.strip(),
            by_phone=phone,
            made_at=now,
        )
    )


def correct_cell(match: Match, number: int, fix: Fix, reason: str, post: Post) -> Done:
    """The host corrects a cell, or fills one a side cannot (the open hand's too, for a side
    without a phone); the old value goes to the trail."""

    def work(viewer: Viewer) -> Done:
        viewer.require(Action.CORRECT)
        sheet = load_sheet(match, corrections=False)
        check_started(sheet, number, max(sheet.current_hand or 0, len(sheet.hands)))
        entry = _as_seen(sheet, number, fix, viewer)
        _record_fix(sheet, number, fix, entry, reason, viewer.phone or "")
        # NOTE: %(hand)s is the game's word for a hand ("Hand", Brisca's "Round"), %(side)s a
        # side's name, %(old)s and %(points)s the cell's points before and after.
        said = {"hand": sheet.game.hand_word, "number": number, "side": fix.side.name}
        if entry is None:
            return Done(
                _(
                    "%(hand)s %(number)s: %(side)s filled in to %(points)s.",
                    points=fix.facts.points,
                    **said,
                )
            )
        return Done(
            _(
                "%(hand)s %(number)s: %(side)s corrected from %(old)s to %(points)s.",
                old=entry.facts.points,
                points=fix.facts.points,
                **said,
            )
        )

    return act(match, post, work)


def _differs(entry: StoredEntry, fix: Fix) -> bool:
    """Whether the host's value for a cell changes its points or a tick (the form carries no
    counts: a calculator cell left as it was keeps them)."""
    return entry.facts._replace(counts=None) != fix.facts._replace(counts=None)


def correct_hand(match: Match, number: int, fixes: Sequence[Fix], reason: str, post: Post) -> Done:
    """The host corrects a whole hand at once: every side's cell checked together (as the
    game checks an entry beside the others) and saved together, so a 26-26 hand made 27-25
    never shows half-fixed. Cells left as they were are not touched."""

    def work(viewer: Viewer) -> Done:
        viewer.require(Action.CORRECT)
        sheet = load_sheet(match, corrections=False)
        check_started(sheet, number, len(sheet.hands))
        seen = [(fix, _as_seen(sheet, number, fix, viewer)) for fix in fixes]
        # Compared on what the form carries (points and ticks): a calculator cell the host
        # left as it was keeps its counts and breakdown.
        changed = [(fix, entry) for fix, entry in seen if entry is None or _differs(entry, fix)]
        word = sheet.game.hand_word
        if not changed:
            return Done(
                # NOTE: %(hand)s is the game's word for a hand ("Hand", Brisca's "Round").
                _("%(hand)s %(number)s is as it was: nothing to change.", hand=word, number=number),
                changed=False,
            )
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
        # NOTE: "Hand 1 corrected: Ana 61 → 70, Bea 59 → 50." %(hand)s is the game's word for a
        # hand ("Hand", Brisca's "Round"); %(changes)s the cells changed, as a list.
        return Done(
            _("%(hand)s %(number)s corrected: %(changes)s.", hand=word, number=number, changes=said)
        )

    return act(match, post, work)


def _cell_change(fix: Fix, entry: StoredEntry | None) -> str:
    """One cell of a corrected hand, as its answer lists it: "Ana 61 → 70"."""
    side, now = fix.side.name, fix.facts.points
    if entry is None:
        # NOTE: one cell of a corrected hand: a side's name, empty before, its points after.
        return _("%(side)s empty → %(new)s", side=side, new=now)
    # NOTE: one cell of a corrected hand: a side's name, its points before → after.
    return _("%(side)s %(old)s → %(new)s", side=side, old=entry.facts.points, new=now)
