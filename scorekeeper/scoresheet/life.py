"""A match's life after its first hand: ended once a side has won, reopened, abandoned, and
followed by a rematch."""

from __future__ import annotations

import dataclasses
from typing import Any

import sqlalchemy as sa

from scorekeeper.errors import Refusal
from scorekeeper.extensions import db
from scorekeeper.games import get_game
from scorekeeper.models import Hand, Match, Seat, StoredMatch, history_order, utcnow
from scorekeeper.phones.rules import Action, Viewer
from scorekeeper.scoresheet.groups import follow_rematch
from scorekeeper.scoresheet.ratings import match_changed
from scorekeeper.scoresheet.record import clear_results, store_results
from scorekeeper.scoresheet.setup import NewMatch, add_match
from scorekeeper.scoresheet.sheet import load_sheet
from scorekeeper.scoresheet.writing import Done, Post, act, change
from scorekeeper.words import done


def _set_status(match: StoredMatch, status: str, **columns: Any) -> None:
    """The one way a match's status changes (with the other `columns` the action changes):
    with it, its place in the history of every phone seated at it, which each seat carries
    (models.Seat.match_open)."""
    change(match, status=status, **columns)
    db.session.execute(
        sa.update(Seat)
        .where(Seat.match_id == match.id)
        .values(**history_order(dataclasses.replace(match, status=status)))
    )


def end_match(match: StoredMatch, post: Post) -> Done:
    """Any seated phone ends the match, once the game's rule says a side has won."""

    def work(viewer: Viewer) -> Done:
        sheet = load_sheet(viewer.match, corrections=False)
        if sheet.winner is None:
            raise Refusal(done.not_won_yet(), 409, viewer.match)
        # Why, as a fact (the rule and its numbers): each page words it in its reader's
        # language (Sheet.result).
        reason = sheet.state.reason
        _set_status(
            viewer.match,
            Match.ENDED,
            winner_side_id=sheet.winner.id,
            win_reason=reason.stored() if reason is not None else None,
            ended_at=utcnow(),
        )
        # Each side's result is a fact of the match from now on, as its winner is: a record
        # reads it instead of working every sheet out again.
        store_results(sheet, sheet.winner.id)
        # A rated group's ratings take the result in (scoresheet/ratings.py).
        match_changed(viewer.match.id, None)
        return Done(done.match_over(sheet.winner.name))

    return act(match, post, Action.END, work)


def reopen_match(match: StoredMatch, post: Post) -> Done:
    """The host reopens a match ended or abandoned by mistake."""

    def work(viewer: Viewer) -> Done:
        # Played on, it is no longer the match the rematch followed: its end offers a new one.
        # The rematch and those after it leave its series, so their series lines change.
        _set_status(
            viewer.match,
            Match.OPEN,
            winner_side_id=None,
            win_reason=None,
            ended_at=None,
            rematch_code=None,
        )
        clear_results(viewer.match)
        # A rated group's ratings are worked out again from where it ended.
        ended_at = viewer.match.ended_at
        match_changed(
            viewer.match.id,
            (ended_at, viewer.match.id) if viewer.match.is_ended and ended_at else None,
        )
        return Done(done.reopened(), series_from=viewer.match.rematch_code)

    return act(match, post, Action.REOPEN, work)


def abandon_match(match: StoredMatch, post: Post) -> Done:
    """The host abandons an unfinished match; it stays in history as abandoned."""

    def work(viewer: Viewer) -> Done:
        _set_status(viewer.match, Match.ABANDONED, ended_at=utcnow())
        return Done(done.abandoned())

    return act(match, post, Action.ABANDON, work)


def write_note(match: StoredMatch, note: str, post: Post) -> Done:
    """The host writes the match's note (where, what was at stake), or clears it."""

    def work(viewer: Viewer) -> Done:
        if note == viewer.match.note:
            return Done(done.note_as_it_was(), changed=False)
        change(viewer.match, note=note)
        return Done(done.note_written(note))

    return act(match, post, Action.NOTE, work)


def next_dealer(match: StoredMatch, per_side: int) -> int | None:
    """Who deals the first hand of the match after this one: the player who would have dealt
    its next hand (None if the host never said who dealt first)."""
    if match.first_dealer is None:
        return None
    # docs/rules/README.md, "Who deals": the deal passes to the next player round the table,
    # and a rematch is the next hand at the same table, so the deal passes on as it would.
    # The places round the table are the same (sides in order, a player of each in turn).
    played = db.session.scalar(sa.select(sa.func.count()).where(Hand.match_id == match.id))
    return (match.first_dealer + (played or 0)) % (per_side * len(match.sides))


def rematch(match: StoredMatch, post: Post) -> Done:
    """Start the next match of an ended one: the same game, table, target, rules and side
    names, this phone its host on the side it held. Every phone of the ended match is then
    offered its side there, kept for it; a second tap (from any of them) goes to the same
    rematch."""

    def work(viewer: Viewer) -> Done:
        locked = viewer.match
        if locked.rematch_code is not None:
            return Done(done.rematch_ready(), changed=False, go_to=locked.rematch_code)
        choice = NewMatch(
            table_format=viewer.match.table_format,
            target=viewer.match.target,
            rules=dict(viewer.match.table_rules or {}),
            names=[(side.name, side.players) for side in viewer.match.sides],
            host_side=viewer.side.position if viewer.side else None,
            host_player=viewer.player,
        )
        # The host of the last match hosts this one; the phone that asked takes its side.
        game = get_game(viewer.match.game)
        started = add_match(game, choice, locked.host_phone, viewer.phone or "")
        started.first_dealer = next_dealer(
            locked, game.format(viewer.match.table_format).players_per_side
        )
        # Closed to new phones: each side waits for the phones that played it here, which
        # take it in one tap (phones/rules.py), until the host opens the table. A stranger
        # with this match's code must not sit at the next one first.
        started.closed = True
        # A group's match is followed by its rematch in the group.
        follow_rematch(viewer.match, started)
        change(viewer.match, rematch_code=started.code)
        return Done(
            done.rematch_started(),
            go_to=started.code,
        )

    return act(match, post, Action.REMATCH, work)
