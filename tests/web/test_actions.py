"""The score sheet's actions run without a request: a match made, played and ended by calling
them with what each phone posted, as a command or a future import would. And the host role
never goes to a watching phone, whether the page offers it or a post is forged."""

from __future__ import annotations

import re

import pytest
import sqlalchemy as sa
from flask import Flask

from scorekeeper.errors import Refusal
from scorekeeper.extensions import Model, db
from scorekeeper.games import EntryFacts, get_game
from scorekeeper.matches import read_match
from scorekeeper.models import Entry, Hand, Match, Seat, Side, SideResult, StoredMatch
from scorekeeper.phones.seats import seats_at
from scorekeeper.scoresheet import entries, life, seats
from scorekeeper.scoresheet.record import read_played
from scorekeeper.scoresheet.setup import NewMatch, create_match
from scorekeeper.scoresheet.sheet import load_sheet
from scorekeeper.scoresheet.stored import read_hands
from scorekeeper.scoresheet.writing import Post
from tests.phones import snapshot, stored_match


def _match(code: str) -> StoredMatch:
    match = read_match(code)
    assert match is not None
    return match


def columns(row: object, model: type[Model]) -> dict[str, object]:
    """A row's values, read or stored, by its model's columns."""
    return {column.key: getattr(row, column.key) for column in model.__table__.columns}


def test_a_match_is_made_played_and_ended_without_a_request(app: Flask) -> None:
    with app.app_context():
        choice = NewMatch("2", 101, {}, [("Ana", ""), ("Ben", "")], host_side=0)
        made = create_match(get_game("basra"), choice, Post("ana-phone", "make-1", "made"))
        code = made.go_to
        assert code is not None
        # The same post again (its answer lost) goes on to the same match, making none.
        again = create_match(get_game("basra"), choice, Post("ana-phone", "make-1", "made"))
        assert again.repeated and again.go_to == code
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Match)) == 1

        claimed = seats.claim_side(_match(code), _match(code).sides[1], Post("ben-phone"), "Ben")
        assert claimed.message == "This phone now holds Ben."
        ana, ben = (_match(code).sides[0], _match(code).sides[1])
        entries.enter_hand(_match(code), ana, 1, EntryFacts(90), Post("ana-phone"))
        entries.enter_hand(_match(code), ben, 1, EntryFacts(12), Post("ben-phone"))
        # Ben's phone cannot enter for Ana, and nothing changes for trying.
        with pytest.raises(Refusal, match="cannot enter for another side"):
            entries.enter_hand(_match(code), ana, 2, EntryFacts(30), Post("ben-phone"))
        entries.enter_hand(_match(code), ana, 2, EntryFacts(20), Post("ana-phone"))
        entries.enter_hand(_match(code), ben, 2, EntryFacts(3), Post("ben-phone"))
        sheet = load_sheet(_match(code))
        assert sheet.state.totals == (110, 15)
        assert sheet.winner is not None and sheet.winner.name == "Ana"
        assert life.end_match(_match(code), Post("ben-phone")).message == "Match over: Ana won."
        assert _match(code).status == Match.ENDED

        # The record reads each result as SideResult's columns (models.tuple_of): a column
        # added to it is read with the value the ORM reads for it.
        db.session.expire_all()
        [played] = read_played("ben-phone")
        stored = db.session.get_one(SideResult, ben.id)
        assert columns(played, SideResult) == columns(stored, SideResult)
        assert (played.won, played.points, played.code, played.position) == (False, 15, code, 1)


def test_the_host_role_never_goes_to_a_watching_phone(app: Flask, phones) -> None:
    host, guest, watcher = phones(), phones(), phones()
    code = host.create("basra", table_format="2", side_0="Alice", side_1="Ben")
    guest.join(code, side=1)
    watcher.join(code, side=None)
    tools = host.get(f"/m/{code}").shown
    offered = re.findall(rf'href="/m/{code}/host\?target=(\d+)">Make ([^<]+) host', tools)
    # The page offers the host role to Ben's phone only: the watcher holds no side.
    assert [who for _seat, who in offered] == ["Ben"]
    with app.app_context():
        watching = db.session.scalar(
            sa.select(Seat.id).where(Seat.side_id.is_(None), Seat.player == "")
        )
    assert watching is not None
    # A post made by hand for the watcher's seat is refused, and nothing changes.
    before = snapshot(app)
    asked = host.get(f"/m/{code}/host?target={watching}")
    assert asked.status_code == 409
    assert "The host role goes to a phone that holds a side." in asked.shown
    forged = host.post(f"/m/{code}/host", {"target": watching, "confirmed": "y"})
    assert forged.status_code == 409
    assert "The host role goes to a phone that holds a side." in forged.shown
    assert snapshot(app) == before
    assert stored_match(app, code).host_phone != _phone_of(app, watching)


