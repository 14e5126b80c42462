"""A Brisca match to 3 rounds: card points per round, 60–60 to the last trick, rounds as totals."""

from __future__ import annotations

from scorekeeper.models import Match
from tests.phones import snapshot, stored_match
from tests.phones import totals as rounds


def test_brisca_to_three_rounds_with_a_tie_on_the_last_trick(app, host, guest, watcher):
    code = host.create("brisca", table_format="2", target="3", side_0="Ana", side_1="Bea")
    guest.join(code, side=1)
    watcher.join(code, side=None)

    host.enter(code, 1, 0, 70)
    page = guest.enter(code, 1, 1, 50).shown
    assert rounds(page) == ["1", "0"]

    host.enter(code, 2, 0, 60)
    page = guest.enter(code, 2, 1, 60).shown
    assert "Round 2 is tied. Who took the last trick?" in page
    # Nobody may start round 3 until the tie is settled; a watcher may not settle it.
    before = snapshot(app)
    assert host.enter(code, 3, 0, 80).status_code == 409
    assert watcher.post(f"/m/{code}/settle", {"target": 1, "hand": 2}).status_code == 403
    assert snapshot(app) == before
    page = guest.post(f"/m/{code}/settle", {"target": 1, "hand": 2}).shown
    assert "Bea took the last trick" in page
    assert rounds(page) == ["1", "1"]

    for number in (3, 4):
        host.enter(code, number, 0, 80)
        page = guest.enter(code, number, 1, 40).shown
    assert rounds(page) == ["3", "1"]
    assert "Ana has won!" in page
    page = guest.post(f"/m/{code}/end").shown
    assert "Match over: Ana won." in page
    assert stored_match(app, code).status == Match.ENDED
    assert "Ana won." in watcher.get("/history").shown


def test_a_last_trick_tap_from_an_older_page_settles_nothing(app, host, guest):
    code = host.create("brisca", table_format="2", target="3", side_0="Ana", side_1="Bea")
    guest.join(code, side=1)
    host.enter(code, 1, 0, 60)
    guest.enter(code, 1, 1, 60)
    # Ana's page still shows round 1's buttons while Bea settles it and round 2 ties too.
    assert 'name="hand" value="1"' in host.get(f"/m/{code}").get_data(as_text=True)
    assert (
        "Bea took the last trick" in guest.post(f"/m/{code}/settle", {"target": 1, "hand": 1}).shown
    )
    host.enter(code, 2, 0, 60)
    guest.enter(code, 2, 1, 60)
    before = snapshot(app)
    stale = host.post(f"/m/{code}/settle", {"target": 0, "hand": 1})
    assert stale.status_code == 409
    assert "Round 1 isn't waiting for the last trick" in stale.shown
    assert snapshot(app) == before
    assert "Round 2 is tied. Who took the last trick?" in stale.shown


def test_brisca_card_points_over_120_are_refused(app, host, guest):
    code = host.create("brisca", table_format="2", target="3", side_0="Ana", side_1="Bea")
    guest.join(code, side=1)
    before = snapshot(app)
    response = guest.enter(code, 1, 1, 121)
    assert response.status_code == 400
    assert "A round is worth 0 to 120 card points" in response.shown
    assert snapshot(app) == before


def test_other_game_with_four_named_sides_and_a_negative_hand(app, host, phones):
    code = host.create(
        "other", table_format="free", target="50", side_0="N", side_1="E", side_2="S", side_3="W"
    )
    others = [phones() for _ in range(3)]
    for i, phone in enumerate(others, start=1):
        phone.join(code, side=i)
    host.enter(code, 1, 0, 20)
    for i, phone in enumerate(others, start=1):
        page = phone.enter(code, 1, i, 10 * i).shown
    assert rounds(page) == ["20", "10", "20", "30"] and "has won" not in page
    host.enter(code, 2, 0, -5)
    for i, phone in enumerate(others, start=1):
        page = phone.enter(code, 2, i, 25).shown
    assert rounds(page) == ["15", "35", "45", "55"]
    assert "W has won!" in page


def test_the_round_line_gives_the_winner_s_card_points_first(host, guest):
    code = host.create("brisca", table_format="2", target="3", side_0="Ana", side_1="Bea")
    guest.join(code, side=1)
    host.enter(code, 1, 0, 39)
    # Bea, in the second column, took the round: her 81 comes first, as a table says it.
    assert "Bea took round 1, 81–39." in guest.enter(code, 1, 1, 81).shown
    host.enter(code, 2, 0, 70)
    assert "Ana took round 2, 70–50." in guest.enter(code, 2, 1, 50).shown
