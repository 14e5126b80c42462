"""Entries that contradict what another side entered for the same hand are refused at once,
by whoever enters second, with both sides' words and what was typed given back (issue 30)."""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest

from tests.phones import snapshot, totals
from tests.statements import statements
from tests.web.test_calculator import count

SPLIT = "Cards split evenly (26–26)"


def _entry_values(page: str) -> tuple[str, bool]:
    """What the plain entry form shows: its points, and whether the split is ticked."""
    form = page.split('id="entry"')[1].split("</form>")[0]
    points = re.search(r'id="points" name="points" value="([^"]*)"', form).group(1)
    return points, bool(re.search(r'id="even_split"[^>]*checked', form))


@pytest.mark.parametrize("first_ticks", [True, False])
def test_a_split_one_side_ticks_and_the_other_does_not_is_refused(
    app, basra, host, guest, first_ticks
):
    """Basra head to head: one side ticks "Cards split evenly (26–26)", the other does not.
    Whoever enters second is refused with both sides' words, and keeps what it typed."""
    first = {"even_split": "y"} if first_ticks else {}
    second = {} if first_ticks else {"even_split": "y"}
    host.enter(basra, 1, 0, 10, **first)
    before = snapshot(app)
    refused = guest.enter(basra, 1, 1, 70, **second)
    assert refused.status_code == 409
    page = refused.shown
    assert "Hand 1: nothing was saved." in page
    if first_ticks:
        assert f"You did not tick “{SPLIT}”." in page
        assert f"Alice entered 10 and ticked “{SPLIT}”." in page
    else:
        assert f"You ticked “{SPLIT}”." in page
        assert f"Alice entered 10 and did not tick “{SPLIT}”." in page
    assert "check with Alice" in page
    assert snapshot(app) == before
    assert _entry_values(page) == ("70", not first_ticks)
    # Agreed, it is taken: the majority is held over as one split.
    page = guest.enter(basra, 1, 1, 70, **first).shown
    assert "Hand 1: Ben 70 recorded." in page
    if first_ticks:
        assert "Next majority worth 60" in page
    else:
        assert "Next majority worth 30" in page


def test_a_split_against_the_other_sides_calculator_count(basra, host, guest):
    """Alice counted 30 cards with the calculator: Ben's tick of an even split can't be."""
    count(host, basra, {"n_cards": 30, "n_aces": 3})
    refused = guest.enter(basra, 1, 1, 4, even_split="y")
    assert refused.status_code == 409
    assert f"You ticked “{SPLIT}”. Alice counted 30 cards captured." in refused.shown


def _pastura_three(host, phones) -> tuple[str, list]:
    """Ana (host), Omar and Sami, each for themselves at Pastura."""
    code = host.create("pastura", table_format="3", side_0="Ana", side_1="Omar", side_2="Sami")
    omar, sami = phones(), phones()
    omar.join(code, side=1)
    sami.join(code, side=2)
    return code, [host, omar, sami]


def test_two_alone_claims_to_most_cards_are_refused_at_once(app, host, phones):
    """Pastura, 3 players: Ana (18 cards) and Omar (19) both answer "Yes, alone" to most
    cards: Omar, second, is refused at once, not flagged after the third entry, and his
    counts are given back."""
    code, (ana, omar, _sami) = _pastura_three(host, phones)
    count(ana, code, {"n_cards": 18, "n_most_cards": 1, "n_aces": 2})
    before = snapshot(app)
    refused = count(omar, code, {"n_cards": 19, "n_most_cards": 1, "n_jacks": 3})
    assert refused.status_code == 409
    page = refused.shown
    assert "You answered “Yes, alone” to “Most cards”, with 19 cards captured." in page
    assert "Ana answered “Yes, alone” to “Most cards”, with 18 cards captured." in page
    assert snapshot(app) == before
    # Every count given back, in the calculator.
    assert re.search(r'id="n_cards"[^>]*value="19"', page)
    assert re.search(r'id="n_jacks"[^>]*value="3"', page)
    assert re.search(r'id="n_most_cards-1"[^>]*checked|checked[^>]*id="n_most_cards-1"', page)


