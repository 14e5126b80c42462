"""Why a match was won is a fact (a rule's code and its numbers) that games/ returns and the
match stores; scorekeeper/words/ says it. Each rule below is found by the rules and worded as
the result line has always read in English. A series' standing is a value too, worded there."""

from __future__ import annotations

import pytest

from scorekeeper.games import WinRule, Won, get_game
from scorekeeper.models import StoredSide
from scorekeeper.scoresheet.series import Series
from scorekeeper.words import result, series_standing, why

from .helpers import plain, table


@pytest.mark.parametrize(
    ("won", "words"),
    [
        (Won(WinRule.EARLY_VICTORY), "Early victory"),
        (Won(WinRule.REACHED_FIRST, target=101), "Reached 101 first"),
        (Won(WinRule.HIGHEST_OVER, target=101, sides=2), "Higher of two over 101"),
        (Won(WinRule.HIGHEST_OVER, target=50, sides=8), "Highest of eight over 50"),
        (Won(WinRule.HIGHEST_OVER, target=50, sides=9), "Highest of 9 over 50"),
        (Won(WinRule.FIRST_TO_ROUNDS, target=1), "First to 1 round"),
        (Won(WinRule.FIRST_TO_ROUNDS, target=3), "First to 3 rounds"),
        (Won(WinRule.LOWEST_AT_LIMIT, target=100), "Lowest when a side reached 100"),
        (Won(WinRule.HIGHEST_AFTER_HANDS, hands=1), "Highest after 1 hand"),
        (Won(WinRule.HIGHEST_AFTER_HANDS, hands=10), "Highest after 10 hands"),
    ],
)
def test_each_rule_is_worded_and_stored_as_its_code_and_numbers(won, words) -> None:
    assert why(won) == words
    assert result("Us", won) == f"Us won. {words}"
    stored = won.stored()
    assert stored["rule"] == won.rule.value and None not in stored.values()
    assert Won.from_stored(stored) == won


def test_nothing_stored_or_a_rule_no_longer_known_reads_as_no_reason() -> None:
    assert Won.from_stored(None) is None
    assert Won.from_stored({"rule": "gone"}) is None
    assert why(None) == "" and result("Us", None) == "Us won."


def test_the_rules_return_the_fact_not_words() -> None:
    basra = get_game("basra")
    state = basra.state(table("basra"), [[plain(110), plain(104)]])
    assert state.reason == Won(WinRule.HIGHEST_OVER, target=101, sides=2)
    assert state.reason.stored() == {"rule": "highest_over", "target": 101, "sides": 2}


def test_a_series_standing_is_a_value_worded_leader_first() -> None:
    # Sides as the sheet holds them, never stored.
    sides = [
        StoredSide(id=at, match_id=1, position=at, name=name, players="")
        for at, name in enumerate(["Us", "Them", "Ana"])
    ]
    ahead = Series(first=1, matches=4, wins=(1, 3, 0))
    assert ahead.leaders == (1,) and ahead.order == (1, 0, 2)
    assert series_standing(ahead, sides) == "Series: Them ahead, 3–1–0"
    level = Series(first=1, matches=4, wins=(2, 0, 2))
    assert level.order == (0, 2, 1)
    assert series_standing(level, sides) == "Series: level, 2–2–0"
