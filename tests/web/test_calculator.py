"""The calculator on the phone: counts in, breakdown kept, hands checked across sides."""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.extensions import db
from scorekeeper.models import Entry
from tests.phones import snapshot, totals
from tests.web.test_fuzz_forms import FIELDS, junk
from tests.words import words

# docs/rules/basra.md, "Worked hand": Alice 30 cards, three aces, two jacks, the 10♦ and one basra;
# Ben 22 cards, one ace, two jacks and the 2♣.
ALICE = {"n_cards": 30, "n_aces": 3, "n_jacks": 2, "n_ten_diamonds": "y", "n_basras": 1}
BEN = {"n_cards": 22, "n_aces": 1, "n_jacks": 2, "n_two_clubs": "y", "n_basras": 0}


def count(phone, code, counts, intent="enter", hand=None, url=None):
    """Post the calculator for this phone's side (or the host's correction at `url`)."""
    url = url or f"/m/{code}/calc"
    if hand is None:
        hand = int(re.search(r'name="hand"[^>]*value="(\d+)"', phone.get(url).shown).group(1))
    return phone.post(url, {"hand": hand, "intent": intent, **counts})


def test_worked_hand_through_the_calculator(app, basra, host, guest):
    preview = count(host, basra, ALICE, intent="preview")
    page = preview.shown
    assert preview.status_code == 200
    assert "Majority (27+ cards)" in page and "Enter 48" in page
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Entry)) == 0

    count(host, basra, ALICE)
    page = count(guest, basra, BEN).shown
    assert totals(page) == ["48", "5"]
    assert "doesn't add up" not in page

    cell = guest.get(f"/m/{basra}/hand/1/side/0").shown
    for label, points in [
        ("Majority (27+ cards)", 30),
        ("Aces", 3),
        ("Jacks", 2),
        ("10♦", 3),
        ("Basras", 10),
    ]:
        assert re.search(rf"<td>{re.escape(label)}</td><td>\d+</td><td>{points}</td>", cell)
    with app.app_context():
        alice = db.session.scalars(sa.select(Entry).order_by(Entry.side_id)).first()
        assert alice.points == 48
        assert alice.counts["cards"] == 30 and alice.counts["basras"] == 1


def preview(phone, code, counts, url=None):
    """One keystroke's breakdown, as js/calculator.js asks it: a GET, the counts in its query
    (the calculator at `url`, else this phone's side's own)."""
    return phone.get(f"{url or f'/m/{code}/calc'}/preview?{urlencode(counts)}")


def test_preview_fragment_for_live_breakdown(app, basra, host, guest):
    before = snapshot(app)
    response = preview(host, basra, {"hand": 1, **ALICE})
    page = response.shown
    assert response.status_code == 200
    assert page.startswith('<div id="breakdown"') and "Enter 48" in page
    assert "<html" not in page
    # Of this moment's sheet: asked again on each keystroke, never kept.
    assert response.headers["Cache-Control"] == "no-store"
    assert snapshot(app) == before
    # The page names its preview, and the host's correction its own.
    assert f'data-preview="/m/{basra}/calc/preview"' in host.get(f"/m/{basra}/calc").shown
    count(host, basra, ALICE)
    count(guest, basra, BEN)
    fix = host.get(f"/m/{basra}/hand/1/side/1/calc").shown
    assert f'data-preview="/m/{basra}/hand/1/side/1/calc/preview"' in fix


@pytest.mark.parametrize("url", ["/m/{code}/calc", "/m/{code}/hand/1/side/1/calc"])
def test_the_preview_is_for_the_phones_the_calculator_is_shown_to(basra, guest, watcher, url):
    """A watcher has no calculator of its own, and only the host corrects: their previews
    are refused as the calculator's page is, in the same words."""
    watcher.join(basra, side=None)
    for phone in (guest, watcher) if "hand" in url else (watcher,):
        shown = phone.get(url.format(code=basra))
        previewed = preview(phone, basra, {"hand": 1, **BEN}, url=url.format(code=basra))
        assert shown.status_code == previewed.status_code >= 400
        said = re.search(r'class="flash error"[^>]*>([^<]+)<', shown.shown).group(1)
        assert said in previewed.shown
        assert "Enter " not in previewed.shown