def test_calculator_counts_past_the_pack_name_every_line_and_come_back(app, basra, host, guest):
    """With Alice's 31 cards and 3 aces in, Ben's 25 cards and 2 aces are refused naming both
    lines at once; the calculator is drawn again with every count Ben typed."""
    count(host, basra, {"n_cards": 31, "n_aces": 3, "n_jacks": 1})
    before = snapshot(app)
    refused = count(guest, basra, {"n_cards": 25, "n_aces": 2, "n_jacks": 1, "n_basras": 1})
    assert refused.status_code == 409
    page = refused.shown
    assert "Cards: Alice 31 already, and your 25 would make 56; there are only 52." in page
    assert "Aces: Alice 3 already, and your 2 would make 5; there are only 4." in page
    assert snapshot(app) == before
    for field, value in (("n_cards", 25), ("n_aces", 2), ("n_jacks", 1), ("n_basras", 1)):
        assert re.search(rf'id="{field}"[^>]*value="{value}"', page), field
    # The breakdown shown (not the one the page keeps for when the connection is gone).
    shown = page.split('id="breakdown"')[1].split('id="calc-offline"')[0]
    assert "Enter " not in shown


def test_the_preview_names_what_is_wrong_beside_the_others(basra, host, guest):
    """Before Enter, the preview (what the page redraws as the player types) says what can't
    be beside the other side's counts, every line, and offers no Enter."""
    count(host, basra, {"n_cards": 31, "n_aces": 3})
    page = guest.get(f"/m/{basra}/calc/preview?hand=1&n_cards=25&n_aces=2").shown
    assert "Cards: Alice 31 already, and your 25 would make 56" in page
    assert "Aces: Alice 3 already, and your 2 would make 5" in page
    assert 'data-field="n_cards"' in page and 'data-field="n_aces"' in page
    assert "Enter 7" not in page


def test_the_host_whole_hand_correction_is_held_to_the_same(app, basra, host, guest):
    """The host's whole-hand form: a split ticked for one side only is refused, naming both,
    and the form comes back as the host filled it."""
    host.enter(basra, 1, 0, 10, even_split="y")
    guest.enter(basra, 1, 1, 20, even_split="y")
    url = f"/m/{basra}/hand/1/correct"
    page = host.get(url).shown
    revisions = dict(re.findall(r'name="revision_(\d)"[^>]*value="(\d+)"', page))
    before = snapshot(app)
    refused = host.post(
        url,
        {
            "points_0": 10,
            "even_split_0": "y",
            "points_1": 70,
            "revision_0": revisions["0"],
            "revision_1": revisions["1"],
            "reason": "Ben miscounted",
        },
    )
    assert refused.status_code == 409
    page = refused.shown
    assert f"Ben entered 70 and did not tick “{SPLIT}”." in page
    assert f"Alice entered 10 and ticked “{SPLIT}”." in page
    assert "Only one of these can be true: make Ben and Alice agree." in page
    assert snapshot(app) == before
    assert re.search(r'name="points_1"[^>]*value="70"', page)
    assert "Ben miscounted" in page


def test_two_black_hands_in_the_host_correction_are_refused(app, host, guest):
    """Brisca with the Black hand rule: only one side can hold Ace, Three and King of trumps,
    at entry and in the host's whole-hand correction."""
    code = host.create(
        "brisca", table_format="2", side_0="Ana", side_1="Omar", rule_black_hand="on"
    )
    guest.join(code, side=1)
    host.enter(code, 1, 0, 30, black_hand="y")
    refused = guest.enter(code, 1, 1, 20, black_hand="y")
    assert refused.status_code == 409
    assert "Ana entered 30 and ticked “Black hand”." in refused.shown
    guest.enter(code, 1, 1, 20)
    page = host.get(f"/m/{code}/hand/1/correct").shown
    revisions = dict(re.findall(r'name="revision_(\d)"[^>]*value="(\d+)"', page))
    before = snapshot(app)
    refused = host.post(
        f"/m/{code}/hand/1/correct",
        {
            "points_0": 30,
            "black_hand_0": "y",
            "points_1": 20,
            "black_hand_1": "y",
            "revision_0": revisions["0"],
            "revision_1": revisions["1"],
        },
    )
    assert refused.status_code == 409
    assert "Omar entered 20 and ticked “Black hand”." in refused.shown
    assert snapshot(app) == before


