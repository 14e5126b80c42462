"""A phone's record: what it counts (ended matches it played, kept on its list), what it says
per game and in all, whom it met, and that it reads in the same statements however long the
history."""

from __future__ import annotations

import html
import re

import pytest
import sqlalchemy as sa

from scorekeeper.extensions import db
from scorekeeper.models import SideResult
from tests.phones import Phone, stored_match
from tests.statements import statements
from tests.web.test_calculator import ALICE, BEN, count


def figures(page: str, heading: str) -> dict[str, str]:
    """The figures of one card of a record page (its h2), as a phone reads them: name → value."""
    card = page.split(f"<h2>{heading}</h2>")[1].split("</section>")[0]
    pairs = re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", card, re.S)
    return {
        html.unescape(name): html.unescape(re.sub(r"<[^>]+>", "", value)) for name, value in pairs
    }


def play(host: Phone, guest: Phone, hands: list[tuple[int, int]], **fields: str) -> str:
    """A head-to-head Basra match to 101 (Alice the host, Ben the guest), these hands entered
    and ended by the guest; its code."""
    code = host.create("basra", table_format="2", side_0="Alice", side_1="Ben", **fields)
    guest.join(code, side=1)
    for number, (alice, ben) in enumerate(hands, start=1):
        host.enter(code, number, 0, alice)
        guest.enter(code, number, 1, ben)
    assert "Match over" in guest.post(f"/m/{code}/end").shown
    return code


def test_the_record_counts_ended_matches_this_phone_played_and_kept(host, guest):
    play(host, guest, [(60, 10), (50, 20)])  # Alice wins
    play(host, guest, [(10, 70), (20, 60)])  # Ben wins
    removed = play(host, guest, [(101, 0)])  # Alice wins, then the host takes it off its list
    host.post(f"/history/{removed}/remove")
    abandoned = host.create("basra", table_format="2", side_0="Alice", side_1="Ben")
    guest.join(abandoned, side=1)
    host.enter(abandoned, 1, 0, 101)
    host.post(f"/m/{abandoned}/abandon", {"confirmed": "y"})
    host.create("basra", table_format="2", side_0="Alice", side_1="Ben")  # left open

    page = host.get("/history/record").shown
    assert "Your record" in page
    assert "Not counted: unfinished and abandoned matches" in page
    mine = figures(page, "In all")
    assert mine["Matches"] == "2" and mine["Wins"] == "1" and mine["Win share"] == "50%"
    # The guest kept the removed match: it counts for Ben's phone.
    theirs = figures(guest.get("/history/record").shown, "In all")
    assert theirs["Matches"] == "3" and theirs["Wins"] == "1"


def test_streaks_best_hand_biggest_win_and_comeback_per_game(host, guest):
    play(host, guest, [(10, 40), (95, 0)])  # Alice 105–40, from 30 behind
    play(host, guest, [(0, 101)])  # Ben
    play(host, guest, [(70, 0), (40, 5)])  # Alice 110–5
    play(host, guest, [(101, 80)])  # Alice 101–80
    alice = figures(host.get("/history/record").shown, "Basra")
    assert alice["Matches"] == "4" and alice["Wins"] == "3" and alice["Win share"] == "75%"
    assert alice["Current streak"] == "2 wins" and alice["Best streak"] == "2 wins"
    # Each best names its match as people know it (issue 42, point 6): not "of UA2SBW" but
    # the sides it was against and the day it ended.
    day = r"[A-Z][a-z]{2} \d{1,2}, \d{4}"
    assert re.fullmatch(f"101, hand 1 against Ben, {day}", alice["Best hand"])
    assert re.fullmatch(f"110–5 against Ben, {day}", alice["Biggest win"])
    assert re.fullmatch(f"won from 30 behind against Ben, {day}", alice["Biggest comeback"])
    # 10 + 95 + 0 + 70 + 40 + 101 over 6 hands.
    assert alice["Average points per hand"] == "52.7"
    ben = figures(guest.get("/history/record").shown, "Basra")
    # After a loss the streak is of losses, not "0 wins".
    assert ben["Current streak"] == "2 losses" and ben["Best streak"] == "1 win"
    assert "Biggest comeback" not in ben


