"""What a new player stumbled on (issue 22), in the words the app says: each test failed on the
app before its fix."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from itsdangerous import URLSafeTimedSerializer

from tests.phones import Phone, seat_of


def to_go_row(page: str) -> tuple[str, list[str]]:
    """The row under the sheet's totals: its heading and each side's cell."""
    row = re.search(r'<tr class="(?:to-go|to-limit)"><th scope="row">([^<]*)</th>(.*?)</tr>', page)
    assert row, "no row under the totals"
    return row.group(1), re.findall(r"<td>([^<]*)</td>", row.group(2))


def test_lowest_wins_shows_the_distance_to_the_limit_not_points_to_go(host, guest):
    code = host.create("other", rule_winner="lowest", target="100", side_0="Omar", side_1="Ben")
    guest.join(code, side=1)
    host.enter(code, 1, 0, 40)
    guest.enter(code, 1, 1, 70)
    # docs/rules/other.md, "Who wins": a side reaching 100 ends the match; the target is a
    # limit to keep under, not a goal.
    page = guest.get(f"/m/{code}").shown
    assert to_go_row(page) == ("To the limit", ["60", "30"])
    assert "To go" not in page
    tv = guest.get(f"/m/{code}/tv").shown
    assert re.findall(r'<span class="tv-to-go">([^<]*)</span>', tv) == [
        "60 to the limit",
        "30 to the limit",
    ]
    assert "to go" not in tv


def test_lowest_wins_tied_past_the_limit_shows_a_side_there_at_none(host, phones):
    code = host.create(
        "other", rule_winner="lowest", target="100", side_0="A", side_1="B", side_2="C"
    )
    b, c = phones(), phones()
    b.join(code, side=1)
    c.join(code, side=2)
    host.enter(code, 1, 0, 100)
    b.enter(code, 1, 1, 30)
    c.enter(code, 1, 2, 30)
    # B and C are level at the lowest: play on, and A is 0 from the limit (never a tick: A did
    # not reach a goal, it hit the limit).
    assert to_go_row(host.get(f"/m/{code}").shown) == ("To the limit", ["0", "70", "70"])
    tv = host.get(f"/m/{code}/tv").shown
    assert re.findall(r'<span class="tv-to-go">([^<]*)</span>', tv) == [
        "at the limit",
        "70 to the limit",
        "70 to the limit",
    ]


def test_highest_wins_still_counts_the_points_to_go(host, guest):
    code = host.create("other", target="100", side_0="Omar", side_1="Ben")
    guest.join(code, side=1)
    host.enter(code, 1, 0, 40)
    guest.enter(code, 1, 1, 70)
    assert to_go_row(guest.get(f"/m/{code}").shown) == ("To go", ["60", "30"])
    tv = guest.get(f"/m/{code}/tv").shown
    assert re.findall(r'<span class="tv-to-go">([^<]*)</span>', tv) == ["60 to go", "30 to go"]


# A stale edit names who changed the cell meanwhile.


def test_a_partner_s_entry_meanwhile_names_the_partner(app, phones):
    host, ana, omar = phones(), phones(), phones()
    code = host.create("basra", table_format="2v2", side_0="Us", side_1="Them", host_side="1")
    ana.post(f"/m/{code}/claim", {"target": 0, "player": "Ana"})
    omar.post(f"/m/{code}/claim", {"target": 0, "player": "Omar"})
    omar.enter(code, 1, 0, 10, revision=0)
    late = ana.enter(code, 1, 0, 9, revision=0)
    assert late.status_code == 409
    assert (
        "Omar (Us) changed the cell of Us in hand 1 meanwhile: it now reads 10. Nothing was "
        "saved: the form below shows it now; enter yours again if it should change."
    ) in late.shown


def corrected_meanwhile(host: Phone, guest: Phone) -> str:
    """Omar, the host (on Alice), corrects Ben's 5 in hand 2 to 7 while Ben's phone still
    shows its 5 in the form: the match's code."""
    code = host.create("basra", table_format="2", side_0="Alice", side_1="Ben", player="Omar")
    guest.join(code, side=1)
    host.enter(code, 1, 0, 40)
    guest.enter(code, 1, 1, 3)
    guest.enter(code, 2, 1, 5, revision=0)
    host.correct(code, 2, 1, 7, revision=1)
    return code


def test_a_host_s_correction_meanwhile_names_the_host(app, host, guest):
    code = corrected_meanwhile(host, guest)
    stale = guest.enter(code, 2, 1, 6, revision=1)
    assert stale.status_code == 409
    assert (
        "Omar (Alice), the host, changed the cell of Ben in hand 2 meanwhile: it now reads 7."
    ) in stale.shown


