"""Other game: plain totals for 2 to 8 sides, won as Basra is."""

from __future__ import annotations

import pytest

from scorekeeper.games import EntryFacts, Table, get_game

from .helpers import plain

OTHER = get_game("other")


def free_table(sides: int, target: int = 100) -> Table:
    """An Other game table with the host's number of sides."""
    return Table(game="other", format="free", sides=sides, target=target)


def test_no_calculator_and_free_sides() -> None:
    assert OTHER.calculator_fields(free_table(4)) == ()
    assert (OTHER.min_sides, OTHER.max_sides) == (2, 8)
    assert OTHER.targets == ()
    assert OTHER.accepts_target(37) is True
    assert OTHER.accepts_target(0) is False


def test_five_sides_the_higher_of_those_over_the_target_wins() -> None:
    tbl = free_table(5, target=50)
    hands = [
        [plain(30), plain(20), plain(45), plain(-5), plain(10)],
        [plain(25), plain(5), plain(10), plain(-5), plain(42)],
    ]
    state = OTHER.state(tbl, hands)
    assert state.totals == (55, 25, 55, -10, 52)
    # Two level at the top: play on, though a third side is over too.
    assert state.winner is None
    state = OTHER.state(tbl, [*hands, [plain(1), plain(0), plain(0), plain(0), plain(0)]])
    assert state.winner == 0
    assert state.won_at_hand == 2
    assert state.reason == "Highest of three over 50"


@pytest.mark.parametrize("sides", [3, 8])
def test_each_side_keeps_its_own_column(sides: int) -> None:
    tbl = free_table(sides)
    hand = [plain(side * 10 - 20) for side in range(sides)]
    state = OTHER.state(tbl, [hand, hand])
    assert state.totals == tuple(2 * (side * 10 - 20) for side in range(sides))
    assert state.hands[0].majority_worth is None


def test_counts_on_an_other_entry_are_ignored_for_its_plain_total() -> None:
    tbl = free_table(3)
    state = OTHER.state(tbl, [[EntryFacts(points=7, counts={"x": 1}), plain(2), None]])
    assert state.hands[0].points == (7, 2, None)
    assert state.hands[0].complete is False
    assert state.hands[0].problems == ()