def test_counts_the_preview_cannot_read_are_said_in_the_phones_language(basra, guest):
    guest.client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "ar"
    response = preview(guest, basra, {"hand": 1, **BEN, "n_cards": "lots"})
    assert response.status_code == 400
    assert words("ar")("Type a count as a whole number, like 3.") in response.shown
    assert 'data-field="n_cards"' in response.shown
    # Digits as an Arabic phone types them are read.
    worked = preview(guest, basra, {"hand": "١", **BEN, "n_cards": "٢٢"})
    assert worked.status_code == 200 and 'value="enter"' in worked.shown


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_random_previews_are_answered_never_a_500(app, basra, host, data):
    url = data.draw(st.sampled_from([None, f"/m/{basra}/hand/1/side/1/calc"]), label="url")
    values = {
        name: data.draw(junk, label=name)
        for name in FIELDS["calc"]
        if data.draw(st.booleans(), label=f"send {name}")
    }
    before = snapshot(app)
    response = preview(host, basra, values, url=url)
    assert response.status_code < 500, response.shown[:500]
    # The breakdown, or the refusal the calculator's page gives (a cell not entered yet).
    assert (
        response.shown.startswith('<div id="breakdown"') or 'class="flash error"' in response.shown
    )
    assert snapshot(app) == before


def test_hand_that_does_not_add_up_is_flagged(basra, host, guest):
    count(host, basra, {**ALICE, "n_cards": 30})
    page = count(guest, basra, {**BEN, "n_cards": 20}).shown
    assert "Hand 1 doesn't add up" in page
    assert "Cards add up to 50, not 52" in page


def test_counts_past_the_pack_beside_the_other_side_are_refused(app, basra, host, guest):
    """The other side's calculator already holds 3 aces: a fifth ace is refused before it is
    saved, naming what the other side entered."""
    count(host, basra, {**ALICE, "n_cards": 30})
    before = snapshot(app)
    refused = count(guest, basra, {**BEN, "n_cards": 20, "n_aces": 2})
    assert refused.status_code == 409
    assert "Hand 1: nothing was saved. Aces: Alice 3 already, and your 2 would make 5" in (
        refused.shown
    )
    too_many = count(guest, basra, {**BEN, "n_cards": 30})
    assert "Cards: Alice 30 already, and your 30 would make 60; there are only 52." in (
        too_many.shown
    )
    assert snapshot(app) == before


@pytest.mark.parametrize(
    ("counts", "message"),
    [
        ({"n_aces": 5}, "Aces: 0 to 4."),
        ({"n_cards": 53}, "Cards captured: 0 to 52."),
        ({"n_cards": -1}, "Cards captured: 0 to 52."),
        ({"n_cards": "lots"}, "Type a count as a whole number"),
        # The 2♣ claimed with no cards captured at all.
        (
            {"n_cards": 0, "n_aces": 0, "n_jacks": 0, "n_basras": 0},
            "That makes 1 scoring card in a pile of 0 cards captured.",
        ),
    ],
)
def test_impossible_counts_get_a_message_and_store_nothing(app, basra, guest, counts, message):
    before = snapshot(app)
    response = count(guest, basra, {**BEN, **counts})
    assert response.status_code == 400
    assert message in response.shown
    assert snapshot(app) == before


def test_correcting_an_earlier_tie_changes_the_later_majority(basra, host, guest):
    tie_alice = {"n_cards": 26, "n_aces": 2, "n_jacks": 2, "n_ten_diamonds": "y"}
    tie_ben = {"n_cards": 26, "n_aces": 2, "n_jacks": 2, "n_two_clubs": "y"}
    count(host, basra, tie_alice)
    page = count(guest, basra, tie_ben).shown
    assert "Next majority worth 60" in page
    # The plain entry form reminds a side of the held-over points.
    assert "30 majority points are held over" in guest.get(f"/m/{basra}").shown

    count(host, basra, {"n_cards": 30, "n_aces": 2, "n_jacks": 2, "n_ten_diamonds": "y"})
    page = count(guest, basra, {"n_cards": 22, "n_aces": 2, "n_jacks": 2, "n_two_clubs": "y"}).shown
    # Hand 1: 7 – 6; hand 2: Alice 60 + 2 + 2 + 3 = 67, Ben 6.
    assert totals(page) == ["74", "12"]

    # The host finds hand 1 was 25–27, not 26–26: Ben took that majority, and Alice's
    # hand 2 majority is worth 30, not 60.
    url = f"/m/{basra}/hand/1/side/0/calc"
    page = count(host, basra, {**tie_alice, "n_cards": 25, "revision": 1}, hand=1, url=url).shown
    url = f"/m/{basra}/hand/1/side/1/calc"
    page = count(host, basra, {**tie_ben, "n_cards": 27, "revision": 1}, hand=1, url=url).shown
    # Hand 1: Alice 7, Ben 30 + 6 = 36; hand 2: Alice 30 + 7 = 37, Ben 6.
    assert totals(page) == ["44", "42"]
    assert "Next majority worth 30" in page
    assert "Hand 1, Alice: still 7 [Cards captured 26 → 25]" in page
    assert "Hand 1, Ben: 6 → 36 [Cards captured 26 → 27]" in page
    cell = host.get(f"/m/{basra}/hand/2/side/0").shown
    assert re.search(r"<td>Majority \(27\+ cards\)</td><td>30</td><td>30</td>", cell)