def _phone_of(app: Flask, seat_id: int) -> str:
    with app.app_context():
        phone = db.session.scalar(sa.select(Seat.phone).where(Seat.id == seat_id))
    assert phone is not None
    return phone


def test_a_forged_post_for_another_match_s_seat_is_refused(app: Flask, phones) -> None:
    host, other_host = phones(), phones()
    code = host.create("basra", table_format="2", side_0="Alice", side_1="Ben")
    elsewhere = other_host.create("basra", table_format="2", side_0="Cy", side_1="Di")
    with app.app_context():
        their_seat = db.session.scalar(
            sa.select(Seat.id).join(Match).where(Match.code == elsewhere)
        )
    before = snapshot(app)
    forged = host.post(f"/m/{code}/host", {"target": their_seat, "confirmed": "y"})
    assert forged.status_code == 409
    assert "Pick another phone at this match." in forged.shown
    assert snapshot(app) == before


def test_a_match_as_read_holds_every_column_of_its_tables_as_stored(app: Flask) -> None:
    # The read models are made from the models' columns (models.columns_of): a column added to
    # a model is read by every page and check, with the value the ORM reads for it.
    with app.app_context():
        choice = NewMatch("2", 101, {}, [("Ana", "Ana Ruiz"), ("Ben", "")], host_side=0)
        code = create_match(get_game("basra"), choice, Post("ana-phone", "make-1", "made")).go_to
        assert code is not None
        seats.claim_side(_match(code), _match(code).sides[1], Post("ben-phone"), "Ben")
        seats.watch(_match(code), Post("cat-phone"), "Cat")
        life.write_note(_match(code), "At Omar's", Post("ana-phone"))
        read = _match(code)
        db.session.expire_all()
        stored = db.session.scalars(sa.select(Match).where(Match.code == code)).one()

        assert columns(read, Match) == columns(stored, Match)
        assert read.note == "At Omar's" and read.follows is False
        assert [columns(side, Side) for side in read.sides] == [
            columns(side, Side) for side in stored.sides
        ]
        by_phone = {seat.phone: seat for seat in stored.seats}
        seated = seats_at(read)
        assert [seat.phone for seat in seated] == ["ana-phone", "ben-phone", "cat-phone"]
        for seat in seated:
            assert columns(seat, Seat) == columns(by_phone[seat.phone], Seat)
            assert seat.side == next((s for s in read.sides if s.id == seat.side_id), None)


def test_a_sheet_s_cells_as_read_hold_every_column_of_their_tables_as_stored(app: Flask) -> None:
    # A sheet's hands and cells are made from Hand's and Entry's columns as HANDS_OF selects
    # them (models.tuple_of, models.picked): a column added to either is read with the value
    # the ORM reads for it, and what the rules read of a cell (its facts) is made from it.
    with app.app_context():
        choice = NewMatch("2", 3, {}, [("Ana", ""), ("Ben", "")], host_side=0)
        code = create_match(get_game("brisca"), choice, Post("ana-phone", "make-1", "made")).go_to
        assert code is not None
        seats.claim_side(_match(code), _match(code).sides[1], Post("ben-phone"), "Ben")
        ana, ben = _match(code).sides
        half = {"aces": 2, "threes": 2, "kings": 2, "horses": 2, "jacks": 2}
        entries.enter_hand(_match(code), ana, 1, EntryFacts(60, half), Post("ana-phone"))
        took = EntryFacts(60, half, frozenset({"last_trick"}))
        entries.enter_hand(_match(code), ben, 1, took, Post("ben-phone"))
        entries.enter_hand(_match(code), ana, 2, EntryFacts(70), Post("ana-phone"))
        # Changed before Ben enters: the cell's second revision.
        entries.enter_hand(_match(code), ana, 2, EntryFacts(80), Post("ana-phone"))
        read = read_hands([_match(code).id])[_match(code).id]
        db.session.expire_all()
        stored = db.session.scalars(
            sa.select(Hand).join(Match).where(Match.code == code).order_by(Hand.number)
        ).all()

        assert [columns(hand, Hand) for hand in read] == [columns(hand, Hand) for hand in stored]
        cells = {cell.id: cell for hand in read for cell in hand.entries}
        assert {i: columns(cell, Entry) for i, cell in cells.items()} == {
            cell.id: columns(cell, Entry) for hand in stored for cell in hand.entries
        }
        assert sorted(cell.revision for cell in cells.values()) == [1, 1, 2]
        for cell in cells.values():
            assert cell.facts == EntryFacts(cell.points, cell.counts, frozenset(cell.ticks))
        assert [cell.facts.ticks for cell in read[0].entries if cell.side_id == ben.id] == [
            {"last_trick"}
        ]
