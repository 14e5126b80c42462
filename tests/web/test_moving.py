"""A player keeps their history across phones: a one-time code the old phone shows, opened on
another browser, makes it the same player (every match, seat and record); a tablet with
matches of its own joins them to one history; the old phone is told; a code works once and
for a few minutes; guessing codes is answered 429; a double tap records once."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.extensions import db
from scorekeeper.models import Correction, Entry, HistoryCode, Match, Seat, utcnow
from scorekeeper.scoresheet import moving
from tests.examples import examples
from tests.phones import Phone, snapshot, stored_match
from tests.web.test_record import figures, play

# The code as the page shows it: two groups of four, from the match codes' alphabet.
SHOWN = re.compile(r'<p class="code huge" dir="ltr">([A-Z2-9]{4}-[A-Z2-9]{4})</p>')
OPENED_ELSEWHERE = "Your history was opened on another phone"


def show_code(phone: Phone, key: str | None = None) -> str:
    """The code this phone's History shows after "Show a code"."""
    page = phone.post("/history/move", key=key).get_data(as_text=True)
    assert "Open this code on your other phone within 5 minutes." in page or (
        "Already recorded." in page
    )
    found = SHOWN.search(page)
    assert found is not None, page
    return found.group(1)


def listed(phone: Phone) -> list[str]:
    """The codes of the matches on the first page of this phone's History."""
    return re.findall(r'href="/m/([A-Z2-9]{6})"', phone.get("/history").get_data(as_text=True))


def marks_left_by(app) -> set[str]:
    """The phones named as having entered a cell, corrected one, or hosting a match."""
    with app.app_context():
        return (
            set(db.session.scalars(sa.select(Entry.entered_by)))
            | set(db.session.scalars(sa.select(Correction.by_phone)))
            | set(db.session.scalars(sa.select(Match.host_phone)))
        )


def seats_by_phone(app) -> dict[str, list[tuple[str, int | None]]]:
    """Every seat as stored: by phone token, (match code, side position) in match order."""
    with app.app_context():
        rows = db.session.execute(
            sa.select(Seat.phone, Match.code, Seat.side_id, Match.id)
            .join(Match, Match.id == Seat.match_id)
            .order_by(Match.id)
        ).all()
        positions = {
            side.id: side.position
            for match in db.session.scalars(sa.select(Match))
            for side in match.sides
        }
    seats: dict[str, list[tuple[str, int | None]]] = {}
    for phone, code, side_id, _ in rows:
        seats.setdefault(phone, []).append((code, positions.get(side_id)))
    return seats


@pytest.fixture
def clock(monkeypatch):
    """Move the codes' clock on: clock(minutes)."""

    def move_on(minutes: float) -> None:
        later = utcnow() + timedelta(minutes=minutes)
        monkeypatch.setattr(moving, "utcnow", lambda: later)

    return move_on


def test_a_new_phone_opens_the_code_and_is_the_same_player(app, phones, host, guest):
    play(host, guest, [(60, 10), (50, 20)])  # Alice (the host) wins
    playing = host.create("basra", table_format="2", side_0="Alice", side_1="Ben")
    guest.join(playing, side=1)
    record = figures(host.get("/history/record").get_data(as_text=True), "In all")
    assert record["Wins"] == "1"
    code = show_code(host)
    assert "It works once, until" in host.get("/history/move").shown

    new = phones()
    page = new.get(f"/history/join/{code}").shown
    assert f'value="{code}"' in page and "Open my history here" in page
    joined = new.post("/history/join", {"code": code}).shown
    assert "This phone now keeps your history: 2 matches, with your sides and record." in joined
    assert new.identity() == host.identity()
    # The old phone is told once, on History; the new one was told by its own answer.
    assert OPENED_ELSEWHERE in host.get("/history").shown
    assert OPENED_ELSEWHERE not in host.get("/history").shown
    assert OPENED_ELSEWHERE not in new.get("/history").shown
    assert listed(new) == listed(host) and len(listed(new)) == 2
    assert figures(new.get("/history/record").get_data(as_text=True), "In all") == record
    # Its seat is its own: it enters for Alice.
    assert "Hand 1: Alice 40 recorded." in new.enter(playing, 1, 0, 40).shown
    # And the page that showed the code says so.
    assert "Opened on another phone" in host.get("/history/move").shown


