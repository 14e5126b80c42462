"""One phone keeps the sheet (issue 30): the host enters the open hand for every side no phone
holds from one form, or fills one such cell, checked as each side's own entry would be; a side
a phone holds still enters its own."""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from scorekeeper.extensions import db
from scorekeeper.models import Correction, Entry
from tests.examples import examples
from tests.phones import Phone, snapshot, totals

ONE_FORM = re.compile(r'<form method="post" action="(/m/\w+/hand/(\d+)/enter)"')
FIELD = re.compile(r'<input type="(?:hidden|text)"(?: id="\w+")? name="(\w+)" value="([^"]*)"')


def one_form(page: str) -> tuple[str, dict[str, str]]:
    """The host's one form for the open hand as the page draws it: where it posts, and every
    field it carries (hidden ones as drawn, the totals as drawn: blank for an empty cell)."""
    found = ONE_FORM.search(page)
    assert found, "no whole-hand form on the page"
    form = page[found.start() : page.index("</form>", found.start())]
    fields = dict(FIELD.findall(form))
    return found.group(1), fields


def enter_hand(phone: Phone, code: str, totals_by_side: dict[int, int], **extra: str):
    """The host fills the open hand's form as drawn on its sheet, and taps Enter."""
    url, fields = one_form(phone.get(f"/m/{code}").get_data(as_text=True))
    typed = {f"points_{at}": str(points) for at, points in totals_by_side.items()}
    data = {k: v for k, v in fields.items() if k not in ("csrf_token", "key")}
    return phone.post(url, {**data, **typed, **extra})


def count_of(app, model) -> int:
    """How many rows a table holds."""
    with app.app_context():
        return db.session.scalar(sa.select(sa.func.count()).select_from(model))


@pytest.fixture
def keeper_basra(host: Phone) -> str:
    """Basra head to head, kept on the host's phone alone ("No side: I only keep the sheet")."""
    return host.create("basra", table_format="2", side_0="Alice", side_1="Ben", host_side="-1")


def test_the_keeper_is_not_asked_which_side_it_is_and_enters_the_whole_hand(
    app, host, keeper_basra
):
    page = host.get(f"/m/{keeper_basra}").shown
    assert "Which side is this phone?" not in page
    assert "I'm Alice" not in page
    # It says what it is, and does not count itself among the watchers.
    assert "This phone keeps the sheet · Host" in page
    assert "watching" not in page
    # It may still play a side, from its tools.
    assert "Play a side on this phone" in page
    # The open hand's row is there before anyone entered, every cell the host's to fill.
    assert page.count('class="fill"') == 2
    url, fields = one_form(page)
    assert url == f"/m/{keeper_basra}/hand/1/enter"
    assert {"points_0", "points_1", "revision_0", "revision_1"} <= set(fields)

    done = enter_hand(host, keeper_basra, {0: 40, 1: 12})
    assert done.status_code == 200
    assert "Hand 1: Alice 40, Ben 12 recorded." in done.shown
    assert totals(done.get_data(as_text=True)) == ["40", "12"]
    # The trail names the host's fills.
    assert "Hand 1, Alice: 40 filled in" in done.shown and "Hand 1, Ben: 12 filled in" in done.shown
    assert count_of(app, Correction) == 2
    # A fill is not a correction: no mark says the host corrected it.
    assert "✎" not in done.shown
    # On to hand 2, in the same form.
    assert one_form(done.get_data(as_text=True))[0] == f"/m/{keeper_basra}/hand/2/enter"


def test_the_whole_hand_correction_page_of_the_open_hand_leads_to_the_form(host, keeper_basra):
    """Hand 1 hasn't started: its correction page is the sheet's form, not a dead end."""
    page = host.get(f"/m/{keeper_basra}/hand/1/correct")
    assert page.status_code == 302
    assert page.headers["Location"].endswith(f"/m/{keeper_basra}#entry")
    assert "hasn't started" not in host.client.get(page.headers["Location"]).shown


