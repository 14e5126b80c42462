"""A hand miscounted and corrected one cell at a time (issue 42, point 4): a correction refused
because of the cells beside it offers the way on, on the same page: the whole hand's
correction, filled with what was typed. Either order ends in the same sheet."""

from __future__ import annotations

import html
import re

import pytest
import sqlalchemy as sa

from scorekeeper.extensions import db
from scorekeeper.models import Entry
from tests.phones import Phone, Shown, totals
from tests.web.test_languages import speaking

# A 26–26 hand counted on both calculators: two aces each, nobody takes the majority (held).
ANA_26 = {"n_cards": 26, "n_aces": 2, "n_jacks": 2, "n_ten_diamonds": "y", "n_basras": 0}
BEN_26 = {"n_cards": 26, "n_aces": 2, "n_jacks": 2, "n_two_clubs": "y", "n_basras": 0}
# As it was: Ana took 27 cards and Ben 25, so Ana takes the majority.
ANA_27 = {**ANA_26, "n_cards": 27}
BEN_25 = {**BEN_26, "n_cards": 25}

INPUT = re.compile(r"<input\b[^>]*>")
ATTRIBUTE = re.compile(r'(\w[\w-]*)(?:="([^"]*)")?')


def offered_form(page: str) -> tuple[str, dict[str, str]]:
    """The whole hand's correction the page (its HTML) offers: where it posts, and the
    fields as drawn (a checkbox only if ticked), as a browser would send them untouched."""
    assert '<section class="offer" id="whole-hand">' in page, "no whole hand offered"
    offer = page[page.index('<section class="offer"') :]
    offer = offer[: offer.index("</form>")]
    action = re.search(r'<form method="post" action="([^"]+)"', offer)
    assert action
    fields: dict[str, str] = {}
    for tag in INPUT.findall(offer):
        attributes = {name: value or "" for name, value in ATTRIBUTE.findall(tag[6:])}
        if attributes.get("type") in ("checkbox", "radio") and "checked" not in attributes:
            continue
        if "name" in attributes:
            fields[attributes["name"]] = html.unescape(attributes.get("value", "y"))
    return action.group(1), fields


def correct_by_calculator(phone: Phone, code: str, position: int, counts: dict) -> Shown:
    """The host corrects hand 1's cell at `position` with its calculator, against the cell's
    revision its page shows."""
    url = f"/m/{code}/hand/1/side/{position}/calc"
    revision = re.search(r'name="revision"[^>]*value="(\d+)"', phone.get(url).shown)
    assert revision
    return phone.post(url, {"hand": 1, "revision": revision.group(1), "intent": "enter", **counts})


def counted_table(host: Phone, guest: Phone) -> str:
    """Basra head to head, hand 1 counted 26–26 on both calculators, hand 2 open."""
    code = host.create("basra", table_format="2", side_0="Ana", side_1="Ben")
    guest.join(code, side=1)
    host.post(f"/m/{code}/calc", {"hand": 1, "revision": 0, "intent": "enter", **ANA_26})
    guest.post(f"/m/{code}/calc", {"hand": 1, "revision": 0, "intent": "enter", **BEN_26})
    return code


def cards_stored(app) -> list[int]:
    """Each side's cards captured in hand 1, as stored (None: a plain total)."""
    with app.app_context():
        cells = db.session.scalars(sa.select(Entry).order_by(Entry.side_id)).all()
        return [cell.counts["cards"] if cell.counts else None for cell in cells]


def test_ben_first_is_taken_cell_by_cell(app, host: Phone, guest: Phone):
    """Ben's 25 first: 51 cards beside Ana's 26 fits the pack; then Ana's 27 makes 52."""
    code = counted_table(host, guest)
    assert totals(host.get(f"/m/{code}").shown) == ["7", "6"]
    assert "Hand 1: Ben corrected" in correct_by_calculator(host, code, 1, BEN_25).shown
    page = correct_by_calculator(host, code, 0, ANA_27).shown
    assert totals(page) == ["37", "6"]
    assert cards_stored(app) == [27, 25]


@pytest.mark.parametrize(
    ("language", "refused", "heading"),
    [
        (
            "en",
            "Cards: Ben 26 already, and Ana 27 would make 53; there are only 52.",
            "Correct every side's cell of hand 1 at once",
        ),
        (
            "es",
            "Cartas: ya anotado Ben 26; con 27 de Ana serían 53, y solo hay 52.",
            "Corregir a la vez las casillas de todos los equipos en la mano 1",
        ),
        (
            "ar",
            "الورق: مسجَّل من قبل Ben 26، ومع رقم Ana (27) يصبح المجموع 53؛ والموجود 52 فقط.",
            "صحّح خانات كل الفرق في اليد 1 دفعة واحدة",
        ),
    ],
)
def test_ana_first_is_refused_with_the_whole_hand_offered_and_taken(
    app, host: Phone, guest: Phone, language: str, refused: str, heading: str
):
    """Ana's 27 first can't stand beside Ben's 26 (53 cards): the page says so, and offers the
    whole hand's correction with Ana's counts in it and Ben's cell beside them; Ben's total
    changed there, both are saved together, as the other order left them."""
    code = counted_table(host, guest)
    speaking(host, language)
    page = correct_by_calculator(host, code, 0, ANA_27)
    assert page.status_code == 409
    assert refused in page.shown and heading in page.shown
    url, fields = offered_form(page.get_data(as_text=True))
    assert url == f"/m/{code}/hand/1/correct"
    # Ana's cell as typed, Ben's as it stands, each by its calculator's counts.
    assert (fields["c0_cards"], fields["c1_cards"]) == ("27", "26")
    assert fields["counted_0"] == fields["counted_1"] == "1"
    fields["c1_cards"] = "25"
    done = host.post(url, {k: v for k, v in fields.items() if k != "key"})
    # Saved together, as the other order left them: Ana's majority, both counts kept.
    assert totals(done.shown) == ["37", "6"]
    assert cards_stored(app) == [27, 25]


def test_a_split_ticked_on_both_sides_is_undone_from_either_cell(host: Phone, guest: Phone):
    """Plain totals, "cards split evenly" ticked on both: unticking either cell alone is
    refused (the other still says 26–26), and either refusal offers the whole hand, in which
    the other is unticked too and both are saved together."""
    split = "Cards split evenly (26–26): nobody took the majority"
    for first in (0, 1):
        code = host.create("basra", table_format="2", side_0="Ana", side_1="Ben")
        guest.join(code, side=1)
        host.enter(code, 1, 0, 7, even_split="y")
        guest.enter(code, 1, 1, 6, even_split="y")
        typed = 37 if first == 0 else 6
        refused = host.correct(code, 1, first, typed)
        page = refused.shown
        assert "Only one of these can be true" in page
        url, fields = offered_form(refused.get_data(as_text=True))
        assert fields[f"points_{first}"] == str(typed)
        assert f"even_split_{first}" not in fields and f"even_split_{1 - first}" in fields
        assert split in page
        del fields[f"even_split_{1 - first}"]
        fields["points_0"], fields["points_1"] = "37", "6"
        done = host.post(url, {k: v for k, v in fields.items() if k != "key"})
        assert totals(done.shown) == ["37", "6"], first