def test_plain_even_split_holds_the_majority_over(basra, host, guest):
    # Both sides say so: a split only one side ticks is refused (test_contradictions.py).
    host.enter(basra, 1, 0, 13, even_split="y")
    page = guest.enter(basra, 1, 1, 17, even_split="y").shown
    assert "Next majority worth 60" in page


def test_brisca_calculator_counts_card_points(host, guest):
    code = host.create("brisca", table_format="2", target="3", side_0="Ana", side_1="Bea")
    guest.join(code, side=1)
    counts = {"n_aces": 2, "n_threes": 2, "n_kings": 2, "n_horses": 2, "n_jacks": 2}
    preview = count(host, code, counts, intent="preview").shown
    assert "Enter 60" in preview
    count(host, code, counts)
    page = count(guest, code, counts).shown
    assert "Round 1 is tied. Who took the last trick?" in page


@pytest.mark.parametrize("who", ["host", "guest"])
def test_counts_for_a_hand_completed_meanwhile_come_back_for_the_open_hand(
    app, basra, host, guest, who
):
    # This phone's side entered hand 1 and opened the calculator to count it again; meanwhile
    # the other side entered, completing hand 1.
    phone, side, side_counts = (host, 0, ALICE) if who == "host" else (guest, 1, BEN)
    other, other_side = (guest, 1) if who == "host" else (host, 0)
    phone.enter(basra, 1, side, 40)
    other.enter(basra, 1, other_side, 5)
    before = snapshot(app)
    late = count(phone, basra, side_counts, hand=1)
    assert late.status_code == 409
    page = late.shown
    assert "Hand 1 was complete before your counts arrived, so they were not saved" in page
    assert ("only the host" in page) is (who == "guest")
    # Drawn for hand 2, with the counts as typed and worked out, one tap from entering.
    assert re.search(r'name="hand"[^>]*value="2"', page)
    assert re.search(rf'name="n_cards"[^>]*value="{side_counts["n_cards"]}"', page)
    assert snapshot(app) == before


def test_a_preview_for_a_hand_completed_meanwhile_says_so_before_enter(app, basra, host, guest):
    host.enter(basra, 1, 0, 40)
    # Ben's calculator was drawn for hand 1; before he works his counts out, hand 1 completes
    # (his plain total, typed on another page).
    guest.enter(basra, 1, 1, 5)
    before = snapshot(app)
    late = count(guest, basra, BEN, intent="preview", hand=1)
    assert late.status_code == 409
    assert "Hand 1 was complete before your counts arrived" in late.shown
    assert re.search(r'name="hand"[^>]*value="2"', late.shown)
    assert snapshot(app) == before


def test_a_correction_by_calculator_goes_to_the_hand_of_its_address(app, basra, host, guest):
    count(host, basra, ALICE)
    count(guest, basra, BEN)
    url = f"/m/{basra}/hand/1/side/1/calc"
    revision = int(re.search(r'name="revision"[^>]*value="(\d+)"', host.get(url).shown).group(1))
    # The form's hidden hand says 2 (a page made by hand): the address names hand 1.
    # Ben's counts with the basra he forgot (the same as Alice's would be past the pack).
    counts = {**BEN, "n_basras": 1}
    fixed = host.post(url, {"hand": 2, "revision": revision, "intent": "enter", **counts})
    assert "Hand 1: Ben corrected from 5 to 15." in fixed.shown
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Entry)) == 2


@pytest.mark.parametrize("counts", [BEN, {**BEN, "n_cards": "lots"}])
def test_only_the_host_sees_or_posts_a_correction_calculator(app, basra, guest, watcher, counts):
    watcher.join(basra, side=None)
    before = snapshot(app)
    for phone in (guest, watcher):
        url = f"/m/{basra}/hand/1/side/1/calc"
        tried = phone.post(url, {"hand": 1, "revision": 0, "intent": "enter", **counts})
        assert tried.status_code == 403
        assert "Only the host's phone can do that." in tried.shown
    assert snapshot(app) == before


def test_a_calculator_cell_corrected_to_a_plain_total_keeps_its_counts_out_of_the_trail(
    basra, host, guest
):
    count(host, basra, ALICE)
    count(guest, basra, BEN)
    page = host.correct(basra, 1, 1, 9, reason="counted twice").shown
    # The counts were not zeroed: the cell is a plain total now, and the trail says only that.
    assert "Hand 1, Ben: 5 → 9 [now a plain total] (counted twice)" in page
    assert "Cards captured 22 → 0" not in page
    assert "Cards captured" not in guest.get(f"/m/{basra}/hand/1/side/1").shown