def test_a_hand_short_of_the_pack_is_still_flagged_afterwards(basra, host, guest):
    """What no single entry could show (the cards short of 52 once all are in) is flagged."""
    count(host, basra, {"n_cards": 30})
    page = count(guest, basra, {"n_cards": 20}).shown
    assert "Cards add up to 50, not 52" in page
    assert totals(page) == ["30", "0"]


def _preview(phone, code: str, counts: dict) -> str:
    """One keystroke's preview, as js/calculator.js asks it."""
    return phone.get(f"/m/{code}/calc/preview?{urlencode(counts)}").shown


def test_a_keystrokes_check_reads_a_few_statements_however_long_the_sheet(app, host, guest):
    """The check beside the others runs on every keystroke's preview: it reads the sheet in a
    few statements (the match, the seats, the hands), as many on hand 9 as on hand 1, and
    not the corrections trail it never shows."""
    code = host.create("basra", table_format="2", target="121", side_0="Alice", side_1="Ben")
    guest.join(code, side=1)
    counts = {"n_cards": 20, "n_aces": 1}

    def sent_for(number: int) -> list[str]:
        with statements(app) as sent:
            page = _preview(guest, code, {**counts, "hand": number})
        assert "Enter 1" in page
        return sent

    first = sent_for(1)
    for hand in range(1, 9):
        host.enter(code, hand, 0, 5)
        guest.enter(code, hand, 1, 5)
    ninth = sent_for(9)
    assert len(ninth) == len(first) <= 3, ninth
    assert not any("correction" in sql.lower() for sql in ninth)


def test_three_players_a_tie_ticked_beside_a_claim_alone(host, phones):
    """Basra, three players: Ana counted 30 cards, most alone; Sami's plain total with "Tied
    for most cards" ticked can't be beside it, and is refused in both their words."""
    code = host.create("basra", table_format="3", side_0="Ana", side_1="Omar", side_2="Sami")
    omar, sami = phones(), phones()
    omar.join(code, side=1)
    sami.join(code, side=2)
    count(host, code, {"n_cards": 30, "n_most_cards": 1})
    assert "Hand 1: Omar 2 recorded." in omar.enter(code, 1, 1, 2).shown
    refused = sami.enter(code, 1, 2, 4, even_split="y")
    assert refused.status_code == 409
    page = refused.shown
    assert "You ticked “Tied for most cards”." in page
    assert "Ana answered “Yes, alone” to “Most cards”, with 30 cards captured." in page
    # Omar's plain total says nothing against Ana's claim; Sami's says it against both.
    assert "Omar entered 2 and did not tick “Tied for most cards”." in page


def test_the_host_cell_correction_is_held_to_the_same(app, basra, host, guest):
    """A correction of one cell can't make what the whole-hand correction refuses: the host
    unticks Ben's half of an agreed 26–26 split, and is told so in both sides' words."""
    host.enter(basra, 1, 0, 10, even_split="y")
    guest.enter(basra, 1, 1, 20, even_split="y")
    before = snapshot(app)
    refused = host.correct(basra, 1, 1, 20)
    assert refused.status_code == 409
    page = refused.shown
    assert "Hand 1: nothing was saved." in page
    assert f"Ben entered 20 and did not tick “{SPLIT}”." in page
    assert f"Alice entered 10 and ticked “{SPLIT}”." in page
    assert "make Ben and Alice agree" in page
    assert snapshot(app) == before
    # The same tick kept, the cell's points change.
    assert (
        "Hand 1: Ben corrected from 20 to 22."
        in host.correct(basra, 1, 1, 22, even_split="y").shown
    )


