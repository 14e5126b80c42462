"""Bad input from a tired player: a clear message where they are, nothing stored, never a 500."""

from __future__ import annotations

import re

import pytest
import sqlalchemy as sa

from tests.phones import snapshot

# A form's idempotency key as a page renders it.
KEY = re.compile(r'name="key" type="hidden" value="([^"]*)"')


@pytest.fixture
def table(host, guest):
    """A two-sided Basra match with hand 1 open."""
    code = host.create("basra", table_format="2", target="101", side_0="Alice", side_1="Ben")
    guest.join(code, side=1)
    return code


@pytest.mark.parametrize(
    ("points", "message"),
    [
        ("forty", "Type the total as a whole number"),
        ("", "Enter a number"),
        ("   ", "Enter a number"),
        ("4.5", "Type the total as a whole number"),
        # int() would read each of these as 45: a typo, a fullwidth keyboard, another script.
        ("4_5", "Type the total as a whole number"),
        ("4 5", "Type the total as a whole number"),
        ("\uff14\uff15", "Type the total as a whole number"),
        ("\u096a\u096b", "Type the total as a whole number"),
        ("-3", "A hand is worth 0 to 999 points"),
        ("1000", "A hand is worth 0 to 999 points"),
        ("99999999999999999999", "Type the total as a whole number"),
    ],
)
def test_bad_total_is_refused_on_the_entry_form(app, table, guest, points, message):
    before = snapshot(app)
    response = guest.enter(table, 1, 1, points)
    assert response.status_code == 400
    page = response.shown
    assert message in page and "Nothing was saved" in page
    # One reason, the one that fits: a total that isn't a number isn't also "out of bounds".
    assert page.count('class="field-error"') == 1
    assert snapshot(app) == before


@pytest.mark.parametrize(
    ("path", "form"),
    [
        ("enter", {"hand": 1, "side": 1, "points": 5}),
        ("hand/1/side/0/correct", {"hand": 1, "side": 0, "points": 5, "revision": 1}),
        ("calc", {"hand": 1, "revision": 0, "n_basras": 1}),
        ("end", {}),
    ],
)
def test_missing_csrf_token_is_refused(app, table, host, guest, path, form):
    host.enter(table, 1, 0, 40)
    before = snapshot(app)
    response = guest.post(f"/m/{table}/{path}", form, csrf=False)
    assert response.status_code == 400
    assert "out of date" in response.shown
    assert snapshot(app) == before


def test_forged_cookie_is_a_stranger(app, table, guest):
    guest.client.set_cookie("session", "eyJwaG9uZSI6ImZvcmdlZCJ9.forged.signature")
    before = snapshot(app)
    # The forged cookie is dropped: the phone gets a fresh session and holds no side.
    response = guest.enter(table, 1, 1, 5)
    assert response.status_code == 403
    assert "Claim a side first" in response.shown
    assert snapshot(app) == before


@pytest.mark.parametrize("code", ["ZZZZZZ", "abc", "!!!!!!!", "x" * 19])
def test_unknown_code_says_so_on_the_join_form(app, guest, code):
    before = snapshot(app)
    response = guest.post("/join", {"code": code})
    assert response.status_code == 400
    assert "No match or group has the code" in response.shown
    assert snapshot(app) == before


def test_code_is_case_insensitive_and_forgives_spaces(table, guest):
    typed = f" {table[:3].lower()} {table[3:].lower()} "
    response = guest.post("/join", {"code": typed}, follow=False)
    assert response.status_code == 302 and response.headers["Location"].endswith(f"/m/{table}")


def test_unknown_match_link_and_game_are_404_pages(guest):
    assert guest.get("/m/QQQQQQ").status_code == 404
    assert "Check the code" in guest.get("/j/qqqqqq").shown
    assert guest.get("/new/poker").status_code == 404


def test_stale_correction_is_refused_with_the_new_value(app, table, host, guest):
    host.enter(table, 1, 0, 40)
    guest.enter(table, 1, 1, 3)
    # The host opens the correction page (revision 1), then corrects from a second tab.
    host.correct(table, 1, 1, 13, revision=1)
    before = snapshot(app)
    response = host.correct(table, 1, 1, 23, revision=1)
    assert response.status_code == 409
    assert "changed the cell of Ben in hand 1 meanwhile: it now reads 13" in response.shown
    assert snapshot(app) == before


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("45", 45),
        (" 45 ", 45),
        # Arabic-Indic digits, as an Egyptian or Levantine phone types them.
        ("\u0664\u0665", 45),
        # Extended Arabic-Indic (Persian) digits.
        ("\u06f4\u06f5", 45),
    ],
)
def test_digits_from_the_players_keyboards_are_read(app, table, guest, typed, stored):
    from scorekeeper.extensions import db
    from scorekeeper.models import Entry

    assert f"Hand 1: Ben {stored} recorded." in guest.enter(table, 1, 1, typed).shown
    with app.app_context():
        assert db.session.scalars(sa.select(Entry.points)).all() == [stored]


