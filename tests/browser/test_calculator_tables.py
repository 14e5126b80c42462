"""A calculator page with no connection works a hand out as the server does, for every game:
static/js/calculator.js's workedOut, run in a browser on each game's declared table as the page
is given it (#calc-scoring, calculator.routes.offline_scoring), gives the very lines and total
of scoring.worked_out, which tests/unit/test_scoring_tables.py holds equal to the game's own
`calculate`. Every game, seating and choice of every table rule, points held over, and counts
drawn by that test's own strategies (any within each count's bounds): one page, the hands
worked out there in one go."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask import Flask
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from scorekeeper.calculator.routes import offline_scoring
from scorekeeper.games import Game, Table
from scorekeeper.games.scoring import worked_out
from scorekeeper.terms import say
from tests.browser.conftest import PhoneMaker
from tests.examples import examples
from tests.unit.helpers import table_for
from tests.unit.test_scoring_tables import CASES, HELD_OVER, counts_for, tables

pytestmark = pytest.mark.browser

# Counts drawn for each table drawn (Hypothesis draws a table, the points held over and these
# at once: drawing them one hand at a time would be most of the test's time).
COUNTS_A_TABLE = 10
# A hand as both sides work it out: (label, count, points) for each line, and the total.
Worked = tuple[list[list[Any]], int]

# calculator.js as a module of the page it runs on (its URL is main.js's, the fingerprint and
# all), each hand worked out on its table as the page reads #calc-scoring: parsed from the text.
# The hands go in and come out as one JSON text: Playwright's own passing of thousands of
# objects took longer than the working out.
WORK_OUT_HERE = """async (sent) => {
  const main = document.querySelector("script[type=module][src*='main.js']").src;
  const {workedOut} = await import(new URL("calculator.js", main));
  const {tables, hands} = JSON.parse(sent);
  const scorings = tables.map((text) => JSON.parse(text));
  return JSON.stringify(hands.map(([at, counts]) => {
    const worked = workedOut(scorings[at], counts);
    return [worked.rows.map((row) => [row.label, row.count, row.points]), worked.total];
  }));
}"""


def drawn_hands(
    game: Game, seating: str, rule: str | None, choice: str | None
) -> list[tuple[Table, int, dict[str, int]]]:
    """Hands of one case (tests/unit/test_scoring_tables.py's), drawn by that test's own
    strategies: tables, points held over, and for each some counts, every one within its
    bounds. Counts no table can have are among them: a page with no connection works those
    out too, and the server says why once it is back."""
    hands: list[tuple[Table, int, dict[str, int]]] = []

    @settings(max_examples=examples(5), deadline=None, database=None, phases=[Phase.generate])
    @given(data=st.data(), held_over=HELD_OVER)
    def draw(data: st.DataObject, held_over: int) -> None:
        table = data.draw(tables(game, seating, rule, choice))
        if game.calculator_fields(table):
            hand = counts_for(game, table, bounds=True)
            drawn = data.draw(st.lists(hand, min_size=COUNTS_A_TABLE, max_size=COUNTS_A_TABLE))
            hands.extend((table, held_over, counts) for counts in drawn)

    draw()
    return hands


def test_a_calculator_with_no_connection_works_every_games_hands_out_as_the_server_does(
    app: Flask, new_phone: PhoneMaker
) -> None:
    """Each hand's lines (label, count, points) and total, on the page and on the server."""
    page = new_phone()
    page.goto("/")
    # Each table's #calc-scoring once, by its text; each hand by the table it is worked on.
    declared: dict[str, int] = {}
    texts: dict[tuple[str, int], str] = {}
    hands: list[tuple[int, dict[str, int]]] = []
    expected: list[Worked] = []
    named: list[str] = []
    # The labels said in English, in #calc-scoring and here alike.
    with app.test_request_context():
        # As calculator/calc.html writes it into #calc-scoring.
        page_json = app.jinja_env.from_string("{{ offline|tojson }}")
        for game, seating, rule, choice in CASES:
            for table, held_over, counts in drawn_hands(game, seating, rule, choice):
                key = (repr(table), held_over)
                if key not in texts:
                    texts[key] = page_json.render(offline=offline_scoring(game, table, held_over))
                hands.append((declared.setdefault(texts[key], len(declared)), counts))
                here = worked_out(game.scoring(table, held_over), counts)
                expected.append(
                    ([[say(row.label), row.count, row.points] for row in here.lines], here.total)
                )
                named.append(f"{game.key} {seating} {table.rules} held {held_over}: {counts}")
    sent = json.dumps({"tables": list(declared), "hands": hands})
    worked = json.loads(page.evaluate(WORK_OUT_HERE, sent))
    differ = [
        f"{name}\n  page   {page_said}\n  server {list(server_said)}"
        for name, page_said, server_said in zip(named, worked, expected, strict=True)
        if tuple(page_said) != server_said
    ]
    assert not differ, f"{len(differ)} of {len(hands)} hands:\n" + "\n".join(differ[:10])
    # Every game with a calculator, and hands with no line at all and with several.
    calculated = {
        game.key for game, seating, *_ in CASES if game.calculator_fields(table_for(game, seating))
    }
    assert {name.split()[0] for name in named} == calculated
    assert {len(lines) for lines, _total in expected} >= {0, 1, 2}