def test_the_host_fills_an_unheld_cell_and_the_trail_says_so(app, host, guest):
    """Three sides, the host on Ana, Cy's phone at the table, Bo with no phone: the host may
    fill Bo's cell before anyone entered (its page and its calculator-less form)."""
    code = host.create("other", side_0="Ana", side_1="Bo", side_2="Cy", target="100")
    guest.join(code, side=2)
    page = host.get(f"/m/{code}").shown
    # Only Bo's cell offers a fill: Ana is this phone's own, Cy's phone enters its own.
    assert page.count('class="fill"') == 1
    assert f'href="/m/{code}/hand/1/side/1/correct"' in page
    # The one form offers Ana (its own) and Bo, not Cy.
    _url, fields = one_form(page)
    assert "points_0" in fields and "points_1" in fields and "points_2" not in fields
    assert "A side with a phone enters its own total." in page

    filled = host.correct(code, 1, 1, 7)
    assert "Hand 1: Bo filled in to 7." in filled.shown
    assert "Hand 1, Bo: 7 filled in" in filled.shown
    with app.app_context():
        line = db.session.scalars(sa.select(Correction)).one()
        assert (line.old_points, line.new_points) == (None, 7)


def test_the_host_cannot_fill_a_held_sides_open_cell(app, host, guest, keeper_basra):
    guest.join(keeper_basra, side=1)
    page = host.get(f"/m/{keeper_basra}").shown
    assert f"/m/{keeper_basra}/hand/1/side/1/correct" not in page
    _url, fields = one_form(page)
    assert "points_1" not in fields

    before = snapshot(app)
    # Its cell's page, and its post, and the one form made to carry it, are all refused.
    shown = host.get(f"/m/{keeper_basra}/hand/1/side/1/correct")
    assert shown.status_code == 409
    assert "A phone holds Ben: only that phone enters its total." in shown.shown
    refused = host.correct(keeper_basra, 1, 1, 9, revision=0)
    assert refused.status_code == 409
    assert "A phone holds Ben: only that phone enters its total. Nothing was saved." in (
        refused.shown
    )
    forged = host.post(
        f"/m/{keeper_basra}/hand/1/enter",
        {"points_0": 40, "revision_0": 0, "points_1": 9, "revision_1": 0},
    )
    assert forged.status_code == 409
    assert "A phone holds Ben" in forged.shown
    assert snapshot(app) == before

    # Ben's phone enters its own; the host fills Alice's and the hand completes.
    guest.enter(keeper_basra, 1, 1, 12)
    done = enter_hand(host, keeper_basra, {0: 40})
    assert "Hand 1: Alice 40 recorded." in done.shown
    assert totals(done.get_data(as_text=True)) == ["40", "12"]


def test_a_whole_hand_that_contradicts_is_refused_whole_and_given_back(app, host):
    """Brisca, one phone: 70 and 60 card points come to 130, past the deck's 120. Nothing is
    saved, the page says why, and the form holds both totals as typed."""
    code = host.create("brisca", table_format="2", side_0="Ana", side_1="Ben", host_side="-1")
    before = snapshot(app)
    refused = enter_hand(host, code, {0: 70, 1: 60})
    assert refused.status_code == 409
    assert "Round 1: nothing was saved." in refused.shown
    assert snapshot(app) == before
    _url, fields = one_form(refused.get_data(as_text=True))
    assert (fields["points_0"], fields["points_1"]) == ("70", "60")
    assert 'data-given-back="1"' in refused.get_data(as_text=True)

    done = enter_hand(host, code, {0: 70, 1: 50})
    assert "Round 1: Ana 70, Ben 50 recorded." in done.shown


def test_a_blank_total_is_refused_with_the_form_given_back(app, host, keeper_basra):
    before = snapshot(app)
    url, fields = one_form(host.get(f"/m/{keeper_basra}").get_data(as_text=True))
    refused = host.post(url, {"revision_0": 0, "revision_1": 0, "points_0": "40", "points_1": ""})
    assert refused.status_code == 400
    assert "Nothing was saved: see below." in refused.shown
    assert "Enter a number." in refused.shown
    _url, again = one_form(refused.get_data(as_text=True))
    assert again["points_0"] == "40"
    # Kept through the live part's refreshes, as typed (js/live.js).
    assert 'data-given-back="1"' in refused.get_data(as_text=True)
    assert snapshot(app) == before