def test_a_negative_total_in_a_game_that_goes_below_zero(app, host):
    code = host.create("brasta", side_0="Ana", side_1="Ben")
    assert "Hand 1: Ana -15 recorded." in host.enter(code, 1, 0, "-15").shown
    # A typographic minus, and Arabic-Indic digits after a minus, read as the same number.
    for typed, read in (("\u22127", -7), ("-\u0661\u0665", -15)):
        assert f"Hand 1: Ana changed to {read}." in host.enter(code, 1, 0, typed).shown


def test_a_body_far_beyond_any_form_is_refused_with_a_page(app, table, guest):
    before = snapshot(app)
    big = guest.post(f"/m/{table}/enter", {"hand": 1, "side": 1, "points": 4, "pad": "x" * 100_000})
    assert big.status_code == 413
    assert "far more than any form here sends" in big.shown
    many = guest.post(f"/m/{table}/enter", {f"f{n}": "1" for n in range(5000)})
    assert many.status_code == 413
    assert snapshot(app) == before


def test_correction_with_text_is_refused(app, table, host, guest):
    host.enter(table, 1, 0, 40)
    guest.enter(table, 1, 1, 3)
    before = snapshot(app)
    response = host.correct(table, 1, 1, "three", revision=1)
    assert response.status_code == 400
    assert "Type the total as a whole number" in response.shown
    assert snapshot(app) == before


def test_correcting_a_hand_not_started_is_refused(app, table, host):
    before = snapshot(app)
    response = host.correct(table, 5, 1, 3, revision=0)
    assert response.status_code == 409
    assert "hasn't started" in response.shown
    assert snapshot(app) == before


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"target": "150"}, "Not a valid choice"),
        ({"table_format": "9"}, "Not a valid choice"),
        ({"side_0": "x" * 41}, "Keep a name under 40 letters"),
        ({"host_side": "5"}, "Not a valid choice"),
    ],
)
def test_bad_create_form_is_refused(app, host, fields, message):
    before = snapshot(app)
    form = {"table_format": "2", "target": "101", "host_side": "0", **fields}
    response = host.post("/new/basra", form)
    assert response.status_code == 400
    assert message in response.shown
    assert snapshot(app) == before


def test_other_game_needs_two_named_sides(app, host):
    before = snapshot(app)
    response = host.post("/new/other", {"table_format": "free", "target": "500", "side_0": "Solo"})
    assert response.status_code == 400
    assert "Name 2 to 8 sides" in response.shown
    assert snapshot(app) == before


def test_names_are_shown_as_text_not_markup(host, guest):
    code = host.create("basra", side_0="<script>alert(1)</script>", side_1="Ben")
    page = guest.get(f"/m/{code}").get_data(as_text=True)
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_double_submit_records_once(app, table, guest):
    first = guest.enter(table, 1, 1, 5, key="same-key-twice")
    again = guest.enter(table, 1, 1, 5, key="same-key-twice")
    assert first.status_code == again.status_code == 200
    assert "Already recorded." in again.shown
    import sqlalchemy as sa

    from scorekeeper.extensions import db
    from scorekeeper.models import Entry

    with app.app_context():
        entries = db.session.scalars(sa.select(Entry)).all()
        assert [(e.points, e.revision) for e in entries] == [(5, 1)]


def test_a_form_shown_again_after_a_typo_keeps_its_key_and_each_new_one_has_its_own(table, host):
    host.enter(table, 1, 0, 40)
    url = f"/m/{table}/hand/1/side/0/correct"
    fresh = [KEY.search(host.get(url).shown).group(1) for _ in range(2)]
    assert all(fresh) and fresh[0] != fresh[1]
    # Resent once fixed, the same key: if the first send got through after all, it records once.
    typo = host.post(url, {"hand": 1, "side": 0, "points": "4O", "revision": 1}, key="kept-key")
    assert typo.status_code == 400
    assert KEY.search(typo.shown).group(1) == "kept-key"


@pytest.mark.parametrize(
    ("typed", "shown"),
    [
        ("5_00", "Type the points that win as a whole number, like 500."),
        ("\uff15\uff10\uff10", "Type the points that win as a whole number, like 500."),
        ("  ", "Enter a number."),
    ],
)
def test_a_free_target_is_read_as_every_number_is(app, host, typed, shown):
    before = snapshot(app)
    page = host.get("/new/other").get_data(as_text=True)
    assert 'name="target"' in page
    answer = host.post(
        "/new/other", {"target": typed, "side_0": "A", "side_1": "B", "host_side": "0"}
    )
    assert answer.status_code == 400
    assert shown in answer.shown
    assert snapshot(app) == before
