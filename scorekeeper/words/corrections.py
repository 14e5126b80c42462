"""The words of the host's corrections and fills (scoresheet/corrections.py): what a corrected
cell or hand became, as the answer lists it, and why a correction or a whole hand's form was
refused. A fill is told as the side's own entry would be (words/entries.py, `entered`)."""

from __future__ import annotations

from flask_babel import gettext as _

from scorekeeper.games import Term


def not_started(hand: Term, number: int) -> str:
    """A correction of a hand that hasn't started: nothing is there."""
    # NOTE: %(hand)s is the game's word for a hand ("Hand", or "Round").
    return _(
        "%(hand)s %(number)s hasn't started: there is nothing to correct.",
        hand=hand,
        number=number,
    )


def cell_corrected(hand: Term, number: int, side: str, old: int, points: int) -> str:
    """One cell corrected, from `old` points to `points`."""
    if old == points:
        # Only the counts or a tick changed: "corrected from 5 to 5" said nothing.
        # NOTE: a cell corrected in its counts or ticks, its total the same (%(points)s).
        return _(
            "%(hand)s %(number)s: %(side)s corrected; the total stays %(points)s.",
            hand=hand,
            number=number,
            side=side,
            points=points,
        )
    # NOTE: %(hand)s is the game's word for a hand ("Hand", or "Round"),
    # %(side)s a side's name, %(old)s and %(points)s the cell's points
    # before and after.
    return _(
        "%(hand)s %(number)s: %(side)s corrected from %(old)s to %(points)s.",
        hand=hand,
        number=number,
        side=side,
        old=old,
        points=points,
    )


def as_it_was(hand: Term, number: int) -> str:
    """A whole hand's form that changes no cell: nothing written."""
    # NOTE: %(hand)s is the game's word for a hand ("Hand", or "Round").
    return _(
        "%(hand)s %(number)s is as it was: nothing to change.",
        hand=hand,
        number=number,
    )


def hand_corrected(hand: Term, number: int, changes: str) -> str:
    """A whole hand corrected: its changed cells (`cell_change`), as a list."""
    # NOTE: "Hand 1 corrected: Ana 61 → 70, Bea 59 → 50." %(hand)s is the game's word for a
    # hand ("Hand", or "Round"); %(changes)s the cells changed, as a list.
    return _(
        "%(hand)s %(number)s corrected: %(changes)s.", hand=hand, number=number, changes=changes
    )


def cell_change(side: str, old: int | None, new: int) -> str:
    """One cell of a corrected hand, as its answer lists it: "Ana 61 → 70" (`old` None: the
    cell was empty)."""
    if old is None:
        # NOTE: one cell of a corrected hand: a side's name, empty before, its points after.
        return _("%(side)s empty → %(new)s", side=side, new=new)
    if old == new:
        # NOTE: one cell of a corrected hand whose counts or ticks changed, not its points.
        return _("%(side)s still %(points)s", side=side, points=new)
    # NOTE: one cell of a corrected hand: a side's name, its points before → after.
    return _("%(side)s %(old)s → %(new)s", side=side, old=old, new=new)


def side_total(side: str, points: int) -> str:
    """One side's total in a list of a hand's entries: "Ana 61"."""
    # NOTE: one side's total in a list of a hand's entries: "Ana 61".
    return _("%(side)s %(points)s", side=side, points=points)


def hand_recorded(hand: Term, number: int, entries: str) -> str:
    """A whole hand entered from the host's one form: each side's total (`side_total`), as a
    list."""
    # NOTE: "Hand 1: Ana 61, Bea 59 recorded." %(hand)s is the game's word for a hand
    # ("Hand", or "Round"); %(entries)s each side's total, as a list.
    return _(
        "%(hand)s %(number)s: %(entries)s recorded.", hand=hand, number=number, entries=entries
    )


def complete_before(hand: Term, noun: Term, number: int, current: int) -> str:
    """A whole hand's form for a hand that completed before it arrived: what was typed is given
    back in the form for the open hand."""
    # NOTE: %(hand)s is the game's word for a hand ("Hand", or "Round"), %(noun)s
    # the same word inside a sentence; %(number)s and %(current)s are hand numbers.
    return _(
        "%(hand)s %(number)s was complete before this form arrived, so nothing was "
        "saved. What you typed is in the form for %(noun)s %(current)s below: enter it "
        "if it is that %(noun)s's; to change %(noun)s %(number)s, tap its cells on "
        "the sheet.",
        hand=hand,
        noun=noun,
        number=number,
        current=current,
    )