def test_basras_and_majorities_come_from_calculator_entries(host, guest):
    code = host.create("basra", table_format="2", side_0="Alice", side_1="Ben")
    guest.join(code, side=1)
    for _ in range(3):
        count(host, code, ALICE)
        count(guest, code, BEN)
    assert "Match over" in host.post(f"/m/{code}/end").shown
    alice = figures(host.get("/history/record").shown, "Basra")
    assert alice["Basras"] == "3" and alice["Majorities taken"] == "3"
    ben = figures(guest.get("/history/record").shown, "Basra")
    assert ben["Basras"] == "0" and ben["Majorities taken"] == "0"


def test_brisca_rounds_won_and_sixty_sixties(host, guest):
    code = host.create("brisca", table_format="2", target="2", side_0="Ana", side_1="Bea")
    guest.join(code, side=1)
    host.enter(code, 1, 0, 60)
    guest.enter(code, 1, 1, 60)
    guest.post(f"/m/{code}/settle", {"target": 0, "hand": 1})
    host.enter(code, 2, 0, 40)
    guest.enter(code, 2, 1, 80)
    host.enter(code, 3, 0, 90)
    guest.enter(code, 3, 1, 30)
    assert "Match over" in guest.post(f"/m/{code}/end").shown
    ana = figures(host.get("/history/record").shown, "Brisca")
    assert ana["Rounds won"] == "2" and ana["Rounds tied at the top"] == "1"
    assert ana["Best hand"].startswith("90, round 3 against Bea, ")
    bea = figures(guest.get("/history/record").shown, "Brisca")
    assert bea["Rounds won"] == "1" and bea["Rounds tied at the top"] == "1" and bea["Wins"] == "0"


def test_partners_and_opponents_met_most_with_the_record_against_each(phones):
    omar, sara, ben, bo = phones(), phones(), phones(), phones()
    for alice_wins in (True, True, False):
        code = omar.create("basra", table_format="2v2", side_0="Us", side_1="Them", player="Omar")
        for phone, side, name in ((sara, 0, "Sara"), (ben, 1, "Ben"), (bo, 1, "Bo")):
            phone.post("/join", {"code": code})
            phone.post(f"/m/{code}/claim", {"target": side, "player": name})
        omar.enter(code, 1, 0, 101 if alice_wins else 0)
        ben.enter(code, 1, 1, 0 if alice_wins else 101)
        omar.post(f"/m/{code}/end")
    page = omar.get("/history/record").shown
    assert "Sara: won 2 of 3 together" in page
    assert "Ben: 2–1 in 3 matches" in page and "Bo: 2–1 in 3 matches" in page
    assert "Omar: 1–2 in 3 matches" in ben.get("/history/record").shown


def test_each_player_s_name_on_the_sheet_and_in_history_opens_their_record(host, guest):
    code = host.create("basra", table_format="2", side_0="Alice", side_1="Ben", player="Ana")
    guest.post("/join", {"code": code})
    guest.post(f"/m/{code}/claim", {"target": 1, "player": "Bo"})
    host.enter(code, 1, 0, 101)
    guest.enter(code, 1, 1, 5)
    guest.post(f"/m/{code}/end")
    sheet = host.get(f"/m/{code}").shown
    links = dict(
        (name, url)
        for url, name in re.findall(r'<a href="(/history/\w+/player/\d+)">([^<]+)</a>', sheet)
    )
    assert set(links) == {"Ana (Alice)", "Bo (Ben)"}
    bo = host.get(links["Bo (Ben)"]).shown
    assert "The record of Bo" in bo and figures(bo, "In all")["Wins"] == "0"
    # The same page from the History's card, and from the guest's own phone it is "yours".
    card = host.get("/history").shown
    # Each name set apart (<bdi>), so a name in another script keeps its neighbours in order.
    assert f'<bdi><a href="{links["Bo (Ben)"]}">Bo</a></bdi> (<bdi>Ben</bdi>)' in card
    assert "Your record" in guest.get(links["Bo (Ben)"]).shown
    assert 'href="/history/record"' in host.get("/history").shown


