"""The people and phones at a table: taking a side or watching, names, the host's role and
tools for the table (releasing a side, closing the table, saying who dealt first), and a
phone's own list of matches."""

from __future__ import annotations

import sqlalchemy as sa

from scorekeeper.errors import Refusal
from scorekeeper.extensions import db
from scorekeeper.games import get_game
from scorekeeper.models import Seat, StoredMatch, StoredSeat, StoredSide, person, seat_at
from scorekeeper.phones.rules import Action, Viewer
from scorekeeper.phones.seats import seats_at
from scorekeeper.scoresheet.dealing import dealing_order
from scorekeeper.scoresheet.seating import players_per_side, sides_with_room
from scorekeeper.scoresheet.writing import Done, Post, act, change
from scorekeeper.words import done

# Phones that may watch one match: a TV, friends, family; beyond it, a stranger's script.
MAX_WATCHERS = 50


def claim_side(match: StoredMatch, side: StoredSide, post: Post, player: str = "") -> Done:
    """This phone claims a side that still has room (a partnership's phones may share one);
    `player` is the name its player gave (a blank one keeps the name the seat has)."""

    def work(viewer: Viewer) -> Done:
        if side not in sides_with_room(viewer.match, seats_at(viewer.match)):
            raise Refusal(done.held_already(side.name), 409, viewer.match)
        if viewer.seat_id is not None:
            # A blank name keeps the one the seat has.
            named = {"player": player} if player else {}
            db.session.execute(
                sa.update(Seat)
                .where(Seat.id == viewer.seat_id)
                .values(side_id=side.id, released_from=None, **named)
            )
        else:
            db.session.add(seat_at(viewer.match, viewer.phone or "", side.id, player))
        return Done(done.now_holds(side.name))

    return act(match, post, Action.CLAIM, work, side)


def watch(match: StoredMatch, post: Post, player: str = "") -> Done:
    """This phone watches the match read-only; it lands in this phone's history."""

    def work(viewer: Viewer) -> Done:
        if viewer.seat_id is not None:
            return Done(done.watching_already(), changed=False)
        watching = db.session.scalar(
            sa.select(sa.func.count())
            .select_from(Seat)
            .where(Seat.match_id == viewer.match.id, Seat.side_id.is_(None))
        )
        if watching is not None and watching >= MAX_WATCHERS:
            raise Refusal(done.no_more_watchers(MAX_WATCHERS), 409, viewer.match)
        # A write like any other: the page a watcher sees differs from a newcomer's.
        db.session.add(seat_at(viewer.match, viewer.phone or "", player=player))
        return Done(done.watching())

    return act(match, post, Action.WATCH, work)


def rename_player(match: StoredMatch, player: str, post: Post) -> Done:
    """The person with this phone gives (or changes) their name at this match."""

    def work(viewer: Viewer) -> Done:
        if player == viewer.player:
            return Done(done.named_already(viewer.label), changed=False)
        db.session.execute(sa.update(Seat).where(Seat.id == viewer.seat_id).values(player=player))
        return Done(done.named(person(player, viewer.side)))

    return act(match, post, Action.RENAME, work)


def release_side(match: StoredMatch, side: StoredSide, post: Post) -> Done:
    """The host frees a side (a dead phone): its phones become watchers, the side is free."""

    def work(viewer: Viewer) -> Done:
        seats = db.session.scalars(
            sa.select(Seat).where(Seat.match_id == viewer.match.id, Seat.side_id == side.id)
        ).all()
        if not seats:
            raise Refusal(done.free_already(side.name), 409, viewer.match)
        for seat in seats:
            seat.side_id = None
            seat.released_from = side.position
        return Done(done.released(side.name))

    return act(match, post, Action.RELEASE, work)


def seat_of(match: StoredMatch, seat_id: int | None) -> StoredSeat | None:
    """A seat at this match by its id (None for any other id)."""
    return next((seat for seat in seats_at(match) if seat.id == seat_id), None)


def hand_over_host(match: StoredMatch, seat_id: int | None, post: Post) -> Done:
    """The host gives the host role to another phone at the match that holds a side."""

    def to(locked: StoredMatch) -> StoredSeat | None:
        return seat_of(locked, seat_id)

    def work(viewer: Viewer) -> Done:
        seat = to(viewer.match)
        assert seat is not None  # the write path refused the handover otherwise
        change(viewer.match, host_phone=seat.phone)
        return Done(done.host_went_to(seat.label))

    return act(match, post, Action.HAND_OVER, work, to=to)


def close_table(match: StoredMatch, post: Post) -> Done:
    """The host closes the table: no new phone may take a side; watching stays open."""

    def work(viewer: Viewer) -> Done:
        change(viewer.match, closed=True)
        return Done(done.table_closed())

    return act(match, post, Action.CLOSE_TABLE, work)


def open_table(match: StoredMatch, post: Post) -> Done:
    """The host opens the table again to new phones."""

    def work(viewer: Viewer) -> Done:
        change(viewer.match, closed=False)
        return Done(done.table_open())

    return act(match, post, Action.OPEN_TABLE, work)


def pick_dealer(match: StoredMatch, first: int | None, post: Post) -> Done:
    """The host says who dealt the first hand (a place in the dealing order); the sheet then
    passes the deal round the table."""

    def work(viewer: Viewer) -> Done:
        order = dealing_order(
            viewer.match.sides, players_per_side(viewer.match), seats_at(viewer.match)
        )
        if first is None or not 0 <= first < len(order):
            raise Refusal(done.pick_a_player(), 409, viewer.match)
        change(viewer.match, first_dealer=first)
        noun = get_game(viewer.match.game).hand_noun
        return Done(done.dealt_first(order[first], noun))

    return act(match, post, Action.DEALER, work)


def remove_from_list(match: StoredMatch, post: Post) -> Done:
    """Take a finished (or only watched) match off this phone's history and Home; the match
    and everything on it stay for the other phones."""

    def work(viewer: Viewer) -> Done:
        # The seat stays (a reopened match finds its side still held): it is only no longer listed.
        db.session.execute(sa.update(Seat).where(Seat.id == viewer.seat_id).values(listed=False))
        return Done(done.off_the_list(viewer.match.code))

    return act(match, post, Action.REMOVE, work)
