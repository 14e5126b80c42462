"""Every forbidden action is refused with a message, and nothing stored changes."""

from __future__ import annotations

import re

import pytest
import sqlalchemy as sa

from scorekeeper.extensions import db
from scorekeeper.models import Correction, Entry, Seat, Side
from tests.phones import snapshot, stored_match


@pytest.fixture
def table(host, guest, watcher):
    """A two-sided Basra match: host holds side 0, guest side 1, a watcher; hand 1 started."""
    code = host.create("basra", table_format="2", target="101", side_0="Alice", side_1="Ben")
    guest.join(code, side=1)
    watcher.join(code, side=None)
    host.enter(code, 1, 0, 40)
    return code


FORBIDDEN = [
    # (who, what, expected status, words on the page)
    ("guest", lambda p, c: p.enter(c, 1, 0, 99), 403, "cannot enter for another side"),
    ("watcher", lambda p, c: p.enter(c, 1, 1, 9), 403, "Claim a side first"),
    ("stranger", lambda p, c: p.enter(c, 1, 1, 9), 403, "Claim a side first"),
    ("guest", lambda p, c: p.correct(c, 1, 0, 1, revision=1), 403, "Only the host"),
    ("watcher", lambda p, c: p.correct(c, 1, 0, 1, revision=1), 403, "Only the host"),
    (
        "guest",
        lambda p, c: p.post(f"/m/{c}/release", {"target": 0, "confirmed": "y"}),
        403,
        "Only the host",
    ),
    ("guest", lambda p, c: p.post(f"/m/{c}/abandon", {"confirmed": "y"}), 403, "Only the host"),
    ("guest", lambda p, c: p.post(f"/m/{c}/reopen"), 403, "Only the host"),
    (
        "guest",
        lambda p, c: p.post(f"/m/{c}/host", {"target": 1, "confirmed": "y"}),
        403,
        "Only the host",
    ),
    ("watcher", lambda p, c: p.post(f"/m/{c}/end"), 403, "Only a phone at the table"),
    ("guest", lambda p, c: p.post(f"/m/{c}/end"), 409, "No side has won yet"),
    ("guest", lambda p, c: p.enter(c, 2, 1, 9), 409, "Hand 1 isn't complete yet"),
    ("stranger", lambda p, c: p.post(f"/m/{c}/claim", {"target": 0}), 409, "Alice is already held"),
    ("guest", lambda p, c: p.post(f"/m/{c}/claim", {"target": 0}), 409, "already holds Ben"),
    ("host", lambda p, c: p.post(f"/m/{c}/claim", {"target": 1}), 409, "already holds Alice"),
    ("host", lambda p, c: p.post(f"/m/{c}/claim", {"target": 7}), 404, "no such side"),
    ("host", lambda p, c: p.post(f"/m/{c}/reopen"), 409, "This match is open already"),
]


@pytest.mark.parametrize(("who", "act", "status", "words"), FORBIDDEN)
def test_forbidden_action_is_refused_and_changes_nothing(
    app, table, host, guest, watcher, phones, who, act, status, words
):
    phone = {"host": host, "guest": guest, "watcher": watcher, "stranger": phones()}[who]
    before = snapshot(app)
    response = act(phone, table)
    assert response.status_code == status
    assert words in response.shown
    assert snapshot(app) == before


def test_a_complete_hand_is_closed_to_the_sides(app, table, host, guest):
    guest.enter(table, 1, 1, 3)
    before = snapshot(app)
    response = guest.enter(table, 1, 1, 13)
    assert response.status_code == 409
    assert "only the host can change hand 1 now" in response.shown
    assert snapshot(app) == before


def points_in_form(page: str) -> tuple[str, str]:
    """The hand the entry form is for and the points it holds, as the page draws them."""
    hand = re.search(r'<input type="hidden" name="hand" value="(\d+)">', page)
    points = re.search(r'<input type="text" id="points" name="points" value="([^"]*)"', page)
    assert hand and points
    return hand.group(1), points.group(1)


