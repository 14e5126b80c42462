"""Rematch: the next match of an ended one, started once however many phones tap it."""

from __future__ import annotations

import re

import sqlalchemy as sa

from scorekeeper.extensions import db
from scorekeeper.models import Match
from tests.phones import Phone, stored_match
from tests.web.test_languages import speaking


def test_a_rematch_copies_the_settings_and_is_started_once(app, host, guest):
    code = host.create(
        "basra", table_format="2", target="121", side_0="Us", side_1="Them", player="Omar"
    )
    guest.join(code, side=1)
    host.enter(code, 1, 0, 121)
    guest.enter(code, 1, 1, 3)
    guest.post(f"/m/{code}/end")

    first = guest.post(f"/m/{code}/rematch")
    assert "Rematch! Every phone of the last match is asked to take its side." in first.shown
    again = host.post(f"/m/{code}/rematch")
    assert "The rematch is ready." in again.shown

    old = stored_match(app, code)
    new = stored_match(app, old.rematch_code)
    assert (new.game, new.table_format, new.target, new.status) == ("basra", "2", 121, "open")
    # The host of the last match hosts this one; the guest, who asked, holds its side.
    assert new.host_phone == old.host_phone
    assert "This phone holds <strong>Them</strong>" in guest.get(f"/m/{new.code}").get_data(
        as_text=True
    )
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Match)) == 2
        names = [side.name for side in db.session.get(Match, new.id).sides]
    assert names == ["Us", "Them"]
    # The host takes its side there with the old match's one-tap form.
    took = host.post(f"/m/{new.code}/claim", {"target": 0, "player": "Omar"})
    assert "This phone now holds Us." in took.shown


def rematch_of(app, host: Phone, guest: Phone, code: str) -> str:
    """The guest asks for the rematch of an ended match and the host takes its side there."""
    guest.post(f"/m/{code}/rematch")
    following = stored_match(app, code).rematch_code
    assert following is not None
    host.post(f"/m/{following}/claim", {"target": 0})
    return following


def play_out(host: Phone, guest: Phone, code: str, alice: int, ben: int) -> None:
    """One hand that ends a match to 101, and its end."""
    host.enter(code, 1, 0, alice)
    guest.enter(code, 1, 1, ben)
    assert "Match over" in guest.post(f"/m/{code}/end").shown


def test_rematches_make_a_series_its_score_on_the_sheet_and_in_history(app, host, guest):
    first = host.create("basra", table_format="2", side_0="Alice", side_1="Ben")
    guest.join(first, side=1)
    play_out(host, guest, first, 101, 20)  # Alice
    second = rematch_of(app, host, guest, first)
    # The rematch has begun the series: Alice's win is its score so far.
    assert "Series: Alice ahead, 1–0" in host.get(f"/m/{second}").shown
    play_out(host, guest, second, 10, 101)  # Ben
    assert "Series: level, 1–1" in guest.get(f"/m/{second}").shown
    third = rematch_of(app, host, guest, second)
    play_out(host, guest, third, 0, 110)  # Ben
    assert "Series: Ben ahead, 2–1" in host.get(f"/m/{third}").shown
    assert "Series: Ben ahead, 2–1" in host.get(f"/m/{third}/tv").shown
    # Each card in History shows the series as it stood after that match.
    cards = re.findall(r'class="series">([^<]+)<', host.get("/history").shown)
    assert cards == ["Series: Ben ahead, 2–1", "Series: level, 1–1", "Series: Alice ahead, 1–0"]


def test_a_match_without_a_rematch_is_no_series(host, guest):
    code = host.create("basra", table_format="2", side_0="Alice", side_1="Ben")
    guest.join(code, side=1)
    play_out(host, guest, code, 101, 20)
    assert "Series:" not in host.get(f"/m/{code}").shown
    assert "Series:" not in host.get("/history").shown


def test_the_series_is_said_in_the_phone_s_language(app, host, guest):
    first = host.create("basra", table_format="2", side_0="Alice", side_1="Ben")
    guest.join(first, side=1)
    play_out(host, guest, first, 101, 20)
    second = rematch_of(app, host, guest, first)
    page = speaking(host, "ar").get(f"/m/{second}").shown
    # Arabic keeps Western digits, as its score cells do (languages.number).
    assert "Series:" not in page
    assert "السلسلة: Alice في المقدمة، 1–0" in page


def test_reopening_a_match_redraws_the_series_of_the_rematches_after_it(app, host, guest):
    first = host.create("basra", table_format="2", side_0="Alice", side_1="Ben")
    guest.join(first, side=1)
    play_out(host, guest, first, 101, 20)  # Alice
    second = rematch_of(app, host, guest, first)
    play_out(host, guest, second, 20, 101)  # Ben
    third = rematch_of(app, host, guest, second)
    # The guest's phones show the later two matches' live parts, each with its ETag.
    shown = {code: guest.client.get(f"/m/{code}/live") for code in (second, third)}
    assert "Series: level, 1–1" in shown[third].get_data(as_text=True)
    # The first match was ended by mistake: the host reopens it, and it leaves the series.
    assert "Match reopened." in host.post(f"/m/{first}/reopen").shown
    for code, before in shown.items():
        asked = {"If-None-Match": before.headers["ETag"]}
        assert guest.client.get(f"/m/{code}/live", headers=asked).status_code == 200
    assert "Series: Ben ahead, 1–0" in guest.get(f"/m/{third}").shown


def test_the_rematch_is_offered_only_while_its_side_can_be_taken(app, host, guest):
    first = host.create("basra", table_format="2", side_0="Alice", side_1="Ben")
    guest.join(first, side=1)
    play_out(host, guest, first, 101, 20)
    guest.post(f"/m/{first}/rematch")
    second = stored_match(app, first).rematch_code
    # The guest took Ben there by asking for it: only the host still has a side to take.
    assert "Play the rematch as Ben" not in guest.get(f"/m/{first}").shown
    page = host.get(f"/m/{first}")
    assert "Play the rematch as Alice" in page.shown
    host.post(f"/m/{second}/claim", {"target": 0})
    play_out(host, guest, second, 101, 20)
    # The rematch has ended: nothing left to join there, its sheet a link away.
    again = host.client.get(f"/m/{first}", headers={"If-None-Match": page.headers["ETag"]})
    assert again.status_code == 200
    for phone in (host, guest):
        shown = phone.get(f"/m/{first}").shown
        assert "Play the rematch as" not in shown
        assert "The rematch has ended." in shown
        assert f'href="/m/{second}"' in shown
