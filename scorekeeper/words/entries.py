"""The words of a side's entries (scoresheet/entries.py): why an entry is refused (no hand
open, a hand completed before it arrived, a cell someone changed meanwhile, the others'
entries beside it) and what was recorded. Every fact comes in; only the wording is here."""

from __future__ import annotations

from flask_babel import gettext as _

from scorekeeper.games import Term


def won(side: str) -> str:
    """No hand takes entries: a side has won."""
    # NOTE: %(side)s is the name of the side that has won.
    return _(
        "%(side)s has won: end the match, or the host can correct a hand.",
        side=side,
    )


def no_open_hand() -> str:
    """No hand takes entries (the match is over, or no hand waits)."""
    return _("No hand is open for entries.")


def completed_first(
    hand: Term,
    noun: Term,
    posted: int,
    current: int | None,
    points: int,
    *,
    counts: bool,
    host: bool,
) -> str:
    """An entry for a hand that completed before it arrived, given back in the form for the
    open hand: what it says fits this phone (the host may change the hand) and how the entry
    was made (the calculator's counts, or a typed total). `posted` is the hand it was for."""
    # The calculator's words name its counts; %(posted)s is the hand they were counted for.
    if counts and host:
        # NOTE: %(hand)s is the game's word for a hand ("Hand", or "Round"), %(noun)s
        # the same inside a sentence; %(posted)s and %(number)s are hand numbers.
        return _(
            "%(hand)s %(posted)s was complete before your counts arrived, so they were not "
            "saved. They are below for %(noun)s %(number)s: enter them if they are that "
            "%(noun)s's; to change %(noun)s %(posted)s, tap its cell on the sheet.",
            number=current,
            hand=hand,
            noun=noun,
            posted=posted,
        )
    if counts:
        # NOTE: as the message before, to a phone that is not the host's.
        return _(
            "%(hand)s %(posted)s was complete before your counts arrived, so they were not "
            "saved: only the host can change %(noun)s %(posted)s now. They are below for "
            "%(noun)s %(number)s: enter them if they are that %(noun)s's.",
            number=current,
            hand=hand,
            noun=noun,
            posted=posted,
        )
    if host:
        # NOTE: %(hand)s is the game's word for a hand ("Hand", or "Round"), %(noun)s the
        # same word inside a sentence; %(points)s what the host typed; %(number)s and
        # %(current)s are hand numbers.
        return _(
            "%(hand)s %(number)s was complete before your %(points)s arrived, so it was not "
            "saved. It is in the form for %(noun)s %(current)s below: enter it if it is "
            "that %(noun)s's; to change %(noun)s %(number)s, tap its cell on the sheet.",
            hand=hand,
            number=posted,
            points=points,
            noun=noun,
            current=current,
        )
    # NOTE: as the message before, to a phone that is not the host's.
    return _(
        "%(hand)s %(number)s was complete before your %(points)s arrived, so it was not "
        "saved: only the host can change %(noun)s %(number)s now. Your %(points)s is in "
        "the form for %(noun)s %(current)s below: enter it if it is that %(noun)s's.",
        hand=hand,
        number=posted,
        points=points,
        noun=noun,
        current=current,
    )


def not_complete_yet(hand: Term, current: int, noun: Term, number: int) -> str:
    """An entry for a hand after the open one."""
    # NOTE: %(hand)s is the game's word for a hand ("Hand", or "Round"), at the
    # start of the sentence; %(noun)s the same word inside it ("hand", "round").
    return _(
        "%(hand)s %(current)s isn't complete yet: %(noun)s %(number)s can't start.",
        hand=hand,
        current=current,
        noun=noun,
        number=number,
    )


def refused_beside(hand: Term, number: int, why: str) -> str:
    """An entry refused beside the others' entries: every reason (`why`) at once."""
    # NOTE: %(hand)s is the game's word for a hand ("Hand", or "Round"); %(why)s is
    # one or more sentences saying what doesn't add up.
    return _(
        "%(hand)s %(number)s: nothing was saved. %(why)s",
        hand=hand,
        number=number,
        why=why,
    )


def emptied(side: str, noun: Term, number: int, *, correcting: bool) -> str:
    """A stale entry or correction refused: the cell is empty again (the host emptied it)."""
    if correcting:
        # NOTE: %(side)s is a side's name, %(noun)s the game's word for a hand inside a sentence
        # ("hand", or "round"), %(number)s its number, %(points)s what the cell reads now.
        return _(
            "Someone changed the cell of %(side)s in %(noun)s %(number)s meanwhile: it is empty "
            "again. Nothing was saved; look again and correct it if it is still wrong.",
            side=side,
            noun=noun,
            number=number,
        )
    return _(
        "The host changed the cell of %(side)s in %(noun)s %(number)s meanwhile: it is empty "
        "again. Nothing was saved: the form below shows it now; enter yours again if it should "
        "change.",
        side=side,
        noun=noun,
        number=number,
    )