def test_the_code_is_typed_as_read_in_any_case_with_or_without_its_dash(phones, host, guest):
    play(host, guest, [(101, 0)])
    code = show_code(host)
    new = phones()
    new.get("/history/join")
    typed = " " + code.lower().replace("-", " ") + " "
    assert (
        "This phone now keeps your history: 1 match"
        in new.post("/history/join", {"code": typed}).shown
    )
    assert new.identity() == host.identity()


def test_the_old_phone_is_told_on_history_after_the_move_page_said_it(phones, host, guest):
    """The old phone waits on the page showing its code, which says it was opened; History,
    where its player looks next, says so too, once (issue 42, point 10)."""
    play(host, guest, [(101, 0)])
    code = show_code(host)
    phones().post("/history/join", {"code": code})
    assert "Opened on another phone" in host.get("/history/move").shown
    assert OPENED_ELSEWHERE in host.get("/history").shown
    assert OPENED_ELSEWHERE not in host.get("/history").shown


def test_a_code_works_once(app, phones, host, guest):
    play(host, guest, [(101, 0)])
    code = show_code(host)
    first, second = phones(), phones()
    first.get("/history/join")
    first.post("/history/join", {"code": code})
    second.get("/history/join")
    own = second.identity()
    before = snapshot(app)
    refused = second.post("/history/join", {"code": code})
    assert refused.status_code == 410
    assert "This code was opened already: a code works once." in refused.shown
    assert second.identity() == own and snapshot(app) == before


@pytest.mark.parametrize(("minutes", "works"), [(4.9, True), (5.1, False)])
def test_a_code_works_for_its_minutes(app, phones, host, guest, clock, minutes, works):
    play(host, guest, [(101, 0)])
    code = show_code(host)
    new = phones()
    new.get("/history/join")
    clock(minutes)
    answer = new.post("/history/join", {"code": code})
    if works:
        assert new.identity() == host.identity()
    else:
        assert answer.status_code == 410
        assert "This code no longer works: a code works for 5 minutes" in answer.shown
        assert new.identity() != host.identity()


def test_a_new_code_ends_the_one_before(app, phones, host):
    old = show_code(host)
    new_code = show_code(host)
    assert new_code != old
    new = phones()
    new.get("/history/join")
    assert new.post("/history/join", {"code": old}).status_code == 410
    assert new.post("/history/join", {"code": new_code}).status_code == 200
    assert new.identity() == host.identity()