@pytest.mark.parametrize("who", ["host", "guest"])
def test_an_entry_for_a_hand_completed_meanwhile_is_given_back_in_the_words_for_its_phone(
    app, host, guest, who
):
    code = host.create("brisca", table_format="2", target="3", side_0="Ana", side_1="Omar")
    guest.join(code, side=1)
    # Ana enters round 1, then types 60 into the form still drawn for round 1 just as Omar
    # completes round 1: her 60 (round 2's, surely) arrives for round 1.
    host.enter(code, 1, 0, 70)
    guest.enter(code, 1, 1, 50)
    before = snapshot(app)
    phone, side = (host, 0) if who == "host" else (guest, 1)
    response = phone.enter(code, 1, side, 60)
    assert response.status_code == 409
    assert "Round 1 was complete before your 60 arrived, so it was not saved" in response.shown
    if who == "host":
        # The host may change round 1, from the sheet: she is never told only the host can.
        assert "only the host" not in response.shown
        assert "tap its cell on the sheet" in response.shown
    else:
        assert "only the host can change round 1 now" in response.shown
    # What was typed is in the form for round 2, to enter again with one tap, and marked so
    # that the next live refresh keeps it (js/live.js).
    assert points_in_form(response.get_data(as_text=True)) == ("2", "60")
    assert 'id="entry" data-given-back="1"' in response.get_data(as_text=True)
    assert snapshot(app) == before


@pytest.mark.parametrize("status_action", ["end", "abandon"])
def test_nothing_changes_on_an_ended_or_abandoned_match(app, host, guest, status_action):
    code = host.create("basra", side_0="A", side_1="B")
    guest.join(code, side=1)
    host.enter(code, 1, 0, 101)
    guest.enter(code, 1, 1, 2)
    host.post(f"/m/{code}/{status_action}", {"confirmed": "y"})
    before = snapshot(app)
    attempts = [
        guest.enter(code, 2, 1, 5),
        host.enter(code, 2, 0, 5),
        host.correct(code, 1, 1, 9, revision=1),
        host.post(f"/m/{code}/release", {"target": 1, "confirmed": "y"}),
        guest.post(f"/m/{code}/end"),
        host.post(f"/m/{code}/abandon", {"confirmed": "y"}),
    ]
    for response in attempts:
        assert response.status_code == 409
        assert "nothing on it can change" in response.shown
    assert snapshot(app) == before


def test_host_releases_a_side_and_another_phone_claims_it(app, table, host, guest, phones):
    page = host.post(f"/m/{table}/release", {"target": 1, "confirmed": "y"}).shown
    assert "Ben is free to be claimed again." in page
    refused = guest.enter(table, 1, 1, 3)
    assert refused.status_code == 403
    spare = phones()
    spare.join(table, side=1)
    assert spare.enter(table, 1, 1, 3).status_code == 200


def test_host_closes_the_table_to_new_phones_and_opens_it_again(app, table, host, guest, phones):
    # Ben's side is free again, and the host closes the table before a stranger finds it.
    host.post(f"/m/{table}/release", {"target": 1, "confirmed": "y"})
    assert "Close the table to new phones" not in guest.get(f"/m/{table}").shown
    refused = guest.post(f"/m/{table}/close")
    assert refused.status_code == 403
    page = host.post(f"/m/{table}/close").shown
    assert "The table is closed: no new phone can take a side." in page
    stranger = phones()
    shown = stranger.get(f"/m/{table}").shown
    assert "The host has closed the table" in shown and "I'm Ben" not in shown
    before = snapshot(app)
    claimed = stranger.post(f"/m/{table}/claim", {"target": 1})
    assert claimed.status_code == 409
    assert "closed the table" in claimed.shown
    assert snapshot(app) == before
    # Watching stays open.
    assert "Watching this match." in stranger.post(f"/m/{table}/watch").shown
    assert "The table is open" in host.post(f"/m/{table}/open").shown
    assert "This phone now holds Ben" in stranger.post(f"/m/{table}/claim", {"target": 1}).shown