def test_a_refused_cell_correction_stays_on_its_cell(app, basra, host, guest):
    """The host's refused correction of hand 1 is drawn again on hand 1's cell, as typed: its
    value never lands in the form for the open hand 2, where one tap would enter it as
    Alice's."""
    host.enter(basra, 1, 0, 10, even_split="y")
    guest.enter(basra, 1, 1, 20, even_split="y")
    refused = host.correct(basra, 1, 1, 77)
    assert refused.status_code == 409
    page = refused.shown
    assert "Hand 1: nothing was saved." in page
    assert "<h1>Hand 1: Ben</h1>" in page
    assert re.search(r'name="points"[^>]*value="77"', page)
    sheet = host.get(f"/m/{basra}").shown
    assert _entry_values(sheet) == ("", False)


def test_a_refused_calculator_correction_stays_on_its_hand(app, basra, host, guest):
    """Counts past the pack in the host's calculator for hand 1 are refused on hand 1's
    calculator, counts kept: not redrawn for the open hand 2."""
    count(host, basra, {"n_cards": 30, "n_aces": 3})
    count(guest, basra, {"n_cards": 22, "n_aces": 1})
    url = f"/m/{basra}/hand/1/side/1/calc"
    before = snapshot(app)
    refused = count(host, basra, {"n_cards": 22, "n_aces": 3, "revision": 1}, hand=1, url=url)
    assert refused.status_code == 409
    page = refused.shown
    assert "Hand 1: nothing was saved." in page
    assert re.search(r'name="hand"[^>]*value="1"', page)
    assert re.search(r'name="revision"[^>]*value="1"', page)
    assert re.search(r'name="n_aces"[^>]*value="3"', page)
    assert snapshot(app) == before


def test_the_host_filling_a_side_is_told_as_it_types(host):
    """The host keeping the sheet counts Ben with Ben's calculator after Alice's 31 cards: the
    preview says what can't be beside Alice's counts before Enter, as Ben's own would."""
    code = host.create("basra", table_format="2", side_0="Alice", side_1="Ben", host_side="-1")
    count(host, code, {"n_cards": 31, "n_aces": 3}, url=f"/m/{code}/hand/1/side/0/calc")
    query = "hand=1&revision=0&n_cards=25&n_aces=2"
    page = host.get(f"/m/{code}/hand/1/side/1/calc/preview?{query}").shown
    assert "Alice 31 already" in page and "would make 56" in page
    assert "Alice 3 already" in page and "would make 5" in page
    assert "Enter 7" not in page


def test_three_players_claiming_the_cascades_setenta_twice_are_told_why(app, host):
    """Three players, the setenta by the cascade (most sevens, then sixes, aces, fives): a
    second side claiming it alone is refused, its sevens quoted (it was a server error)."""
    code = host.create(
        "escoba",
        table_format="3",
        target="21",
        rule_setenta="cascade",
        host_side="-1",
        side_0="Ana",
        side_1="Ben",
        side_2="Cleo",
    )
    # docs/rules/escoba.md, "Setenta": Ana's 2 sevens and 2 sixes take it from Ben's 2 and 1.
    ana = {"n_cards": 14, "n_sevens": 2, "n_sixes": 2, "n_setenta": 1, "n_most_cards": 1}
    ben = {"n_cards": 13, "n_sevens": 2, "n_sixes": 1, "n_setenta": 1, "n_most_cards": 0}
    form = {"hand": 1, "revision": 0, "intent": "enter", "n_coins": 0, "n_most_coins": 0}
    form |= {"n_aces": 0, "n_fives": 0, "n_escobas": 0}
    assert host.post(f"/m/{code}/hand/1/side/0/calc", form | ana).status_code == 200
    before = snapshot(app)
    shown = host.post(f"/m/{code}/hand/1/side/1/calc", form | ben)
    assert shown.status_code == 409
    assert "“Setenta”: Ana answered “Yes, alone”; Sevens: 2." in shown.shown
    assert snapshot(app) == before
