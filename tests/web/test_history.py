"""A phone's history: every match it sat at, in order, a page at a time, quick however long."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from flask import Flask

from scorekeeper.extensions import db
from scorekeeper.history.routes import PER_PAGE, page_of
from scorekeeper.models import Match, Seat
from tests.statements import statements


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


def listed(phone, page: str = "") -> list[str]:
    """The match codes a phone's history page lists, top to bottom."""
    shown = phone.get(f"/history{page}").shown
    return [part.split('"')[0] for part in shown.split('href="/m/')[1:]]


def matches(phone, count: int) -> list[str]:
    """Create `count` matches from one phone, oldest first; the oldest and the newest with a
    hand entered, so the newest page and the oldest both show some."""
    codes = [phone.create("basra", side_0=f"Ana {n}", side_1=f"Ben {n}") for n in range(count)]
    for code in {codes[0], codes[-1]}:
        phone.enter(code, 1, 0, 48)
    return codes


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

    host.post(f"/m/{code}/abandon", {"confirmed": "y"})
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


def test_history_goes_back_a_page_at_a_time(host):
    codes = matches(host, PER_PAGE)
    newest_first = codes[::-1]
    page = host.get("/history").shown
    assert listed(host) == newest_first
    assert "Older" not in page and "Newer" not in page

    codes.append(host.create("basra"))
    newest_first = codes[::-1]
    page = host.get("/history").shown
    assert listed(host) == newest_first[:PER_PAGE]
    assert 'href="/history?page=2">Older' in page and "Newer" not in page

    page = host.get("/history?page=2").shown
    assert listed(host, "?page=2") == newest_first[PER_PAGE:]
    assert 'href="/history?page=1">Newer' in page and "Older" not in page


@pytest.mark.parametrize("asked", ["?page=0", "?page=-3", "?page=abc", "?page=", "?page=1.5"])
def test_a_junk_page_number_shows_the_newest_page(host, asked):
    code = host.create("basra")
    response = host.get(f"/history{asked}")
    assert response.status_code == 200
    assert listed(host, asked) == [code]


@pytest.mark.parametrize("asked", ["?page=2", "?page=999999", "?page=99999999999999999999999"])
def test_a_page_past_the_oldest_match_is_empty_with_a_way_back(host, asked):
    host.create("basra")
    response = host.get(f"/history{asked}")
    assert response.status_code == 200
    assert listed(host, asked) == []
    assert 'No matches this far back. <a href="/history">' in response.shown


def test_statements_per_page_do_not_grow_with_the_history(app, phones):
    few, many = phones(), phones()
    matches(few, 3)
    matches(many, 25)
    with statements(app) as for_few:
        assert len(listed(few)) == 3
    with statements(app) as for_many:
        assert len(listed(many)) == PER_PAGE
    with statements(app) as for_older:
        assert len(listed(many, "?page=2")) == 25 - PER_PAGE
    assert len(for_few) == len(for_many) == len(for_older)


def test_the_page_query_walks_the_history_index_in_order_without_sorting(app):
    with app.app_context():
        query = page_of("a-phone", page=3)
        sql = str(query.compile(db.engine, compile_kwargs={"literal_binds": True}))
        if db.engine.dialect.name == "postgresql":
            # The test tables are nearly empty, where a sort costs nothing: price sorting out,
            # so the plan shows whether the index can give the order at all.
            db.session.execute(sa.text("SET LOCAL enable_sort = off"))
            plan = db.session.scalars(sa.text(f"EXPLAIN {sql}")).all()
        else:
            plan = [row[-1] for row in db.session.execute(sa.text(f"EXPLAIN QUERY PLAN {sql}"))]
        db.session.rollback()
    shown = "\n".join(plan)
    assert "ix_seat_history" in shown
    assert "Sort" not in shown and "TEMP B-TREE" not in shown


def test_every_phone_s_card_follows_its_match(app, host, guest, watcher):
    code = host.create("basra", side_0="Alice", side_1="Ben")
    guest.join(code, side=1)
    watcher.join(code, side=None)
    host.enter(code, 1, 0, 48)
    guest.enter(code, 1, 1, 5)
    for phone in (host, guest, watcher):
        assert "<bdi>Alice</bdi> 48 – <bdi>Ben</bdi> 5" in phone.get("/history").shown
    host.enter(code, 2, 0, 10)
    guest.enter(code, 2, 1, 3)
    for phone in (host, guest, watcher):
        assert "<bdi>Alice</bdi> 58 – <bdi>Ben</bdi> 8" in phone.get("/history").shown
    host.post(f"/m/{code}/abandon", {"confirmed": "y"})
    for phone in (host, guest, watcher):
        assert "Abandoned" in phone.get("/history").shown


def test_a_finished_match_is_removed_from_this_phone_s_list_only(app, host, guest):
    code = host.create("basra", table_format="2", side_0="Alice", side_1="Ben")
    guest.join(code, side=1)
    host.enter(code, 1, 0, 101)
    guest.enter(code, 1, 1, 3)
    refused = guest.post(f"/history/{code}/remove")
    assert refused.status_code == 409 and "still playing this match" in refused.shown
    guest.post(f"/m/{code}/end")
    assert f'action="/history/{code}/remove"' in guest.get("/history").shown
    removed = guest.post(f"/history/{code}/remove")
    assert f"Match {code} is off this phone's list." in removed.shown
    assert f'href="/m/{code}"' not in guest.get("/history").shown
    # The other phones keep it, and the match is whole.
    assert f'href="/m/{code}"' in host.get("/history").shown
    assert "Alice won." in guest.get(f"/m/{code}").shown
