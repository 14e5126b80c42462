"""The scoring table each game declares (Game.scoring: what a calculator page works out with no
connection, in static/js/calculator.js) gives exactly what the game's own `calculate` gives, for
every game, seating and combination of table rules, on every count a calculator takes and any
points held over: the two can never drift apart."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from scorekeeper.games import GAMES, CountError, Game, Table
from scorekeeper.games.scoring import worked_out
from tests.examples import examples

from .helpers import table_for


def seatings() -> list[tuple[Game, str, str | None, str | None]]:
    """Each game at each of its seatings, once for every choice of every table rule it asks
    there (the other rules drawn), and once with its rules all drawn."""
    cases: list[tuple[Game, str, str | None, str | None]] = []
    for game in GAMES.values():
        for seating in game.formats:
            cases.append((game, seating.key, None, None))
            cases += [
                (game, seating.key, rule.key, choice)
                for rule in game.table_rules
                if rule.applies_to(seating.key)
                for choice, _label in rule.choices
            ]
    return cases


CASES = seatings()
# Points held over into a hand from the hands before it (Basra's majority, a tie's).
HELD_OVER = st.sampled_from([0, 30, 60, 90])


def tables(
    game: Game, seating: str, rule: str | None, choice: str | None
) -> st.SearchStrategy[Table]:
    """Tables of a game at a seating, `rule` at `choice`, every other rule any of its choices."""
    drawn = {
        each.key: st.just(choice)
        if each.key == rule
        else st.sampled_from([key for key, _label in each.choices])
        for each in game.table_rules
        if each.applies_to(seating)
    }
    return st.fixed_dictionaries(drawn).map(lambda rules: table_for(game, seating, None, **rules))


def counts_for(
    game: Game, table: Table, *, bounds: bool = False
) -> st.SearchStrategy[dict[str, int]]:
    """Any counts the calculator's fields take, each within its bounds, small ones drawn
    often: most counts cannot all be true together, and calculate refuses those. With
    `bounds`, each count's two bounds drawn often too (where a page with no connection, which
    works out any counts, could be off by one): more counts that calculate refuses."""

    def count(least: int, most: int) -> st.SearchStrategy[int]:
        drawn = st.integers(least, min(most, least + 2)) | st.integers(least, most)
        return (st.sampled_from((least, most)) | drawn) if bounds else drawn

    return st.fixed_dictionaries(
        {
            calc.key: (
                st.sampled_from([value for value, _label in calc.choices])
                if calc.kind == "choice"
                else count(calc.minimum, calc.maximum)
            )
            for calc in game.calculator_fields(table)
        }
    )


@pytest.mark.parametrize(
    ("game", "seating", "rule", "choice"),
    CASES,
    ids=[f"{game.key}-{seating}-{rule}-{choice}" for game, seating, rule, choice in CASES],
)
@settings(
    max_examples=examples(20), deadline=None, suppress_health_check=[HealthCheck.filter_too_much]
)
@given(data=st.data(), held_over=HELD_OVER)
def test_the_declared_table_works_out_what_calculate_does(
    game: Game,
    seating: str,
    rule: str | None,
    choice: str | None,
    data: st.DataObject,
    held_over: int,
) -> None:
    table = data.draw(tables(game, seating, rule, choice))
    scoring = game.scoring(table, held_over)
    if not game.calculator_fields(table):
        # No calculator, no page to work one out on.
        assert scoring.lines == ()
        return
    counts = data.draw(counts_for(game, table))
    try:
        calculated = game.calculate(table, counts, held_over)
    except CountError:
        # Counts no table can have: nothing to work out, here or on the page.
        event("refused")
        assume(False)
        raise
    event(f"{len(calculated.lines)} lines")
    assert worked_out(scoring, counts) == calculated


def test_every_game_with_a_calculator_declares_its_table() -> None:
    """A game whose calculator a page could not work out offline is one this lists."""
    missing = {
        game.key
        for game in GAMES.values()
        for seating in game.formats
        if game.calculator_fields(table_for(game, seating.key))
        and not game.scoring(table_for(game, seating.key)).lines
    }
    assert missing == set()