def test_host_role_handed_to_another_phone(app, table, host, guest):
    page = guest.get(f"/m/{table}").shown
    assert "Abandon match" not in page
    import re

    seat = re.findall(
        rf'href="/m/{table}/host\?target=(\d+)">Make Ben host',
        host.get(f"/m/{table}").shown,
    )
    assert seat, "the host sees a button to hand over to Ben"
    host.post(f"/m/{table}/host", {"target": seat[0], "confirmed": "y"})
    assert "Abandon match" in guest.get(f"/m/{table}").shown
    refused = host.post(f"/m/{table}/abandon", {"confirmed": "y"})
    assert refused.status_code == 403


def test_partners_never_overwrite_each_other_unseen(app, phones):
    host, ana, omar = phones(), phones(), phones()
    code = host.create("basra", table_format="2v2", side_0="Us", side_1="Them", host_side="1")
    ana.join(code, side=0)
    omar.join(code, side=0)
    # Both partners' forms were drawn with hand 1 empty (revision 0); Omar enters first.
    assert "Hand 1: Us 10 recorded." in omar.enter(code, 1, 0, 10, revision=0).shown
    before = snapshot(app)
    late = ana.enter(code, 1, 0, 9, revision=0)
    assert late.status_code == 409
    assert (
        "Your partner's phone changed the cell of Us in hand 1 meanwhile: it now reads 10"
    ) in late.shown
    assert snapshot(app) == before
    # The form now shows Omar's 10 at its revision: Ana confirms her 9 knowingly.
    assert 'name="points" value="10"' in late.get_data(as_text=True)
    assert 'name="revision" value="1"' in late.get_data(as_text=True)
    assert "Hand 1: Us changed to 9." in ana.enter(code, 1, 0, 9, revision=1).shown


def test_a_side_never_overwrites_the_host_s_correction_unseen(app, table, host, guest):
    guest.enter(table, 1, 1, 3)
    # Hand 2 is open: Ben enters, the host corrects his cell before Ben changes it again.
    assert "Hand 2: Ben 5 recorded." in guest.enter(table, 2, 1, 5, revision=0).shown
    assert "corrected from 5 to 7" in host.correct(table, 2, 1, 7, revision=1).shown
    before = snapshot(app)
    stale = guest.enter(table, 2, 1, 6, revision=1)
    assert stale.status_code == 409
    # The host gave no name: named by the side the host holds, as the trail names them.
    assert (
        "Alice, the host, changed the cell of Ben in hand 2 meanwhile: it now reads 7"
    ) in stale.shown
    assert snapshot(app) == before
    assert "Hand 2: Ben changed to 6." in guest.enter(table, 2, 1, 6, revision=2).shown


def test_watchers_are_bounded_and_summed_up_and_a_seated_phone_stays_seated(
    app, table, host, guest, phones, monkeypatch
):
    from scorekeeper.scoresheet import seats

    monkeypatch.setattr(seats, "MAX_WATCHERS", 3)
    version = stored_match(app, table).version
    # Ben's phone holds his side: "watch" would quietly give it up. Refused, nothing bumped.
    refused = guest.post(f"/m/{table}/watch")
    assert refused.status_code == 409
    assert "This phone holds Ben: it is at the table, not watching." in refused.shown
    assert stored_match(app, table).version == version
    # The table's watcher (one already) watching again changes nothing either.
    watcher = phones()
    assert "Watching this match." in watcher.join(table, side=None).shown
    version = stored_match(app, table).version
    assert "watching this match already" in watcher.post(f"/m/{table}/watch").shown
    assert stored_match(app, table).version == version
    # Up to the cap (3 here, with the fixture's watcher); one more is refused in words.
    phones().join(table, side=None)
    before = snapshot(app)
    late = phones().join(table, side=None)
    assert late.status_code == 409
    assert "3 phones are watching this match already" in late.shown
    assert snapshot(app) == before
    # The host's tools say how many watch, with no button for each: the host role is offered
    # to the one player's seat, Ben's, and to no watching phone's ("Make a watching phone
    # host…", as a watcher that gave no name would be called).
    tools = host.get(f"/m/{table}").shown
    assert "3 watching" in tools
    offered = re.findall(rf'href="/m/{table}/host\?target=(\d+)">([^<]*)</a>', tools)
    with app.app_context():
        ben = db.session.scalar(
            sa.select(Seat.id).join(Side, Seat.side_id == Side.id).where(Side.name == "Ben")
        )
    assert offered == [(str(ben), "Make Ben host…")]