def test_a_tablet_with_matches_of_its_own_joins_them_to_one_history(app, phones, host, guest):
    tablet, friend = phones(), phones()
    shared = play(host, guest, [(60, 10), (50, 20)])
    # The tablet watched that match (a TV at the table) and hosted one of its own.
    tablet.join(shared, side=None)
    own = tablet.create("basra", table_format="2", side_0="Carl", side_1="Dina")
    friend.join(own, side=1)
    tablet.enter(own, 1, 0, 30)
    friend.enter(own, 1, 1, 20)
    assert "corrected" in tablet.correct(own, 1, 1, 22).shown
    play(tablet, friend, [(101, 0)])
    # And the phone watched the tablet's match: each sat where the other played.
    host.join(own, side=None)
    phone_matches, tablet_matches = set(listed(host)), set(listed(tablet))
    assert len(phone_matches) == 2 and len(tablet_matches) == 3

    code = show_code(host)
    tablet.get("/history/join")
    assert "This phone's own 3 matches join that history" in tablet.get("/history/join").shown
    joined = tablet.post("/history/join", {"code": code}).shown
    assert "Your two histories are one now: 3 matches, on both phones." in joined
    assert set(listed(host)) == set(listed(tablet)) == phone_matches | tablet_matches
    seats = seats_by_phone(app)
    me = host.identity()
    assert tablet.identity() == me and set(seats) == {me, guest.identity(), friend.identity()}
    # At each match both sat at, one seat stays: the one holding a side.
    assert sorted(seats[me]) == sorted(
        [(shared, 0), (own, 0), *[(code, 0) for code in tablet_matches - {shared, own}]]
    )
    # The tablet's host role came along, and every cell it entered: the old phone's now.
    assert stored_match(app, own).host_phone == me
    assert marks_left_by(app) == {me, friend.identity(), guest.identity()}
    assert "Abandon match…" in host.get(f"/m/{own}").shown
    # Both phones' records count the ended matches of both histories (Alice's, and Carl's
    # against Dina; the one still open doesn't count).
    for phone in (host, tablet):
        record = figures(phone.get("/history/record").get_data(as_text=True), "In all")
        assert (record["Matches"], record["Wins"]) == ("2", "2")


# Where a phone is at a match: not there, watching, or holding a side.
PLACES = st.sampled_from(["away", "watch", "Alice", "Ben"])


def places_of(app, phone: Phone) -> dict[str, int | None]:
    """Where this phone sits, as stored: match code → side position (None: watching)."""
    return dict(seats_by_phone(app).get(phone.identity() or "", []))


@settings(
    max_examples=examples(15),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(places=st.lists(st.tuples(PLACES, PLACES), min_size=1, max_size=4))
def test_joining_keeps_one_seat_per_match_the_one_holding_a_side(app, places):
    host, phone, tablet = Phone(app), Phone(app), Phone(app)
    for mine, theirs in places:
        # A third phone keeps each sheet; the two sit where they are drawn to (a side the
        # other took first is refused, and that one stays away).
        code = host.create("basra", table_format="2", side_0="Alice", side_1="Ben", host_side="-1")
        for who, where in ((phone, mine), (tablet, theirs)):
            if where != "away":
                who.join(code, side=None if where == "watch" else ["Alice", "Ben"].index(where))
    ours, theirs_before = places_of(app, phone), places_of(app, tablet)
    # The oracle: where both sat, the history's seat if it holds a side, else the tablet's.
    expected = {**theirs_before, **ours}
    for code in ours.keys() & theirs_before.keys():
        if ours[code] is None:
            expected[code] = theirs_before[code]
    shown = show_code(phone)
    tablet.get("/history/join")
    assert tablet.post("/history/join", {"code": shown}).status_code == 200
    assert places_of(app, phone) == expected
    assert tablet.identity() == phone.identity()
    # Every match either was at is on the one History, each once.
    assert sorted(listed(phone)) == sorted(expected)


def test_a_phone_that_held_two_sides_keeps_the_history_s_own(app, phones, host):
    # One person holding both sides of a match, one on each phone (a two-handed try-out).
    code = host.create("basra", table_format="2", side_0="Alice", side_1="Ben")
    tablet = phones()
    tablet.join(code, side=1)
    tablet.enter(code, 1, 1, 30)
    host.enter(code, 1, 0, 40)
    shown = show_code(host)
    tablet.get("/history/join")
    tablet.post("/history/join", {"code": shown})
    me = host.identity()
    assert seats_by_phone(app) == {me: [(code, 0)]}
    # The entries both phones made are the one player's now.
    assert marks_left_by(app) == {me}
    # Ben is free again: another phone may take him (or the host fill his column).
    assert "This phone now holds Ben" in phones().join(code, side=1).shown


def test_opening_this_phone_s_own_code_changes_nothing(app, host, guest):
    play(host, guest, [(101, 0)])
    code = show_code(host)
    before = snapshot(app)
    refused = host.post("/history/join", {"code": code})
    assert refused.status_code == 409
    assert "This phone keeps this history already" in refused.shown
    assert snapshot(app) == before


def test_a_double_tap_on_open_records_once(app, phones, host, guest):
    play(host, guest, [(101, 0)])
    code = show_code(host)
    tablet = phones()
    tablet.create("basra", table_format="2", side_0="Carl", side_1="Dina")
    tablet.get("/history/join")
    cookie = tablet.client.get_cookie(app.config["SESSION_COOKIE_NAME"])
    first = tablet.post("/history/join", {"code": code}, key="double-tap")
    after = snapshot(app)
    # The second tap left with the first's cookie, before the first's answer came back.
    tablet.client.set_cookie(cookie.key, cookie.value)
    second = tablet.post("/history/join", {"code": code}, key="double-tap")
    assert "Your two histories are one now: 2 matches" in first.shown
    assert "Already recorded." in second.shown
    assert snapshot(app) == after
    assert tablet.identity() == host.identity()


def test_a_double_tap_on_show_a_code_shows_the_one_code_stored(app, host):
    first = show_code(host, key="double-tap")
    second = show_code(host, key="double-tap")
    assert first == second
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(HistoryCode)) == 1


