"""Other game: plain totals for 2 to 8 sides, won as Basra is."""

from __future__ import annotations

import pytest

from scorekeeper import words
from scorekeeper.games import Aim, EntryFacts, Goal, PlayOn, Table, Tie, get_game
from scorekeeper.words import why

from .helpers import plain, play_on_said

OTHER = get_game("other")


def free_table(sides: int, target: int = 100, winner: str = "highest") -> Table:
    """An Other game table with the host's number of sides and choice of who wins."""
    return Table(game="other", format="free", sides=sides, target=target, rules={"winner": winner})


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
    assert why(state.reason) == "Highest of three over 50"


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


# The table's choice of who wins.


def test_lowest_total_wins_once_a_side_reaches_the_target() -> None:
    hearts = free_table(2, 100, "lowest")
    going = OTHER.state(hearts, [[plain(40), plain(30)], [plain(50), plain(20)]])
    assert going.winner is None
    over = OTHER.state(hearts, [[plain(40), plain(30)], [plain(60), plain(20)]])
    assert (over.winner, why(over.reason)) == (1, "Lowest when a side reached 100")
    tied = OTHER.state(free_table(3, 100, "lowest"), [[plain(100), plain(30), plain(30)]])
    assert tied.winner is None
    assert tied.play_on == PlayOn(Tie.LEVEL_AT_LOWEST, (1, 2), total=30, target=100)
    assert play_on_said(tied) == (
        "Side 2 and Side 3 are level at the lowest, 30, and a side has reached 100: "
        "play on until the tie breaks."
    )
    standing = OTHER.standing(hearts, going)
    assert standing.leaders == (1,) and standing.lead == 40
    assert words.goal(standing.goal) == "The lowest total when a side reaches 100 wins."
    # The target is a limit to keep under: room left before it, never points to go.
    assert (standing.to_go, standing.to_limit) == ((), (10, 50))


def test_a_fixed_number_of_hands_goes_to_the_highest() -> None:
    three = free_table(2, 3, "hands")
    two = OTHER.state(three, [[plain(5), plain(9)]] * 2)
    assert two.winner is None
    assert OTHER.standing(three, two).goal == Goal(Aim.HIGHEST_AFTER_HANDS, 3, left=1)
    assert words.goal(OTHER.standing(three, two).goal) == "The highest after 3 hands wins: 1 to go."
    assert OTHER.standing(three, two).to_go == ()
    done = OTHER.state(three, [[plain(5), plain(9)]] * 3)
    assert (done.winner, why(done.reason)) == (1, "Highest after 3 hands")
    level = OTHER.state(three, [[plain(5), plain(5)]] * 3)
    assert level.winner is None
    assert level.play_on == PlayOn(Tie.LEVEL_AFTER_HANDS, (0, 1), total=15, hands=3)
    assert "Side 1 and Side 2 are level at the top after 3 hands" in play_on_said(level)
    one = free_table(2, 1, "hands")
    assert why(OTHER.state(one, [[plain(5), plain(9)]]).reason) == "Highest after 1 hand"
    # A hand past a totals' target changes nothing: it is a number of hands.
    assert OTHER.state(three, [[plain(500), plain(9)]]).winner is None
