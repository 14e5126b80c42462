"""A phone's history: every match it sat at, in order, a page at a time, quick however long."""

from __future__ import annotations

import sqlalchemy as sa
from flask import Flask

from scorekeeper.extensions import db
from scorekeeper.models import Match, Seat


def places(app: Flask) -> list[tuple[str, str, bool]]:
    """Every seat's phone, match code and copy of whether the match is open; fails if a seat's
    copy of the match's place in history differs from the match itself."""
    with app.app_context():
        rows = db.session.execute(
            sa.select(Seat, Match).join(Match, Match.id == Seat.match_id).order_by(Seat.id)
        ).all()
        for seat, match in rows:
            assert (seat.match_open, seat.match_created_at) == (match.is_open, match.created_at)
        return [(seat.phone, match.code, seat.match_open) for seat, match in rows]


def listed(phone, page: str = "") -> list[str]:  # type: ignore[no-untyped-def]
    """The match codes a phone's history page lists, top to bottom."""
    shown = phone.get(f"/history{page}").shown
    return [part.split('"')[0] for part in shown.split('href="/m/')[1:]]


def test_every_seat_keeps_its_match_s_place_in_history(app, host, guest, watcher):
    code = host.create("basra", side_0="A", side_1="B")
    guest.join(code, side=1)
    watcher.join(code, side=None)
    assert [open_ for _, _, open_ in places(app)] == [True, True, True]

    host.enter(code, 1, 0, 101)
    guest.enter(code, 1, 1, 0)
    guest.post(f"/m/{code}/end")
    assert [open_ for _, _, open_ in places(app)] == [False, False, False]

    host.post(f"/m/{code}/reopen")
    assert [open_ for _, _, open_ in places(app)] == [True, True, True]

    host.post(f"/m/{code}/abandon")
    assert [open_ for _, _, open_ in places(app)] == [False, False, False]


def test_a_reopened_match_goes_back_among_the_unfinished_for_every_phone(host, guest, watcher):
    older = host.create("basra", side_0="A", side_1="B")
    newer = host.create("basra", side_0="C", side_1="D")
    for code in (older, newer):
        guest.join(code, side=1)
        watcher.join(code, side=None)
    host.enter(newer, 1, 0, 101)
    guest.enter(newer, 1, 1, 0)
    guest.post(f"/m/{newer}/end")
    for phone in (host, guest, watcher):
        assert listed(phone) == [older, newer]

    host.post(f"/m/{newer}/reopen")
    for phone in (host, guest, watcher):
        assert listed(phone) == [newer, older]