@pytest.mark.parametrize("url", ["/history/{code}/player/999999", "/history/NOCODE/player/1"])
def test_a_record_of_no_seat_at_that_match_is_not_found(host, url):
    code = host.create("basra")
    assert host.get(url.format(code=code)).status_code == 404


def test_a_phone_seated_elsewhere_is_not_found_through_another_match(host, guest):
    mine = host.create("basra")
    theirs = guest.create("basra")
    page = guest.get(f"/m/{theirs}").shown
    seat = re.search(r"/history/\w+/player/(\d+)", page).group(1)
    assert host.get(f"/history/{mine}/player/{seat}").status_code == 404


def test_a_phone_with_no_matches_is_told_so(phones):
    page = phones().get("/history/record")
    assert page.status_code == 200 and "No ended matches to count yet." in page.shown


def rematched(app, host: Phone, guest: Phone, code: str, hands: list[tuple[int, int]]) -> str:
    """The guest asks for the rematch of an ended match, the host takes its side, and these
    hands are played and the match ended; its code."""
    guest.post(f"/m/{code}/rematch")
    following = stored_match(app, code).rematch_code
    host.post(f"/m/{following}/claim", {"target": 0})
    for number, (alice, ben) in enumerate(hands, start=1):
        host.enter(following, number, 0, alice)
        guest.enter(following, number, 1, ben)
    assert "Match over" in guest.post(f"/m/{following}/end").shown
    return following


def test_the_record_reads_in_the_same_statements_for_2_and_20_matches(app, phones):
    few_host, few_guest, many_host, many_guest = phones(), phones(), phones(), phones()
    # A series of two; then twenty matches in series of one to five.
    rematched(app, few_host, few_guest, play(few_host, few_guest, [(50, 10), (60, 0)]), [(0, 101)])
    for length in (1, 2, 3, 4, 5, 5):
        code = play(many_host, many_guest, [(50, 10), (60, 0)])
        for _ in range(length - 1):
            code = rematched(app, many_host, many_guest, code, [(0, 101)])
    with statements(app) as for_few:
        mine = figures(few_host.get("/history/record").shown, "In all")
        assert mine["Matches"] == "2" and mine["Series won"] == "0 of 1"
    with statements(app) as for_many:
        mine = figures(many_host.get("/history/record").shown, "In all")
        assert mine["Matches"] == "20" and mine["Series won"] == "0 of 5"
    assert len(for_few) == len(for_many)


def test_the_record_counts_series_won_where_the_phone_last_played_in_them(app, host, guest):
    first = play(host, guest, [(101, 0)])  # Alice
    guest.post(f"/m/{first}/rematch")
    second = stored_match(app, first).rematch_code
    host.post(f"/m/{second}/claim", {"target": 0})
    host.enter(second, 1, 0, 101)
    guest.enter(second, 1, 1, 0)
    guest.post(f"/m/{second}/end")  # Alice again: her series, 2–0
    play(host, guest, [(0, 101)])  # Ben, a match of its own: no series
    alice = figures(host.get("/history/record").shown, "Basra")
    assert alice["Series won"] == "1 of 1"
    ben = figures(guest.get("/history/record").shown, "In all")
    assert ben["Matches"] == "3" and ben["Series won"] == "0 of 1"


# The faults issue 32 found, each as a table plays it.