def test_guessing_codes_is_answered_429_once_the_misses_are_used_up(app, phones, host, monkeypatch):
    monkeypatch.setitem(app.config, "RATELIMIT_ENABLED", True)
    monkeypatch.setitem(app.config, "CODE_MISS_LIMIT", "5 per minute")
    code = show_code(host)
    guesser = phones()
    guesser.get("/history/join")
    answers = [
        guesser.post("/history/join", {"code": f"ZZZZ-ZZZ{sign}"}).status_code for sign in "234567"
    ]
    assert answers == [404] * 5 + [429]
    # Used up: even the right code tells the guesser nothing, and stays the owner's.
    refused = guesser.post("/history/join", {"code": code})
    assert refused.status_code == 429 and "Retry-After" in refused.headers
    assert "Too many codes that match nothing from here." in refused.shown
    assert guesser.identity() != host.identity()


@pytest.mark.parametrize(
    ("code", "says", "status"),
    [
        ("", "Type the code your other phone shows.", 400),
        ("x" * 21, "A history code is 8 letters and digits.", 400),
        ("ABCD-EFG", "No history has the code 'ABCD-EFG'.", 404),
        ("<script>", "No history has the code", 404),
    ],
)
def test_a_bad_code_is_refused_in_words_and_changes_nothing(app, phones, code, says, status):
    new = phones()
    new.get("/history/join")
    before = snapshot(app)
    refused = new.post("/history/join", {"code": code})
    assert refused.status_code == status and says in refused.shown
    assert snapshot(app) == before


def test_a_form_with_a_forged_key_is_refused_in_words(app, phones, host):
    code = show_code(host)
    new = phones()
    new.get("/history/join")
    before = snapshot(app)
    refused = new.post("/history/join", {"code": code}, key="not a key!")
    assert refused.status_code == 400 and "Reload the page." in refused.shown
    assert snapshot(app) == before and new.identity() != host.identity()


def test_opening_a_code_without_a_csrf_token_is_refused(app, phones, host):
    code = show_code(host)
    new = phones()
    new.get("/history/join")
    before = snapshot(app)
    assert new.post("/history/join", {"code": code}, csrf=False).status_code == 400
    assert snapshot(app) == before and new.identity() != host.identity()


def test_the_words_come_in_the_phone_s_language(app, phones, host, guest, clock):
    code = show_code(host)
    new = phones()
    new.post("/language", {"lang": "es", "next": "/history/join"})
    clock(6)
    refused = new.post("/history/join", {"code": code})
    assert refused.status_code == 410
    assert "Este código ya no sirve: un código sirve 5 minutos" in refused.shown
