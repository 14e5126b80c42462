"""Words a table still tripped on (issue 42, point 6), in the languages they were read in: the
history and the record told apart, Pastura's pasturas, a correction of counts alone, Brisca's
lead and target in rounds with Arabic's own plural forms, a three-way tie, and someone else's
record saying whose matches it counts."""

from __future__ import annotations

import re

import pytest

from tests.phones import Phone
from tests.web.test_correcting_a_hand import BEN_25, correct_by_calculator, counted_table
from tests.web.test_languages import speaking
from tests.web.test_one_phone import enter_hand
from tests.web.test_record import figures, play


def heading(page: str) -> str:
    """The page's first heading, as read."""
    found = re.search(r"<h1>(.*?)</h1>", page, re.S)
    assert found
    return re.sub(r"<[^>]+>|\s+", " ", found.group(1)).strip()


@pytest.mark.parametrize(
    ("language", "history", "record"),
    [
        ("en", "History", "Your record"),
        ("es", "Historial", "Tus estadísticas"),
        ("ar", "السجل", "إحصاءاتك"),
    ],
)
def test_the_history_and_the_record_are_two_words(
    host: Phone, guest: Phone, language: str, history: str, record: str
):
    play(host, guest, [(101, 0)])
    speaking(host, language)
    listed = host.get("/history").shown
    counted = host.get("/history/record").shown
    assert history in listed and record in listed
    assert heading(counted) == record
    # Not the history's word again ("Tu historial", «سجلك»).
    assert history not in heading(counted)


def test_spanish_pasturas_are_worth_one_each_not_one_per_card(host: Phone, guest: Phone):
    code = host.create("pastura", table_format="2", side_0="Ana", side_1="Bea")
    page = speaking(host, "es").get(f"/m/{code}/calc").get_data(as_text=True)
    hint = re.search(r'for="n_pasturas">Pasturas <small class="hint">(.*?)</small>', page)
    assert hint and hint.group(1) == "1 cada una"
    # Aces and jacks are cards: one point per card is right for them.
    assert re.search(r'for="n_aces">Ases <small class="hint">1 punto por carta</small>', page)


@pytest.mark.parametrize(
    ("language", "told", "trail"),
    [
        ("en", "Hand 1: Ben corrected; the total stays 6.", "Hand 1, Ben: still 6"),
        ("es", "Mano 1: Ben, corregido; el total sigue en 6.", "Mano 1, Ben: sigue en 6"),
    ],
)
def test_a_correction_of_the_counts_alone_does_not_say_from_6_to_6(
    host: Phone, guest: Phone, language: str, told: str, trail: str
):
    code = counted_table(host, guest)
    speaking(host, language)
    page = correct_by_calculator(host, code, 1, BEN_25).shown
    assert told in page and trail in page
    assert "6 → 6" not in page and "de 6 a 6" not in page


@pytest.mark.parametrize(
    ("language", "target", "lead"),
    [
        ("en", "to 2 rounds", "Ana ahead by 1 round"),
        ("es", "a 2 rondas", "Ana lleva 1 ronda de ventaja"),
        # «حتى» takes the dual's genitive, جولتين, and a lead in rounds is in rounds.
        ("ar", "حتى جولتين", "Ana في المقدمة بفارق جولة واحدة"),
    ],
)
def test_brisca_says_its_target_and_its_lead_in_rounds(
    host: Phone, guest: Phone, language: str, target: str, lead: str
):
    code = host.create("brisca", table_format="2", side_0="Ana", side_1="Bea", target="2")
    guest.join(code, side=1)
    host.enter(code, 1, 0, 70)
    guest.enter(code, 1, 1, 50)
    page = speaking(host, language).get(f"/m/{code}").shown
    assert target in heading(page)
    standing = re.search(r'<p class="standing">(.*?)</p>', page, re.S)
    assert standing
    assert re.sub(r"<[^>]+>", "", standing.group(1)).startswith(lead)
    tv = speaking(host, language).get(f"/m/{code}/tv").shown
    assert target in heading(tv)


@pytest.mark.parametrize(
    ("language", "tied", "never"),
    [
        ("en", "Rounds tied at the top", "60–60"),
        ("ar", "جولات تعادل فيها المتصدّرون", "أحد الفريقين"),
    ],
)
def test_a_three_way_tie_is_not_called_60_60_nor_one_of_two_sides(
    host: Phone, language: str, tied: str, never: str
):
    """Brisca for three, kept on the host's phone (Ana its own): a round 50–50–20 goes to
    the last trick; the record counts it as a tie at the top, and says Ana played on a side,
    not "on one of the two sides"."""
    code = host.create(
        "brisca", table_format="3", side_0="Ana", side_1="Bea", side_2="Cy", target="1"
    )
    enter_hand(host, code, {0: 50, 1: 50, 2: 20})
    host.post(f"/m/{code}/settle", {"target": 0, "hand": 1})
    assert "Match over" in host.post(f"/m/{code}/end").shown
    page = speaking(host, language).get("/history/record").shown
    brisca = figures(page, {"en": "Brisca", "ar": "بريسكا"}[language])
    assert brisca[tied] == "1"
    assert never not in page


@pytest.mark.parametrize(
    ("language", "counted"),
    [
        ("en", "Counted: the ended matches Alice played on a side."),
        ("es", "Cuentan: las partidas terminadas que Alice jugó en un equipo."),
    ],
)
def test_someone_elses_record_counts_their_matches_not_this_phones(
    app, host: Phone, guest: Phone, language: str, counted: str
):
    code = play(host, guest, [(101, 0)])
    page = guest.get(f"/m/{code}").get_data(as_text=True)
    seat = re.search(rf'href="/history/{code}/player/(\d+)">Alice', page)
    assert seat
    theirs = speaking(guest, language).get(f"/history/{code}/player/{seat.group(1)}").shown
    assert counted in theirs
    assert "this phone played" not in theirs and "este teléfono jugó" not in theirs