def test_an_early_victory_from_behind_is_a_comeback_not_a_biggest_win_shown_as_a_loss(host, guest):
    code = host.create("pastura", table_format="2", target="51", side_0="Us", side_1="Them")
    guest.join(code, side=1)
    host.enter(code, 1, 0, 0)
    guest.enter(code, 1, 1, 40)
    # Us take every scoring card, Them only a pastura: Us win at once, 16–41.
    every_card = {"n_cards": 50, "n_aces": 4, "n_jacks": 4, "n_two_clubs": "y"}
    count(host, code, every_card | {"n_ten_diamonds": "y"})
    count(guest, code, {"n_cards": 2, "n_pasturas": 1})
    assert "Match over: Us won." in host.post(f"/m/{code}/end").shown
    us = figures(host.get("/history/record").shown, "Pastura")
    assert us["Wins"] == "1"
    assert "Biggest win" not in us
    assert us["Biggest comeback"].startswith("won from 40 behind")


def test_where_the_lowest_total_wins_the_best_hand_is_the_lowest(host, guest):
    code = host.create("other", rule_winner="lowest", target="100", side_0="Omar", side_1="Ben")
    guest.join(code, side=1)
    for number, (omar, ben) in enumerate([(40, 70), (10, 35)], start=1):
        host.enter(code, number, 0, omar)
        guest.enter(code, number, 1, ben)
    assert "Match over: Omar won." in host.post(f"/m/{code}/end").shown
    assert figures(host.get("/history/record").shown, "Other game")["Best hand"].startswith("10, ")
    assert figures(guest.get("/history/record").shown, "Other game")["Best hand"].startswith("35, ")


def test_a_win_is_measured_at_the_hand_that_decided_it(host, guest):
    code = host.create("basra", table_format="2", side_0="Alice", side_1="Ben")
    guest.join(code, side=1)
    for number, (alice, ben) in enumerate([(50, 0), (40, 60), (0, 40)], start=1):
        host.enter(code, number, 0, alice)
        guest.enter(code, number, 1, ben)
    # Alice reaches 110 at hand 2 once hand 1 is corrected; hand 3 comes after her win.
    host.correct(code, 1, 0, 70)
    host.correct(code, 3, 1, 60)
    assert "Match over: Alice won." in host.post(f"/m/{code}/end").shown
    basra = figures(host.get("/history/record").shown, "Basra")
    assert basra["Biggest win"].startswith("110–60 against ")
    assert "Biggest comeback" not in basra


def series_of_three(app, host, guest, carl, *, carl_plays_third: bool) -> list[str]:
    """Ben (the guest) wins two matches against Alice (the host); in the third the host
    releases Ben's side and Carl takes it, or Ben plays it, and Alice wins it."""
    first = play(host, guest, [(0, 101)])
    codes = [first]
    for alice, ben in ((0, 101), (101, 0)):
        guest.post(f"/m/{codes[-1]}/rematch")
        code = stored_match(app, codes[-1]).rematch_code
        host.post(f"/m/{code}/claim", {"target": 0})
        player = guest
        if carl_plays_third and len(codes) == 2:
            # A rematch waits for its own phones: the host opens it to Carl.
            host.post(f"/m/{code}/open")
            host.post(f"/m/{code}/release", {"target": 1, "confirmed": "y"})
            carl.join(code, side=1)
            player = carl
        host.enter(code, 1, 0, alice)
        player.enter(code, 1, 1, ben)
        assert "Match over" in host.post(f"/m/{code}/end").shown
        codes.append(code)
    return codes


def test_a_phone_that_played_only_the_last_match_of_a_series_is_not_credited_with_it(
    app, host, guest, phones
):
    carl = phones()
    codes = series_of_three(app, host, guest, carl, carl_plays_third=True)
    mine = figures(carl.get("/history/record").shown, "In all")
    assert mine["Matches"] == "1" and mine["Wins"] == "0" and mine["Series won"] == "–"
    # Ben's two wins were Ben's: the last match's sheet credits Alice's one alone.
    assert "Series: Alice ahead, 1–0" in host.get(f"/m/{codes[-1]}").shown
    assert figures(guest.get("/history/record").shown, "In all")["Series won"] == "1 of 1"