@pytest.mark.parametrize(
    ("path", "data", "question"),
    [
        ("abandon", {}, "Abandon this match?"),
        ("release", {"target": 1}, "Release Ben?"),
        ("host", None, "Make Ben the host?"),
    ],
)
def test_what_cannot_be_undone_asks_a_second_tap_first(app, table, host, path, data, question):
    """A first tap (the host tools' link, or a post without the confirm page's button) only
    asks; nothing changes until the confirm page's button is pressed."""
    if data is None:
        page = host.get(f"/m/{table}").shown
        data = {"target": re.search(rf'/m/{table}/host\?target=(\d+)"', page).group(1)}
    before = snapshot(app)
    asked = host.get(f"/m/{table}/{path}?target={data.get('target', '')}")
    posted = host.post(f"/m/{table}/{path}", data)
    for response in (asked, posted):
        assert response.status_code == 200
        assert question in response.shown
        assert 'name="confirmed" value="y"' in response.shown
    assert snapshot(app) == before
    done = host.post(f"/m/{table}/{path}", {**data, "confirmed": "y"})
    assert done.status_code == 200
    assert snapshot(app) != before


def test_the_host_reopens_an_abandoned_match(app, table, host, guest):
    host.post(f"/m/{table}/abandon", {"confirmed": "y"})
    assert "Reopen match" in host.get(f"/m/{table}").shown
    assert "Match reopened." in host.post(f"/m/{table}/reopen").shown
    assert stored_match(app, table).status == "open"
    assert "Hand 1: Ben 4 recorded." in guest.enter(table, 1, 1, 4).shown


def test_a_whole_hand_correction_is_checked_together_and_refused_whole(app, host, guest):
    code = host.create("brisca", table_format="2", side_0="Ana", side_1="Bea")
    guest.join(code, side=1)
    host.enter(code, 1, 0, 61)
    guest.enter(code, 1, 1, 59)
    before = snapshot(app)
    form = {"points_0": 70, "points_1": 59, "revision_0": 1, "revision_1": 1}
    refused = host.post(f"/m/{code}/hand/1/correct", form)
    assert refused.status_code == 409
    assert "Round 1: nothing was saved." in refused.shown
    stale = host.post(f"/m/{code}/hand/1/correct", {**form, "points_1": 50, "revision_1": 0})
    assert (
        "A phone holding Bea changed the cell of Bea in round 1 meanwhile: it now reads 59."
    ) in stale.shown
    assert snapshot(app) == before
    done = host.post(f"/m/{code}/hand/1/correct", {**form, "points_1": 50})
    assert "Round 1 corrected: Ana 61 → 70, Bea 59 → 50." in done.shown


def test_a_whole_hand_correction_keeps_a_calculator_cell_it_leaves_alone(app, host, guest):
    code = host.create("basra", table_format="2", side_0="Alice", side_1="Ben")
    guest.join(code, side=1)
    counts = {"n_cards": 30, "n_aces": 3, "n_jacks": 2, "n_ten_diamonds": "y", "n_basras": 1}
    host.post(f"/m/{code}/calc", {"hand": 1, "intent": "enter", "revision": 0, **counts})
    guest.enter(code, 1, 1, 5)
    done = host.post(
        f"/m/{code}/hand/1/correct",
        {"points_0": 48, "points_1": 7, "revision_0": 1, "revision_1": 1},
    )
    assert "Hand 1 corrected: Ben 5 → 7." in done.shown
    with app.app_context():
        alice = db.session.scalars(sa.select(Entry).order_by(Entry.side_id)).first()
        assert alice.counts["cards"] == 30 and alice.revision == 1
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Correction)) == 1


def test_junk_targets_are_refused_before_any_lookup(host, guest, table):
    for junk in ("99999999999999999999999", "-1", "x"):
        asked = host.get(f"/m/{table}/host?target={junk}")
        assert asked.status_code == 409 and "Pick another phone" in asked.shown
    assert "Only the host" in guest.get(f"/m/{table}/host?target=1").shown
    refused = host.post(f"/m/{table}/dealer", {})
    assert refused.status_code == 409 and "Pick a player at this table." in refused.shown