def test_a_double_post_of_the_whole_hand_is_recorded_once(app, host, keeper_basra):
    url, fields = one_form(host.get(f"/m/{keeper_basra}").get_data(as_text=True))
    data = {"revision_0": 0, "revision_1": 0, "points_0": 40, "points_1": 12}
    key = uuid.uuid4().hex
    first = host.post(url, data, key=key)
    second = host.post(url, data, key=key)
    assert "Hand 1: Alice 40, Ben 12 recorded." in first.shown
    assert "Already recorded." in second.shown
    assert count_of(app, Entry) == 2
    assert count_of(app, Correction) == 2
    assert totals(second.get_data(as_text=True)) == ["40", "12"]


def test_the_split_tick_is_on_each_sides_line_as_on_its_own_form(host, keeper_basra):
    """Basra's 26–26 tick, as each side's own form words it, on each side's line."""
    page = host.get(f"/m/{keeper_basra}").shown
    assert page.count("Cards split evenly (26–26): nobody took the majority") == 2
    done = enter_hand(host, keeper_basra, {0: 10, 1: 5}, even_split_0="y", even_split_1="y")
    assert "Next majority worth 60" in done.shown


def test_the_host_with_a_side_enters_its_own_and_fills_the_other_in_one_form(app, host):
    """Two players, one phone: the host's own side is its entry (not in the trail), the other
    side's a fill (in it)."""
    code = host.create("pastura", table_format="2", side_0="Ana", side_1="Omar", target="51")
    page = host.get(f"/m/{code}").shown
    # Each line's calculator: its own side's as on its own form, Omar's to fill his cell.
    assert f'href="/m/{code}/calc" aria-label="Count Ana with the calculator"' in page
    assert f'href="/m/{code}/hand/1/side/1/calc" aria-label="Count Omar' in page
    assert host.get(f"/m/{code}/calc").status_code == 200
    assert host.get(f"/m/{code}/hand/1/side/1/calc").status_code == 200
    done = enter_hand(host, code, {0: 8, 1: 3})
    assert "Hand 1: Ana 8, Omar 3 recorded." in done.shown
    with app.app_context():
        line = db.session.scalars(sa.select(Correction)).one()
        assert line.new_points == 3
    # The host's own side changed before the hand is complete would be its own entry again:
    # here the hand is complete, so the form is for hand 2.
    assert one_form(done.get_data(as_text=True))[0] == f"/m/{code}/hand/2/enter"


def test_the_host_counts_an_unheld_side_with_its_calculator(app, host, keeper_basra):
    """The calculator for a side no phone holds reads as that side's own: Enter, no reason;
    its counts fill the cell, in the trail."""
    # The cell's own page (its "fill" link) leads to the side's calculator as the side's own.
    fill_page = host.get(f"/m/{keeper_basra}/hand/1/side/0/correct").shown
    assert "Count with the calculator" in fill_page and "at once" not in fill_page
    url = f"/m/{keeper_basra}/hand/1/side/0/calc"
    page = host.get(url)
    assert page.status_code == 200
    assert "Reason" not in page.shown
    counts = {"n_cards": 30, "n_aces": 3, "n_jacks": 2, "n_ten_diamonds": "y", "n_basras": 1}
    preview = host.post(url, {"hand": 1, "revision": 0, "intent": "preview", **counts})
    assert "Enter 48" in preview.shown
    done = host.post(url, {"hand": 1, "revision": 0, "intent": "enter", **counts})
    assert "Hand 1: Alice filled in to 48." in done.shown
    # The form keeps the calculator's cell as it is when Ben's total is entered beside it.
    finished = enter_hand(host, keeper_basra, {1: 5})
    assert "Hand 1: Ben 5 recorded." in finished.shown
    assert totals(finished.get_data(as_text=True)) == ["48", "5"]
    with app.app_context():
        alice = db.session.scalars(sa.select(Entry).order_by(Entry.side_id)).first()
        assert alice.counts["cards"] == 30


def test_the_keeper_may_still_take_a_side_from_its_tools(host, keeper_basra):
    page = host.get(f"/m/{keeper_basra}").shown
    assert '<option value="1">Ben</option>' in page
    taken = host.post(f"/m/{keeper_basra}/claim", {"target": 1})
    assert "This phone now holds Ben" in taken.shown
    assert "Play a side on this phone" not in taken.shown
    # Ben is its own to enter now, Alice still its to fill: both in the one form.
    done = enter_hand(host, keeper_basra, {0: 40, 1: 12})
    assert "Hand 1: Alice 40, Ben 12 recorded." in done.shown
    assert "Hand 1, Alice: 40 filled in" in done.shown
    assert "Hand 1, Ben:" not in done.shown