def test_a_series_follows_the_players_when_they_swap_sides(app, host, guest):
    first = play(host, guest, [(101, 0)])  # the host wins on Alice
    guest.post(f"/m/{first}/rematch")
    second = stored_match(app, first).rematch_code
    # The guest took Ben again; the host opens the table and releases Ben so they swap.
    host.post(f"/m/{second}/open")
    host.post(f"/m/{second}/release", {"target": 1, "confirmed": "y"})
    guest.post(f"/m/{second}/claim", {"target": 0})
    host.post(f"/m/{second}/claim", {"target": 1})
    guest.enter(second, 1, 0, 0)
    host.enter(second, 1, 1, 101)  # the host wins again, on Ben
    assert "Match over: Ben won." in host.post(f"/m/{second}/end").shown
    assert "Series: Ben ahead, 2–0" in host.get(f"/m/{second}").shown
    assert figures(host.get("/history/record").shown, "In all")["Series won"] == "1 of 1"
    assert figures(guest.get("/history/record").shown, "In all")["Series won"] == "0 of 1"


def test_streaks_and_the_chart_follow_the_order_matches_ended(host, guest):
    first = host.create("basra", table_format="2", side_0="Alice", side_1="Ben")
    guest.join(first, side=1)
    second = play(host, guest, [(101, 0)])  # created second, ended first: Alice wins
    host.enter(first, 1, 0, 0)
    guest.enter(first, 1, 1, 101)
    host.post(f"/m/{first}/end")  # ended last: Alice loses
    page = host.get("/history/record").shown
    alice = figures(page, "In all")
    assert alice["Current streak"] == "1 loss" and alice["Best streak"] == "1 win"
    assert second


def test_abandoned_and_removed_matches_leave_the_series_score(app, host, guest):
    first = play(host, guest, [(0, 101)])  # Ben
    guest.post(f"/m/{first}/rematch")
    second = stored_match(app, first).rematch_code
    host.post(f"/m/{second}/claim", {"target": 0})
    host.post(f"/m/{second}/abandon", {"confirmed": "y"})
    # An abandoned rematch was not played: Ben played one match, not a series.
    assert figures(guest.get("/history/record").shown, "In all")["Series won"] == "–"
    host.post(f"/m/{second}/reopen")
    host.enter(second, 1, 0, 101)
    guest.enter(second, 1, 1, 0)
    host.post(f"/m/{second}/end")  # Alice: level, 1–1
    assert "Series: level, 1–1" in host.get(f"/m/{second}").shown
    # Ben takes the first match off his list: what is left of his series is one match.
    guest.post(f"/history/{first}/remove")
    ben = figures(guest.get("/history/record").shown, "In all")
    assert ben["Matches"] == "1" and ben["Series won"] == "–"
    assert figures(host.get("/history/record").shown, "In all")["Series won"] == "0 of 1"


def test_a_reopened_match_leaves_the_record_until_it_ends_again_as_corrected(app, host, guest):
    code = play(host, guest, [(60, 10), (50, 20)])  # Alice 110–30
    assert figures(host.get("/history/record").shown, "Basra")["Biggest win"].startswith("110–30")
    assert "Match reopened." in host.post(f"/m/{code}/reopen").shown
    assert "No ended matches to count yet." in host.get("/history/record").shown
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(SideResult)) == 0
    host.correct(code, 2, 1, 0)  # Ben's 20 was a 0
    assert "Match over" in host.post(f"/m/{code}/end").shown
    alice = figures(host.get("/history/record").shown, "Basra")
    assert alice["Matches"] == "1" and alice["Biggest win"].startswith("110–10")
    assert figures(guest.get("/history/record").shown, "Basra")["Best hand"].startswith("10, ")
