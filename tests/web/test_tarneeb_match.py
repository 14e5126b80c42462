"""Tarneeb on the sheet: the bid is one fact of the hand, entered once by either team (or the
host) and shown as said to the other; a bid that contradicts it, or a hand where both teams
gain, is refused at entry and changes nothing (docs/rules/tarneeb.md)."""

from __future__ import annotations

import re

import pytest

from tests.phones import snapshot, totals

# The hidden fields a calculator page sends as the other team said them.
HIDDEN = re.compile(r'<input type="hidden" name="(n_\w+)" value="(-?\d+)">')


@pytest.fixture
def tarneeb(host, guest) -> str:
    """Aya's team (host) and Badr's team (guest), to 41."""
    code = host.create("tarneeb", table_format="2v2", side_0="Aya", side_1="Badr")
    guest.join(code, side=1)
    return code


def calculator(phone, code) -> tuple[str, int, dict[str, str]]:
    """This phone's calculator page: its text, the hand it is for, the counts it sends as said."""
    page = phone.get(f"/m/{code}/calc").shown
    hand = int(re.search(r'name="hand"[^>]*value="(\d+)"', page).group(1))
    return page, hand, dict(HIDDEN.findall(page))


def test_the_bid_entered_by_one_team_is_shown_to_the_other_not_asked_again(tarneeb, host, guest):
    page, hand, said = calculator(host, tarneeb)
    # Nobody has said the bid yet: the first team is asked who bid and what.
    assert said == {} and 'name="n_bidders"' in page and 'name="n_bid"' in page
    # docs/rules/tarneeb.md, "Scoring a hand": bid 9, took 10: made, +10; the others 0.
    host.post(
        f"/m/{tarneeb}/calc",
        {"hand": hand, "intent": "enter", "n_bidders": 0, "n_bid": 9, "n_tricks": 10},
    )
    page, hand, said = calculator(guest, tarneeb)
    # Seen from Badr's team: the other team bid 9; only its own tricks are asked.
    assert said == {"n_bidders": "1", "n_bid": "9"}
    assert "As Aya entered it" in page
    assert "Bid: <strong>9</strong>" in page
    assert not re.search(r'type="radio"[^>]*name="n_bidders"', page)
    shown = guest.post(
        f"/m/{tarneeb}/calc", {"hand": hand, "intent": "enter", **said, "n_tricks": 3}
    ).shown
    assert totals(shown) == ["10", "0"]


def test_the_team_that_did_not_bid_may_state_it_first(tarneeb, host, guest):
    _, hand, _ = calculator(guest, tarneeb)
    # Aya's team bid 10 and took 8: set, −10; Badr's team scores its 5 tricks.
    guest.post(
        f"/m/{tarneeb}/calc",
        {"hand": hand, "intent": "enter", "n_bidders": 1, "n_bid": 10, "n_tricks": 5},
    )
    _, hand, said = calculator(host, tarneeb)
    assert said == {"n_bidders": "0", "n_bid": "10"}
    shown = host.post(
        f"/m/{tarneeb}/calc", {"hand": hand, "intent": "enter", **said, "n_tricks": 8}
    ).shown
    assert totals(shown) == ["-10", "5"]


@pytest.mark.parametrize(
    ("forged", "message"),
    [
        ({"n_bidders": "1", "n_bid": "8"}, "Aya entered a bid of 9 and you 8: it is one bid."),
        ({"n_bidders": "0", "n_bid": "9"}, "Aya says it bid too"),
    ],
)
def test_a_bid_against_the_one_stated_is_refused_and_changes_nothing(
    app, tarneeb, host, guest, forged, message
):
    _, hand, _ = calculator(host, tarneeb)
    host.post(
        f"/m/{tarneeb}/calc",
        {"hand": hand, "intent": "enter", "n_bidders": 0, "n_bid": 9, "n_tricks": 10},
    )
    before = snapshot(app)
    shown = guest.post(
        f"/m/{tarneeb}/calc", {"hand": hand, "intent": "enter", **forged, "n_tricks": 3}
    ).shown
    assert message in shown
    assert snapshot(app) == before


def test_a_hand_where_both_teams_gain_is_refused_at_entry(app, tarneeb, host, guest):
    assert host.enter(tarneeb, 1, 0, 10).status_code == 200
    before = snapshot(app)
    shown = guest.enter(tarneeb, 1, 1, 3).shown
    assert "both teams gain, and only one team gains a Tarneeb hand." in shown
    assert snapshot(app) == before


def test_one_phone_keeping_the_sheet_states_the_bid_once(host):
    """The keeper, holding no team, fills both teams' cells by calculator: the contract said
    for the first is shown as said for the second, which asks only its tricks."""
    code = host.create("tarneeb", table_format="2v2", side_0="Aya", side_1="Badr", host_side="-1")
    page = host.get(f"/m/{code}/hand/1/side/0/calc").shown
    assert dict(HIDDEN.findall(page)) == {} and 'name="n_bid"' in page
    # docs/rules/tarneeb.md, "Scoring a hand": Badr's team bid 8 and took 6: −8; Aya's team
    # scores its 7 tricks.
    host.post(
        f"/m/{code}/hand/1/side/0/calc",
        {"hand": 1, "revision": 0, "intent": "enter", "n_bidders": 1, "n_bid": 8, "n_tricks": 7},
    )
    page = host.get(f"/m/{code}/hand/1/side/1/calc").shown
    said = dict(HIDDEN.findall(page))
    assert said == {"n_bidders": "0", "n_bid": "8"}
    assert "As Aya entered it" in page and "Bid: <strong>8</strong>" in page
    assert not re.search(r'type="radio"[^>]*name="n_bidders"', page)
    shown = host.post(
        f"/m/{code}/hand/1/side/1/calc",
        {"hand": 1, "revision": 0, "intent": "enter", **said, "n_tricks": 6},
    ).shown
    assert totals(shown) == ["7", "-8"]
