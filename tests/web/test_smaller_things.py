"""The smaller things a table tripped on (issue 42, point 10): the calculator's breakdown
headed, the next majority not said once a side has won, the sheet's marks keyed, and (in
test_moving, test_at_the_table, test_new_player_words) the rest."""

from __future__ import annotations

import re

import pytest

from tests.phones import Phone
from tests.web.test_calculator import ALICE, count
from tests.web.test_languages import speaking


@pytest.mark.parametrize(
    ("language", "heads"),
    [("en", ["Line", "Count", "Points"]), ("es", ["Concepto", "Cantidad", "Puntos"])],
)
def test_the_calculators_breakdown_heads_its_columns(host: Phone, language: str, heads: list[str]):
    """ "10♦ 1 3": which number is the count and which the points? The columns say."""
    code = host.create("basra", table_format="2", side_0="Alice", side_1="Ben")
    answer = count(speaking(host, language), code, ALICE, intent="preview").get_data(as_text=True)
    table = answer[answer.index('<table class="breakdown">') :]
    table = table[: table.index("</thead>")]
    assert [
        re.sub(r"\s+", " ", head).strip()
        for head in re.findall(r"<th scope=\"col\">(.*?)</th>", table, re.S)
    ] == heads


def test_the_next_majority_is_not_said_once_a_side_has_won(host: Phone, guest: Phone):
    code = host.create("basra", table_format="2", side_0="Alice", side_1="Ben")
    guest.join(code, side=1)
    host.enter(code, 1, 0, 60)
    guest.enter(code, 1, 1, 10)
    assert "Next majority worth 30." in host.get(f"/m/{code}").shown
    host.enter(code, 2, 0, 50)
    page = guest.enter(code, 2, 1, 10).shown
    assert "Alice has won!" in page
    assert "Next majority worth" not in page


def test_the_sheets_marks_are_keyed_where_they_are(host: Phone, guest: Phone):
    code = host.create("basra", table_format="2", side_0="Alice", side_1="Ben")
    guest.join(code, side=1)
    host.enter(code, 1, 0, 40)
    guest.enter(code, 1, 1, 5)
    # No marks, no key.
    assert 'class="marks-key"' not in host.get(f"/m/{code}").shown
    count(host, code, ALICE, hand=2)
    guest.enter(code, 2, 1, 5)
    page = host.get(f"/m/{code}").shown
    key = re.search(r'<p class="marks-key">(.*?)</p>', page, re.S)
    assert key and re.sub(r"<[^>]+>|\s+", " ", key.group(1)).split() == [
        "≡",
        "from",
        "the",
        "calculator",
    ]
    page = host.correct(code, 1, 1, 7).shown
    key = re.search(r'<p class="marks-key">(.*?)</p>', page, re.S)
    said = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", key.group(1))).strip() if key else ""
    assert said == "≡ from the calculator · ✎ corrected by the host"