def changed_by(
    side: str,
    noun: Term,
    number: int,
    points: int,
    *,
    correcting: bool,
    mine: bool,
    corrected: bool,
    by_host: bool,
    person: str | None,
) -> str:
    """A stale entry or correction refused, naming who changed the cell since: this phone on
    another page (`mine`), the host (`corrected`: a correction since the side's entry; `by_host`:
    by the host of now), or the phone that entered it, by the name the table knows them by
    (`person`); a phone that gave none is told as it can be."""
    if mine and correcting:
        return _(
            "This phone, on another page, changed the cell of %(side)s in %(noun)s %(number)s "
            "meanwhile: it now reads %(points)s. Nothing was saved; look again and correct it if "
            "it is still wrong.",
            side=side,
            noun=noun,
            number=number,
            points=points,
        )
    if mine:
        return _(
            "This phone, on another page, changed the cell of %(side)s in %(noun)s %(number)s "
            "meanwhile: it now reads %(points)s. Nothing was saved: the form below shows it now; "
            "enter yours again if it should change.",
            side=side,
            noun=noun,
            number=number,
            points=points,
        )
    if correcting and person is not None:
        # NOTE: %(person)s is a player and their side: "Omar (Us)"; %(side)s a side's name.
        return _(
            "%(person)s changed the cell of %(side)s in %(noun)s %(number)s meanwhile: it now "
            "reads %(points)s. Nothing was saved; look again and correct it if it is still wrong.",
            person=person,
            side=side,
            noun=noun,
            number=number,
            points=points,
        )
    if correcting and corrected:
        # The host role has moved since: the correction was the host's before this phone's.
        return _(
            "The previous host changed the cell of %(side)s in %(noun)s %(number)s meanwhile: it "
            "now reads %(points)s. Nothing was saved; look again and correct it if it is still "
            "wrong.",
            side=side,
            noun=noun,
            number=number,
            points=points,
        )
    if correcting:
        # A phone that gave no name: the side it held says whose it was.
        # NOTE: %(side)s is a side's name, said twice: "A phone holding Ben changed the cell of
        # Ben…".
        return _(
            "A phone holding %(side)s changed the cell of %(side)s in %(noun)s %(number)s "
            "meanwhile: it now reads %(points)s. Nothing was saved; look again and correct it if "
            "it is still wrong.",
            side=side,
            noun=noun,
            number=number,
            points=points,
        )
    if corrected and person is not None and by_host:
        # NOTE: %(person)s is the host, as the table knows them: "Omar (Us)".
        return _(
            "%(person)s, the host, changed the cell of %(side)s in %(noun)s %(number)s meanwhile: "
            "it now reads %(points)s. Nothing was saved: the form below shows it now; enter yours "
            "again if it should change.",
            person=person,
            side=side,
            noun=noun,
            number=number,
            points=points,
        )
    if corrected and person is None:
        return _(
            "The host changed the cell of %(side)s in %(noun)s %(number)s meanwhile: it now reads "
            "%(points)s. Nothing was saved: the form below shows it now; enter yours again if it "
            "should change.",
            side=side,
            noun=noun,
            number=number,
            points=points,
        )
    if person is not None:
        # NOTE: %(person)s is the partner who entered it, or a host who has since handed the
        # role on, with their side: "Omar (Us)".
        return _(
            "%(person)s changed the cell of %(side)s in %(noun)s %(number)s meanwhile: it now "
            "reads %(points)s. Nothing was saved: the form below shows it now; enter yours again "
            "if it should change.",
            person=person,
            side=side,
            noun=noun,
            number=number,
            points=points,
        )
    return _(
        "Your partner's phone changed the cell of %(side)s in %(noun)s %(number)s meanwhile: it "
        "now reads %(points)s. Nothing was saved: the form below shows it now; enter yours again "
        "if it should change.",
        side=side,
        noun=noun,
        number=number,
        points=points,
    )


def entered(hand: Term, number: int, side: str, points: int, *, changed: bool) -> str:
    """What a side's entry did: its cell recorded, or changed."""
    if not changed:
        # NOTE: "Hand 2: Bob 10 recorded." %(hand)s is the game's word for a hand ("Hand",
        # or "Round"), %(side)s a side's name, %(points)s the points it entered.
        return _(
            "%(hand)s %(number)s: %(side)s %(points)s recorded.",
            hand=hand,
            number=number,
            side=side,
            points=points,
        )
    return _(
        "%(hand)s %(number)s: %(side)s changed to %(points)s.",
        hand=hand,
        number=number,
        side=side,
        points=points,
    )


def not_in_the_tie(side: str) -> str:
    """A side said to settle a tie it is not in."""
    return _("%(side)s isn't in the tie.", side=side)
