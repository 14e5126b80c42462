"""A calculator page with no connection reads and works a hand out as the server does, for
every game: static/js/calculator.js's countsIn reads the counts typed into a table's calculator
fields back as they were typed, within each count's bounds (edges included) and none past
them, and its workedOut, on each game's declared table as the page is given it (#calc-scoring,
calculator.routes.offline_scoring), gives the very lines and total of scoring.worked_out, which
tests/unit/test_scoring_tables.py holds equal to the game's own `calculate`. Every game,
seating and choice of every table rule, points held over, and counts drawn by that test's own
strategies: one page, the hands worked out there in one go."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask import Flask, get_template_attribute
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from scorekeeper.calculator.forms import calculator_form
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
# A hand as both sides work it out: (label, count, points) for each line, the total, the counts
# read from its fields, and those read with one count over its most (none).
Worked = tuple[list[list[Any]], int, dict[str, int], None]

# calculator.js as a module of the page it runs on (its URL is main.js's, the fingerprint and
# all). Each hand's counts are typed into its table's calculator fields (each count in one of
# the page's runs of digits, in turn), read back by countsIn with the table's bounds, read
# again with a typed count one over its most, and worked out by workedOut on the table as the
# page reads #calc-scoring: parsed from its text. The hands go in and come out as one JSON
# text: Playwright's own passing of thousands of objects took longer than the working out.
WORK_OUT_HERE = """async (sent) => {
  const main = document.querySelector("script[type=module][src*='main.js']").src;
  const {countsIn, workedOut} = await import(new URL("calculator.js", main));
  const {tables, hands} = JSON.parse(sent);
  const calculators = tables.map(([text, html]) => {
    const holder = document.createElement("div");
    holder.innerHTML = html;
    document.body.append(holder);
    return [JSON.parse(text), holder.querySelector("form")];
  });
  return JSON.stringify(hands.map(([at, counts], hand) => {
    const [scoring, form] = calculators[at];
    const digits = form.dataset.digits;
    const run = hand % (digits.length / 10);
    const typed = (n) => [...String(n)].map((d) => digits[run * 10 + Number(d)]).join("");
    for (const input of form.elements) {
      const count = counts[input.name.slice(2)];
      if (input.type === "checkbox") input.checked = count === 1;
      else if (input.type === "radio") input.checked = input.value === String(count);
      else input.value = typed(count);
    }
    const read = countsIn(form, scoring.fields);
    // One count past its most, where the form has one typed.
    const text = form.querySelector("input[type=text]");
    let over = null;
    if (text) {
      const [, , most] = scoring.fields.find(([key]) => "n_" + key === text.name);
      text.value = typed(most + 1);
      over = countsIn(form, scoring.fields);
    }
    const worked = workedOut(scoring, counts);
    return [worked.rows.map((row) => [row.label, row.count, row.points]), worked.total, read, over];
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


def count_fields(game: Game, table: Table) -> str:
    """A table's calculator fields as calculator/calc.html draws them, by its own macro."""
    form = calculator_form(game, table)
    count_field = get_template_attribute("calculator/_count.html", "count_field")
    return "".join(str(count_field(c, form[f"n_{c.key}"], {}, "")) for c in form.calc_fields)


def test_a_calculator_with_no_connection_works_every_games_hands_out_as_the_server_does(
    app: Flask, new_phone: PhoneMaker
) -> None:
    """Each hand's counts typed into its calculator and read back as they were typed, and
    refused one over its most; its lines (label, count, points) and total, on the page and on
    the server alike."""
    page = new_phone()
    page.goto("/")
    # Each table's #calc-scoring and fields once; each hand by the table it is worked on.
    declared: dict[tuple[str, str], int] = {}
    pages: dict[tuple[str, int], tuple[str, str]] = {}
    hands: list[tuple[int, dict[str, int]]] = []
    expected: list[Worked] = []
    named: list[str] = []
    # The labels said in English, in #calc-scoring and here alike.
    with app.test_request_context():
        # As calculator/calc.html writes them: its scoring, and its form's count fields.
        page_json = app.jinja_env.from_string("{{ offline|tojson }}")
        page_form = app.jinja_env.from_string(
            '<form data-digits="{{ DIGITS }}">{{ fields|safe }}</form>'
        )
        for game, seating, rule, choice in CASES:
            for table, held_over, counts in drawn_hands(game, seating, rule, choice):
                key = (repr(table), held_over)
                if key not in pages:
                    offline = offline_scoring(game, table, held_over)
                    fields = count_fields(game, table)
                    pages[key] = (
                        page_json.render(offline=offline),
                        page_form.render(fields=fields),
                    )
                hands.append((declared.setdefault(pages[key], len(declared)), counts))
                here = worked_out(game.scoring(table, held_over), counts)
                lines = [[say(row.label), row.count, row.points] for row in here.lines]
                expected.append((lines, here.total, counts, None))
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
    assert {len(lines) for lines, *_ in expected} >= {0, 1, 2}