def test_a_hand_complete_before_the_form_arrived_gives_it_back_for_the_next(
    app, host, keeper_basra
):
    """The same hand's form sent again from another page (a new key): hand 1 is complete, so
    nothing is saved and the totals wait in hand 2's form."""
    url, _fields = one_form(host.get(f"/m/{keeper_basra}").get_data(as_text=True))
    data = {"revision_0": 0, "revision_1": 0, "points_0": 40, "points_1": 12}
    host.post(url, data)
    before = snapshot(app)
    late = host.post(url, {**data, "points_1": 13})
    assert late.status_code == 409
    assert "Hand 1 was complete before this form arrived, so nothing was saved." in late.shown
    assert snapshot(app) == before
    again_url, again = one_form(late.get_data(as_text=True))
    assert again_url == f"/m/{keeper_basra}/hand/2/enter"
    assert (again["points_0"], again["points_1"]) == ("40", "13")


# One phone or one phone per side, the same hands: the sheet must come out the same. The one
# form is checked as each side's own entry would be, in column order; a hand the sides' phones
# could not all enter is refused whole, for the reason the refused side's phone was shown.

ERROR = re.compile(r'<p class="flash error" role="alert">(.*?)</p>', re.S)


@dataclass(frozen=True)
class Game:
    """A table to play twice: its create form's fields, its sides, and the totals a hand's
    side may type (one side's plain entry)."""

    key: str
    fields: dict[str, str]
    sides: int
    totals: st.SearchStrategy[int]
    split: bool = False


GAMES = [
    Game("basra", {"table_format": "2", "target": "101"}, 2, st.integers(0, 70), split=True),
    Game("basra", {"table_format": "3", "target": "101"}, 3, st.integers(0, 70), split=True),
    Game("pastura", {"table_format": "3", "target": "51"}, 3, st.integers(0, 25)),
    Game(
        "brisca",
        {"table_format": "2"},
        2,
        st.one_of(st.integers(0, 120), st.sampled_from([60, 61, 59, 0, 120])),
    ),
    Game("brasta", {"table_format": "2", "target": "201"}, 2, st.integers(-30, 140)),
    Game("other", {"target": "100"}, 3, st.integers(-10, 60)),
]


@st.composite
def hands(draw: st.DrawFn) -> tuple[Game, list[list[tuple[int, bool]]]]:
    """A game, and up to six hands of each side's (total, split ticked)."""
    game = draw(st.sampled_from(GAMES))
    if game.key == "brisca":
        # Mostly rounds whose card points come to 120, as a deck's do.
        first = draw(st.lists(st.integers(0, 120), min_size=1, max_size=6))
        odd = draw(st.lists(game.totals, min_size=len(first), max_size=len(first)))
        keep = draw(st.lists(st.booleans(), min_size=len(first), max_size=len(first)))
        rows = [
            [(a, False), (120 - a if sound else b, False)]
            for a, b, sound in zip(first, odd, keep, strict=True)
        ]
        return game, rows
    cell = st.tuples(game.totals, st.booleans() if game.split else st.just(False))
    row = st.lists(cell, min_size=game.sides, max_size=game.sides)
    return game, draw(st.lists(row, min_size=1, max_size=6))


def _names(sides: int) -> dict[str, str]:
    """The sides' names, as the create form takes them."""
    return {f"side_{at}": name for at, name in enumerate(["Ana", "Ben", "Cy"][:sides])}


def _said(page: str) -> str:
    """The refusal a page shows (empty if none)."""
    found = ERROR.search(page)
    return found.group(1) if found else ""


