"""Escoba and Scopa against tests/oracle_forty.py, the few plain lines the stateful test holds
the sheet against: any deal of the 40 cards, at any table, scores there as the rules score it,
adds up, and says nothing against itself."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.games.escoba import ESCOBA_GAME
from scorekeeper.games.scopa import SCOPA_GAME
from tests import oracle_forty
from tests.oracle import Table

from .helpers import counted_by, table_for

ESCOBA_RULES = {
    "setenta": ["sevens", "cascade", "primera"],
    "bonus": ["off", "on"],
}
SCOPA_RULES = {
    "pictures": ["ten", "southern"],
    "napola": ["off", "run", "to_six"],
    "re_bello": ["off", "on"],
}


@st.composite
def tables(draw):
    game = draw(st.sampled_from([ESCOBA_GAME, SCOPA_GAME]))
    fmt = draw(st.sampled_from([f.key for f in game.formats]))
    choices = ESCOBA_RULES if game is ESCOBA_GAME else SCOPA_RULES
    rules = {key: draw(st.sampled_from(values)) for key, values in choices.items()}
    return game, table_for(game, fmt, **rules)


@given(tables(), st.integers(0, 2**32))
def test_any_deal_scores_as_the_oracle_says(found, seed) -> None:
    game, table = found
    told = Table(table.game, table.sides, table.target, table.rules)
    piles = oracle_forty.deal(random.Random(seed), told)
    asked = oracle_forty.fields(told)
    assert [f.key for f in game.calculator_fields(table)] == [
        f.key for f in game.calculator_fields(table) if f.key in asked
    ]
    assert set(asked) == {f.key for f in game.calculator_fields(table)}
    counts = [{k: v for k, v in pile.items() if k in asked} for pile in piles]
    entries = [counted_by(game, table, **c) for c in counts]
    assert [e.points for e in entries] == [oracle_forty.points(told, c) for c in counts]
    result = game.state(table, [entries]).hands[0]
    assert result.problems == ()
    assert not oracle_forty.flags(told, counts)
    assert oracle_forty.contradictions(told, counts) == []