def test_a_side_s_change_meanwhile_is_named_to_the_correcting_host(app, host, phones):
    code = host.create("basra", table_format="2", side_0="Alice", side_1="Ben")
    benny = phones()
    benny.post(f"/m/{code}/claim", {"target": 1, "player": "Benny"})
    # Hand 1 is open (Alice has not entered): Ben may still change his 3; the host's
    # correction page was drawn while it read 3.
    benny.enter(code, 1, 1, 3)
    benny.enter(code, 1, 1, 5)
    stale = host.correct(code, 1, 1, 4, revision=1)
    assert stale.status_code == 409
    assert (
        "Benny (Ben) changed the cell of Ben in hand 1 meanwhile: it now reads 5. Nothing was "
        "saved; look again and correct it if it is still wrong."
    ) in stale.shown


def test_the_host_s_own_other_page_is_named_as_this_phone(app, host, guest):
    code = host.create("basra", table_format="2", side_0="Alice", side_1="Ben")
    guest.join(code, side=1)
    host.enter(code, 1, 0, 40)
    guest.enter(code, 1, 1, 3)
    host.correct(code, 1, 1, 13, revision=1)
    stale = host.correct(code, 1, 1, 23, revision=1)
    assert (
        "This phone, on another page, changed the cell of Ben in hand 1 meanwhile: it now reads 13."
    ) in stale.shown


def test_an_unnamed_side_s_change_is_told_by_its_side(app, host, guest):
    code = host.create("basra", table_format="2", side_0="Alice", side_1="Ben")
    guest.join(code, side=1)
    guest.enter(code, 1, 1, 3)
    guest.enter(code, 1, 1, 5)
    stale = host.correct(code, 1, 1, 4, revision=1)
    assert (
        "A phone holding Ben changed the cell of Ben in hand 1 meanwhile: it now reads 5."
    ) in stale.shown


# A cookie the app cannot read: a new phone, told so once.

NOT_RECOGNISED = (
    "This phone was not recognised (its cookie could not be read), so it is treated as a new "
    "phone: it may need to claim its side again."
)


def signed_elsewhere(app: Flask, contents: dict[str, str]) -> str:
    """A session cookie holding `contents`, signed with a key that is not the app's."""
    fake = URLSafeTimedSerializer("not-the-key", salt="cookie-session", signer_kwargs={})
    return fake.dumps(contents)


@pytest.mark.parametrize("cookie", ["garbage", "forged"])
def test_an_unreadable_cookie_is_a_new_phone_told_so_once(app, host, phones, cookie):
    code = host.create("basra", table_format="2", side_0="Alice", side_1="Ben")
    phone = phones()
    phone.join(code, side=1)
    held_by = phone.identity()
    value = "not a cookie" if cookie == "garbage" else signed_elsewhere(app, {"phone": held_by})
    phone.client.set_cookie(app.config["SESSION_COOKIE_NAME"], value)
    first = phone.get(f"/m/{code}")
    assert first.status_code == 200
    assert NOT_RECOGNISED in first.shown
    # A new phone, as before: a new identity, holding no side.
    assert phone.identity() not in (None, held_by)
    assert "Not at the table yet" in first.shown
    assert NOT_RECOGNISED not in phone.get(f"/m/{code}").shown
    assert NOT_RECOGNISED not in phone.get("/").shown


def test_a_phone_with_no_cookie_is_not_told_it_was_not_recognised(phones):
    assert NOT_RECOGNISED not in phones().get("/").shown


def test_a_post_with_an_unreadable_cookie_says_so_on_its_answer_once(app, host, guest):
    code = host.create("basra", table_format="2", side_0="Alice", side_1="Ben")
    guest.join(code, side=1)
    guest.client.set_cookie(app.config["SESSION_COOKIE_NAME"], "not a cookie")
    # Without a readable cookie the form's token is no good either: refused, and told why.
    refused = guest.post(f"/m/{code}/enter", {"hand": 1, "side": 1, "points": 5}, csrf=False)
    assert refused.status_code == 400
    assert NOT_RECOGNISED in refused.shown
    assert NOT_RECOGNISED not in guest.get(f"/m/{code}").shown


def test_a_cell_the_host_filled_meanwhile_names_the_host(app, host, guest):
    code = host.create("basra", table_format="2", side_0="Alice", side_1="Ben", player="Omar")
    guest.join(code, side=1)
    # Ben's phone drew its form after his 5; the host corrected it meanwhile (hand 1 still
    # open: Alice has not entered).
    guest.enter(code, 1, 1, 5)
    host.correct(code, 1, 1, 7, revision=1)
    stale = guest.enter(code, 1, 1, 6, revision=1)
    assert stale.status_code == 409
    assert (
        "Omar (Alice), the host, changed the cell of Ben in hand 1 meanwhile: it now reads 7."
    ) in stale.shown


def test_a_correction_by_a_host_since_handed_over_is_not_called_the_host_s(app, host, guest):
    code = corrected_meanwhile(host, guest)
    host.post(f"/m/{code}/host", {"target": seat_of(app, guest, code), "confirmed": "y"})
    stale = guest.enter(code, 2, 1, 6, revision=1)
    assert stale.status_code == 409
    assert (
        "Omar (Alice) changed the cell of Ben in hand 2 meanwhile: it now reads 7."
    ) in stale.shown