@settings(
    max_examples=examples(20),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(played=hands())
def test_one_phone_keeps_the_same_sheet_as_a_phone_per_side(app, played):
    game, rows = played
    keeper, seated = Phone(app), Phone(app)
    kept = keeper.create(game.key, **game.fields, **_names(game.sides), host_side="-1")
    table = seated.create(game.key, **game.fields, **_names(game.sides), host_side="0")
    phones = [seated]
    for at in range(1, game.sides):
        phones.append(Phone(app))
        phones[at].join(table, side=at)

    for number, row in enumerate(rows, start=1):
        form_page = keeper.get(f"/m/{kept}").get_data(as_text=True)
        if not ONE_FORM.search(form_page):
            # A side has won (or a Brisca round waits for its last trick): no form, as on the
            # table of phones, where no side may enter.
            entered = phones[0].enter(table, number, 0, row[0][0])
            assert entered.status_code == 409
            event("no hand open")
            break
        refused = ""
        for at, (points, split) in enumerate(row):
            ticks = {"even_split": "y"} if split else {}
            answer = phones[at].enter(table, number, at, points, **ticks)
            if answer.status_code != 200:
                refused = _said(answer.get_data(as_text=True))
                break
        ticked = {f"even_split_{at}": "y" for at, (_p, split) in enumerate(row) if split}
        before = snapshot(app)
        one = enter_hand(keeper, kept, {at: p for at, (p, _s) in enumerate(row)}, **ticked)
        if refused:
            # Refused whole, for the reason the side's own phone was shown: the same first
            # sentence ("Hand 2: nothing was saved."); the reasons after it name the side the
            # host wrote for, where the side's own phone was told "you".
            assert one.status_code == 409, refused
            assert _said(one.get_data(as_text=True)).split(". ")[0] == refused.split(". ")[0]
            assert snapshot(app) == before
            event(f"{game.key}: refused")
            break
        event(f"{game.key}: hand complete")
        assert one.status_code == 200, _said(one.get_data(as_text=True))
        kept_page = one.get_data(as_text=True)
        table_page = phones[0].get(f"/m/{table}").get_data(as_text=True)
        assert totals(kept_page) == totals(table_page)
        # The same End match offered (or none), the same next majority.
        for words in ("End match: ", "Next majority worth "):
            assert (words in kept_page) == (words in table_page)


def test_brisca_s_black_hand_is_ticked_on_its_side_s_line(host):
    """A table playing Black hand: each line has its tick, as each side's own form has, and a
    black hand takes the round whatever the card points."""
    code = host.create(
        "brisca", table_format="2", side_0="Ana", side_1="Bea", host_side="-1", rule_black_hand="on"
    )
    page = host.get(f"/m/{code}").shown
    assert page.count('name="black_hand_') == 2
    assert "last_trick_" not in page
    done = enter_hand(host, code, {0: 20, 1: 30}, black_hand_0="y")
    assert "Round 1: Ana 20, Bea 30 recorded." in done.shown
    assert totals(done.get_data(as_text=True)) == ["1", "0"]


def test_a_form_that_changes_two_lines_at_once_is_checked_as_it_would_stand(app, host, phones):
    """Basra for three, kept by the host, Cal on his own phone: the host said Ana and Bea tied
    for the most cards, then finds they did not and unticks both lines in one form. Each
    line is checked beside the other's new tick, not the old one this form replaces."""
    code = host.create(
        "basra", table_format="3", side_0="Ana", side_1="Bea", side_2="Cal", host_side="-1"
    )
    phones().join(code, side=2)
    tied = {"even_split_0": "y", "even_split_1": "y"}
    assert enter_hand(host, code, {0: 10, 1: 10}, **tied).status_code == 200
    untied = enter_hand(host, code, {0: 10, 1: 10})
    assert untied.status_code == 200, untied.shown
    with app.app_context():
        ticks = db.session.scalars(sa.select(Entry.ticks).order_by(Entry.side_id)).all()
    assert ticks == [[], []]


def test_the_one_form_is_drawn_only_for_the_phone_that_may_use_it(app, host, guest):
    """A player's phone posting the host's one form, even with nonsense in it, is refused as
    the entry would be: it is never drawn the host's form for the whole hand."""
    code = host.create("basra", table_format="2", side_0="Alice", side_1="Ben")
    guest.join(code, side=1)
    before = snapshot(app)
    forged = guest.post(f"/m/{code}/hand/77/enter", {"points_0": "x", "points_1": "y"})
    assert forged.status_code == 403
    assert "Only the host's phone can do that." in forged.shown
    assert ONE_FORM.search(forged.get_data(as_text=True)) is None
    assert snapshot(app) == before
