"""A tick that changes how a hand scores shows on its cell to every phone as soon as it is
entered, with a key under the sheet saying what its mark means (issue 42, points 2 and 3): the
other side learns of a 26–26 before its own entry is refused, a round won by a black hand says
why, on the sheet, its cell's page, the TV and the print (the same page)."""

from __future__ import annotations

import re

from tests.web.test_languages import speaking


def marks_of(page: str, hand: int, position: int) -> list[tuple[str, str]]:
    """The marks a cell shows beside its points: (the tooltip's words, the sign)."""
    cell = re.search(rf'/hand/{hand}/side/{position}(?:/correct)?"[^>]*>(.*?)</a>', page, re.S)
    assert cell, f"no cell {hand}/{position}"
    return re.findall(r'<span class="mark[^"]*" title="([^"]+)">([^<]+)</span>', cell.group(1))


def key_of(page: str) -> str:
    """The key under the sheet, as its words read."""
    found = re.search(r'<p class="marks-key">(.*?)</p>', page, re.S)
    return re.sub(r"<[^>]+>", "", found.group(1)) if found else ""


def test_a_split_ticked_by_one_side_shows_on_the_other_side_s_phone_before_it_enters(host, guest):
    code = host.create("basra", table_format="2", side_0="Ana", side_1="Ben")
    guest.join(code, side=1)
    host.enter(code, 1, 0, 3, even_split="y")

    page = guest.get(f"/m/{code}").shown
    assert marks_of(page, 1, 0) == [("cards split evenly", "=")]
    assert key_of(page) == "= cards split evenly"
    # Ben's own entry, not yet made, carries nothing.
    guest.enter(code, 1, 1, 4, even_split="y")
    page = host.get(f"/m/{code}").shown
    assert marks_of(page, 1, 1) == [("cards split evenly", "=")]


def test_a_hand_with_no_tick_has_no_mark_and_no_key(host, guest):
    code = host.create("basra", table_format="2", side_0="Ana", side_1="Ben")
    guest.join(code, side=1)
    host.enter(code, 1, 0, 40)
    guest.enter(code, 1, 1, 12)
    page = guest.get(f"/m/{code}").shown
    assert marks_of(page, 1, 0) == marks_of(page, 1, 1) == []
    assert key_of(page) == ""


def test_three_players_tied_for_the_most_cards_say_so_in_their_own_words(host, phones):
    code = host.create("basra", table_format="3", side_0="Ana", side_1="Ben", side_2="Cal")
    ben = phones()
    ben.join(code, side=1)
    host.enter(code, 1, 0, 3, even_split="y")
    assert marks_of(ben.get(f"/m/{code}").shown, 1, 0) == [("tied for most cards", "=")]


def test_a_round_won_by_a_black_hand_carries_its_mark_on_the_sheet_its_cell_and_the_tv(host, guest):
    code = host.create(
        "brisca", table_format="2", side_0="Ana", side_1="Omar", rule_black_hand="on"
    )
    guest.join(code, side=1)
    host.enter(code, 1, 0, 20, black_hand="y")
    guest.enter(code, 1, 1, 100)

    page = guest.get(f"/m/{code}").shown
    # Ana took the round with 20 card points: her cell says why.
    assert marks_of(page, 1, 0) == [("black hand", "●")]
    assert re.search(r'<td class="won"><a href="[^"]*/hand/1/side/0', page)
    assert key_of(page) == "● black hand"
    # The cell's own page says what was said with its points; the other cell, nothing.
    assert "A plain total, black hand." in guest.get(f"/m/{code}/hand/1/side/0").shown
    assert "A plain total." in guest.get(f"/m/{code}/hand/1/side/1").shown
    tv = guest.get(f"/m/{code}/tv").shown
    assert "Ana</bdi> 20 ● black hand" in tv


def test_the_last_trick_that_settled_a_tie_is_marked_and_keyed_with_the_calculator(host, guest):
    code = host.create("brisca", table_format="2", side_0="Ana", side_1="Omar")
    guest.join(code, side=1)
    half = {"n_aces": 2, "n_threes": 2, "n_kings": 2, "n_horses": 2, "n_jacks": 2}
    host.post(f"/m/{code}/calc", {"hand": 1, "intent": "enter", **half})
    guest.enter(code, 1, 1, 60)
    guest.post(f"/m/{code}/settle", {"target": 1, "hand": 1})
    page = host.get(f"/m/{code}").shown
    assert marks_of(page, 1, 1) == [("took the last trick", "↓")]
    assert key_of(page) == "≡ from the calculator · ↓ took the last trick"


def test_the_key_speaks_the_phone_s_language(host, guest):
    code = host.create(
        "brisca", table_format="2", side_0="Ana", side_1="Omar", rule_black_hand="on"
    )
    guest.join(code, side=1)
    host.enter(code, 1, 0, 20, black_hand="y")
    page = speaking(guest, "ar").get(f"/m/{code}").shown
    assert key_of(page) == "● اليد السوداء"
    page = speaking(guest, "es").get(f"/m/{code}").shown
    assert marks_of(page, 1, 0) == [("mano negra", "●")]


def test_an_entry_posted_without_its_hand_is_answered_with_the_form_not_an_error(host, guest):
    """A form that lost its hidden hand (a hand-made post) is refused on the sheet: the notice
    of points held over asks which hand, and names none."""
    code = host.create("basra", table_format="2", side_0="Ana", side_1="Ben")
    guest.join(code, side=1)
    refused = host.post(f"/m/{code}/enter", {"side": 0, "points": 4})
    assert refused.status_code == 400
    assert "Nothing was saved" in refused.shown


def test_an_entry_posted_for_a_hand_that_cannot_be_is_answered_with_the_form(host, guest):
    """A hand number past any the sheet has (a forged post, a page from another match) is
    refused on the sheet with nothing saved, never a server error."""
    code = host.create("basra", table_format="2", side_0="Ana", side_1="Ben")
    guest.join(code, side=1)
    for number in (-5, 0, 9_999):
        refused = host.post(f"/m/{code}/enter", {"hand": number, "side": 0, "points": 4})
        assert refused.status_code in (400, 409), (number, refused.status_code)
